/**
 * Assessment series: the validated column store behind `createSeries(points)` (loaded or hand-made data),
 * and the lazily derived series of the generator, whose text and timestamps are computed on demand from
 * (instrument key, index) so that twenty years of 300+ instruments stay a few megabytes.
 */
import { lastIndexOnOrBefore as lastDayIndexOnOrBefore } from "./day-search";
import { dateOfTimestamp, fromEpochDay, parseInstant, parseIsoDate, toEpochDay, type ForwardCurvePoint } from "../../api";
import type { AssessmentSeries } from "./model";
import { dayString, epochDayOf, monthIndexOf } from "./day-strings";
import type { JsonWriter } from "./json";
import { hashFirstThree, hashInts, hashLast, unitOf } from "./random";
import { isRecord } from "../../api/json";

// Math functions held locally: under jest's vm context every global lookup is slow, and these run millions of times.
const { abs, sign, round, sqrt, floor, max } = Math;

/** One assessment as plain data: what `createSeries` takes and the files hold. */
export interface AssessmentPoint {
  /** `YYYY-MM-DD`, the day assessed. */
  date: string;
  /** ISO 8601 date-time with UTC offset; a corrected value's is later than the day. */
  assessmentDate: string;
  /** 0 for a first value, 1 or more for a corrected one. */
  revision: number;
  low: number;
  mid: number;
  high: number;
  appraisalPrice: boolean;
  pricingRationale: string;
  forwardCurves?: ForwardCurvePoint[];
}

/** A data error that names where it is (`points[12].mid`, `assessments/MB-AL-0004.json[12].mid`) and what is wrong. */
export class DataError extends Error {
  override name = "DataError";
  constructor(
    readonly where: string,
    readonly problem: string,
  ) {
    super(`${where}: ${problem}`);
  }
}

/** The time written for an assessment whose file leaves `assessmentDate` out. */
export const DEFAULT_ASSESSMENT_TIME = "T16:30:00+00:00";
const FORWARD_CODE = /^M\d+$/;
const FORWARD_MONTH = /^[A-Z]{3}$/;
export const MONTH_CODES = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"] as const;


function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function expectNumber(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw new DataError(where, `expected a number, got ${describe(value)}`);
  return value;
}

function checkRange(low: number, mid: number, high: number, where: string, date: string): void {
  if (!(low <= mid && mid <= high)) {
    throw new DataError(where, `expected low <= mid <= high on ${date}, got low ${low}, mid ${mid}, high ${high}`);
  }
}

/**
 * Checks one point given as unknown data (a file's or a caller's) and returns it typed and with its date
 * made canonical. `previousDay` is the epoch day of the point before it, for the ascending-order rule.
 */
export function checkPoint(value: unknown, where: string, previousDay: number | undefined, fillDefaults = false): AssessmentPoint {
  if (!isRecord(value)) throw new DataError(where, `expected an object, got ${describe(value)}`);
  const rawDate = value["date"];
  const date = typeof rawDate === "string" ? parseIsoDate(rawDate) : undefined;
  if (date === undefined) throw new DataError(`${where}.date`, `expected a date YYYY-MM-DD, got ${describe(rawDate)}`);
  const day = epochDayOf(date);
  if (previousDay !== undefined && day <= previousDay) {
    throw new DataError(`${where}.date`, `${date} must come after the previous assessment's date ${fromEpochDay(previousDay)} (ascending, one per day)`);
  }
  const low = expectNumber(value["low"], `${where}.low`);
  const mid = expectNumber(value["mid"], `${where}.mid`);
  const high = expectNumber(value["high"], `${where}.high`);
  checkRange(low, mid, high, `${where}.mid`, date);
  const revision = value["revision"] ?? (fillDefaults ? 0 : undefined);
  if (typeof revision !== "number" || !Number.isInteger(revision) || revision < 0 || revision > 65535) {
    throw new DataError(`${where}.revision`, `expected an integer from 0 to 65535, got ${describe(revision)}`);
  }
  const assessmentDate = value["assessmentDate"] ?? (fillDefaults ? `${date}${DEFAULT_ASSESSMENT_TIME}` : undefined);
  if (typeof assessmentDate !== "string" || parseInstant(assessmentDate) === undefined) {
    throw new DataError(`${where}.assessmentDate`, `expected an ISO 8601 date-time with UTC offset such as ${date}T16:30:00+00:00, got ${describe(assessmentDate)}`);
  }
  if (dateOfTimestamp(assessmentDate) < date) {
    throw new DataError(`${where}.assessmentDate`, `${assessmentDate} is before the day it assesses (${date})`);
  }
  const appraisalPrice = value["appraisalPrice"] ?? (fillDefaults ? false : undefined);
  if (typeof appraisalPrice !== "boolean") throw new DataError(`${where}.appraisalPrice`, `expected true or false, got ${describe(appraisalPrice)}`);
  const pricingRationale = value["pricingRationale"] ?? (fillDefaults ? "" : undefined);
  if (typeof pricingRationale !== "string") throw new DataError(`${where}.pricingRationale`, `expected a string, got ${describe(pricingRationale)}`);
  // The file's mid is checked, then replaced by the rounded midpoint: every mid is one (convention 10).
  const point: AssessmentPoint = { date, assessmentDate, revision, low, mid: midOf(low, high), high, appraisalPrice, pricingRationale };
  const curves = value["forwardCurves"];
  if (curves !== undefined) point.forwardCurves = checkForwardCurves(curves, `${where}.forwardCurves`, date);
  return point;
}

function checkForwardCurves(value: unknown, where: string, date: string): ForwardCurvePoint[] {
  if (!Array.isArray(value)) throw new DataError(where, `expected an array, got ${describe(value)}`);
  return value.map((item: unknown, i): ForwardCurvePoint => {
    const at = `${where}[${i}]`;
    if (!isRecord(item)) throw new DataError(at, `expected an object, got ${describe(item)}`);
    const forwardCode = item["forwardCode"];
    if (typeof forwardCode !== "string" || !FORWARD_CODE.test(forwardCode)) {
      throw new DataError(`${at}.forwardCode`, `expected M<n> such as M1, got ${describe(forwardCode)}`);
    }
    const forwardMonth = item["forwardMonth"];
    if (typeof forwardMonth !== "string" || !FORWARD_MONTH.test(forwardMonth)) {
      throw new DataError(`${at}.forwardMonth`, `expected an upper-case three-letter month such as JAN, got ${describe(forwardMonth)}`);
    }
    const low = expectNumber(item["low"], `${at}.low`);
    const mid = expectNumber(item["mid"], `${at}.mid`);
    const high = expectNumber(item["high"], `${at}.high`);
    checkRange(low, mid, high, `${at}.mid`, date);
    return { forwardCode, forwardMonth, low, mid: midOf(low, high), high };
  });
}

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
class ColumnSeries implements AssessmentSeries {
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
function commonPrefix(a: string | undefined, b: string): string {
  if (a === undefined) return b;
  let n = 0;
  const limit = Math.min(a.length, b.length);
  while (n < limit && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  if (n > 0 && n < a.length && (a.charCodeAt(n - 1) & 0xfc00) === 0xd800) n--;
  return n === a.length ? a : a.slice(0, n);
}

/**
 * Builds a series from points, checking that days ascend with one point per day, that
 * low <= mid <= high, and every field's type. Throws a `DataError` naming `source[index].field` and the date.
 */
export function createSeries(points: readonly AssessmentPoint[], source = "points"): AssessmentSeries {
  return readSeries(points, source);
}

/**
 * Like `createSeries`, for data of unknown shape (a parsed file). With `fillDefaults`, a point may leave out
 * `revision` (0), `assessmentDate` (the date at 16:30 UTC), `appraisalPrice` (false) and `pricingRationale` ("").
 */
export function readSeries(values: unknown, source: string, fillDefaults = false): AssessmentSeries & { readonly hasForwardCurves: boolean } {
  if (!Array.isArray(values)) throw new DataError(source, `expected an array of assessments, got ${describe(values)}`);
  let curvePoints = 0;
  let prefix: string | undefined;
  for (const value of values as unknown[]) {
    const curves = isRecord(value) ? value["forwardCurves"] : undefined;
    if (Array.isArray(curves)) curvePoints += curves.length;
    const rationale = isRecord(value) ? value["pricingRationale"] : undefined;
    prefix = commonPrefix(prefix, typeof rationale === "string" ? rationale : "");
  }
  // Each point is checked and stored at once, so that no second copy of the assessments is held while loading.
  const series = new ColumnSeries(values.length, curvePoints, prefix ?? "");
  let previousDay: number | undefined;
  for (let i = 0; i < values.length; i++) {
    const valid = checkPoint(values[i], `${source}[${i}]`, previousDay, fillDefaults);
    const day = epochDayOf(valid.date);
    series.set(i, valid, day);
    previousDay = day;
  }
  return series.finish();
}

/** The assessment at `index` as plain data (all fields written out). */
export function pointAt(series: AssessmentSeries, index: number): AssessmentPoint {
  const point: AssessmentPoint = {
    date: fromEpochDay(series.days[index] ?? 0),
    assessmentDate: series.assessmentDate(index),
    revision: series.revision[index] ?? 0,
    low: series.low[index] ?? 0,
    mid: series.mid[index] ?? 0,
    high: series.high[index] ?? 0,
    appraisalPrice: series.appraisalPrice(index),
    pricingRationale: series.pricingRationale(index),
  };
  const curves = series.forwardCurves(index);
  if (curves !== undefined) point.forwardCurves = curves;
  return point;
}

export function seriesToPoints(series: AssessmentSeries): AssessmentPoint[] {
  const points: AssessmentPoint[] = [];
  for (let i = 0; i < series.length; i++) points.push(pointAt(series, i));
  return points;
}

/** Index of the last assessment on or before `day` (epoch day), or -1 if there is none. */
export function lastIndexOnOrBefore(series: AssessmentSeries, day: number): number {
  return lastDayIndexOnOrBefore(series.days, day);
}

/** Decimal places of every mid and every average (convention 10, vendor). */
export const MID_PLACES = 2;

/**
 * The mid of a low and a high (convention 10): their midpoint rounded to 2 decimals. Only when low and high lie
 * within one cent of each other (loaded data with finer prices) is it kept inside them, as convention 15 wants.
 */
export function midOf(low: number, high: number): number {
  const mid = roundTo((low + high) / 2, MID_PLACES);
  return mid < low ? low : mid > high ? high : mid;
}

/** Rounds half away from zero to `decimals` places; monotone, so it keeps low <= mid <= high. */
export function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  const scaled = abs(value) * scale;
  return (sign(value) * round(scaled + 1e-9)) / scale || 0;
}

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

/** `+05:30` as seconds east of UTC. */
export function offsetSeconds(utcOffset: string): number {
  const sign = utcOffset.startsWith("-") ? -1 : 1;
  return sign * (Number(utcOffset.slice(1, 3)) * 3600 + Number(utcOffset.slice(4, 6)) * 60);
}

/** The instant (ms) at `second` of the day `day` (epoch day) in a desk's UTC offset. */
export function instantOf(day: number, second: number, utcOffset: string): number {
  return (day * 86_400 + second - offsetSeconds(utcOffset)) * 1000;
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

function pad2(value: number): string {
  return value < 10 ? `0${value}` : `${value}`;
}

// `THH:MM:SS+01:00` for every second of the day, per UTC offset, written once when first needed.
const timesOfDay = new Map<string, (string | undefined)[]>();

function timeOfDayTable(utcOffset: string): (string | undefined)[] {
  let table = timesOfDay.get(utcOffset);
  if (table === undefined) {
    table = new Array<string | undefined>(86_400);
    timesOfDay.set(utcOffset, table);
  }
  return table;
}

function timeOfDay(table: (string | undefined)[], minute: number, second: number, utcOffset: string): string {
  const at = minute * 60 + second;
  let text = table[at];
  if (text === undefined) {
    text = `T${pad2(floor(minute / 60))}:${pad2(minute % 60)}:${pad2(second)}${utcOffset}`;
    table[at] = text;
  }
  return text;
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
  private readonly times: (string | undefined)[];

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

  forwardCurves(index: number): ForwardCurvePoint[] | undefined {
    const { key, forwardMonths, decimals } = this.parts;
    if (forwardMonths === 0) return undefined;
    const month = monthIndexOf(this.days[index] ?? 0);
    const low = this.low[index] ?? 0;
    const mid = this.mid[index] ?? 0;
    const high = this.high[index] ?? 0;
    const prefix = hashFirstThree(key, SALT_FORWARD, index);
    const curve: ForwardCurvePoint[] = [];
    for (let ahead = 1; ahead <= forwardMonths; ahead++) {
      const factor = this.forwardFactor(prefix, ahead);
      const curveLow = roundTo(low * factor, decimals);
      const curveHigh = roundTo(high * factor, decimals);
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
    const { key, forwardMonths, decimals } = this.parts;
    if (forwardMonths === 0) return false;
    const month = monthIndexOf(this.days[index] ?? 0);
    const low = this.low[index] ?? 0;
    const mid = this.mid[index] ?? 0;
    const high = this.high[index] ?? 0;
    const prefix = hashFirstThree(key, SALT_FORWARD, index);
    out.raw("[");
    for (let ahead = 1; ahead <= forwardMonths; ahead++) {
      const factor = this.forwardFactor(prefix, ahead);
      const curveLow = roundTo(low * factor, decimals);
      const curveHigh = roundTo(high * factor, decimals);
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
