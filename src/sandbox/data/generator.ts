/**
 * The deterministic data set: 320 instruments built from the catalogue by a seed, each assessed from its
 * launch forward with its own sub-seed, so `today` only truncates and past values never depend on it.
 */
import { parseIsoDate, toEpochDay, type InstrumentRecord } from "../../api";
import { endOfDay, utcDateOf } from "./clock";
import { generateFxRates } from "./fx-rates";
import { buildForecast } from "./generated-forecast";
import { planInstruments } from "./instrument-plans";
import type { DataSet, InstrumentData } from "./model";
import { buildSeries, commodityFactor } from "./price-walk";
import { generatedReferences } from "./references";

export const DEFAULT_SEED = 20050103;

export interface GenerateOptions {
  seed?: number;
  /** `YYYY-MM-DD`; defaults to the UTC date of `now`. */
  today?: string;
  /**
   * The clock's instant (ms) when the data is made: corrections and forecasts published after it are left out
   * (convention 20). Defaults to the end of `today`, or the real time when `today` is not given either.
   */
  now?: number;
  /** Share of assessments corrected later (default 0.002); the change-report tests raise it to see corrections in a week. */
  correctionRate?: number;
}

/**
 * Builds the data set for a seed and a day. The same (seed, today) always gives the same data; a later
 * `today` only adds assessments (and corrections and discontinuations that have happened by then).
 * Instruments launched after `today` are left out.
 */
export function generateDataSet(options: GenerateOptions = {}): DataSet {
  const build = dataSetBuilder(options);
  for (let step = build.next(); ; step = build.next()) if (step.done === true) return step.value;
}

/**
 * `generateDataSet` that hands the event loop back every few instruments (the runner starts its own sandbox while
 * Chromium starts and asks this process for the host page): the same data.
 */
export async function generateDataSetInSteps(options: GenerateOptions = {}): Promise<DataSet> {
  const build = dataSetBuilder(options);
  for (let step = build.next(); ; step = build.next()) {
    if (step.done === true) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Instruments built between two hand-backs of the event loop (about 10 ms of work). */
const INSTRUMENTS_PER_STEP = 8;

/** Builds the data set, pausing (a yield) every INSTRUMENTS_PER_STEP instruments. */
function* dataSetBuilder(options: GenerateOptions): Generator<void, DataSet> {
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(seed)) throw new Error(`seed: expected an integer, got ${String(seed)}`);
  const realNow = options.now ?? (options.today === undefined ? Date.now() : undefined);
  const today = parseIsoDate(options.today ?? utcDateOf(realNow ?? Date.now()));
  if (today === undefined) throw new Error(`today: expected a date YYYY-MM-DD, got ${String(options.today)}`);
  const todayDay = toEpochDay(today);
  const now = realNow ?? endOfDay(today);
  const factors = new Map<string, Float64Array>();
  const instruments: InstrumentData[] = [];
  for (const plan of planInstruments(seed)) {
    if (plan.launchDay > todayDay) continue;
    const commodity = plan.combo.commodity;
    let factor = factors.get(commodity.id);
    if (factor === undefined) {
      factor = commodityFactor(seed, commodity, todayDay);
      factors.set(commodity.id, factor);
    }
    const discontinued = plan.discontinueDay !== undefined && plan.discontinueDay < todayDay;
    const endDay = discontinued ? (plan.discontinueDay ?? todayDay) : todayDay;
    const series = buildSeries(plan, endDay, todayDay, now, factor, options.correctionRate);
    if (series.length === 0) continue;
    const record: Required<InstrumentRecord> = { ...plan.record, status: discontinued ? "Discontinued" : "Active" };
    instruments.push({ record, series, forecasts: plan.hasForecast ? [buildForecast(plan, series, now)] : [] });
    if (instruments.length % INSTRUMENTS_PER_STEP === 0) yield;
  }
  return { today, instruments, references: generatedReferences(), fxRates: generateFxRates(seed, today) };
}
