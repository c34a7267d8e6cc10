/**
 * RATE, IRR and XIRR's searches against Excel's saved values (test/host/excel-corpus: FINANCIAL__IRR, __RATE and
 * __XIRR): the point where Excel's search stops short of the root, the root Excel finds where a first Newton step
 * overshoots -100%, the guess, and Excel's error cases; a numeric XIRR left for Excel, its errors kept.
 */
import { IRR_OFF_PATH, RATE_OFF_PATH, XIRR_STOPS_SHORT } from "../../src/host/worksheet-finance-solvers";
import { fixtureHost } from "./harness";

/** A number as Excel compares it, to 15 significant digits. */
function fifteen(value: unknown): unknown {
  return typeof value === "number" ? Number(value.toPrecision(15)) : value;
}

/** The error code of a printed error, else the value. */
function code(value: unknown): unknown {
  return typeof value === "string" ? value.split(":")[0] : value;
}

describe("IRR", () => {
  it("stops where Excel's secant search on the discount factor stops, short of the root, digit for digit", async () => {
    const cells = await fixtureHost().evaluate({
      A1: -20, A2: 5, A3: 5, A4: 5, A5: 5, A6: 5, B1: "=IRR(A1:A6)", B2: "=IRR(A1:A6,17)",
      C1: -20, C2: 5, C3: 5, C4: 7, D1: "=IRR(C1:C4)",
      E1: -50, E2: 30, E3: 20, E4: 30, E5: 20, E6: 30, F1: "=IRR(E1:E6)",
      G1: 2, G2: -3, H1: "=IRR(G1:G2)",
    });
    // FINANCIAL__IRR.xlsx L2, N2, L20, L41 and Two Values!C5: each 1E-13 to 4E-12 from the root (0.0793082611605286...)
    expect([cells.B1, cells.B2, cells.D1, cells.F1, cells.H1].map(fifteen)).toEqual([0.07930826116039724, 0.07930826116414913, -0.0730084383401457, 0.4402784772273478, 0.4999999999999998].map(fifteen));
  });

  it("takes one step more while the NPV is 1E-7 or more in size, as Excel 2013 did on flows of thousands", async () => {
    // SheetJS/test_files 2013/apachepoi_IrrNpvTestCaseData.xls.xlsb IRR-NPV!A10 and A11, saved by Excel 15.0: on the
    // first, d has moved by 7.1E-8 where the NPV is still -4.7E-7, and Excel's value is the next iterate
    // (-0.021244848271009253 one step earlier, 2.4E-12 away)
    const cells = await fixtureHost().evaluate({ A1: -70000, A2: 12000, A3: 15000, A4: 18000, A5: 21000, A6: 26000, B1: "=IRR(A1:A5)", B2: "=IRR(A1:A6)" });
    expect([cells.B1, cells.B2]).toEqual([-0.021244848273410888, 0.08663094803652216]);
  });

  it("finds the root Excel finds where the first Newton step from 10% lands below -100%", async () => {
    const cells = await fixtureHost().evaluate({
      A1: -70, A2: 12, A3: 15, B1: "=IRR(A1:A3)", B2: "=IRR(A1:A3,1)",
      C1: -5, C2: 1, D1: "=IRR(C1:C2)",
      E1: -2, E2: 1, F1: "=IRR(E1:E2)",
    });
    // Excel's saved values
    expect(cells.B1).toBeCloseTo(-0.44350694133432755, 11);
    expect(cells.B2).toBeCloseTo(-0.4435069413349362, 11);
    expect(cells.D1).toBeCloseTo(-0.8, 13);
    expect(cells.F1).toBeCloseTo(-0.5, 14);
  });

  it("leaves for Excel a root Newton's method reaches only after 20 tries, not #NUM!", async () => {
    // twenty payments of -1607, thirty empty years, 250010: Excel gives 5.09% (markrogoyski/math-php issue 356); the
    // secant's first step lands where the NPV is 4.6E27 and it stalls, and Newton's method needs 38 tries
    const flows = Object.fromEntries([...Array(51).keys()].map((index) => [`A${index + 1}`, index < 20 ? -1607 : index < 50 ? 0 : 250010]));
    const cells = await fixtureHost().evaluate({ ...flows, B1: "=IRR(A1:A51)" });
    expect(cells.B1).toBe(`#N/A: left for Excel: ${IRR_OFF_PATH}`);
  });

  it("leaves for Excel a number its secant search does not settle on, and computes one it settles on", async () => {
    const cells = await fixtureHost().evaluate({
      G1: -400, G2: 1, G3: 1, G4: 1, G5: 1, G6: 1, H1: "=IRR(G1:G6)",
      I1: -400, I2: 100, I3: 100, I4: 100, I5: 100, I6: 100, J1: "=IRR(I1:I6)",
    });
    // -400 and five 1s: the secant cycles, Newton's root (-0.67373667518086) is 13 digits from Excel's -0.6737366751808405
    expect(cells.H1).toBe(`#N/A: left for Excel: ${IRR_OFF_PATH}`);
    // five 100s: the secant settles, on Excel's path
    expect(typeof cells.J1).toBe("number");
  });

  it("starts from the guess: of two roots, the one near it", async () => {
    // -100 + 230/(1+r) - 132/(1+r)^2 is 0 at 10% and at 20%
    const cells = await fixtureHost().evaluate({ A1: -100, A2: 230, A3: -132, B1: "=IRR(A1:A3,0.05)", B2: "=IRR(A1:A3,0.25)", B3: "=IRR(A1:A3)" });
    // the search stops short of the root, as Excel's does (2E-12 from 20% here)
    expect(cells.B1).toBeCloseTo(0.1, 10);
    expect(cells.B2).toBeCloseTo(0.2, 10);
    // from 10% its last digit is the rounding's: a more exact path lands on the other side of 0.1
    expect(String(cells.B3)).toMatch(/^#N\/A: left for Excel: IRR's search lands on 0\.0999999999999\d+, and on 0\.1000000000000\d+ when its terms are computed more exactly/);
  });

  it("answers Excel's errors: #NUM! without a sign change, #VALUE! for a guess of -100% or less", async () => {
    const cells = await fixtureHost().evaluate({
      A1: 20, A2: 5, A3: 5, B1: "=IRR(A1:A3)",
      C1: -20, C2: 5, C3: 5, C4: 5, C5: 5, C6: 5, D1: "=IRR(C1:C6,-1)", D2: "=IRR(C1:C6,-10)", D3: "=IRR(C1:C6,17)",
    });
    expect([code(cells.B1), code(cells.D1), code(cells.D2)]).toEqual(["#NUM!", "#VALUE!", "#VALUE!"]);
    expect(cells.D3).toBeCloseTo(0.07930826116414913, 10);
  });
});

describe("RATE", () => {
  it("leaves for Excel a root only Newton's method finds, as IRR does, its digits not Excel's search's", async () => {
    // from -50% the secant does not settle; Newton's method reaches a root, not the point Excel's own search stops at
    const cells = await fixtureHost().evaluate({ A1: "=RATE(10,50,0,-1000,0,-0.5)" });
    expect(cells.A1).toBe(`#N/A: left for Excel: ${RATE_OFF_PATH}`);
  });

  it("goes on while the rate still moves by 1E-7 or more, where the identity is already within 1E-7 of 0", async () => {
    // vinci1it2000/formulas test.xlsx FINANCIAL!Y45 (Mac Excel 16) to the bit: the step before, where the identity is
    // 5E-8, is -0.9823636363634585; RATE(5,20,120,-50,1,0) is -0.3356185414527 in Excel 2010 (ExcelFinancialFunctions'
    // test data, 13 digits), -0.3356185412207839 one step before
    const cells = await fixtureHost().evaluate({ A1: "=RATE(1,-388,22000)", A2: "=RATE(5,20,120,-50,1,0)" });
    expect(cells.A1).toBe(-0.9823636363636363);
    expect(Number((cells.A2 as number).toPrecision(13))).toBe(-0.3356185414527);
  });

  it("stops where Excel's secant search stops, digit for digit", async () => {
    const cells = await fixtureHost().evaluate({ A1: "=RATE(48,-200,8000)", A2: "=RATE(12,-200,8000,0,1)", A3: "=RATE(2,-200,8000)", A4: "=RATE(12,-550,8000,100)" });
    // FINANCIAL__RATE.xlsx F3 and G16: Newton's method goes on to the root (F3 is -0.16783376119992413)
    expect([cells.A2, cells.A3].map(fifteen)).toEqual([-0.1678337611998994, -0.8288927807430028].map(fifteen));
    // G2 and F9 agree with Excel, but a more exact path lands elsewhere at the 15th digit: left for Excel
    expect([cells.A1, cells.A4].map((cell) => String(cell).replace(/ lands on .*/, ""))).toEqual(["#N/A: left for Excel: RATE's search", "#N/A: left for Excel: RATE's search"]);
  });

  it("settles where Excel does, and gives #NUM! where Excel's search runs to -100%", async () => {
    const cells = await fixtureHost().evaluate({ A1: "=RATE(300,-200,8000)", A2: "=RATE(300,-200,8000,0,1)", A3: "=RATE(10,-1200,2000,0,1)", A4: "=RATE(10,-1200,2000)", A5: "=RATE(2,-200,8000,0,1)" });
    expect(cells.A1).toBeCloseTo(0.024984769422422157, 10);
    expect(cells.A2).toBeCloseTo(0.025627751816686105, 10);
    expect([code(cells.A3), code(cells.A4)]).toEqual(["#NUM!", "#NUM!"]);
    expect(cells.A5).toBeCloseTo(-0.9743589743570107, 11);
  });
});

describe("XIRR", () => {
  it("leaves a numeric XIRR for Excel, whose search stops short of the root by a rule not found, and says why", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({
      A1: -400, A2: 100, A3: 10, A4: 5, A5: 6, A6: 5,
      B1: 44958, B2: 44986, B3: 45017, B4: 45078, B5: 45108, B6: 45139,
      C1: "=XIRR(A1:A6,B1:B6)", C2: "=XIRR(A1:A6,B1:B6,0.5)", C3: "=C1*2",
    });
    // FINANCIAL__XIRR.xlsx R13: Excel saved -0.9977533546974883, 5E-11 from the root the engine finds
    expect([cells.C1, cells.C2]).toEqual([`#N/A: left for Excel: ${XIRR_STOPS_SHORT}`, `#N/A: left for Excel: ${XIRR_STOPS_SHORT}`]);
    expect(host.engine.leftForExcel().map((entry) => `${entry.cell}: ${entry.why}`)).toEqual([`C1: ${XIRR_STOPS_SHORT}`, `C2: ${XIRR_STOPS_SHORT}`, "C3: depends on C1 (left for Excel)"]);
  });

  it("still answers Excel's errors: #NUM! where no root is, #VALUE! for a guess of -100%", async () => {
    const cells = await fixtureHost().evaluate({
      A1: -400, A2: 100, A3: 10, A4: 5, A5: 6, A6: 5,
      B1: 44958, B2: 44986, B3: 45017, B4: 45078, B5: 45108, B6: 45139,
      C2: "=XIRR(A1:A6,B1:B6,-1)",
      D1: -1000, D2: 230, D3: 200, D4: 125, D5: 200, D6: 10, E1: 1, E2: 2, E3: 3, E4: 4, E5: 5, E6: 6, F1: "=XIRR(D1:D6,E1:E6)",
    });
    expect([code(cells.C2), code(cells.F1)]).toEqual(["#VALUE!", "#NUM!"]);
  });

  it("counts a blank value as 0 where XNPV answers #NUM!, and a blank date stays #NUM!", async () => {
    // FINANCIAL__XIRR.xlsx rows 20 and 21: D and E blank give Excel's answer for D and E 0 (a number, so left for Excel)
    const cells = await fixtureHost().evaluate({
      A1: -20, A2: 5, A3: 5, A6: 5, D1: -20, D2: 5, D3: 5, D4: 0, D5: 0, D6: 5,
      B1: 45292, B2: 45323, B3: 45353, B4: 45386, B5: 45782, B6: 46179,
      C1: "=XIRR(A1:A6,B1:B6)", C2: "=XNPV(1,A1:A6,B1:B6)", C3: "=XIRR(A1:A6,B2:B7)", E1: "=XIRR(D1:D6,B1:B6)",
    });
    expect([cells.C1, cells.E1]).toEqual([`#N/A: left for Excel: ${XIRR_STOPS_SHORT}`, `#N/A: left for Excel: ${XIRR_STOPS_SHORT}`]);
    expect([code(cells.C2), code(cells.C3)]).toEqual(["#NUM!", "#NUM!"]);
  });
});
