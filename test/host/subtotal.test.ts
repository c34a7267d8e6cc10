/** SUBTOTAL and AGGREGATE against Microsoft's documented examples, and the nested totals they skip. */
import { fixtureHost } from "./harness";

describe("SUBTOTAL", () => {
  it("gives Microsoft's example values", async () => {
    const cells = await fixtureHost().evaluate({ A2: 120, A3: 10, A4: 150, A5: 23, B1: "=SUBTOTAL(9,A2:A5)", B2: "=SUBTOTAL(1,A2:A5)", B3: "=SUBTOTAL(109,A2:A5)", B4: "=SUBTOTAL(12,A2:A5)" });
    expect([cells.B1, cells.B2, cells.B3, String(cells.B4).split(":")[0]]).toEqual([303, 75.75, 303, "#VALUE!"]);
  });

  it("skips the subtotals inside its range, so a grand total counts each value once", async () => {
    const cells = await fixtureHost().evaluate({ A1: 10, A2: 20, A3: "=SUBTOTAL(9,A1:A2)", A4: 5, A5: "=2*SUBTOTAL(9,A4)", A6: "=SUBTOTAL(9,A1:A5)", A7: "=SUM(A1:A5)", A8: "=SUBTOTAL(2,A1:A5)" });
    expect([cells.A3, cells.A5, cells.A6, cells.A7, cells.A8]).toEqual([30, 10, 35, 75, 3]);
  });
});

describe("AGGREGATE", () => {
  it("gives Microsoft's example values, skipping errors with option 6", async () => {
    const a = [{ error: "#DIV/0!" }, 72, 30, { error: "#NUM!" }, 31, 96, 32, 81, 33, 53, 34];
    const b = [82, 65, 95, 63, 53, 71, 55, 83, 100, 91, 89];
    const book: Record<string, unknown> = Object.fromEntries([...a.map((value, index) => [`A${index + 1}`, value]), ...b.map((value, index) => [`B${index + 1}`, value])]);
    const cells = await fixtureHost().evaluate({
      ...book, C1: "=AGGREGATE(4,6,A1:A11)", C2: "=AGGREGATE(14,6,A1:A11,3)", C3: "=AGGREGATE(15,6,A1:A11)", C4: "=AGGREGATE(12,6,A1:A11,B1:B11)", C5: "=MAX(A1:A2)", C6: "=AGGREGATE(4,4,A1:A11)",
    });
    expect([cells.C1, cells.C2, String(cells.C3).split(":")[0], cells.C4, cells.C5, cells.C6]).toEqual([96, 72, "#VALUE!", 68, "#DIV/0!", "#DIV/0!"]);
  });

  it("skips nested SUBTOTAL and AGGREGATE cells with options 0-3 and counts them with 4-7", async () => {
    const cells = await fixtureHost().evaluate({ A1: 1, A2: 2, A3: "=AGGREGATE(9,0,A1:A2)", B1: "=AGGREGATE(9,3,A1:A3)", B2: "=AGGREGATE(9,4,A1:A3)", B3: "=AGGREGATE(9,8,A1:A3)" });
    expect([cells.A3, cells.B1, cells.B2, String(cells.B3).split(":")[0]]).toEqual([3, 3, 6, "#VALUE!"]);
  });
});
