import { FormulaSyntaxError, parseFormula } from "../../src/formula/parse";

describe("parseFormula", () => {
  it("reads a call with text, numbers, booleans and a reference", () => {
    const call = parseFormula('=PRICES.MID(A1, "2024-03-01", -1.5e2, true, FALSE)');
    expect(call.name).toBe("PRICES.MID");
    expect(call.args).toEqual([
      { kind: "reference", range: { top: 0, left: 0, bottom: 0, right: 0 }, text: "A1" },
      { kind: "literal", value: "2024-03-01" },
      { kind: "literal", value: -150 },
      { kind: "literal", value: true },
      { kind: "literal", value: false },
    ]);
  });

  it("unescapes doubled quotes inside text", () => {
    expect(parseFormula('=F("say ""hi""", "")').args).toEqual([
      { kind: "literal", value: 'say "hi"' },
      { kind: "literal", value: "" },
    ]);
  });

  it("keeps empty arguments as missing, in the middle and at the end", () => {
    const kinds = parseFormula("=PRICES.HISTORY(A1,,B2,)").args.map((arg) => arg.kind);
    expect(kinds).toEqual(["reference", "missing", "reference", "missing"]);
  });

  it("reads ranges in any corner order, with $ and a sheet name", () => {
    const [first, second] = parseFormula("=F(B20:$A$1, Sheet1!C3:D4)").args;
    expect(first).toEqual({ kind: "reference", range: { top: 0, left: 0, bottom: 19, right: 1 }, text: "B20:$A$1" });
    expect(second).toMatchObject({ range: { top: 2, left: 2, bottom: 3, right: 3 } });
  });

  it("reads array constants with rows split by semicolons", () => {
    expect(parseFormula('=F({1,2;"a",TRUE})').args).toEqual([{ kind: "array", rows: [[1, 2], ["a", true]] }]);
  });

  it("takes no arguments from empty parentheses", () => {
    expect(parseFormula("=PRICES.INSTRUMENTS()").args).toEqual([]);
  });

  it.each([
    ["PRICES.MID(A1)", "expected ="],
    ["=PRICES.MID(A1", "expected , or )"],
    ['=F("open)', "unterminated text"],
    ["=F(A1)+1", "unexpected text after the call"],
    ["=F(1+2)", "expected , or )"],
    ["=F(G(A1))", "expected text in quotes"],
    ["=F(A0)", "reference outside the sheet"],
    ["=F(XFE1)", "reference outside the sheet"],
    ["=F({1,2;3})", "array rows differ in length"],
  ])("rejects %s", (formula, detail) => {
    expect(() => parseFormula(formula)).toThrow(FormulaSyntaxError);
    expect(() => parseFormula(formula)).toThrow(detail);
  });
});

describe("references in parseFormula", () => {
  it("reads whole columns and whole rows as the full span of the sheet", () => {
    expect(parseFormula("=F(C:A, $2:$4)").args).toEqual([
      { kind: "reference", range: { top: 0, left: 0, bottom: 1_048_575, right: 2 }, text: "C:A", whole: "columns" },
      { kind: "reference", range: { top: 1, left: 0, bottom: 3, right: 16_383 }, text: "$2:$4", whole: "rows" },
    ]);
  });

  it("reads quoted sheet names with doubled quotes and plain names with dots", () => {
    const [quoted, dotted] = parseFormula("=F('O''Brien'!B2, my.sheet!A1:A3)").args;
    expect(quoted).toEqual({ kind: "reference", range: { top: 1, left: 1, bottom: 1, right: 1 }, text: "'O''Brien'!B2" });
    expect(dotted).toMatchObject({ text: "my.sheet!A1:A3", range: { top: 0, left: 0, bottom: 2, right: 0 } });
  });

  it("does not take a function name for a cell (LOG10 is a call, not column LOG row 10)", () => {
    expect(() => parseFormula("=F(LOG10(1))")).toThrow("expected text in quotes");
  });

  it("refuses whole rows and columns when the caller says so", () => {
    expect(() => parseFormula("=F(A:B)", { wholeRowsAndColumns: false })).toThrow("whole rows and columns are not supported: A:B");
  });
});
