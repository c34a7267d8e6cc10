/** Form bodies to fields: objects without a prototype, multipart read as RFC 7578 writes it. */
import { isProblemError } from "../../../src/sandbox/service/problems";
import { boundaryOf, parseMultipartForm, parseUrlEncodedForm, type FormFields } from "../../../src/sandbox/routes/forms";

const TYPE = "multipart/form-data; boundary=b1";

function part(disposition: string, value: string, extraHeaders = ""): string {
  return `--b1\r\nContent-Disposition: ${disposition}\r\n${extraHeaders}\r\n${value}\r\n`;
}

function statusOf(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    return isProblemError(error) ? error.status : -1;
  }
  return undefined;
}

/** Own entries only, as plain data, to compare with toEqual. */
function entries(form: FormFields): [string, string | string[]][] {
  return Object.keys(form).map((name) => [name, form[name] as string | string[]]);
}

describe("urlencoded forms", () => {
  it("keeps prototype names as own fields of an object without a prototype, repeated names as lists", () => {
    const form = parseUrlEncodedForm("toString=x&constructor=1&__proto__=a&__proto__=b&Symbols=A");
    expect(Object.getPrototypeOf(form)).toBeNull();
    expect(entries(form)).toEqual([["toString", "x"], ["constructor", "1"], ["__proto__", ["a", "b"]], ["Symbols", "A"]]);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});

describe("multipart forms", () => {
  it("reads fields in order, repeated names as lists, prototype names as any other, and skips files", () => {
    const body =
      "preamble to ignore\r\n" +
      part('form-data; name="Symbols"', "A,B") +
      part('form-data; name="__proto__"', "1") +
      part('form-data; name="file"; filename="x.csv"', "a,b\r\n1,2", "Content-Type: text/csv\r\n") +
      part("form-data; name=toString", "") +
      part('form-data; name="Symbols"', "C") +
      "--b1--\r\nepilogue";
    const form = parseMultipartForm(Buffer.from(body), TYPE);
    expect(Object.getPrototypeOf(form)).toBeNull();
    expect(entries(form)).toEqual([["Symbols", ["A,B", "C"]], ["__proto__", "1"], ["toString", ""]]);
  });

  it("reads UTF-8 names and values, quoted escapes and RFC 5987 names", () => {
    const body = part('form-data; name="Sym\\"bols"', "é,ü") + part("form-data; name*=utf-8''D%C3%A4tes", "x") + part('form-data; name="Größe"', "1") + "--b1--";
    expect(entries(parseMultipartForm(Buffer.from(body, "utf8"), TYPE))).toEqual([['Sym"bols', "é,ü"], ["Dätes", "x"], ["Größe", "1"]]);
  });

  it("takes the boundary quoted or not, and an empty body as an empty form", () => {
    expect(boundaryOf('multipart/form-data; boundary="a b"')).toBe("a b");
    expect(boundaryOf("multipart/form-data; charset=utf-8; BOUNDARY=xyz")).toBe("xyz");
    expect(boundaryOf("multipart/form-data")).toBeUndefined();
    expect(entries(parseMultipartForm(Buffer.alloc(0), TYPE))).toEqual([]);
  });

  it.each([
    ["no boundary in the media type", "multipart/form-data", part('form-data; name="a"', "1") + "--b1--"],
    ["no delimiter at all", TYPE, "garbage"],
    ["no closing delimiter", TYPE, part('form-data; name="a"', "1")],
    ["a part without the blank line after its headers", TYPE, '--b1\r\nContent-Disposition: form-data; name="a"\r\n--b1--'],
    ["a header line without a colon", TYPE, "--b1\r\nnot a header\r\n\r\n1\r\n--b1--"],
  ])("is a 400 problem for %s", (_what, type, body) => {
    expect(statusOf(() => parseMultipartForm(Buffer.from(body), type))).toBe(400);
  });

  it("is a 413 problem over a limit of fields, files, parts or field size", () => {
    const limits = { fields: 2, fieldSize: 5, files: 1, parts: 4 };
    const field = (n: number) => part(`form-data; name="f${n}"`, "v");
    const file = (n: number) => part(`form-data; name="u${n}"; filename="u${n}.txt"`, "data");
    expect(statusOf(() => parseMultipartForm(Buffer.from(field(1) + field(2) + file(1) + "--b1--"), TYPE, limits))).toBeUndefined();
    expect(statusOf(() => parseMultipartForm(Buffer.from(field(1) + field(2) + field(3) + "--b1--"), TYPE, limits))).toBe(413);
    expect(statusOf(() => parseMultipartForm(Buffer.from(file(1) + file(2) + "--b1--"), TYPE, limits))).toBe(413);
    expect(statusOf(() => parseMultipartForm(Buffer.from(part('form-data; name="a"', "123456") + "--b1--"), TYPE, limits))).toBe(413);
    const unnamed = part("form-data", "x");
    expect(statusOf(() => parseMultipartForm(Buffer.from(unnamed.repeat(5) + "--b1--"), TYPE, limits))).toBe(413);
  });
});
