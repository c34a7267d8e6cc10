/** One assessment as plain data (`AssessmentPoint`) and the check of one point given as unknown data. */
import { dateOfTimestamp, fromEpochDay, parseInstant, parseIsoDate, type ForwardCurvePoint } from "../../api";
import { DataError, describe } from "./data-error";
import { epochDayOf } from "./day-strings";
import { midOf } from "./mids";
import { isRecord } from "../../api/json";

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

/** The time written for an assessment whose file leaves `assessmentDate` out. */
export const DEFAULT_ASSESSMENT_TIME = "T16:30:00+00:00";
const FORWARD_CODE = /^M\d+$/;
const FORWARD_MONTH = /^[A-Z]{3}$/;

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
