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

  it("builds in the background only the instruments named (any case), the others still built when read, to the same values", async () => {
    const data = await generateDataSetInSteps({ seed: DEFAULT_SEED, today: TODAY });
    const named = data.instruments.filter((_, index) => index % 3 === 0).map((i) => i.record.symbol);
    const background = buildInBackground(data, new Set(named.map((symbol) => symbol.toUpperCase())));
    const lengths = named.map((symbol) => data.instruments.find((i) => i.record.symbol === symbol)?.series.length ?? NaN);
    expect(await background.done).toBe(lengths.reduce((sum, length) => sum + length, 0));
    expect(new Map(data.instruments.map((i) => [i.record.symbol, digest(i.series, i.forecasts)]))).toEqual(eager);
  });

  it("builds every instrument in the background when the names given are none of them (a book whose symbols formulas make)", async () => {
    const data = await generateDataSetInSteps({ seed: DEFAULT_SEED, today: TODAY });
    const background = buildInBackground(data, new Set(["SYMBOL", "TOTAL", "=A2&B2"]));
    expect(await background.done).toBe(eagerAssessments);
  });
});

describe("generateDataSet: values pinned", () => {
  /** One digest over every instrument's symbol, columns (days, low, mid, high, revision) and forecasts. */
  function whole(seed: number, today: string, correctionRate?: number): string {
    const data = generateDataSet({ seed, today, ...(correctionRate === undefined ? {} : { correctionRate }) });
    const hash = createHash("sha256");
    for (const { record, series, forecasts } of data.instruments) {
      hash.update(record.symbol).update(JSON.stringify(forecasts));
      for (const column of [series.days, series.low, series.mid, series.high, series.revision]) hash.update(Buffer.from(column.buffer, column.byteOffset, column.byteLength));
    }
    return hash.digest("hex");
  }

  // Written by the generator before its schedule, walk and rounding were made cheaper: any change of a value shows here.
  it.each([
    [DEFAULT_SEED, "2026-11-28", undefined, "7effb9e173fe6735a6224f5511559f997f2d48b4a87f5dd36c41e017b8ddcbbb"],
    [7, "2015-06-30", 0.05, "700ef4a3fae1cd9030e28dccaefcc6690ff46a812e9bc206c2a6edb6b240228d"],
    [123456, "2026-03-13", undefined, "d6aec2cb3af85c099f0b74da44eda5f7f736f55c6b3294e1d37029c04cd90c92"],
  ])("seed %d, today %s, correction rate %s: the same numbers bit for bit", (seed, today, rate, expected) => {
    expect(whole(seed, today, rate)).toBe(expected);
  });
});
