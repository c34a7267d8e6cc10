/** The minimal cases where the engine disagreed with Excel on real workbooks (issue 27), one rule each. */
import { readBook } from "../../src/host/book";
import { BookScope } from "../../src/host/book-scope";
import { fixtureHost } from "./harness";

describe("empty cells and names that point at them", () => {
  it("=A1 with A1 empty is 0, in a name too", async () => {
    const scope = new BookScope([{ name: "Empty", refersTo: "Sheet1!$A$1" }]);
    const cells = await fixtureHost({ scope }).evaluate({ B1: "=A1", B2: "=Empty", B3: '=A1&"x"', B4: "=A1+1" });
    expect([cells.B1, cells.B2, cells.B3, cells.B4]).toEqual([0, 0, "x", 1]);
  });

  it("TRANSPOSE of a range with blanks shows 0 where the blanks were", async () => {
    const cells = await fixtureHost().evaluate({ A1: 1, A3: 3, C1: "=TRANSPOSE(A1:A3)" });
    expect([cells.C1, cells.D1, cells.E1]).toEqual([1, 0, 3]);
  });
});

describe("error values saved in cells", () => {
  it("reads { error } as the error itself: IFERROR catches it, ISNA sees it, arithmetic passes it on", async () => {
    const cells = await fixtureHost().evaluate({ A3: { error: "#N/A" }, A4: { error: "#DIV/0!" }, B1: "=IFERROR(A3,0)", B2: "=ISNA(A3)", B3: "=A4+1", B4: "=ISNA(A4)", B5: "=IFNA(A4,0)" });
    expect([cells.B1, cells.B2, cells.B3, cells.B4, cells.B5]).toEqual([0, true, "#DIV/0!", false, "#DIV/0!"]);
    expect(cells.A3).toBe("#N/A");
  });

  it("refuses an error literal that is not one of Excel's", () => {
    expect(() => readBook({ cells: { A1: { error: "#OOPS" } } })).toThrow('A1: "#OOPS" is not an Excel error such as "#N/A"');
    expect(readBook({ cells: { A1: { error: "#GETTING_DATA" } } }).literals).toEqual([{ row: 0, col: 0, value: { kind: "error", code: "#GETTING_DATA" } }]);
  });
});

describe("functions on the issue's list", () => {
  it("DATEVALUE reads en-US dates written with a month's name; slashes only where day and month are one number", async () => {
    const cells = await fixtureHost().evaluate({
      A1: '=DATEVALUE("June 9, 1969")', A2: '=DATEVALUE("9-Jun-1969")', A3: '=DATEVALUE("9 June 1969")', A4: '=DATEVALUE("6/6/1969")', A5: '=DATEVALUE("Jun 9 69")', A6: '=DATEVALUE("Juno 9, 1969")', A7: '=DATEVALUE("2/30/2020")',
      B1: '=DATEVALUE("6/9/1969")',
    });
    // 1969-06-09 is serial 25363 in the 1900 system; "6/9/1969" is 6 September to a day-first Excel: left for Excel
    expect([cells.A1, cells.A2, cells.A3, cells.A4, cells.A5]).toEqual([25363, 25363, 25363, 25360, 25363]);
    expect(String(cells.B1)).toMatch(/left for Excel: "6\/9\/1969" is a different date/);
    expect(String(cells.A6)).toMatch(/^#VALUE!/);
    expect(String(cells.A7)).toMatch(/^#VALUE!/);
  });

  it("=Sheet2!LocalName reads that sheet's local name, not the formula sheet's", async () => {
    const scope = new BookScope([
      { name: "Rate", sheet: "Sheet2", refersTo: "0.25" },
      { name: "Rate", sheet: "Sheet1", refersTo: "0.5" },
      { name: "Rate", refersTo: "0.75" },
      { name: "Rate", sheet: "My Sheet", refersTo: "2" },
    ]);
    const cells = await fixtureHost({ scope }).evaluate({ A1: "=Sheet2!Rate", A2: "=Rate", A3: "='My Sheet'!Rate*1" });
    expect([cells.A1, cells.A2, cells.A3]).toEqual([0.25, 0.5, 2]);
  });

  it("COUNT over a range holding TRUE and text counts only its numbers", async () => {
    const cells = await fixtureHost().evaluate({ A1: 1, A2: true, A3: "x", A4: "'2", B1: "=COUNT(A1:A4)", B2: "=COUNT(A1:A4,TRUE,\"3\")" });
    expect([cells.B1, cells.B2]).toEqual([1, 3]);
  });

  it("FLOOR(0,0) is 0 while FLOOR(1,0) is #DIV/0!", async () => {
    const cells = await fixtureHost().evaluate({ A1: "=FLOOR(0,0)", A2: "=FLOOR(1,0)", A3: "=CEILING(1,0)" });
    expect([cells.A1, cells.A2, cells.A3]).toEqual([0, "#DIV/0!", 0]);
  });

  it("approximate HLOOKUP takes the last key not above the value", async () => {
    const cells = await fixtureHost().evaluate({ A1: 10, B1: 20, C1: 30, A2: "a", B2: "b", C2: "c", E1: "=HLOOKUP(25,A1:C2,2)", E2: "=HLOOKUP(5,A1:C2,2,TRUE)", E3: "=HLOOKUP(30,A1:C2,2)", E4: "=HLOOKUP(99,A1:C2,2)" });
    expect([cells.E1, cells.E2, cells.E3, cells.E4]).toEqual(["b", "#N/A: no match", "c", "c"]);
  });

  it("TEXT with en-US grouping formats as Excel does; a format in a locale's separators is left for Excel", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({ A1: 1234567.891, B1: '=TEXT(A1,"#,##0.00")', B2: '=TEXT(A1,"#.##0,00")', B3: '=TEXT(A1,"#.##0")', B4: '=TEXT(A1,"0.0,,")', B5: '=TEXT(A1,"""#.##0,00"" 0")' });
    expect([cells.B1, cells.B4, cells.B5]).toEqual(["1,234,567.89", "1.2", "#.##0,00 1234568"]);
    expect(host.engine.leftForExcel().map((entry) => [entry.cell, entry.why])).toEqual([
      ["B2", 'TEXT\'s format "#.##0,00" uses a locale\'s separators ("." grouping, "," decimals): its text depends on the Excel that computes it'],
      ["B3", 'TEXT\'s format "#.##0" uses a locale\'s separators ("." grouping, "," decimals): its text depends on the Excel that computes it'],
    ]);
  });

  it("a function Excel does not know is #NAME?; one Excel knows and the host lacks is left for Excel", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({ A1: "=FOO(1)", A2: "=IFERROR(FOO(1),7)", A3: "=ERROR.TYPE(FOO(1))", A4: "=CUBEVALUE(1)" });
    expect([cells.A1, cells.A2, cells.A3]).toEqual(["#NAME?: FOO is not an Excel function", 7, 5]);
    expect(host.engine.leftForExcel()).toEqual([{ cell: "A4", formula: "CUBEVALUE(1)", why: "function not supported: CUBEVALUE" }]);
  });
});
