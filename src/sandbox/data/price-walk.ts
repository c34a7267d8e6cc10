/** A generated instrument's prices: its commodity's daily factor, the instrument's walk around it, and corrections. */
import { toEpochDay, type EpochDay } from "../../api";
import type { CommodityDef } from "./catalogue";
import { correctionDelayDays, GeneratedSeries, generatedPublication } from "./generated-series";
import { describe, type Plan } from "./instrument-plans";
import { midOf, roundToScale } from "./mids";
import { hashFirstTwo, hashInts, hashLast, hashThird, Random, unitOf } from "./random";
import { rationaleWriter } from "./rationale";
import { assessmentDays } from "./schedule";
import { instantOf } from "./times-of-day";

// Math functions held locally: under jest's vm context every global lookup is slow, and these run millions of times.
const { exp, sqrt, max, tanh } = Math;
const { isNaN } = Number;

/** Commodity price factors run daily from here. */
const FACTOR_START = toEpochDay("2005-01-01");
const CORRECTION_RATE = 0.002;
const SALT_CORRECTED = 7;
const SALT_SECOND_REVISION = 8;
const SALT_CORRECTION_SIZE = 9;

/** A commodity's common log-price factor for every day from FACTOR_START to `lastDay`: daily, forward, seeded. */
export function commodityFactor(seed: number, commodity: CommodityDef, lastDay: EpochDay): Float64Array {
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

export function buildSeries(plan: Plan, endDay: EpochDay, todayDay: EpochDay, now: number, factor: Float64Array, correctionRate = CORRECTION_RATE): GeneratedSeries {
  const days = assessmentDays(plan.frequency, plan.weeklyDay, plan.launchDay, endDay);
  const n = days.length;
  const low = new Float64Array(n);
  const mid = new Float64Array(n);
  const high = new Float64Array(n);
  const revision = new Uint16Array(n);
  const { key, decimals, level, swing, beta, kappa, idioSigma, singleValue } = plan;
  const isPrice = plan.combo.product.priceType === "Price";
  const spread = plan.combo.product.spread;
  const idioStd = idioSigma / sqrt(2 * kappa);
  const scale = 10 ** decimals;
  const corrected = hashFirstTwo(key, SALT_CORRECTED);
  const steps = new WalkSteps(kappa, idioStd);
  const walk = new Random(key).fork("walk");
  let x = walk.normal() * idioStd;
  for (let i = 0; i < n; i++) {
    const day = days[i] ?? 0;
    const shock = walk.normal();
    const width = walk.next();
    const skew = 0.8 + 0.4 * walk.next();
    if (i > 0) {
      const gap = day - (days[i - 1] ?? day);
      x = steps.decay(gap) * x + steps.size(gap) * shock;
    }
    let center: number;
    let half: number;
    if (isPrice) {
      center = level * exp(PRICE_LOG_BOUND * tanh((beta * (factor[day - FACTOR_START] ?? 0) + x) / PRICE_LOG_BOUND));
      half = center * spread * (0.6 + 0.8 * width);
    } else {
      center = premiumCenter(level, swing, x / idioStd);
      half = swing * spread * (0.6 + 0.8 * width);
    }
    let lo = singleValue ? center : center - half * skew;
    let hi = singleValue ? center : center + half * (2 - skew);
    let rev = 0;
    // A correction, published a few days later: made only once it has been published.
    if (unitOf(hashLast(hashThird(corrected, i), 0)) < correctionRate && day + correctionDelayDays(key, i) <= todayDay && correctionPublished(plan, i, day, now)) {
      rev = unitOf(hashInts(key, SALT_SECOND_REVISION, i)) < 0.25 ? 2 : 1;
      const size = unitOf(hashInts(key, SALT_CORRECTION_SIZE, i)) - 0.5;
      const shift = isPrice ? center * size * 0.02 : swing * size * 0.1;
      lo += shift;
      hi += shift;
    }
    const roundedLow = roundToScale(lo, scale);
    const roundedHigh = roundToScale(hi, scale);
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

/**
 * The walk's reversion over a gap of days between two assessments, `exp(-kappa * gap / 365)`, and the shock's size
 * with it, `idioStd * sqrt(1 - decay²)`: the same few gaps recur all along a series, each computed once. A class, so
 * that every series calls the same methods (closures per series made the optimized walk start over for each).
 */
class WalkSteps {
  private readonly decays = new Float64Array(MAX_CACHED_GAP + 1).fill(NaN);
  private readonly sizes = new Float64Array(MAX_CACHED_GAP + 1).fill(NaN);

  constructor(
    private readonly kappa: number,
    private readonly idioStd: number,
  ) {}

  decay(gap: number): number {
    if (gap > MAX_CACHED_GAP) return exp((-this.kappa * gap) / 365);
    let decay = this.decays[gap] as number;
    if (isNaN(decay)) this.decays[gap] = decay = exp((-this.kappa * gap) / 365);
    return decay;
  }

  size(gap: number): number {
    const decay = this.decay(gap);
    if (gap > MAX_CACHED_GAP) return this.idioStd * sqrt(1 - decay * decay);
    let size = this.sizes[gap] as number;
    if (isNaN(size)) this.sizes[gap] = size = this.idioStd * sqrt(1 - decay * decay);
    return size;
  }
}

/** Gaps up to this many days (a monthly instrument's, a holiday's) are computed once per series. */
const MAX_CACHED_GAP = 64;

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
