/**
 * Formulas a file stores without dynamic-array metadata (the book's `"legacy"` list) evaluate as Excel 365 shows them:
 * implicit intersection wherever Excel displays `@`, never spilled. The same text in a JSON book without the list is
 * dynamic-array Excel. Values are Excel's (Microsoft, "Implicit intersection operator: @").
 */
import { BookError, readBook } from "../../src/host/book";
import { fixtureHost } from "./harness";

async function evaluateLegacy(cells: Record<string, unknown>, legacy: readonly string[]) {
  const host = fixtureHost();
  host.engine.load(readBook({ cells, legacy }));
  await host.engine.evaluate();
  return { cells: host.engine.cells(), spills: host.engine.spills(), left: host.engine.leftForExcel() };
}

describe("legacy formulas (stored without dynamic-array metadata)", () => {
  it("=C7+G7:J7 adds the cell of G7:J7 in the formula's column, #VALUE! outside it, and never spills", async () => {
    const cells = { C7: 1, G7: 10, H7: 20, I7: 30, J7: 40, H9: "=C7+G7:J7", K23: "=C7+G7:J7" };
    const legacy = await evaluateLegacy(cells, ["H9", "K23"]);
    expect(legacy.cells.H9).toBe(21);
    expect(String(legacy.cells.K23)).toMatch(/^#VALUE!/);
    expect(legacy.spills.every((spill) => spill.area.bottom === spill.area.top && spill.area.right === spill.area.left)).toBe(true);
    // the same text typed in a dynamic-array book spills four values
    const dynamic = await evaluateLegacy(cells, []);
    expect([dynamic.cells.K23, dynamic.cells.L23, dynamic.cells.M23, dynamic.cells.N23]).toEqual([11, 21, 31, 41]);
  });

  it("=B2:B3 shows the cell in its own row, and #VALUE! in a row the range does not cover", async () => {
    const { cells } = await evaluateLegacy({ B2: "two", B3: "three", D3: "=B2:B3", D5: "=B2:B3" }, ["D3", "D5"]);
    expect(cells.D3).toBe("three");
    expect(String(cells.D5)).toMatch(/^#VALUE!/);
    expect(cells.D4).toBeUndefined();
  });

  it("=UPPER(R1000:R2000) reads the cell of its row (UPPER takes one value), not the first cell", async () => {
    const { cells } = await evaluateLegacy({ R1000: "first", R1001: "second", S1001: "=UPPER(R1000:R2000)" }, ["S1001"]);
    expect(cells.S1001).toBe("SECOND");
    expect(cells.S1002).toBeUndefined();
  });

  it("=COLUMN(G17:H21) is the first column, 7, in one cell", async () => {
    const { cells } = await evaluateLegacy({ A1: "=COLUMN(G17:H21)", A2: "=ROW(G17:H21)" }, ["A1", "A2"]);
    expect([cells.A1, cells.B1, cells.A2, cells.A3]).toEqual([7, undefined, 17, undefined]);
  });

  it("a reference parameter takes the whole range (SUM, COUNTIF), an operator inside one intersects", async () => {
    const { cells } = await evaluateLegacy(
      { A1: 1, A2: 2, A3: 3, B1: 10, B2: 20, B3: 30, C2: "=SUM(A1:A3)", D2: "=SUM(A1:A3*B1:B3)", E2: '=COUNTIF(A1:A3,">1")', F2: "=SUM(IF(A1:A3>1,B1:B3,0))" },
      ["C2", "D2", "E2", "F2"],
    );
    // D2: =SUM(@A1:A3*@B1:B3) is 2*20; F2: =SUM(IF(@A1:A3>1,B1:B3,0)) sums the whole B1:B3 branch
    expect([cells.C2, cells.D2, cells.E2, cells.F2]).toEqual([6, 40, 2, 60]);
  });

  it("an array parameter evaluates as an array without Ctrl+Shift+Enter (SUMPRODUCT, INDEX's first, TRANSPOSE)", async () => {
    const { cells } = await evaluateLegacy(
      { A1: 1, A2: 2, A3: 3, B1: 10, B2: 20, B3: 30, C1: "=SUMPRODUCT(A1:A3*B1:B3)", C2: "=INDEX(A1:A3*B1:B3,3)", C3: "=SUM(TRANSPOSE(A1:A3*B1:B3))" },
      ["C1", "C2", "C3"],
    );
    expect([cells.C1, cells.C2, cells.C3]).toEqual([140, 90, 140]);
  });

  it("a custom function's array in a legacy formula shows its first value, and IF's reference branch intersects", async () => {
    const { cells } = await evaluateLegacy({ A1: "=PRICES.GRID(2,3)", A3: "=PRICES.GRID(2,3)+1", C5: 5, C6: 6, D6: "=IF(TRUE,C5:C6)" }, ["A1", "A3", "D6"]);
    expect([cells.A1, cells.B1, cells.A2, cells.A3, cells.D6]).toEqual([0, undefined, undefined, 1, 6]);
  });

  it("a legacy list naming a cell without a formula, or not a cell, refuses the book", () => {
    expect(() => readBook({ cells: { A1: 1 }, legacy: ["A1"] })).toThrow(BookError);
    expect(() => readBook({ cells: { A1: "=1" }, legacy: "A1" })).toThrow(/"legacy" must be a list/);
  });
});

describe("error values in cells", () => {
  it('{ "error": "#N/A" } is an error value: IFERROR catches it, ISNA sees it, arithmetic passes it on', async () => {
    const cells = await fixtureHost().evaluate({
      A3: { error: "#N/A" }, A4: { error: "#DIV/0!" }, B1: "=IFERROR(A3,0)", B2: "=ISNA(A3)", B3: "=A3+1", B4: "=ISERROR(A4)", B5: "=IFNA(A4,0)", B6: "=ISTEXT(A3)",
    });
    expect([cells.B1, cells.B2, cells.B3, cells.B4, cells.B5, cells.B6]).toEqual([0, true, "#N/A", true, "#DIV/0!", false]);
    expect(cells.A3).toBe("#N/A");
  });

  it("an error object that is not one of Excel's codes refuses the book, naming the cell", () => {
    expect(() => readBook({ cells: { A1: { error: "#OOPS" } } })).toThrow(/A1: "#OOPS" is not an Excel error/);
    expect(() => readBook({ cells: { A1: { error: "#N/A", extra: 1 } } })).toThrow(BookError);
  });

  it("an edit that keeps the same error leaves its readers alone; a different code runs them again", async () => {
    const host = fixtureHost();
    await host.evaluate({ A1: { error: "#N/A" }, B1: "=PRICES.TYPEOF(ISNA(A1))" });
    const before = host.calls.length;
    await host.update({ A1: { error: "#N/A" }, B1: "=PRICES.TYPEOF(ISNA(A1))" });
    expect(host.calls.length).toBe(before);
    const cells = await host.update({ A1: { error: "#REF!" }, B1: "=PRICES.TYPEOF(ISNA(A1))" });
    expect(host.calls.length).toBe(before + 1);
    expect(cells.B1).toBe("boolean:false");
  });
});
