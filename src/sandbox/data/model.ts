/**
 * The sandbox's data set in memory: what the generator builds and `--data DIR` loads.
 * Assessments are stored by column (typed arrays) so that 300+ instruments from 2005 stay small.
 */
import type { ForwardCurvePoint, InstrumentRecord, ReferenceGroup } from "../../api";
import type { FxRates } from "./fx-rates";
import type { JsonWriter } from "./json";

/** One instrument's assessments, ascending by day; index i is one assessment. */
export interface AssessmentSeries {
  readonly length: number;
  /** Epoch days (see api/dates.ts), strictly ascending. */
  readonly days: Int32Array;
  readonly low: Float64Array;
  readonly mid: Float64Array;
  readonly high: Float64Array;
  /** 0 for a first value, 1 or more for a corrected one. */
  readonly revision: Uint16Array;
  /** True for values converted to another currency or unit: they keep significant digits, not 2 decimals (convention 22). */
  readonly converted?: boolean;
  /** ISO 8601 date-time with UTC offset, e.g. `2024-03-01T16:30:00+00:00`. */
  assessmentDate(index: number): string;
  appraisalPrice(index: number): boolean;
  pricingRationale(index: number): string;
  /** M1..Mn for instruments with forward curves, else undefined. */
  forwardCurves(index: number): ForwardCurvePoint[] | undefined;
  /** Optional fast path: writes `forwardCurves(index)` as `JSON.stringify` would; false (nothing written) without curves. */
  writeForwardCurves?(index: number, out: JsonWriter): boolean;
  /** Optional fast path: writes `assessmentDate(index)` as a JSON string. */
  writeAssessmentDate?(index: number, out: JsonWriter): void;
  /** The instant (ms since 1970) of `assessmentDate(index)`. */
  publishedAt(index: number): number;
  /**
   * How many leading assessments an answer at `now` may show (convention 20): every one of them was published by
   * `now`, and so no answer holds an assessment from the future.
   */
  publishedCount(now: number): number;
  /** The whole series when this is a published prefix of it (see data/published.ts). */
  readonly whole?: AssessmentSeries;
}

export interface ForecastData {
  /** Forecast type id, e.g. `F24M`. */
  type: string;
  version: number;
  /** ISO 8601 UTC date-time with milliseconds. */
  publicationDate: string;
  /** Ascending; `date` is an ISO 8601 UTC date-time with milliseconds. */
  prices: { date: string; low: number; mid: number; high: number }[];
}

export interface InstrumentData {
  /** Every field of spec 2.6, optional ones included (full names, forecastTypeIds, hasForwardCurves). */
  record: Required<InstrumentRecord>;
  series: AssessmentSeries;
  forecasts: ForecastData[];
}

export interface DataSet {
  /** The day the data runs to (`--today`, or the real date when generated). */
  today: string;
  /** Sorted by symbol. */
  instruments: InstrumentData[];
  /** All six reference types of spec 4.5, consistent with the instruments' ids. */
  references: ReferenceGroup[];
  /** Daily FX rates (convention 21); without them no currency converts. */
  fxRates?: FxRates;
}
