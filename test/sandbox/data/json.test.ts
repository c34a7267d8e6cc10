/** The JSON writer behind price bodies: every piece must be written exactly as JSON.stringify writes it. */
import fc from "fast-check";
import { fromEpochDay, toEpochDay } from "../../../src/api";
import { dayString, epochDayOf } from "../../../src/sandbox/data/day-strings";
import { JsonWriter, Scratch, jsonNumber } from "../../../src/sandbox/data/json";

function written(write: (out: JsonWriter) => void, size = 16): string {
  const out = new JsonWriter(size);
  write(out);
  return out.text();
}

describe("JsonWriter", () => {
  it("writes any double as JSON.stringify does", () => {
    fc.assert(fc.property(fc.double(), (value) => jsonNumber(value) === JSON.stringify(value)), { numRuns: 20_000 });
  });

  it("writes prices with up to 6 decimals, of either sign and any size, as JSON.stringify does", () => {
    const decimal = fc
      .tuple(fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }), fc.integer({ min: 0, max: 6 }))
      .map(([n, places]) => n / 10 ** places);
    fc.assert(fc.property(decimal, (value) => jsonNumber(value) === JSON.stringify(value)), { numRuns: 50_000 });
    for (const value of [0, -0, 0.0001, -0.0001, 0.1 + 0.2, 99_999.9999, 107_374.1824, 1e21, 1e-7, 2 ** 53, Number.NaN, Infinity, -Infinity]) {
      expect(jsonNumber(value)).toBe(JSON.stringify(value));
    }
  });

  it("writes any string as JSON.stringify does, escapes and non-ASCII included", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => written((out) => out.string(text)) === JSON.stringify(text)), { numRuns: 5_000 });
    for (const text of ['"', "\\", "\u0000\u001f\u007f", "é ü €", "\ud83d\ude00", "\ud800 lone", "$/tonne"]) {
      expect(written((out) => out.string(text))).toBe(JSON.stringify(text));
    }
  });

  it("grows past its first size, keeps pieces in order, copies, truncates and quotes", () => {
    const expected: string[] = [];
    const text = written((out) => {
      for (let i = 0; i < 2000; i++) {
        out.raw(i === 0 ? "[" : ",").number(i / 8).raw(",").string(`é${i}`).raw(",").quotedAscii("2024-01-0", String(i % 10));
        expected.push(`${i === 0 ? "[" : ","}${JSON.stringify(i / 8)},${JSON.stringify(`é${i}`)},"2024-01-0${i % 10}"`);
      }
      const mark = out.length;
      out.raw(',"dropped"').truncate(mark).raw("]");
      const source = Buffer.from('xx{"a":1}yy');
      out.copy(source, 2, 9);
      expected.push("]", '{"a":1}');
    }, 8);
    expect(text).toBe(expected.join(""));
  });

  it("answers small bodies as strings and large ones as bytes, the same text either way", () => {
    const scratch = new Scratch();
    const small = new JsonWriter(64, scratch).raw('{"a":').number(1.5).raw("}");
    expect(small.result()).toBe('{"a":1.5}');
    const big = new JsonWriter(64, scratch);
    big.raw("[");
    for (let i = 0; i < 20_000; i++) big.raw(i > 0 ? "," : "").number(i + 0.25);
    big.raw("]");
    const result = big.result();
    expect(Buffer.isBuffer(result)).toBe(true);
    expect(JSON.parse(result.toString())).toHaveLength(20_000);
    // The shared buffer serves the next writer; the bytes handed out stay as they were.
    const before = result.toString();
    new JsonWriter(64, scratch).raw("x".repeat(100_000));
    expect(result.toString()).toBe(before);
  });
});

describe("streamed pieces", () => {
  it("detach hands over what was written and goes on in a private buffer that other writers leave alone", () => {
    const scratch = new Scratch();
    const out = new JsonWriter(1024, scratch);
    out.raw("[1,");
    const first = out.detach(256);
    out.raw("2]");
    // Another answer takes the shared scratch buffer meanwhile.
    new JsonWriter(1024, scratch).raw("x".repeat(900));
    const second = out.detach(256);
    expect(first.toString()).toBe("[1,");
    expect(second.toString()).toBe("2]");
    expect(out.length).toBe(0);
  });
});

describe("day strings", () => {
  it("reads days from year 1 to 9999 as toEpochDay does (every day from 1990 to 2100, every 13th elsewhere)", () => {
    const dense = [toEpochDay("1990-01-01"), toEpochDay("2100-12-31")] as const;
    for (let day = toEpochDay("0001-01-01"); day <= toEpochDay("9999-12-31"); day += day >= dense[0] && day <= dense[1] ? 1 : 13) {
      const text = fromEpochDay(day);
      if (epochDayOf(text) !== day) throw new Error(`epochDayOf(${text}) = ${epochDayOf(text)}, expected ${day}`);
    }
    expect(dayString(toEpochDay("2024-02-29"))).toBe("2024-02-29");
    expect(dayString(toEpochDay("1970-01-01"))).toBe("1970-01-01");
  });
});
