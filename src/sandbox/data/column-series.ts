/**
 * The column store behind loaded and hand-made series: numbers in typed arrays, timestamps as small numbers,
 * rationales as UTF-8 outside the JavaScript heap, forward-curve points flattened.
 */
import type { ForwardCurvePoint } from "../../api";
import type { AssessmentPoint } from "./assessment-point";
import { dayString, epochDayOf } from "./day-strings";
import type { JsonWriter } from "./json";
import type { AssessmentSeries } from "./model";
import { offsetSeconds, timeOfDay, timeOfDayTable } from "./times-of-day";

const { floor, max } = Math;

// Timestamps written `YYYY-MM-DDTHH:MM:SS+HH:MM` (as the generator and most files do) are held as three small
// numbers and written back exactly; any other spelling is kept as given.
const CANONICAL_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})([+-]\d{2}:\d{2})$/;
const RAW_TIMESTAMP = 0xffff;

/** Indexes of repeated short texts (UTC offsets, forward codes and months) in one series. */
class TextTable {
  readonly texts: string[] = [];
  private readonly index = new Map<string, number>();
  of(text: string): number {
    let at = this.index.get(text);
    if (at === undefined) {
      at = this.texts.length;
      this.texts.push(text);
      this.index.set(text, at);
    }
    return at;
  }
}

/**
 * A series held by column: numbers in typed arrays, timestamps as (days after the day assessed, second of the
 * day, UTC offset), forward-curve points flattened. Loading the full generated export this way keeps about
 * half the memory of one object per assessment (most of the rest is the rationale texts).
 */
export class ColumnSeries implements AssessmentSeries {
  readonly length: number;
  readonly days: Int32Array;
  readonly low: Float64Array;
  readonly mid: Float64Array;
  readonly high: Float64Array;
  readonly revision: Uint16Array;
  private readonly appraisals: Uint8Array;
  /** Days from `days[i]` to the timestamp's date, or RAW_TIMESTAMP when `rawTimestamps` holds it. */
  private readonly timestampDays: Uint16Array;
  private readonly timestampSeconds: Int32Array;
  private readonly timestampOffsets: Uint8Array;
  private readonly offsets: TextTable;
  private readonly rawTimestamps = new Map<number, string>();
  /**
   * The rationales as UTF-8 outside the JavaScript heap (about 80 MB for the full export, which on the heap would
   * make it grow to twice that), less the start all of them share (the instrument's name, in generated data).
   */
  private rationaleBytes: Buffer;
  private readonly rationaleStarts: Uint32Array;
  private readonly rationalePrefix: string;
  /** Record i's curve points are [curveStarts[i], curveStarts[i + 1]); `hasCurve[i]` tells an empty list from none. */
  private readonly curveStarts: Uint32Array;
  private readonly hasCurve: Uint8Array;
  private readonly curveCodes: Uint16Array;
  private readonly curveMonths: Uint16Array;
  private readonly curveValues: Float64Array;
  private readonly curveTexts: TextTable;
  private curvesPresent = false;
  private curvesWritten = 0;
  /** `latestUpTo[i]`: the latest publication instant of assessments 0..i, made when first needed. */
  private latestUpTo: Float64Array | undefined;

  /** An empty series of `n` assessments with `curvePoints` forward-curve points in all; `set` fills it, `finish` seals it. */
  constructor(n: number, curvePoints: number, rationalePrefix = "") {
    this.length = n;
    this.days = new Int32Array(n);
    this.low = new Float64Array(n);
    this.mid = new Float64Array(n);
    this.high = new Float64Array(n);
    this.revision = new Uint16Array(n);
    this.appraisals = new Uint8Array(n);
    this.timestampDays = new Uint16Array(n);
    this.timestampSeconds = new Int32Array(n);
    this.timestampOffsets = new Uint8Array(n);
    this.offsets = new TextTable();
    this.rationaleBytes = Buffer.allocUnsafe(max(1024, n * 64));
    this.rationaleStarts = new Uint32Array(n + 1);
    this.rationalePrefix = rationalePrefix;
    this.curveStarts = new Uint32Array(n + 1);
    this.hasCurve = new Uint8Array(n);
    this.curveTexts = new TextTable();
    this.curveCodes = new Uint16Array(curvePoints);
    this.curveMonths = new Uint16Array(curvePoints);
    this.curveValues = new Float64Array(curvePoints * 3);
  }

  get hasForwardCurves(): boolean {
    return this.curvesPresent;
  }

  /** Stores a checked point at `i` (in order); `day` is its date's epoch day. */
  set(i: number, point: AssessmentPoint, day: number): void {
    this.days[i] = day;
    this.low[i] = point.low;
    this.mid[i] = point.mid;
    this.high[i] = point.high;
    this.revision[i] = point.revision;
    this.appraisals[i] = point.appraisalPrice ? 1 : 0;
    this.keepTimestamp(i, day, point.assessmentDate);
    this.keepRationale(i, point.pricingRationale);
    let c = this.curvesWritten;
    this.curveStarts[i] = c;
    const curves = point.forwardCurves;
    if (curves !== undefined) {
      this.hasCurve[i] = 1;
      for (const curve of curves) {
        this.curveCodes[c] = this.curveTexts.of(curve.forwardCode);
        this.curveMonths[c] = this.curveTexts.of(curve.forwardMonth);
        this.curveValues[3 * c] = curve.low;
        this.curveValues[3 * c + 1] = curve.mid;
        this.curveValues[3 * c + 2] = curve.high;
        c++;
      }
    }
    this.curvesWritten = c;
  }

  private keepRationale(i: number, text: string): void {
    const at = this.rationaleStarts[i] as number;
    const rest = text.startsWith(this.rationalePrefix) ? text.slice(this.rationalePrefix.length) : text;
    const room = rest.length * 3;
    if (at + room > this.rationaleBytes.length) {
      const bigger = Buffer.allocUnsafe(max(this.rationaleBytes.length * 2, at + room));
      this.rationaleBytes.copy(bigger, 0, 0, at);
      this.rationaleBytes = bigger;
    }
    this.rationaleStarts[i + 1] = at + this.rationaleBytes.write(rest, at, "utf8");
  }

  /** After the last `set`. */
  finish(): this {
    const used = this.rationaleStarts[this.length] as number;
    const exact = Buffer.allocUnsafeSlow(used);
    this.rationaleBytes.copy(exact, 0, 0, used);
    this.rationaleBytes = exact;
    this.curveStarts[this.length] = this.curvesWritten;
    this.curvesPresent = this.hasCurve.includes(1);
    return this;
  }

  private keepTimestamp(i: number, day: number, timestamp: string): void {
    const match = CANONICAL_TIMESTAMP.exec(timestamp);
    if (match !== null) {
      const date = match[1] as string;
      const hours = Number(match[2]);
      const minutes = Number(match[3]);
      const seconds = Number(match[4]);
      const offset = match[5] as string;
      const delta = epochDayOf(date) - day;
      if (hours < 24 && minutes < 60 && seconds < 60 && delta >= 0 && delta < RAW_TIMESTAMP && dayString(day + delta) === date && this.offsets.texts.length < 255) {
        this.timestampDays[i] = delta;
        this.timestampSeconds[i] = (hours * 60 + minutes) * 60 + seconds;
        this.timestampOffsets[i] = this.offsets.of(offset);
        return;
      }
    }
    this.timestampDays[i] = RAW_TIMESTAMP;
    this.rawTimestamps.set(i, timestamp);
  }

  private timeOf(index: number): string {
    const offset = this.offsets.texts[this.timestampOffsets[index] as number] as string;
    const second = this.timestampSeconds[index] as number;
    return timeOfDay(timeOfDayTable(offset), floor(second / 60), second % 60, offset);
  }

  assessmentDate(index: number): string {
    const delta = this.timestampDays[index];
    if (delta === undefined) return "";
    if (delta === RAW_TIMESTAMP) return this.rawTimestamps.get(index) ?? "";
    return dayString((this.days[index] as number) + delta) + this.timeOf(index);
  }

  writeAssessmentDate(index: number, out: JsonWriter): void {
    const delta = this.timestampDays[index];
    if (delta === undefined || delta === RAW_TIMESTAMP) out.string(this.assessmentDate(index));
    else out.quotedAscii(dayString((this.days[index] as number) + delta), this.timeOf(index));
  }

  publishedAt(index: number): number {
    const delta = this.timestampDays[index];
    if (delta === undefined) return Number.NaN;
    if (delta === RAW_TIMESTAMP) return Date.parse(this.rawTimestamps.get(index) ?? "");
    const offset = offsetSeconds(this.offsets.texts[this.timestampOffsets[index] as number] as string);
    return (((this.days[index] as number) + delta) * 86_400 + (this.timestampSeconds[index] as number) - offset) * 1000;
  }

  /** Loaded data may hold a correction published after later assessments: the prefix stops before the first future one. */
  publishedCount(now: number): number {
    let latest = this.latestUpTo;
    if (latest === undefined) {
      latest = new Float64Array(this.length);
      let running = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < this.length; i++) {
        running = max(running, this.publishedAt(i));
        latest[i] = running;
      }
      this.latestUpTo = latest;
    }
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if ((latest[m] as number) <= now) lo = m + 1;
      else hi = m;
    }
    return lo;
  }

  appraisalPrice(index: number): boolean {
    return this.appraisals[index] === 1;
  }

  pricingRationale(index: number): string {
    if (index < 0 || index >= this.length) return "";
    return this.rationalePrefix + this.rationaleBytes.toString("utf8", this.rationaleStarts[index], this.rationaleStarts[index + 1]);
  }

  forwardCurves(index: number): ForwardCurvePoint[] | undefined {
    if (this.hasCurve[index] !== 1) return undefined;
    const texts = this.curveTexts.texts;
    const values = this.curveValues;
    const curve: ForwardCurvePoint[] = [];
    for (let c = this.curveStarts[index] as number; c < (this.curveStarts[index + 1] as number); c++) {
      curve.push({
        forwardCode: texts[this.curveCodes[c] as number] as string,
        forwardMonth: texts[this.curveMonths[c] as number] as string,
        low: values[3 * c] as number,
        mid: values[3 * c + 1] as number,
        high: values[3 * c + 2] as number,
      });
    }
    return curve;
  }

  writeForwardCurves(index: number, out: JsonWriter): boolean {
    if (this.hasCurve[index] !== 1) return false;
    const texts = this.curveTexts.texts;
    const values = this.curveValues;
    const end = this.curveStarts[index + 1] as number;
    out.raw("[");
    for (let c = this.curveStarts[index] as number; c < end; c++) {
      if (c > (this.curveStarts[index] as number)) out.raw(",");
      out.raw('{"forwardCode":').string(texts[this.curveCodes[c] as number] as string);
      out.raw(',"forwardMonth":').string(texts[this.curveMonths[c] as number] as string);
      out.raw(',"low":').number(values[3 * c] as number).raw(',"mid":').number(values[3 * c + 1] as number);
      out.raw(',"high":').number(values[3 * c + 2] as number).raw("}");
    }
    out.raw("]");
    return true;
  }
}

/** The longest start `a` and `b` share (b alone when a is undefined); the cut never splits a surrogate pair. */
export function commonPrefix(a: string | undefined, b: string): string {
  if (a === undefined) return b;
  let n = 0;
  const limit = Math.min(a.length, b.length);
  while (n < limit && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  if (n > 0 && n < a.length && (a.charCodeAt(n - 1) & 0xfc00) === 0xd800) n--;
  return n === a.length ? a : a.slice(0, n);
}
