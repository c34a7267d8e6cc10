/** Price records (spec 2.1, 2.5; conventions 10, 15) built from a series: assessed, carried forward or averaged. */
import type { AverageType, PriceRecord } from "../../api";
import type { AssessmentSeries } from "../data/model";
import { dayString, firstIndexOnOrAfter, round } from "./days";
import { periodInterval, periodOf, type Period } from "./periods";

/** Decimal places of averages (convention 10) and of changes and proportions (float noise removed). */
export const AVERAGE_PLACES = 4;
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
function addChanges(record: PriceRecord, current: Triple, previous: Triple | undefined, sel: FieldSelection): void {
  const change = (now: number, before: number | undefined): number => (before === undefined ? 0 : round(now - before, CHANGE_PLACES));
  const proportion = (now: number, before: number | undefined): number =>
    before === undefined || before === 0 ? 0 : round((now - before) / before, CHANGE_PLACES);
  if (sel.lowChange) record.lowChangeSincePrevious = change(current.low, previous?.low);
  if (sel.midChange) record.midChangeSincePrevious = change(current.mid, previous?.mid);
  if (sel.highChange) record.highChangeSincePrevious = change(current.high, previous?.high);
  if (sel.lowProportion) record.lowChangeSincePreviousProportion = proportion(current.low, previous?.low);
  if (sel.midProportion) record.midChangeSincePreviousProportion = proportion(current.mid, previous?.mid);
  if (sel.highProportion) record.highChangeSincePreviousProportion = proportion(current.high, previous?.high);
}

// assessmentDate strings are derived on demand by the generator's series; history asks for the same ones often.
const timestampCache = new WeakMap<AssessmentSeries, (string | undefined)[]>();

export function assessmentDateOf(series: AssessmentSeries, index: number): string {
  let cache = timestampCache.get(series);
  if (cache === undefined) {
    cache = new Array<string | undefined>(series.length);
    timestampCache.set(series, cache);
  }
  let text = cache[index];
  if (text === undefined) {
    text = series.assessmentDate(index);
    cache[index] = text;
  }
  return text;
}

/** The assessment at `index`, standing for `date` (its own day, a requested day, or a carried-forward day). */
export function assessmentRecord(series: AssessmentSeries, index: number, date: string, sel: FieldSelection): PriceRecord {
  const record: PriceRecord = {
    date,
    assessmentDate: assessmentDateOf(series, index),
    revision: series.revision[index] as number,
    low: series.low[index] as number,
    mid: series.mid[index] as number,
    high: series.high[index] as number,
  };
  const curves = series.forwardCurves(index);
  if (curves !== undefined) record.forwardCurves = curves;
  if (sel.appraisalPrice) record.appraisalPrice = series.appraisalPrice(index);
  if (sel.pricingRationale) record.pricingRationale = series.pricingRationale(index);
  if (sel.change) {
    const current = { low: series.low[index] as number, mid: series.mid[index] as number, high: series.high[index] as number };
    const previous =
      index > 0
        ? { low: series.low[index - 1] as number, mid: series.mid[index - 1] as number, high: series.high[index - 1] as number }
        : undefined;
    addChanges(record, current, previous, sel);
  }
  return record;
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
 * An average record (revision 1, assessmentDate of the last averaged). Optional fields: the period interval in
 * the spelling asked; appraisalPrice true when any averaged assessment was an appraisal; a rationale naming
 * what was averaged; changes against the previous period's full average.
 */
export function averageRecord(
  series: AssessmentSeries,
  type: AverageType,
  average: Average,
  date: string,
  sel: FieldSelection,
): PriceRecord {
  const record: PriceRecord = {
    date,
    assessmentDate: assessmentDateOf(series, average.last),
    revision: 1,
    low: average.low,
    mid: average.mid,
    high: average.high,
  };
  if (sel.appraisalPrice) {
    let any = false;
    for (let i = average.first; i <= average.last && !any; i++) any = series.appraisalPrice(i);
    record.appraisalPrice = any;
  }
  if (sel.pricingRationale) {
    const n = average.last - average.first + 1;
    record.pricingRationale = `${type}: mean of ${n} assessment${n === 1 ? "" : "s"} from ${dayString(series.days[average.first] as number)} to ${dayString(series.days[average.last] as number)}`;
  }
  if (sel.assessmentPeriod || sel.evaluationPeriod) {
    const interval = periodInterval(average.period);
    if (sel.assessmentPeriod) record.assessmentPeriod = interval;
    if (sel.evaluationPeriod) record.evaluationPeriod = interval;
  }
  if (sel.change) addChanges(record, average, previousPeriodAverage(series, type, average.first), sel);
  return record;
}
