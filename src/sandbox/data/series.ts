/**
 * Assessment series from plain data: `createSeries(points)` (hand-made) and `readSeries` (a parsed file), each point
 * checked and stored in the column store, and back to points.
 */
import { fromEpochDay } from "../../api";
import { checkPoint, type AssessmentPoint } from "./assessment-point";
import { ColumnSeries, commonPrefix } from "./column-series";
import { DataError, describe } from "./data-error";
import { lastIndexOnOrBefore as lastDayIndexOnOrBefore } from "./day-search";
import { epochDayOf } from "./day-strings";
import type { AssessmentSeries } from "./model";
import { isRecord } from "../../api/json";

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
