/**
 * What the engine cannot promise to Excel's 15 digits, it leaves for Excel with why (src/host/input-sensitivity.ts, and
 * the faithful path of worksheet-finance-solvers.ts): PV, FV, NPER and PMT whose terms cancel so far that one unit in
 * the last place of an amount moves the result past 15 digits; RATE and IRR whose search lands elsewhere at the 15th
 * digit when its terms are computed more exactly. Each beside a well-conditioned neighbour still computed.
 */
import { sameNumber } from "../../src/host/coerce";
import { promisedAgainstInputs } from "../../src/host/input-sensitivity";
import { LeftForExcelSignal } from "../../src/host/left-for-excel";
import { IRR_AT_ZERO, RATE_AT_ZERO } from "../../src/host/worksheet-finance-solvers";
import { fixtureHost } from "./harness";

const LEFT = "#N/A: left for Excel: ";

describe("closed forms whose terms cancel", () => {
  it("leaves PV and NPER of a payment at -90 % paid at the start for Excel (FINANCIAL__PMT.xlsx rows 10-11), and computes them at 5 %", async () => {
    const cells = await fixtureHost().evaluate({
      A1: "=PMT(-0.9,3,120,300,1)", B1: "=PV(-0.9,3,A1,300,1)", C1: "=NPER(-0.9,A1,120,300,1)",
      A2: "=PMT(0.05,3,120,300,1)", B2: "=PV(0.05,3,A2,300,1)", C2: "=NPER(0.05,A2,120,300,1)",
    });
    // the payment itself is well-conditioned: computed
    expect([typeof cells.A1, typeof cells.A2]).toEqual(["number", "number"]);
    expect(String(cells.B1)).toMatch(/^#N\/A: left for Excel: PV's terms cancel: one unit in the last place of its (pmt|fv) moves its result from 1[12]\d\.\d+ to [\d.]+, past Excel's 15 digits/);
    expect(String(cells.C1)).toMatch(/^#N\/A: left for Excel: NPER's terms cancel: one unit in the last place of its (pmt|pv|fv) moves its result/);
    // at 5 % nothing cancels: the identity's own answers come back to 15 digits
    expect([cells.B2, cells.C2].map((value) => Number((value as number).toPrecision(13)))).toEqual([120, 3]);
  });

  it("keeps a result whose inputs' last bits stay below its 15th digit, and names the input that moves one", () => {
    const sum = ([a = 0, b = 0]: readonly number[]): number => a + b;
    expect(promisedAgainstInputs("SUM", [3, 4], new Map([[0, "a"], [1, "b"]]), 7, sum)).toBe(7);
    // 1 - 0.9999999999999 keeps 3 digits of each input's 16
    const left = (): number => promisedAgainstInputs("SUM", [1, -0.9999999999999], new Map([[1, "its second"]]), sum([1, -0.9999999999999]), sum);
    expect(left).toThrow(LeftForExcelSignal);
    expect(left).toThrow(/^SUM's terms cancel: one unit in the last place of its second moves its result from /);
  });
});

describe("searches whose 15th digit is the rounding's", () => {
  it("leaves RATE(48,-200,8000,0,1) for Excel (FINANCIAL__RATE.xlsx F2, 14 digits from Excel's) and computes RATE(12,-200,8000,0,1) digit for digit", async () => {
    const cells = await fixtureHost().evaluate({ A1: "=RATE(48,-200,8000,0,1)", A2: "=RATE(12,-200,8000,0,1)" });
    expect(String(cells.A1)).toMatch(/^#N\/A: left for Excel: RATE's search lands on 0\.00805298192390\d+, and on 0\.00805298192390\d+ when its terms are computed more exactly: the rounding of Excel's own arithmetic decides its 15th digit$/);
    // Excel saved -0.1678337611998994 (F3), equal as Excel compares
    expect(typeof cells.A2 === "number" && sameNumber(cells.A2, -0.1678337611998994)).toBe(true);
  });

  it("leaves IRR of -125, 30, 20, 30, 20, 30 for Excel (FINANCIAL__IRR.xlsx L26) and computes IRR of -20 and five 5s digit for digit", async () => {
    const cells = await fixtureHost().evaluate({ A1: -125, A2: 30, A3: 20, A4: 30, A5: 20, A6: 30, B1: "=IRR(A1:A6)", C1: -20, C2: 5, C3: 5, C4: 5, C5: 5, C6: 5, D1: "=IRR(C1:C6)", E1: "=B1*100" });
    expect(String(cells.B1)).toMatch(/^#N\/A: left for Excel: IRR's search lands on 0\.0132221562083\d+, and on 0\.0132221562083\d+ when its terms are computed more exactly/);
    // what reads it is left too
    expect(String(cells.E1).startsWith(LEFT)).toBe(true);
    // Excel saved 0.07930826116039724 (L2), equal as Excel compares
    expect(typeof cells.D1 === "number" && sameNumber(cells.D1, 0.07930826116039724)).toBe(true);
  });

  it("leaves an IRR of 0 for Excel (IRR(-4,4): Excel saved 2.2E-16, FINANCIAL__IRR.xlsx Two Values!C4) and computes IRR(-4,5)", async () => {
    const cells = await fixtureHost().evaluate({ A1: -4, A2: 4, B1: "=IRR(A1:A2)", C1: -4, C2: 5, D1: "=IRR(C1:C2)" });
    expect(cells.B1).toBe(`${LEFT}${IRR_AT_ZERO}`);
    expect(typeof cells.D1 === "number" && sameNumber(cells.D1, 0.25)).toBe(true);
  });

  it("leaves a search's end beside a root of 0 for Excel, IRR's and RATE's (Excel 2010: -1.594E-13 and 4.3E-9)", async () => {
    // fsprojects/ExcelFinancialFunctions' test data, from Excel 2010; the engine's searches end at -1.592E-13 and 6.5E-11
    const cells = await fixtureHost().evaluate({ A1: -100, A2: -10, A3: 10, A4: 100, B1: "=IRR(A1:A4,0.5)", B2: "=RATE(10,-10,0,100,0,-0.15)", B3: "=RATE(2,-200,8000)" });
    expect([cells.B1, cells.B2]).toEqual([`${LEFT}${IRR_AT_ZERO}`, `${LEFT}${RATE_AT_ZERO}`]);
    expect(typeof cells.B3).toBe("number");
  });
});
