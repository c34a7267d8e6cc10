/**
 * Price records (spec 2.1, 2.5; conventions 10, 15) from a series: assessed, carried forward or averaged,
 * written straight to JSON text in the schema's field order (the same text `JSON.stringify` gives the record).
 */
import type { AverageType } from "../../api";
import type { AssessmentSeries } from "../data/model";
import { MID_PLACES } from "../data/mids";
import type { JsonWriter } from "../data/json";
import { writeFixedPart, type SeriesBytes } from "./record-bytes";
import { dayString } from "../data/day-strings";
import { firstIndexOnOrAfter } from "../data/day-search";
import { round, significant } from "./rounding";
import { periodInterval, periodOf, type Period } from "./periods";

/** Decimal places of averages (convention 10: 2, as every mid) and of changes and proportions (float noise removed). */
export const AVERAGE_PLACES = MID_PLACES;
export const CHANGE_PLACES = 6;

/** The optional fields a request asked for, by canonical name. */
export interface FieldSelection {
  appraisalPrice: boolean;
  pricingRationale: boolean;
  assessmentPeriod: boolean;
  evaluationPeriod: boolean;
  change: boolean;
  lowChange: boolean;
  midChange: boolean;
  highChange: boolean;
  lowProportion: boolean;
  midProportion: boolean;
  highProportion: boolean;
}

export function selectFields(fields: readonly string[]): FieldSelection {
  const has = new Set(fields);
  const selection: FieldSelection = {
    appraisalPrice: has.has("appraisalPrice"),
    pricingRationale: has.has("pricingRationale"),
    assessmentPeriod: has.has("assessmentPeriod"),
    evaluationPeriod: has.has("evaluationPeriod"),
    change: false,
    lowChange: has.has("lowChangeSincePrevious"),
    midChange: has.has("midChangeSincePrevious"),
    highChange: has.has("highChangeSincePrevious"),
    lowProportion: has.has("lowChangeSincePreviousProportion"),
    midProportion: has.has("midChangeSincePreviousProportion"),
    highProportion: has.has("highChangeSincePreviousProportion"),
  };
  selection.change =
    selection.lowChange || selection.midChange || selection.highChange ||
    selection.lowProportion || selection.midProportion || selection.highProportion;
  return selection;
}

interface Triple {
  low: number;
  mid: number;
  high: number;
}

/** change = current - previous; proportion = change / previous (0 when previous is 0); both 0 with no previous. */
function writeChanges(out: JsonWriter, current: Triple, previous: Triple | undefined, sel: FieldSelection, converted = false): void {
  // A converted change keeps significant digits as its values do (convention 22); 6 decimals would cut 0.0012345.
  const change = (now: number, before: number | undefined): number =>
    before === undefined ? 0 : converted ? significant(now - before) : round(now - before, CHANGE_PLACES);
  const proportion = (now: number, before: number | undefined): number =>
    before === undefined || before === 0 ? 0 : round((now - before) / before, CHANGE_PLACES);
  if (sel.lowChange) out.raw(',"lowChangeSincePrevious":').number(change(current.low, previous?.low));
  if (sel.midChange) out.raw(',"midChangeSincePrevious":').number(change(current.mid, previous?.mid));
  if (sel.highChange) out.raw(',"highChangeSincePrevious":').number(change(current.high, previous?.high));
  if (sel.lowProportion) out.raw(',"lowChangeSincePreviousProportion":').number(proportion(current.low, previous?.low));
  if (sel.midProportion) out.raw(',"midChangeSincePreviousProportion":').number(proportion(current.mid, previous?.mid));
  if (sel.highProportion) out.raw(',"highChangeSincePreviousProportion":').number(proportion(current.high, previous?.high));
}

function writeAssessmentDate(out: JsonWriter, series: AssessmentSeries, index: number): void {
  if (series.writeAssessmentDate !== undefined) series.writeAssessmentDate(index, out);
  else out.string(series.assessmentDate(index));
}

/**
 * Writes the assessment at `index`, standing for `date` (its own day, a requested day, or a carried-forward day).
 * `cached` keeps the series' records between answers (see record-bytes.ts).
 */
export function writeAssessment(out: JsonWriter, series: AssessmentSeries, index: number, date: string, sel: FieldSelection, cached?: SeriesBytes): void {
  const plain = !sel.appraisalPrice && !sel.pricingRationale && !sel.change;
  if (cached !== undefined && plain && dayString(series.days[index] as number) === date) {
    cached.writePlain(out, index);
    return;
  }
  out.raw('{"date":').quotedAscii(date);
  if (cached !== undefined) cached.writeFixed(out, index);
  else writeFixedPart(out, series, index);
  if (sel.appraisalPrice) out.raw(',"appraisalPrice":').boolean(series.appraisalPrice(index));
  if (sel.pricingRationale) out.raw(',"pricingRationale":').string(series.pricingRationale(index));
  if (sel.change) {
    const current = { low: series.low[index] as number, mid: series.mid[index] as number, high: series.high[index] as number };
    const previous =
      index > 0
        ? { low: series.low[index - 1] as number, mid: series.mid[index - 1] as number, high: series.high[index - 1] as number }
        : undefined;
    writeChanges(out, current, previous, sel, series.converted === true);
  }
  out.raw("}");
}

/** An average over assessments `first..last` (inclusive) of one period. */
export interface Average extends Triple {
  first: number;
  last: number;
  period: Period;
}

export function averageOver(series: AssessmentSeries, first: number, last: number, period: Period): Average {
  let low = 0;
  let mid = 0;
  let high = 0;
  for (let i = first; i <= last; i++) {
    low += series.low[i] as number;
    mid += series.mid[i] as number;
    high += series.high[i] as number;
  }
  const n = last - first + 1;
  if (series.converted === true) {
    // Converted averages keep their precision too, and their mid is the midpoint of their low and high (convention 22).
    const averageLow = significant(low / n);
    const averageHigh = significant(high / n);
    return { low: averageLow, mid: (averageLow + averageHigh) / 2, high: averageHigh, first, last, period };
  }
  return {
    low: round(low / n, AVERAGE_PLACES),
    mid: round(mid / n, AVERAGE_PLACES),
    high: round(high / n, AVERAGE_PLACES),
    first,
    last,
    period,
  };
}

/** The full average of the period before the one that starts at assessment `first`, if any assessment precedes it. */
export function previousPeriodAverage(series: AssessmentSeries, type: AverageType, first: number): Average | undefined {
  if (first <= 0) return undefined;
  const last = first - 1;
  const period = periodOf(type, series.days[last] as number);
  return averageOver(series, firstIndexOnOrAfter(series.days, period.start), last, period);
}

/**
 * Writes an average record (revision 1, assessmentDate of the last averaged). Optional fields: the period
 * interval in the spelling asked; appraisalPrice true when any averaged assessment was an appraisal; a rationale
 * naming what was averaged; changes against the previous period's full average.
 */
export function writeAverage(out: JsonWriter, series: AssessmentSeries, type: AverageType, average: Average, date: string, sel: FieldSelection): void {
  out.raw('{"date":').quotedAscii(date).raw(',"assessmentDate":');
  writeAssessmentDate(out, series, average.last);
  out.raw(',"revision":1,"low":').number(average.low).raw(',"mid":').number(average.mid).raw(',"high":').number(average.high);
  if (sel.appraisalPrice) {
    let any = false;
    for (let i = average.first; i <= average.last && !any; i++) any = series.appraisalPrice(i);
    out.raw(',"appraisalPrice":').boolean(any);
  }
  if (sel.pricingRationale) {
    const n = average.last - average.first + 1;
    out.raw(',"pricingRationale":').string(`${type}: mean of ${n} assessment${n === 1 ? "" : "s"} from ${dayString(series.days[average.first] as number)} to ${dayString(series.days[average.last] as number)}`);
  }
  if (sel.assessmentPeriod || sel.evaluationPeriod) {
    const interval = periodInterval(average.period);
    if (sel.assessmentPeriod) out.raw(',"assessmentPeriod":').string(interval);
    if (sel.evaluationPeriod) out.raw(',"evaluationPeriod":').string(interval);
  }
  if (sel.change) writeChanges(out, average, previousPeriodAverage(series, type, average.first), sel, series.converted === true);
  out.raw("}");
}
