import { FormulaSyntaxError, type ParseOptions, parseExpression, parseFormula, shapeParser } from "../../src/formula/parse";
import { quickShape } from "../../src/formula/quick-shape";
import { corpus } from "../host/engine-corpus";

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
    ["PRICES.MID(A1)", "a formula starts with ="],
    ["=PRICES.MID(A1", "missing )"],
    ['=F("open)', "unterminated text"],
    ["=F(1))", "a ) without its ("],
    ["=F(1,,+)", "invalid syntax"],
    ["=F(A1)+1", "expected one function call"],
    ["=F(1+2)", "expected text in quotes"],
    ["=F(G(A1))", "expected text in quotes"],
    ["=F(A1#)", "expected text in quotes"],
    ["=F(XFE1)", "expected text in quotes"],
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

describe("parseExpression", () => {
  it("reads operators with Excel's precedence, nested calls and a spill reference", () => {
    expect(parseExpression('=-A1^2+SUM(B1#)*2%&"x"')).toEqual({
      kind: "binary",
      operator: "&",
      left: {
        kind: "binary",
        operator: "+",
        left: { kind: "binary", operator: "^", left: { kind: "unary", operator: "-", operand: { kind: "reference", text: "A1", range: { top: 0, left: 0, bottom: 0, right: 0 } } }, right: { kind: "literal", value: 2 } },
        right: {
          kind: "binary",
          operator: "*",
          left: { kind: "call", name: "SUM", args: [{ kind: "reference", text: "B1#", range: { top: 0, left: 1, bottom: 0, right: 1 }, spill: true }] },
          right: { kind: "unary", operator: "%", operand: { kind: "literal", value: 2 } },
        },
      },
      right: { kind: "literal", value: "x" },
    });
  });

  it("reads PRICES nested in worksheet functions with an omitted argument", () => {
    expect(parseExpression('=AVERAGE(PRICES.HISTORY("MB-AL-0004","2024-01-01",,"mid",0))')).toEqual({
      kind: "call",
      name: "AVERAGE",
      args: [
        {
          kind: "call",
          name: "PRICES.HISTORY",
          args: [
            { kind: "literal", value: "MB-AL-0004" },
            { kind: "literal", value: "2024-01-01" },
            { kind: "missing" },
            { kind: "literal", value: "mid" },
            { kind: "literal", value: 0 },
          ],
        },
      ],
    });
  });

  it("reads the name Excel saves a JavaScript custom function under, and sheet-qualified references", () => {
    expect(parseExpression("=_xldudf_PRICES_MID('My sheet'!A2)")).toEqual({
      kind: "call",
      name: "_xldudf_PRICES_MID",
      args: [{ kind: "reference", text: "'My sheet'!A2", sheet: "My sheet", range: { top: 1, left: 0, bottom: 1, right: 0 } }],
    });
  });

  it("keeps error literals and defined names for the evaluator to answer", () => {
    expect(parseExpression("=IFERROR(#N/A, rate)")).toEqual({
      kind: "call",
      name: "IFERROR",
      args: [{ kind: "error", code: "#N/A" }, { kind: "name", name: "rate" }],
    });
  });
});

describe("shapeParser", () => {
  /** What parseExpression gives, or the message it throws. */
  const plain = (formula: string, options: ParseOptions = {}): unknown => {
    try {
      return parseExpression(formula, options);
    } catch (error) {
      return { thrown: (error as Error).message };
    }
  };
  const shaped = (parse: (formula: string) => unknown, formula: string): unknown => {
    try {
      return parse(formula);
    } catch (error) {
      return { thrown: (error as Error).message };
    }
  };

  it("gives each formula of one shape its own references", () => {
    const parse = shapeParser();
    expect(parse("=_xldudf_PRICES_MID($A2,B$1)")).toEqual(parseExpression("=_xldudf_PRICES_MID($A2,B$1)"));
    const second = parse("=_xldudf_PRICES_MID($A3,C$1)");
    expect(second).toEqual(parseExpression("=_xldudf_PRICES_MID($A3,C$1)"));
    expect(parse("=C2/B2-1")).toEqual(parseExpression("=C2/B2-1"));
    expect(parse("=Sheet2!D7:E9/'My sheet'!B2-1")).toEqual(parseExpression("=Sheet2!D7:E9/'My sheet'!B2-1"));
    // the shape was parsed once: the second formula shares its constant with the first
    const [a, b] = [parse("=B5/A5-1"), parse("=C5/B5-1")];
    expect(a.kind === "binary" && b.kind === "binary" && a.right === b.right).toBe(true);
  });

  it.each([
    // a shared shape whose references the second formula cannot use: each gets parseExpression's answer
    ["=SUM(A1)", "=SUM([1]Rates!B2)"],
    ["=SUM(B1:B3)", "=SUM(B:B)"],
    ["=SUM(B1:B3)", "=SUM(A1:XFE1)"],
    ["=A1+A1", "=A2+B2"],
    ["=A1#", "=B2#"],
    ["=A2.Mid", "=A3.Mid"],
    ["=SUM(A1:B2 B1:C3)", "=SUM(A2:B3 B2:C4)"],
    ["=LET(x,A1,x*2)", "=LET(x,B2,x*2)"],
    // one key read off the text (quick-shape.ts): its references in functions' names, quotes, numbers and spaces
    ["=LOG10(A1)+A1", "=LOG10(B2)+C3"],
    ['="A1"&A1', '="A1"&B2'],
    ["=1E5+A1*$B$2", "=1E5+C7*$D$9"],
    ["=SUM(A1, B1) + A1 ", "=SUM(C1, D1) + XFD1048576 "],
    ["=Sheet2!A1:B2+'My ''s'!C3", "=Sheet2!XFD1:A1048576+'My ''s'!D4"],
    ["=A1 B1", "=C3 D4"],
    ["=A1:B1", "=A1:XFE1"],
    ["=SUM(A1:B3)-A0", "=SUM(A1:B3)-B1048577"],
  ])("reads %s then %s as parseExpression does", (first, second) => {
    for (const options of [{}, { wholeRowsAndColumns: false }]) {
      const parse = shapeParser(options);
      expect(shaped(parse, first)).toEqual(plain(first, options));
      expect(shaped(parse, second)).toEqual(plain(second, options));
      expect(shaped(parse, first)).toEqual(plain(first, options));
    }
  });

  it("reads the engine corpus as parseExpression does, twice over and shifted", () => {
    const parse = shapeParser();
    const formulas = corpus().map((entry) => `=${entry.formula}`);
    // the same formulas a row further down: same shapes, other references
    const shifted = formulas.map((formula) => formula.replace(/(\$?[A-Z]{1,2}\$?)(\d+)(?![\d(])/g, (_, column: string, row: string) => `${column}${Number(row) + 1}`));
    for (const formula of [...formulas, ...shifted, ...formulas]) expect(shaped(parse, formula)).toEqual(plain(formula));
  });
});

describe("quickShape", () => {
  it("opens a cell reference only where the tokenizer can read nothing else", () => {
    expect(quickShape("C3/B3-1")?.key).toBe(quickShape("C4/B4-1")?.key);
    expect(quickShape("_xldudf_PRICES_MID($A2,B$1)")?.key).toBe(quickShape("_xldudf_PRICES_MID($A3,XFD$1)")?.key);
    for (const [one, other] of [["LOG10(5)", "LOG11(5)"], ['"A1"&1', '"A2"&1'], ["1E5", "1E6"], ["A1.B", "A2.B"], ["A1#", "A2#"], ["Q1!A1", "Q2!A1"], ["XFE1+1", "XFF1+1"], ["A1 (1)", "A2 (1)"]]) {
      expect(quickShape(one ?? "")?.key).not.toBe(quickShape(other ?? "")?.key);
    }
  });

  it("keys a formula as its text with each open reference replaced, and says where each lies", () => {
    expect(quickShape('IF(A1>0,"A1",LOG10(B$2)) + $c$3%')).toEqual({ key: 'IF(\u0001>0,"A1",LOG10(\u0001)) + \u0001%', slots: [[3, 5], [19, 22], [27, 31]], cells: [{ row: 0, col: 0 }, { row: 1, col: 1 }, { row: 2, col: 2 }] });
    expect(quickShape("SUM(A1:B2)*'Q1 ''x'''!C3")).toEqual({ key: "SUM(\u0001:\u0001)*'Q1 ''x'''!\u0001", slots: [[4, 6], [7, 9], [22, 24]], cells: [{ row: 0, col: 0 }, { row: 1, col: 1 }, { row: 2, col: 2 }] });
    expect(quickShape("_xldudf_PRICES_MID(1,A0,A1048577,XFD1048576)")).toEqual({ key: "_xldudf_PRICES_MID(1,A0,A1048577,\u0001)", slots: [[33, 43]], cells: [{ row: 1_048_575, col: 16_383 }] });
  });

  it("vouches for no shape with brackets, braces or an unclosed quote", () => {
    for (const body of ["Table1[Qty]", "{1,2}+A1", '"open&A1', "SUM([1]Rates!B2)"]) expect(quickShape(body)).toBeUndefined();
  });
});
