/**
 * NPV and XNPV where their terms cancel (src/host/sum-cancellation.ts): a total whose 15th significant digit the
 * rounding of the adding decides is left for Excel with why; an ordinary one keeps its value.
 */
import { certainDigits, promisedSum, sumWithBound } from "../../src/host/sum-cancellation";
import { LeftForExcelSignal } from "../../src/host/left-for-excel";
import { fixtureHost } from "./harness";

describe("a sum's rounding bound", () => {
  it("bounds each addition by half a unit in the last place of its result, the first (0 + term) exact", () => {
    const terms = [0.1, 0.2, 0.3];
    const { total, bound } = sumWithBound(terms);
    expect(total).toBe(0.1 + 0.2 + 0.3);
    expect(bound).toBe((Number.EPSILON / 2) * (Math.abs(0.1 + 0.2) + Math.abs(0.1 + 0.2 + 0.3)));
    // 1E16 + 1 rounds the 1 away: the bound (about 1.1) covers the whole total, so no digit is certain
    const cancelled = sumWithBound([1e16, 1, -1e16]);
    expect(cancelled.total).toBe(0);
    expect(certainDigits(cancelled.total, cancelled.bound)).toBe(0);
  });

  it("counts the digits an error bound leaves certain, half a unit each", () => {
    expect(certainDigits(1, 0.5e-14)).toBe(15);
    expect(certainDigits(1, 0.6e-14)).toBe(14);
    expect(certainDigits(123.456, 0.04)).toBe(4);
    expect(certainDigits(5, 0)).toBe(Infinity);
  });

  it("gives the plain sum where nothing cancels, and says how far it cancelled where the rounding decides a digit", () => {
    expect(promisedSum([100, 20, 3], "NPV")).toBe(123);
    expect(() => promisedSum([1e16, 1, -1e16], "NPV")).toThrow(new LeftForExcelSignal("NPV's terms sum to 2.0E+16 in size but cancel to 0.0E+0: the order and rounding of Excel's adding decide every digit of it"));
  });
});

describe("NPV and XNPV whose terms cancel", () => {
  it("leaves the NPV at a cash flow's own IRR for Excel, with how far its terms cancelled", async () => {
    const host = fixtureHost();
    // FINANCIAL__IRR.xlsx General!M2: Excel saved 6.4212018552224666E-12, the engine's sum gives 6.4215299744319054E-12
    const cells = await host.evaluate({ A1: -20, A2: 5, A3: 5, A4: 5, A5: 5, A6: 5, B1: "=IRR(A1:A6)", B2: "=NPV(B1,A1:A6)" });
    expect(typeof cells.B1).toBe("number");
    expect(String(cells.B2)).toMatch(/^#N\/A: left for Excel: NPV's terms sum to 3\.7E\+1 in size but cancel to 6\.\dE-12: the order and rounding of Excel's adding decide its digits past the \d+(st|nd|rd|th)$/);
    expect(host.engine.leftForExcel().map((entry) => entry.cell)).toEqual(["B2"]);
  });

  it("leaves an XNPV that cancels to nearly 0, and keeps ordinary NPVs and XNPVs, mild cancellation included", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({
      A1: -10000, A2: 2750, A3: 4250, A4: 3250, A5: 2750, B1: 39448, B2: 39508, B3: 39751, B4: 39859, B5: 39904,
      C1: "=XNPV(0.09,A1:A5,B1:B5)", C2: "=NPV(0.1,-10000,3000,4200,6800)", C3: "=XNPV(0.3733625335,A1:A5,B1:B5)",
      // FINANCIAL__XNPV.xlsx Q4: terms of 84 in size cancel to -26, and Excel's 15 digits are the engine's
      D1: -55, D2: 10, D3: 5, D4: 5, D5: 5, D6: 5, E1: 100, E2: 120, E3: 300, E4: 101, E5: 200, E6: 150, F1: "=XNPV(0.2,D1:D6,E1:E6)",
    });
    expect([cells.C1, cells.C2, cells.F1].map((value) => typeof value)).toEqual(["number", "number", "number"]);
    expect(cells.C1).toBeCloseTo(2086.65, 2);
    expect(cells.C2).toBeCloseTo(1188.44, 2);
    expect(cells.F1).toBeCloseTo(-25.944223901397258, 12);
    expect(String(cells.C3)).toMatch(/^#N\/A: left for Excel: XNPV's terms sum to 2\.0E\+4 in size but cancel to -?\d\.\dE-\d+: /);
    expect(host.engine.leftForExcel().map((entry) => entry.cell)).toEqual(["C3"]);
  });
});
