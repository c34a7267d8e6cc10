/**
 * The closed forms' digits against values Excel saved (test/host/excel-corpus: FINANCIAL__IPMT_PPMT.xlsx,
 * FINANCIAL__MIRR.xlsx, FINANCIAL__PMT.xlsx), compared as the runner's proof compares (15 significant digits): the
 * cases where a double's rounding decides the 13th digit (docs/formula-engine.md, "Closed forms").
 */
import { sameValue } from "../../src/host/proof";
import { fixtureHost } from "./harness";

/** Each cell's value next to Excel's, and whether they agree as Excel compares. */
async function againstExcel(cases: Record<string, [formula: string, excel: number]>): Promise<[string, unknown, number, boolean][]> {
  const cells = await fixtureHost().evaluate(Object.fromEntries(Object.entries(cases).map(([address, [formula]]) => [address, formula])));
  return Object.entries(cases).map(([address, [, excel]]) => {
    const value = cells[address];
    return [address, value, excel, typeof value === "number" && sameValue(value, excel)];
  });
}

const disagreeing = (rows: [string, unknown, number, boolean][]) => rows.filter(([, , , agrees]) => !agrees);

describe("closed forms to Excel's 15 digits", () => {
  it("PPMT near the start of a long loan, where the level payment less the interest loses the digits", async () => {
    // IPMT_PPMT.xlsx J4, I4, J14, J12, I16
    const rows = await againstExcel({
      A1: ["=PPMT(0.3,5,36,8000)", -0.542073667720037],
      A2: ["=PPMT(0.3,5,36,8000,0,1)", -0.4169797444000284],
      A3: ["=PPMT(0.1,2.8,30,8000)", -57.73600087946045],
      A4: ["=PPMT(0.1,3,30,8000)", -58.8471230854963],
      A5: ["=PPMT(0.1,3.12,30.34,8000,10,1)", -52.351322120720276],
    });
    expect(disagreeing(rows)).toEqual([]);
  });

  it("IPMT at high rates and late periods, where the balance is a small difference", async () => {
    // IPMT_PPMT.xlsx H7, G7, H5, G5, H6, H17
    const rows = await againstExcel({
      A1: ["=IPMT(0.8,10,36,18000)", -14399.998164265444],
      A2: ["=IPMT(0.8,10,36,18000,0,1)", -7999.998980147468],
      A3: ["=IPMT(0.7,10,36,8000)", -5599.996670420361],
      A4: ["=IPMT(0.7,10,36,8000,0,1)", -3294.115688482565],
      A5: ["=IPMT(0.01,34,36,8000)", -7.8146235062507285],
      A6: ["=IPMT(0.1,3.9,3,8000)", -30.51485756246893],
    });
    expect(disagreeing(rows)).toEqual([]);
  });

  it("MIRR's root to Excel's digits; NPER of a PMT, whose terms cancel, left for Excel", async () => {
    // MIRR.xlsx Sheet2!N9
    const rows = await againstExcel({ A1: ["=MIRR({-20,8,5,5,6,5},0.1,0.2)", 0.17413231959305042] });
    expect(disagreeing(rows)).toEqual([]);
    // PMT.xlsx H27 and I27 (NPER of the payment PMT computed, 30 periods at 20 %): Excel saved 30.000000000000217 and
    // 30.000000000000064, the engine agrees, but one unit in the payment's last place moves them past 15 digits
    const cells = await fixtureHost().evaluate({ A2: "=NPER(0.2,PMT(0.2,30,-300,0,1),-300,0,1)", A3: "=NPER(0.2,PMT(0.2,30,-300),-300)" });
    for (const cell of [cells.A2, cells.A3]) expect(String(cell)).toMatch(/^#N\/A: left for Excel: NPER's terms cancel: one unit in the last place of its pmt moves its result from 30\.00000000000\d+ to 30\.00000000000\d+, past Excel's 15 digits/);
  });
});
