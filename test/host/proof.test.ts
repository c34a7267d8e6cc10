/**
 * The proof in the engine: a book with `"saved"` values has each formula evaluated over the book as saved before its
 * run; what reproduces the saved value is proven, what does not is left for Excel with why (its readers too), and what
 * has nothing to be proven against is unproven. Excel's comparison: 15 significant digits, errors by kind, text exactly.
 */
import { readBook } from "../../src/host/book";
import { differenceFrom } from "../../src/host/proof";
import { fixtureHost } from "./harness";

async function proved(book: Record<string, unknown>): Promise<ReturnType<ReturnType<typeof fixtureHost>["engine"]["proofs"]> & { left: Record<string, string> }> {
  const host = fixtureHost();
  host.engine.load(readBook(book));
  await host.engine.evaluate();
  return { ...host.engine.proofs(), left: Object.fromEntries(host.engine.leftForExcel().map((entry) => [entry.cell, entry.why])) };
}

describe("the proof against saved values", () => {
  it("proves a formula over its precedents' saved values, not their new ones", async () => {
    // B1 is the price, saved at 1; C1 was saved over it at 2, though B1 now gives 7
    const result = await proved({ cells: { A1: 3, B1: "=PRICES.ADD(A1, 4)", C1: "=B1*2" }, saved: { B1: 1, C1: 2 } });
    expect(result).toEqual({ proven: ["C1"], prices: ["B1"], unproven: [], left: {} });
  });

  it("leaves for Excel a formula whose saved value it does not reproduce, and what reads it, saying why", async () => {
    const result = await proved({ cells: { A1: 5, B1: "=A1*11", C1: "=B1+1", D1: "=A1&\"x\"" }, saved: { B1: 55.5, C1: 56.5, D1: { error: "#VALUE!" } } });
    expect(result.left).toEqual({ B1: "engine gives 55 where Excel saved 55.5", C1: "depends on B1 (left for Excel)", D1: 'engine gives "5x" where Excel saved #VALUE!' });
    expect(result.proven).toEqual([]);
  });

  it("counts as unproven a formula with no saved value, one reading such a formula, one calling PRICES inside a larger formula, TODAY(), and a book whose values are not Excel's", async () => {
    const result = await proved({ cells: { A1: 2, B1: "=A1+1", C1: "=PRICES.ADD(A1, 1)*2", D1: "=TODAY()", E1: "=B1*2" }, saved: { C1: 6, D1: 45000, E1: 6 } });
    expect(Object.fromEntries(result.unproven.map((entry) => [entry.cell, entry.why]))).toEqual({
      B1: "the file holds no saved value for it",
      E1: "reads B1, for which the file holds no saved value",
      C1: "calls PRICES.ADD inside a larger formula: its old price was never saved on its own",
      D1: "calls TODAY(), whose value when the file was saved is not known",
    });
    const notExcel = await proved({ cells: { A1: 2, B1: "=A1+1" }, saved: { B1: 3 }, savedUnproven: "written by a tool" });
    expect(notExcel.unproven).toEqual([{ cell: "B1", formula: "A1+1", why: "written by a tool" }]);
  });

  it("reads a saved spill at its cells and through A1#", async () => {
    const result = await proved({ cells: { A1: "=SEQUENCE(2)*10", B1: "=A2+1", C1: "=SUM(A1#)" }, saved: { A1: [[10], [20]], B1: 21, C1: 30 } });
    expect(result.proven).toEqual(["A1", "B1", "C1"]);
  });
});

describe("Excel's comparison", () => {
  it("equals at 15 significant digits, errors by kind, text exactly, an empty result as 0", () => {
    expect(differenceFrom([[0.1 + 0.2]], [[0.3]], "A1")).toBeUndefined();
    expect(differenceFrom([[{ kind: "error", code: "#N/A", message: "why" }]], [[{ error: "#N/A" }]], "A1")).toBeUndefined();
    expect(differenceFrom([[null]], [[0]], "A1")).toBeUndefined();
    expect(differenceFrom([["a"]], [["A"]], "A1")).toBe('engine gives "a" where Excel saved "A"');
    expect(differenceFrom([[1.00000000000001]], [[1]], "A1")).toBe("engine gives 1.00000000000001 where Excel saved 1");
    expect(differenceFrom([[1], [2]], [[1], [3]], "B2")).toBe("engine gives 2 at B3 where Excel saved 3");
    expect(differenceFrom([[1]], [[1], [2]], "B2")).toBe("engine gives 1×1 values where Excel saved 2×1");
    // a legacy array formula's fixed area shows #N/A past its result
    expect(differenceFrom([[1]], [[1], [{ error: "#N/A" }]], "B2")).toBeUndefined();
  });

  it("equals two numbers that differ only past the 15th digit though their 15-digit roundings fall either side", () => {
    // 0.711729261535457|6 and ...457|3 round to ...458 and ...457 at 15 digits
    expect(Number((0.7117292615354576).toPrecision(15))).not.toBe(Number((0.7117292615354573).toPrecision(15)));
    expect(differenceFrom([[0.7117292615354576]], [[0.7117292615354573]], "A1")).toBeUndefined();
    expect(differenceFrom([[1.0000000000000102]], [[1]], "A1")).toBe("engine gives 1.00000000000001 where Excel saved 1");
  });
});
