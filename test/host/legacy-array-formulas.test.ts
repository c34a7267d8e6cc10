/**
 * Legacy array formulas (`{=...}`, Ctrl+Shift+Enter; `t="array"` without `cm` in a file, the book's `"arrays"` list)
 * fill exactly the area they were entered over, as Excel does: a single value, row or column is repeated over it, a
 * longer result is cut, a shorter one padded with #N/A, and `C2#` / ANCHORARRAY(C2) is that area. Values are Excel's
 * (test/host/excel-corpus: spill_operator.xlsx, dynamic_arrays.xlsx).
 */
import { BookError, readBook } from "../../src/host/book";
import { fixtureHost } from "./harness";

async function evaluateArrays(book: Record<string, unknown>) {
  const host = fixtureHost();
  host.engine.load(readBook(book));
  await host.engine.evaluate();
  return { cells: host.engine.cells(), spills: host.engine.spills(), proofs: host.engine.proofs(), left: host.engine.leftForExcel() };
}

describe("legacy array formulas (a fixed area)", () => {
  it("repeat one value over the whole area, which C2# and ANCHORARRAY(C2) read (spill_operator.xlsx G2: 492)", async () => {
    const { cells, spills } = await evaluateArrays({ cells: { C2: "=123", G2: "=SUM(_xlfn.ANCHORARRAY(C2))", H2: "=SUM(C2#)" }, arrays: { C2: "C2:C5" } });
    expect([cells.C2, cells.C3, cells.C4, cells.C5, cells.C6]).toEqual([123, 123, 123, 123, undefined]);
    expect([cells.G2, cells.H2]).toEqual([492, 492]);
    expect(spills.find((spill) => spill.anchor.row === 1 && spill.anchor.col === 2)?.area).toEqual({ top: 1, left: 2, bottom: 4, right: 2 });
  });

  it("cut a longer result to the area, pad a shorter one with #N/A, and repeat a single row or column", async () => {
    const { cells } = await evaluateArrays({
      cells: { A1: 1, A2: 2, A3: 3, C1: "=A1:A3*2", D1: "=A1:A3", F1: "={1,2}", F5: "=A1:A2" },
      arrays: { C1: "C1:C2", D1: "D1:D5", F1: "F1:G3", F5: "F5:H5" },
    });
    expect([cells.C1, cells.C2, cells.C3]).toEqual([2, 4, undefined]);
    expect([cells.D3, cells.D4, cells.D5, cells.D6]).toEqual([3, "#N/A", "#N/A", undefined]);
    expect([cells.F1, cells.G1, cells.F3, cells.G3, cells.H1]).toEqual([1, 2, 1, 2, undefined]);
    expect([cells.F5, cells.G5, cells.H5]).toEqual([1, 1, 1]);
  });

  it("is proven against the whole area Excel saved, and the same text without the list spills as a dynamic array", async () => {
    const fixed = await evaluateArrays({ cells: { C2: "=123", G2: "=SUM(C2#)" }, arrays: { C2: "C2:C5" }, saved: { C2: [[123], [123], [123], [123]], G2: 492 } });
    expect(fixed.proofs.proven).toEqual(["C2", "G2"]);
    expect(fixed.left).toEqual([]);
    const dynamic = await evaluateArrays({ cells: { C2: "=123", G2: "=SUM(C2#)" } });
    expect([dynamic.cells.C3, dynamic.cells.G2]).toEqual([undefined, 123]);
  });

  it("an arrays entry whose area does not start at its cell, or that names no formula, refuses the book", () => {
    expect(() => readBook({ cells: { C2: "=1" }, arrays: { C2: "C3:C5" } })).toThrow(/"arrays": "C2" needs an area that starts at it/);
    expect(() => readBook({ cells: { C2: 1 }, arrays: { C2: "C2:C5" } })).toThrow(BookError);
    expect(() => readBook({ cells: { C2: "=1" }, arrays: ["C2"] })).toThrow(/"arrays" must be an object/);
  });
});

describe("ANCHORARRAY of a reference built as the formula runs", () => {
  it("reads the spill of the cell OFFSET names (spill_operator.xlsx I2)", async () => {
    const { cells } = await evaluateArrays({ cells: { A2: 12, A3: 24, A4: 34, B2: "=A2:A4", I2: "=SUM(_xlfn.ANCHORARRAY(OFFSET(A1,1,1)))" } });
    expect(cells.I2).toBe(70);
  });
});
