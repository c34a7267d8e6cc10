/**
 * The deterministic data set: 320 instruments built from the catalogue by a seed, each assessed from its
 * launch forward with its own sub-seed, so `today` only truncates and past values never depend on it.
 */
import {
  AVERAGE_TYPES,
  fromEpochDay,
  isoWeekday,
  parseIsoDate,
  toEpochDay,
  type AverageType,
  type EpochDay,
  type Frequency,
  type InstrumentRecord,
} from "../../api";
import {
  COMMODITIES,
  CURRENCIES,
  INCOTERMS,
  LOCATIONS,
  SECTOR_SOURCES,
  SOURCES,
  UNITS,
  type CommodityDef,
  type CurrencyDef,
  type LocationDef,
  type MarketDef,
  type ProductDef,
  type Sector,
  type UnitDef,
} from "./catalogue";
import type { DataSet, ForecastData, InstrumentData } from "./model";
import { hashInts, hashString, Random, unitOf } from "./random";
import { rationaleWriter } from "./rationale";
import { generateFxRates } from "./fx-rates";
import { generatedReferences } from "./references";
import { isAssessmentDay, isHoliday, firstAssessmentDayFrom } from "./schedule";
import { endOfDay, utcDateOf } from "./clock";
import { correctionDelayDays, GeneratedSeries, generatedPublication, instantOf, lastIndexOnOrBefore, MID_PLACES, midOf, roundTo } from "./series";

// Math functions held locally: under jest's vm context every global lookup is slow, and these run millions of times.
const { exp, sqrt, floor, max, abs } = Math;

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

/** Instruments per sector: metals a large minority. */
const SECTOR_QUOTAS: Readonly<Record<Sector, number>> = { MB: 132, AG: 108, FP: 80 };
const FIRST_LAUNCH = toEpochDay("2005-01-03");
/** Launches end here so that any `today` from 2025 on sees every instrument. */
const LAST_LAUNCH = toEpochDay("2024-06-28");
const LAST_DISCONTINUATION = toEpochDay("2024-09-30");
/** Commodity price factors run daily from here. */
const FACTOR_START = toEpochDay("2005-01-01");
const FORECAST_VERSION_START = { year: 2019, month: 0 };
const CORRECTION_RATE = 0.002;
const SALT_CORRECTED = 7;
const SALT_SECOND_REVISION = 8;
const SALT_CORRECTION_SIZE = 9;
const SALT_FORECAST = 10;

const FREQUENCY_WEIGHTS: Readonly<Record<Sector, readonly (readonly [Frequency, number])[]>> = {
  MB: [["Daily", 45], ["Twice weekly", 20], ["Weekly", 25], ["Monthly", 10]],
  AG: [["Daily", 55], ["Twice weekly", 5], ["Weekly", 30], ["Monthly", 10]],
  FP: [["Daily", 5], ["Twice weekly", 10], ["Weekly", 60], ["Monthly", 25]],
};

interface Combo {
  commodity: CommodityDef;
  product: ProductDef;
  market: MarketDef;
  location: LocationDef;
  currency: CurrencyDef;
}

/** Everything about an instrument that depends on the seed alone. */
interface Plan {
  combo: Combo;
  unit: UnitDef;
  key: number;
  record: Required<InstrumentRecord>;
  frequency: Frequency;
  weeklyDay: number;
  launchDay: EpochDay;
  discontinueDay: EpochDay | undefined;
  singleValue: boolean;
  /** Price: typical level; Premium/Discount: mean. In the instrument's currency. */
  level: number;
  /** Premium/Discount swing in the instrument's currency. */
  swing: number;
  beta: number;
  idioSigma: number;
  kappa: number;
  decimals: number;
  publishMinute: number;
  appraisalRate: number;
  forwardMonths: number;
  forwardCarry: number;
  hasForecast: boolean;
}

function byId<T extends { id: string }>(items: readonly T[], id: string, kind: string): T {
  const found = items.find((item) => item.id === id);
  if (found === undefined) throw new Error(`catalogue: unknown ${kind} ${id}`);
  return found;
}

function combosOf(commodity: CommodityDef): Combo[] {
  const combos: Combo[] = [];
  for (const product of commodity.products) {
    for (const market of product.markets) {
      const location = byId(LOCATIONS, market.location, "location");
      for (const currencyId of market.currencies ?? location.currencies) {
        combos.push({ commodity, product, market, location, currency: byId(CURRENCIES, currencyId, "currency") });
      }
    }
  }
  return combos;
}

/** Takes a sector's quota round-robin across its commodities, so that every commodity is represented. */
function selectCombos(rng: Random, sector: Sector): Combo[][] {
  const groups = COMMODITIES.filter((c) => c.sector === sector).map((c) => rng.fork(`combos:${c.id}`).shuffle(combosOf(c)));
  const available = groups.reduce((sum, group) => sum + group.length, 0);
  const quota = SECTOR_QUOTAS[sector];
  if (available < quota) throw new Error(`catalogue: ${sector} has ${available} combinations for a quota of ${quota}`);
  const taken: Combo[][] = groups.map(() => []);
  let count = 0;
  for (let round = 0; count < quota; round++) {
    groups.forEach((group, g) => {
      const combo = group[round];
      if (combo !== undefined && count < quota) {
        taken[g]?.push(combo);
        count++;
      }
    });
  }
  // Within a commodity, catalogue order: related instruments get neighbouring numbers.
  return taken.map((group) => {
    const all = combosOf(group[0]?.commodity ?? (COMMODITIES[0] as CommodityDef));
    return group.slice().sort((a, b) => all.findIndex((c) => sameCombo(c, a)) - all.findIndex((c) => sameCombo(c, b)));
  });
}

function sameCombo(a: Combo, b: Combo): boolean {
  return a.product === b.product && a.market === b.market && a.currency === b.currency;
}

/** Decimal places of low and high: 2 (as every mid has, convention 10), whole numbers for six-figure prices. */
function decimalsFor(magnitude: number): number {
  return magnitude >= 100_000 ? 0 : MID_PLACES;
}

function describe(combo: Combo, unit: UnitDef): { description: string; descriptionShort: string; subject: string; units: string } {
  const { product, market, location, currency } = combo;
  const place = `${market.basis} ${location.short}`;
  const qualifier = market.qualifier === undefined ? "" : `, ${market.qualifier}`;
  const units = `${currency.text}/${unit.text}`;
  const shortQualifier = market.qualifier === undefined ? "" : ` ${market.qualifier.split(" ").map((w) => w[0]?.toUpperCase()).join("")}`;
  return {
    description: `${product.name}, ${place}${qualifier}, ${units}`,
    descriptionShort: `${product.short} ${place}${shortQualifier} ${currency.id}/${unit.sign}`,
    subject: `${product.name}, ${place}${qualifier},`,
    units,
  };
}

function calculationTypes(rng: Random, frequency: Frequency): AverageType[] {
  const [, monthly, quarterly, yearly] = AVERAGE_TYPES;
  const all = AVERAGE_TYPES.slice();
  const noWeekly = [monthly, quarterly, yearly] as AverageType[];
  switch (frequency) {
    case "Daily":
      return rng.chance(0.9) ? all : noWeekly;
    case "Twice weekly":
      return rng.chance(0.5) ? all : noWeekly;
    case "Weekly":
      return rng.weighted<AverageType[]>([[noWeekly, 60], [[monthly, yearly] as AverageType[], 20], [[], 20]]);
    case "Monthly":
      return rng.weighted<AverageType[]>([[[quarterly, yearly] as AverageType[], 50], [[yearly] as AverageType[], 20], [[], 30]]);
  }
}

function planInstrument(seed: number, symbol: string, combo: Combo, featured = false): Plan {
  const { commodity, product, market, location, currency } = combo;
  const unit = byId(UNITS, product.unit, "unit");
  const incoterm = byId(INCOTERMS, market.incoterm, "incoterm");
  const key = hashString(symbol, seed);
  const rng = new Random(key).fork("attributes");
  const sector = commodity.sector;
  const isPrice = product.priceType === "Price";

  const frequency = rng.weighted(FREQUENCY_WEIGHTS[sector]);
  const weeklyDay = rng.pick([0, 1, 2, 2, 3, 3, 4, 4, 4]);
  const launchFrom = FIRST_LAUNCH + floor(rng.next() ** 1.3 * (LAST_LAUNCH - FIRST_LAUNCH));
  const launchDay = firstAssessmentDayFrom(frequency, weeklyDay, launchFrom);
  const agForwardMonths = sector === "AG" && isPrice && (frequency === "Daily" || frequency === "Weekly") && rng.chance(0.4) ? rng.int(3, 12) : 0;
  const forwardCarry = rng.float(-0.008, 0.012);
  const drawnForecast = sector !== "FP" && isPrice && agForwardMonths === 0 && rng.chance(0.14);
  // Metals get forward curves from a generator of their own, so that no other attribute changes with them; the
  // documented examples' metal (MB-AL-0004) always has curves and a forecast, for every sandbox user.
  const metal = new Random(key).fork("metal-curves");
  const metalCurves = sector === "MB" && frequency !== "Monthly" && (featured || metal.chance(0.2));
  const forwardMonths = metalCurves ? (featured ? 12 : metal.int(3, 12)) : agForwardMonths;
  const hasForecast = drawnForecast || featured;
  const discontinueSpan = LAST_DISCONTINUATION - launchDay - 365;
  const discontinueDay = !hasForecast && discontinueSpan > 30 && rng.chance(0.09) ? launchDay + 365 + rng.int(0, discontinueSpan) : undefined;
  const sourceId = rng.weighted([
    [SECTOR_SOURCES[sector], 80],
    [frequency === "Daily" ? SECTOR_SOURCES[sector] : "SURVEY", 10],
    ["INDEX", 10],
  ]);
  const source = byId(SOURCES, sourceId, "source");
  const priceCalculationTypeIds = calculationTypes(rng, frequency);
  const level = product.level * currency.perUsd;
  const swing = (product.swing ?? 0) * currency.perUsd;
  const { description, descriptionShort } = describe(combo, unit);

  const record: Required<InstrumentRecord> = {
    symbol,
    productId: `${commodity.code}-${product.key}`,
    description,
    descriptionShort,
    commodityId: commodity.id,
    priceType: product.priceType,
    locationId: location.id,
    currencyId: currency.id,
    unitOfMeasureId: unit.id,
    incotermId: incoterm.id,
    launchDate: fromEpochDay(launchDay),
    frequency,
    sourceId: source.id,
    status: "Active",
    priceCalculationTypeIds,
    commodity: commodity.name,
    location: location.name,
    currency: currency.description,
    unitOfMeasure: unit.description,
    incoterm: incoterm.description,
    source: source.description,
    forecastTypeIds: hasForecast ? ["F24M"] : [],
    hasForwardCurves: forwardMonths > 0,
  };
  return {
    combo,
    unit,
    key,
    record,
    frequency,
    weeklyDay,
    launchDay,
    discontinueDay,
    singleValue: rng.chance(0.15),
    level,
    swing,
    beta: rng.float(0.8, 1.15),
    idioSigma: isPrice ? rng.float(0.04, 0.12) : 1,
    // A premium reverts to its mean over years, not months (half-life about two years): see premiumCenter.
    kappa: isPrice ? 1.5 : 0.35,
    decimals: decimalsFor(isPrice ? level : max(abs(level), swing)),
    publishMinute: (sector === "MB" ? 16 * 60 : sector === "AG" ? 17 * 60 : 15 * 60) + rng.int(0, 30),
    appraisalRate: rng.float(0.01, 0.06),
    forwardMonths,
    forwardCarry,
    hasForecast,
  };
}

/** The first number of these groups is fixed so the symbols the docs and help use as examples always exist. */
const ANCHOR_NUMBERS: Readonly<Record<string, number>> = { "MB-AL": 4, "AG-WHE": 58, "FP-PLP": 34 };

/** Symbols of the docs' examples that always carry forward curves and a forecast (PRICES.CURVE, PRICES.FORECAST). */
const FEATURED = new Set(["MB-AL-0004"]);

/** Every instrument the seed defines, sorted by symbol; independent of `today`. */
function planInstruments(seed: number): Plan[] {
  const rng = new Random(seed);
  const plans: Plan[] = [];
  for (const sector of ["MB", "AG", "FP"] as const) {
    for (const group of selectCombos(rng.fork(`sector:${sector}`), sector)) {
      const first = group[0];
      if (first === undefined) continue;
      const numbering = rng.fork(`numbers:${sector}-${first.commodity.code}`);
      const drawn = numbering.int(1, 12);
      let number = ANCHOR_NUMBERS[`${sector}-${first.commodity.code}`] ?? drawn;
      for (const combo of group) {
        const symbol = `${sector}-${combo.commodity.code}-${String(number).padStart(4, "0")}`;
        plans.push(planInstrument(seed, symbol, combo, FEATURED.has(symbol)));
        number += numbering.int(1, 25);
      }
    }
  }
  return plans.sort((a, b) => (a.record.symbol < b.record.symbol ? -1 : a.record.symbol > b.record.symbol ? 1 : 0));
}

/** A commodity's common log-price factor for every day from FACTOR_START to `lastDay`: daily, forward, seeded. */
function commodityFactor(seed: number, commodity: CommodityDef, lastDay: EpochDay): Float64Array {
  const rng = new Random(seed).fork(`factor:${commodity.id}`);
  // Reversion to the commodity's level within a year or two (half-life about 14 months): short-term moves keep the
  // commodity's volatility while the long-run range stays near its usual level (95 % within about x0.6..x1.6).
  const kappa = 0.6;
  const decay = exp(-kappa / 365);
  const stationary = commodity.volatility / sqrt(2 * kappa);
  const step = stationary * sqrt(1 - decay * decay);
  const path = new Float64Array(max(0, lastDay - FACTOR_START + 1));
  let value = rng.normal() * stationary;
  for (let i = 0; i < path.length; i++) {
    if (i > 0) value = decay * value + step * rng.normal();
    path[i] = value;
  }
  return path;
}

function buildSeries(plan: Plan, endDay: EpochDay, todayDay: EpochDay, now: number, factor: Float64Array, correctionRate = CORRECTION_RATE): GeneratedSeries {
  const schedule = new Int32Array(max(0, endDay - plan.launchDay + 1));
  let n = 0;
  for (let d = plan.launchDay; d <= endDay; d++) if (isAssessmentDay(plan.frequency, plan.weeklyDay, d)) schedule[n++] = d;
  const days = schedule.slice(0, n);
  const low = new Float64Array(n);
  const mid = new Float64Array(n);
  const high = new Float64Array(n);
  const revision = new Uint16Array(n);
  const { key, decimals, level, swing, beta, kappa, idioSigma, singleValue } = plan;
  const isPrice = plan.combo.product.priceType === "Price";
  const spread = plan.combo.product.spread;
  const idioStd = idioSigma / sqrt(2 * kappa);
  const walk = new Random(key).fork("walk");
  let x = walk.normal() * idioStd;
  for (let i = 0; i < n; i++) {
    const day = days[i] ?? 0;
    const shock = walk.normal();
    const width = walk.next();
    const skew = 0.8 + 0.4 * walk.next();
    if (i > 0) {
      const decay = exp((-kappa * (day - (days[i - 1] ?? day))) / 365);
      x = decay * x + idioStd * sqrt(1 - decay * decay) * shock;
    }
    let center: number;
    let half: number;
    if (isPrice) {
      center = level * exp(PRICE_LOG_BOUND * Math.tanh((beta * (factor[day - FACTOR_START] ?? 0) + x) / PRICE_LOG_BOUND));
      half = center * spread * (0.6 + 0.8 * width);
    } else {
      center = premiumCenter(level, swing, x / idioStd);
      half = swing * spread * (0.6 + 0.8 * width);
    }
    let lo = singleValue ? center : center - half * skew;
    let hi = singleValue ? center : center + half * (2 - skew);
    let rev = 0;
    // A correction, published a few days later: made only once it has been published.
    if (unitOf(hashInts(key, SALT_CORRECTED, i)) < correctionRate && day + correctionDelayDays(key, i) <= todayDay && correctionPublished(plan, i, day, now)) {
      rev = unitOf(hashInts(key, SALT_SECOND_REVISION, i)) < 0.25 ? 2 : 1;
      const size = unitOf(hashInts(key, SALT_CORRECTION_SIZE, i)) - 0.5;
      const shift = isPrice ? center * size * 0.02 : swing * size * 0.1;
      lo += shift;
      hi += shift;
    }
    const roundedLow = roundTo(lo, decimals);
    const roundedHigh = roundTo(hi, decimals);
    low[i] = roundedLow;
    high[i] = roundedHigh;
    mid[i] = singleValue ? roundedLow : midOf(roundedLow, roundedHigh);
    revision[i] = rev;
  }
  const { subject, units } = describe(plan.combo, plan.unit);
  return new GeneratedSeries({
    key,
    days,
    low,
    mid,
    high,
    revision,
    publishMinute: plan.publishMinute,
    utcOffset: plan.combo.location.utcOffset,
    appraisalRate: plan.appraisalRate,
    forwardMonths: plan.forwardMonths,
    forwardCarry: plan.forwardCarry,
    decimals,
    rationale: rationaleWriter({ key, subject: subject.slice(0, -1), units, decimals }),
  });
}

function correctionPublished(plan: Plan, index: number, day: EpochDay, now: number): boolean {
  const at = generatedPublication(plan.key, index, day, true, plan.publishMinute);
  return instantOf(at.day, at.minute * 60 + at.second, plan.combo.location.utcOffset) <= now;
}

/** Premiums stay within 1.5 swings of their mean (a soft bound): no 300 to 40 and back within months. */
const PREMIUM_BOUND = 1.5;
/** Prices stay within about x0.58..x1.73 of the commodity's usual level (a soft bound on the log price). */
const PRICE_LOG_BOUND = 0.55;

function premiumCenter(level: number, swing: number, deviation: number): number {
  return level + swing * PREMIUM_BOUND * Math.tanh(deviation / PREMIUM_BOUND);
}

/** The first weekday (not 1 January) of the month of `day`. */
function firstWeekdayOfMonth(year: number, month: number): EpochDay {
  let day = toEpochDay(`${String(year).padStart(4, "0")}-${String(month + 1).padStart(2, "0")}-01`);
  while (isoWeekday(day) > 4 || isHoliday(day)) day++;
  return day;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

/** A month's forecast: its day (the first weekday), its time of day, and the generator the prices continue from. */
function forecastPublication(plan: Plan, year: number, month: number): { publicationDay: EpochDay; time: string; rng: Random } {
  const publicationDay = firstWeekdayOfMonth(year, month);
  const rng = new Random(hashInts(plan.key, SALT_FORECAST, year * 12 + month));
  const time = `${pad(rng.int(6, 9))}:${pad(rng.int(0, 59))}:${pad(rng.int(0, 59))}.${pad(rng.int(0, 999), 3)}`;
  return { publicationDay, time, rng };
}

/** The `F24M` forecast as last published by `now`: on the first weekday of now's month, or of the month before. */
function buildForecast(plan: Plan, series: GeneratedSeries, now: number): ForecastData {
  const today = new Date(now);
  let year = today.getUTCFullYear();
  let month = today.getUTCMonth();
  let { publicationDay, time, rng } = forecastPublication(plan, year, month);
  if (Date.parse(`${fromEpochDay(publicationDay)}T${time}Z`) > now) {
    month -= 1;
    if (month < 0) {
      month = 11;
      year -= 1;
    }
    ({ publicationDay, time, rng } = forecastPublication(plan, year, month));
  }
  const monthIndex = year * 12 + month;
  const version = max(1, monthIndex - (FORECAST_VERSION_START.year * 12 + FORECAST_VERSION_START.month) + 1);
  const at = lastIndexOnOrBefore(series, publicationDay);
  let value = series.mid[max(0, at)] ?? plan.level;
  const drift = rng.float(-0.006, 0.008);
  const prices: ForecastData["prices"] = [];
  for (let ahead = 1; ahead <= 24; ahead++) {
    value *= exp(drift + 0.02 * rng.normal());
    const half = value * (0.02 + 0.004 * ahead);
    const target = monthIndex + ahead;
    const low = roundTo(value - half, plan.decimals);
    const high = roundTo(value + half, plan.decimals);
    prices.push({
      date: `${pad(floor(target / 12), 4)}-${pad((target % 12) + 1)}-01T00:00:00.000Z`,
      low,
      mid: midOf(low, high),
      high,
    });
  }
  return { type: "F24M", version, publicationDate: `${fromEpochDay(publicationDay)}T${time}Z`, prices };
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
