/**
 * The deterministic data set: 320 instruments built from the catalogue by a seed, each assessed from its
 * launch forward with its own sub-seed, so `today` only truncates and past values never depend on it.
 */
import { parseIsoDate, toEpochDay, type InstrumentRecord } from "../../api";
import { endOfDay, utcDateOf } from "./clock";
import { type FxRates, generateFxRates } from "./fx-rates";
import { buildForecast } from "./generated-forecast";
import { planInstruments } from "./instrument-plans";
import type { CommodityDef } from "./catalogue";
import type { GeneratedSeries } from "./generated-series";
import type { AssessmentSeries, DataSet, ForecastData, InstrumentData } from "./model";
import { buildSeries, commodityFactor } from "./price-walk";
import { generatedReferences } from "./references";
import { firstAssessmentDayFrom } from "./schedule";

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
  const factorOf = (commodity: CommodityDef): Float64Array => {
    let factor = factors.get(commodity.id);
    if (factor === undefined) {
      factor = commodityFactor(seed, commodity, todayDay);
      factors.set(commodity.id, factor);
    }
    return factor;
  };
  const instruments: InstrumentData[] = [];
  for (const plan of planInstruments(seed)) {
    if (plan.launchDay > todayDay) continue;
    const discontinued = plan.discontinueDay !== undefined && plan.discontinueDay < todayDay;
    const endDay = discontinued ? (plan.discontinueDay ?? todayDay) : todayDay;
    // an instrument with no assessment day by its end has an empty series: left out, as before
    if (firstAssessmentDayFrom(plan.frequency, plan.weeklyDay, plan.launchDay) > endDay) continue;
    const record: Required<InstrumentRecord> = { ...plan.record, status: discontinued ? "Discontinued" : "Active" };
    const build = (): GeneratedSeries => buildSeries(plan, endDay, todayDay, now, factorOf(plan.combo.commodity), options.correctionRate);
    instruments.push(lazyInstrument(record, build, (series) => (plan.hasForecast ? [buildForecast(plan, series, now)] : [])));
    if (instruments.length % INSTRUMENTS_PER_STEP === 0) yield;
  }
  // the FX rates (about 20 ms) are made when first read: a run that converts no price never needs them
  let fxRates: FxRates | undefined;
  return {
    today,
    instruments,
    references: generatedReferences(),
    get fxRates(): FxRates {
      return (fxRates ??= generateFxRates(seed, today));
    },
  };
}

/**
 * An instrument whose series (and forecasts, made from it) is built when first read: a sandbox listens before its 320
 * series exist (~0.6 s of CPU), and a run that asks for 50 instruments builds only those. The same values as built at once.
 */
function lazyInstrument(record: Required<InstrumentRecord>, build: () => GeneratedSeries, forecastsOf: (series: GeneratedSeries) => ForecastData[]): InstrumentData {
  let series: GeneratedSeries | undefined;
  let forecasts: ForecastData[] | undefined;
  const seriesOf = (): GeneratedSeries => (series ??= build());
  return {
    record,
    get series(): AssessmentSeries {
      return seriesOf();
    },
    get forecasts(): ForecastData[] {
      return (forecasts ??= forecastsOf(seriesOf()));
    },
  };
}

/** A background build (`buildInBackground`): `done` gives the assessments it read once every instrument is built. */
export interface BackgroundBuild {
  readonly done: Promise<number>;
  /** Ends it (a closing sandbox); `done` then never settles. */
  stop(): void;
}

/**
 * Reads every instrument's series and forecasts a few at a time, handing the event loop back between them (requests
 * first): a listening sandbox builds what nobody asked for yet while its caller is busy. Given `only` (upper-case
 * symbols), only those instruments (all when it names none): the rest are still built when a request first reads them.
 */
export function buildInBackground(data: DataSet, only?: ReadonlySet<string>): BackgroundBuild {
  const named = only === undefined ? [] : data.instruments.filter((instrument) => only.has(instrument.record.symbol.toUpperCase()));
  // a book that names none of them (its symbols made by formulas) has them all built ahead, as without a hint
  const instruments = named.length > 0 ? named : data.instruments;
  let next = 0;
  let assessments = 0;
  let timer: NodeJS.Immediate | undefined;
  let finished: (assessments: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    finished = resolve;
  });
  const step = (): void => {
    for (const end = Math.min(next + BACKGROUND_PER_STEP, instruments.length); next < end; next++) {
      const instrument = instruments[next];
      // the forecasts are made from the series: reading them builds both
      if (instrument !== undefined && instrument.forecasts.length >= 0) assessments += instrument.series.length;
    }
    timer = next < instruments.length ? setImmediate(step) : undefined;
    if (timer === undefined) finished(assessments);
  };
  timer = setImmediate(step);
  return {
    done,
    stop() {
      if (timer !== undefined) clearImmediate(timer);
      timer = undefined;
    },
  };
}

/** Instruments built between two hand-backs in the background (a few ms of work: a request waits no longer). */
const BACKGROUND_PER_STEP = 2;
