import { createHash } from "node:crypto";
import { toEpochDay } from "../../../src/api";
import { endOfDay } from "../../../src/sandbox/data/clock";
import { buildForecast } from "../../../src/sandbox/data/generated-forecast";
import { buildInBackground, DEFAULT_SEED, generateDataSet, generateDataSetInSteps } from "../../../src/sandbox/data/generator";
import { planInstruments } from "../../../src/sandbox/data/instrument-plans";
import type { AssessmentSeries, ForecastData } from "../../../src/sandbox/data/model";
import { buildSeries, commodityFactor } from "../../../src/sandbox/data/price-walk";
import { pointAt } from "../../../src/sandbox/data/series";

const TODAY = "2026-11-28";

/** Every number of a series, a sample of its derived fields, and its forecasts. */
function digest(series: AssessmentSeries, forecasts: readonly ForecastData[]): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(forecasts));
  for (const column of [series.days, series.low, series.mid, series.high, series.revision]) hash.update(Buffer.from(column.buffer, column.byteOffset, column.byteLength));
  for (let k = 0; k < series.length; k += 11) hash.update(JSON.stringify(pointAt(series, k)));
  return hash.digest("hex");
}

/** Every instrument's assessments, counted when the eager build makes them. */
let eagerAssessments = 0;

/** The data set built at once, every series before the next, as the generator did before it built them on first read. */
function eagerDigests(): Map<string, string> {
  const todayDay = toEpochDay(TODAY);
  const now = endOfDay(TODAY);
  const digests = new Map<string, string>();
  for (const plan of planInstruments(DEFAULT_SEED)) {
    if (plan.launchDay > todayDay) continue;
    const endDay = plan.discontinueDay !== undefined && plan.discontinueDay < todayDay ? plan.discontinueDay : todayDay;
    const series = buildSeries(plan, endDay, todayDay, now, commodityFactor(DEFAULT_SEED, plan.combo.commodity, todayDay));
    if (series.length === 0) continue;
    eagerAssessments += series.length;
    digests.set(plan.record.symbol, digest(series, plan.hasForecast ? [buildForecast(plan, series, now)] : []));
  }
  return digests;
}

describe("generateDataSet: series built when first read", () => {
  const eager = eagerDigests();

  it("holds the instruments an eager build holds, each with the same series and forecasts, read in any order", () => {
    const data = generateDataSet({ seed: DEFAULT_SEED, today: TODAY });
    expect(data.instruments.map((i) => i.record.symbol)).toEqual([...eager.keys()].sort());
    // a few from the middle first, then the rest backwards: no series depends on which was built before it
    const order = [...data.instruments.slice(100, 105), ...data.instruments.slice().reverse()];
    const read = new Map(order.map((i) => [i.record.symbol, digest(i.series, i.forecasts)]));
    expect(read).toEqual(eager);
  });

  it("gives the same series each time one is read, and the same whole data set stepped", async () => {
    const data = await generateDataSetInSteps({ seed: DEFAULT_SEED, today: TODAY });
    const instrument = data.instruments[7];
    if (instrument === undefined) throw new Error("no eighth instrument");
    expect(instrument.series).toBe(instrument.series);
    expect(instrument.forecasts).toBe(instrument.forecasts);
    const whole = (digests: Iterable<string>): string => createHash("sha256").update([...digests].join("\n")).digest("hex");
    expect(whole(data.instruments.map((i) => digest(i.series, i.forecasts)))).toBe(whole([...eager.keys()].sort().map((symbol) => eager.get(symbol) ?? "")));
  });

  it("builds every instrument in the background, one asked for meanwhile included, to the same values", async () => {
    const data = await generateDataSetInSteps({ seed: DEFAULT_SEED, today: TODAY });
    const background = buildInBackground(data);
    const last = data.instruments.at(-1);
    if (last === undefined) throw new Error("no instruments");
    const asked = digest(last.series, last.forecasts);
    expect(await background.done).toBe(eagerAssessments);
    expect(asked).toBe(eager.get(last.record.symbol));
    expect(new Map(data.instruments.map((i) => [i.record.symbol, digest(i.series, i.forecasts)]))).toEqual(eager);
  });
});
