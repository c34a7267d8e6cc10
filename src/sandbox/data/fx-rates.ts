/**
 * Daily FX rates of the sandbox (convention 21): units of each currency per US dollar, one rate a day from
 * FX_START to the data's today, weekends carrying Friday's rate. Generated from a seed, exported and loaded
 * with the rest of the data (fx-file.ts).
 */
import { isoWeekday, toEpochDay } from "../../api";
import { CURRENCIES } from "./catalogue";
import { Random } from "./random";

// Math functions held locally: under jest's vm context every global lookup is slow.
const { exp, log, sqrt, max, min } = Math;

export const FX_BASE = "USD";
/** The first day of the table: just before the first assessment of the generated data. */
export const FX_START = "2005-01-01";
/** The walk is pinned to the catalogue's levels on this day; later days walk on freely, so a later today only adds rates. */
const FX_ANCHOR = toEpochDay("2025-12-31");
const WEEKDAYS_PER_YEAR = 261;
const SIGNIFICANT_DIGITS = 6;

/** Rough levels of early 2005 (units per US dollar) and annual volatility; the catalogue gives today's levels. */
const HISTORY: Readonly<Record<string, { start: number; volatility: number }>> = {
  EUR: { start: 0.76, volatility: 0.08 },
  CNY: { start: 8.28, volatility: 0.03 },
  GBP: { start: 0.53, volatility: 0.08 },
  JPY: { start: 104, volatility: 0.09 },
  INR: { start: 43.6, volatility: 0.06 },
  BRL: { start: 2.69, volatility: 0.15 },
  CAD: { start: 1.21, volatility: 0.07 },
  AUD: { start: 1.28, volatility: 0.1 },
};

/** Rates by currency id: `perUsd.get(id)[i]` is the units of `id` per US dollar on `firstDay + i`. */
export interface FxRates {
  /** Epoch day of index 0. */
  readonly firstDay: number;
  /** Days in the table (every currency's array has this length). */
  readonly length: number;
  readonly perUsd: ReadonlyMap<string, Float64Array>;
}

/** The rate from one currency into another on `day` (clamped to the table), or undefined when either is missing. */
export function fxRate(rates: FxRates, from: string, to: string, day: number): number | undefined {
  if (from === to) return 1;
  const fromRates = rates.perUsd.get(from);
  const toRates = rates.perUsd.get(to);
  if (fromRates === undefined || toRates === undefined || rates.length === 0) return undefined;
  const index = min(max(day - rates.firstDay, 0), rates.length - 1);
  return (toRates[index] as number) / (fromRates[index] as number);
}

export function hasCurrency(rates: FxRates, id: string): boolean {
  return rates.perUsd.has(id);
}

function significant(value: number): number {
  return Number(value.toPrecision(SIGNIFICANT_DIGITS));
}

/**
 * One currency's log-rate walk over weekdays, pinned at both ends of [start, anchor] (a Brownian bridge from
 * the 2005 level to the catalogue's level), free after the anchor.
 */
function walk(random: Random, startLevel: number, anchorLevel: number, volatility: number, firstDay: number, lastDay: number): Float64Array {
  const end = max(lastDay, FX_ANCHOR);
  const steps = new Float64Array(end - firstDay + 1);
  const sd = volatility / sqrt(WEEKDAYS_PER_YEAR);
  let w = 0;
  for (let day = firstDay; day <= end; day++) {
    // Weekends carry Friday's value: only weekdays move.
    if (isoWeekday(day) <= 4) w += sd * random.normal();
    steps[day - firstDay] = w;
  }
  const span = FX_ANCHOR - firstDay;
  const atAnchor = steps[span] as number;
  const from = log(startLevel);
  const to = log(anchorLevel);
  const rates = new Float64Array(lastDay - firstDay + 1);
  for (let i = 0; i < rates.length; i++) {
    // Weekends carry Friday's rate (the walk stands still, but the bridge's drift would not).
    if (i > 0 && isoWeekday(firstDay + i) > 4) {
      rates[i] = rates[i - 1] as number;
      continue;
    }
    const w = steps[i] as number;
    const logRate = i <= span ? from + ((to - from - atAnchor) * i) / span + w : to + w - atAnchor;
    rates[i] = significant(exp(logRate));
  }
  return rates;
}

/** The generated table from FX_START to `today` for every currency of the catalogue. */
export function generateFxRates(seed: number, today: string): FxRates {
  const firstDay = toEpochDay(FX_START);
  const lastDay = max(toEpochDay(today), firstDay);
  const random = new Random(seed).fork("fx-rates");
  const perUsd = new Map<string, Float64Array>();
  for (const currency of CURRENCIES) {
    if (currency.id === FX_BASE) {
      perUsd.set(currency.id, new Float64Array(lastDay - firstDay + 1).fill(1));
      continue;
    }
    const history = HISTORY[currency.id] ?? { start: currency.perUsd, volatility: 0.08 };
    perUsd.set(currency.id, walk(random.fork(currency.id), history.start, currency.perUsd, history.volatility, firstDay, lastDay));
  }
  return { firstDay, length: lastDay - firstDay + 1, perUsd };
}
