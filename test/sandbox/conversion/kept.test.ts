/** The converted instruments kept between requests: a converted request for many symbols reuses them. */
import { generateDataSet } from "../../../src/sandbox/data/generator";
import { Conversions, KEPT_ASSESSMENTS } from "../../../src/sandbox/service/conversion";

const data = generateDataSet({ today: "2025-06-30" });

describe("converted instruments kept between requests", () => {
  it("serves a 200-symbol converted request from the views the previous one made", () => {
    const conversions = new Conversions(data);
    const target = conversions.target("EUR", "LB");
    const asked = data.instruments.slice(0, 200);
    const first = asked.map((instrument) => conversions.apply(instrument, target));
    const second = asked.map((instrument) => conversions.apply(instrument, target));
    expect(second.filter((view, i) => view !== first[i])).toEqual([]);
    expect(conversions.keptSize.instruments).toBe(200);
  });

  it("makes a view anew for a new publication of the instrument", () => {
    const conversions = new Conversions(data);
    const target = conversions.target("EUR", undefined);
    const instrument = data.instruments[0];
    if (instrument === undefined) throw new Error("no instruments");
    const before = conversions.apply(instrument, target);
    const republished = { ...instrument };
    expect(conversions.apply(republished, target)).not.toBe(before);
    expect(conversions.keptSize).toEqual({ instruments: 1, assessments: instrument.series.length });
  });

  it("keeps at most its budget of assessments, dropping the least recently used", () => {
    const conversions = new Conversions(data);
    const targets = ["EUR", "GBP", "JPY", "CNY", "CAD", "AUD", "BRL", "INR"].map((id) => conversions.target(id, undefined));
    const total = data.instruments.reduce((sum, instrument) => sum + instrument.series.length, 0);
    expect(total * targets.length).toBeGreaterThan(KEPT_ASSESSMENTS);
    for (const target of targets) for (const instrument of data.instruments) conversions.apply(instrument, target);
    expect(conversions.keptSize.assessments).toBeLessThanOrEqual(KEPT_ASSESSMENTS);
    const last = targets[targets.length - 1];
    const recent = data.instruments.map((instrument) => conversions.apply(instrument, last));
    expect(data.instruments.map((instrument) => conversions.apply(instrument, last)).filter((view, i) => view !== recent[i])).toEqual([]);
  });
});
