/**
 * The generator's lazily derived series: text and timestamps computed on demand from (instrument key, index), so
 * that twenty years of 300+ instruments stay a few megabytes.
 */
import type { ForwardCurvePoint } from "../../api";
import { dayString, monthIndexOf } from "./day-strings";
import type { JsonWriter } from "./json";
import { midOf, roundTo } from "./mids";
import type { AssessmentSeries } from "./model";
import { hashFirstThree, hashInts, hashLast, unitOf } from "./random";
import { instantOf, timeOfDay, timeOfDayTable, type TimesOfDay } from "./times-of-day";

const { sqrt } = Math;

export const MONTH_CODES = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"] as const;

// Salts that keep the lazily derived values of one (instrument, index) independent of each other.
const SALT_TIME = 1;
const SALT_CORRECTION = 2;
const SALT_APPRAISAL = 3;
const SALT_FORWARD = 4;

/** Calendar days between an assessment and its correction: the generator and the timestamps agree on it. */
export function correctionDelayDays(key: number, index: number): number {
  return 1 + (hashInts(key, SALT_CORRECTION, index) % 4);
}

/** What the generator knows about an instrument's series beyond its numbers. */
export interface GeneratedSeriesParts {
  /** The instrument's sub-seed. */
  key: number;
  days: Int32Array;
  low: Float64Array;
  mid: Float64Array;
  high: Float64Array;
  revision: Uint16Array;
  /** Local minutes after midnight at which first values are published (before jitter). */
  publishMinute: number;
  /** The publishing desk's UTC offset, `+00:00`, `-05:00`, `+08:00`... */
  utcOffset: string;
  /** Share of assessments made by appraisal. */
  appraisalRate: number;
  /** Number of forward-curve months (3 to 12), 0 for none. */
  forwardMonths: number;
  /** Forward premium per month ahead, as a fraction of the spot value. */
  forwardCarry: number;
  decimals: number;
  /** Writes the price reporter's text for an assessment. */
  rationale(series: AssessmentSeries, index: number): string;
}

/**
 * When a generated assessment is published: its day at the desk's time (a correction some days later at 10:xx);
 * the generator and the series' timestamps share it.
 */
export function generatedPublication(key: number, index: number, day: number, corrected: boolean, publishMinute: number): { day: number; minute: number; second: number } {
  const jitter = hashInts(key, SALT_TIME, index);
  return {
    day: corrected ? day + correctionDelayDays(key, index) : day,
    minute: corrected ? 10 * 60 + (jitter % 50) : publishMinute + (jitter % 16),
    second: (jitter >>> 8) % 60,
  };
}

const MAX_FORWARD_MONTHS = 24;
const SQRT_AHEAD = Array.from({ length: MAX_FORWARD_MONTHS + 1 }, (_, ahead) => sqrt(ahead));
const FORWARD_CODES = Array.from({ length: MAX_FORWARD_MONTHS + 1 }, (_, ahead) => `M${ahead}`);
/** `{"forwardCode":"M3","forwardMonth":"SEP","low":` by [ahead][month of the assessment]. */
const FORWARD_HEADS = Array.from({ length: MAX_FORWARD_MONTHS + 1 }, (_, ahead) =>
  Array.from({ length: 12 }, (_, month) => `{"forwardCode":"M${ahead}","forwardMonth":"${MONTH_CODES[(month + ahead) % 12] ?? "JAN"}","low":`),
);

/** The generator's series: numbers in typed arrays, everything else derived on demand and deterministic. */
export class GeneratedSeries implements AssessmentSeries {
  readonly length: number;
  readonly days: Int32Array;
  readonly low: Float64Array;
  readonly mid: Float64Array;
  readonly high: Float64Array;
  readonly revision: Uint16Array;
  private readonly times: TimesOfDay;

  constructor(private readonly parts: GeneratedSeriesParts) {
    if (parts.forwardMonths > MAX_FORWARD_MONTHS) throw new Error(`forwardMonths: at most ${MAX_FORWARD_MONTHS}, got ${parts.forwardMonths}`);
    this.length = parts.days.length;
    this.days = parts.days;
    this.low = parts.low;
    this.mid = parts.mid;
    this.high = parts.high;
    this.revision = parts.revision;
    this.times = timeOfDayTable(parts.utcOffset);
  }

  get hasForwardCurves(): boolean {
    return this.parts.forwardMonths > 0;
  }

  /** Reused by both timestamp writers so the hot path allocates nothing but the strings. */
  private readonly published = { day: "", time: "" };
  /** A curve point's low and high, reused: writing a day's JSON builds no point. */
  private readonly bounds = new Float64Array(2);

  /** The day and time of day an assessment was published (corrections later, at 10:xx), into `published`. */
  private publication(index: number): void {
    const { key, publishMinute, utcOffset } = this.parts;
    const at = generatedPublication(key, index, this.days[index] ?? 0, (this.revision[index] ?? 0) > 0, publishMinute);
    this.published.day = dayString(at.day);
    this.published.time = timeOfDay(this.times, at.minute, at.second, utcOffset);
  }

  publishedAt(index: number): number {
    const { key, publishMinute, utcOffset } = this.parts;
    const at = generatedPublication(key, index, this.days[index] ?? 0, (this.revision[index] ?? 0) > 0, publishMinute);
    return instantOf(at.day, at.minute * 60 + at.second, utcOffset);
  }

  /** The generator makes only corrections published by its own "now", so only a tail of first values can be later. */
  publishedCount(now: number): number {
    let n = this.length;
    while (n > 0 && this.publishedAt(n - 1) > now) n--;
    return n;
  }

  assessmentDate(index: number): string {
    this.publication(index);
    return this.published.day + this.published.time;
  }

  appraisalPrice(index: number): boolean {
    return unitOf(hashInts(this.parts.key, SALT_APPRAISAL, index)) < this.parts.appraisalRate;
  }

  pricingRationale(index: number): string {
    return this.parts.rationale(this, index);
  }

  /** The factor of month `ahead` of assessment `index`: carry plus a little noise. */
  private forwardFactor(prefix: number, ahead: number): number {
    const noise = (unitOf(hashLast(prefix, ahead)) - 0.5) * 0.012 * (SQRT_AHEAD[ahead] as number);
    return 1 + this.parts.forwardCarry * ahead + noise;
  }

  /** The low and high of month `ahead` on assessment `index`'s curve, into one reused pair: the one rule for the points and their JSON. */
  private forwardBounds(index: number, prefix: number, ahead: number): Float64Array {
    const factor = this.forwardFactor(prefix, ahead);
    this.bounds[0] = roundTo((this.low[index] ?? 0) * factor, this.parts.decimals);
    this.bounds[1] = roundTo((this.high[index] ?? 0) * factor, this.parts.decimals);
    return this.bounds;
  }

  forwardCurves(index: number): ForwardCurvePoint[] | undefined {
    if (this.parts.forwardMonths === 0) return undefined;
    const month = monthIndexOf(this.days[index] ?? 0);
    const prefix = hashFirstThree(this.parts.key, SALT_FORWARD, index);
    const curve: ForwardCurvePoint[] = [];
    for (let ahead = 1; ahead <= this.parts.forwardMonths; ahead++) {
      const [curveLow = 0, curveHigh = 0] = this.forwardBounds(index, prefix, ahead);
      curve.push({
        forwardCode: FORWARD_CODES[ahead] as string,
        forwardMonth: MONTH_CODES[(month + ahead) % 12] ?? "JAN",
        low: curveLow,
        mid: midOf(curveLow, curveHigh),
        high: curveHigh,
      });
    }
    return curve;
  }

  /** Writes `forwardCurves(index)` as JSON without building the points; false (nothing written) when it has none. */
  writeForwardCurves(index: number, out: JsonWriter): boolean {
    if (this.parts.forwardMonths === 0) return false;
    const month = monthIndexOf(this.days[index] ?? 0);
    const prefix = hashFirstThree(this.parts.key, SALT_FORWARD, index);
    out.raw("[");
    for (let ahead = 1; ahead <= this.parts.forwardMonths; ahead++) {
      const bounds = this.forwardBounds(index, prefix, ahead);
      const curveLow = bounds[0] ?? 0;
      const curveHigh = bounds[1] ?? 0;
      if (ahead > 1) out.raw(",");
      out
        .raw((FORWARD_HEADS[ahead] as string[])[month] as string)
        .number(curveLow)
        .raw(',"mid":')
        .number(midOf(curveLow, curveHigh))
        .raw(',"high":')
        .number(curveHigh)
        .raw("}");
    }
    out.raw("]");
    return true;
  }

  /** Writes `assessmentDate(index)` as a JSON string without building it. */
  writeAssessmentDate(index: number, out: JsonWriter): void {
    this.publication(index);
    out.quotedAscii(this.published.day, this.published.time);
  }
}
