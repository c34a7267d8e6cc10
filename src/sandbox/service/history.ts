/**
 * `/Prices/History` (spec 4.2; conventions 10, 12, 13, 14). Each instrument's records are planned first as
 * (day, assessment index) pairs so that the record limit is checked before any record is built.
 */
import type { Readable } from "node:stream";
import { isoWeekday, toEpochDay, type AverageType, type Forecast, type InvalidInstrument } from "../../api";
import { JsonWriter } from "../data/json";
import type { InstrumentData } from "../data/model";
import { answerFrom, full, PIECE_BYTES, WHOLE_ANSWER_BYTES, type BodyWriter } from "./answer";
import { writeBlockEnd, writeBlockHead, writeInvalid } from "./blocks";
import { bothRequirements, calculationRequirement, type ApiCaller, type Catalogue } from "./catalogue";
import { dayString } from "../data/day-strings";
import { firstIndexOnOrAfter, lastIndexOnOrBefore } from "../data/day-search";
import { forecastFor, forecastRequirement } from "./forecasts";
import { periodOf } from "./periods";
import { ProblemError } from "./problems";
import { averageOver, selectFields, writeAssessment, writeAverage, type Average, type FieldSelection } from "./records";
import type { SeriesBytes } from "./record-bytes";
import type { ParsedHistoryRequest } from "./requests";

// Math functions held locally: under jest's vm context every global lookup is slow.
const { min, max } = Math;

/** Records of one instrument, descending: `days[k]` is the record's date, `indexes[k]` the assessment shown. */
interface Plan {
  days: Int32Array;
  indexes: Int32Array;
  length: number;
}

function emptyPlan(): Plan {
  return { days: new Int32Array(0), indexes: new Int32Array(0), length: 0 };
}

/**
 * The last day carried forward to: ToDate, but never past the data's today, and for a discontinued
 * instrument never past its last assessment.
 */
function carryEnd(instrument: InstrumentData, to: number, today: number): number {
  const series = instrument.series;
  const end = min(to, today);
  if (instrument.record.status === "Discontinued" && series.length > 0) return min(end, series.days[series.length - 1] as number);
  return end;
}

function planPlain(instrument: InstrumentData, request: ParsedHistoryRequest, from: number, to: number, today: number): Plan {
  const series = instrument.series;
  const first = firstIndexOnOrAfter(series.days, from);
  const last = lastIndexOnOrBefore(series.days, to);
  const weekdaysOnly = request.calendarType === "Weekdays";
  if (request.calendarType === "AssessmentDays" || !request.carryForward) {
    const n = max(0, last - first + 1);
    const days = new Int32Array(n);
    const indexes = new Int32Array(n);
    let k = 0;
    for (let i = last; i >= first; i--) {
      const day = series.days[i] as number;
      if (weekdaysOnly && isoWeekday(day) > 4) continue;
      days[k] = day;
      indexes[k] = i;
      k++;
    }
    return { days, indexes, length: k };
  }
  // Carry forward: every calendar day (or weekday) from the first with an assessment on or before it.
  const start = max(from, series.length > 0 ? (series.days[0] as number) : to + 1);
  const end = carryEnd(instrument, to, today);
  if (end < start) return emptyPlan();
  const n = end - start + 1;
  const days = new Int32Array(n);
  const indexes = new Int32Array(n);
  let k = 0;
  let i = lastIndexOnOrBefore(series.days, end);
  for (let day = end; day >= start; day--) {
    while (i > 0 && (series.days[i] as number) > day) i--;
    if (weekdaysOnly && isoWeekday(day) > 4) continue;
    days[k] = day;
    indexes[k] = i;
    k++;
  }
  return { days, indexes, length: k };
}

/** One average per period meeting [from, to], over the period's assessments up to `to`; descending. */
function planAverages(instrument: InstrumentData, type: AverageType, from: number, to: number): Average[] {
  const series = instrument.series;
  const first = firstIndexOnOrAfter(series.days, periodOf(type, from).start);
  const last = lastIndexOnOrBefore(series.days, to);
  const averages: Average[] = [];
  let i = last;
  while (i >= first) {
    const period = periodOf(type, series.days[i] as number);
    let start = i;
    while (start - 1 >= first && (series.days[start - 1] as number) >= period.start) start--;
    averages.push(averageOver(series, start, i, period));
    i = start - 1;
  }
  return averages;
}

/** Days in [from, to] on which any of the instruments was assessed, descending (convention 13). */
function assessedDays(instruments: readonly InstrumentData[], from: number, to: number): string[] {
  const marks = new Set<number>();
  let lowest = Number.POSITIVE_INFINITY;
  let highest = Number.NEGATIVE_INFINITY;
  for (const { series } of instruments) {
    const last = lastIndexOnOrBefore(series.days, to);
    for (let i = firstIndexOnOrAfter(series.days, from); i <= last; i++) {
      const day = series.days[i] as number;
      marks.add(day);
      if (day < lowest) lowest = day;
      if (day > highest) highest = day;
    }
  }
  const dates: string[] = [];
  if (marks.size === 0) return dates;
  if (highest - lowest < marks.size * 8) {
    for (let day = highest; day >= lowest; day--) if (marks.has(day)) dates.push(dayString(day));
  } else {
    for (const day of [...marks].sort((a, b) => b - a)) dates.push(dayString(day));
  }
  return dates;
}

function overLimit(records: number, maxRecords: number): ProblemError {
  return new ProblemError(
    400,
    `The request would return ${records} price records, over the limit of ${maxRecords} price records per response (maxRecords); ask for fewer symbols or a shorter range`,
    [
      { parameter: "Symbols", message: `with this range, ${records} price records is over the limit of ${maxRecords} (maxRecords)` },
      { parameter: "FromDate", message: `with these symbols, ${records} price records is over the limit of ${maxRecords} (maxRecords)` },
    ],
  );
}

/** Bytes per record to reserve: a plain record, and the forward curves of instruments that have them. */
const RECORD_BYTES = 170;
const CURVES_BYTES = 1000;

/** About the size of a plain history body, exact for the parts kept already: one right-sized buffer per answer. */
function expectedBytes(found: readonly InstrumentData[], plans: readonly Plan[], kept: readonly (SeriesBytes | undefined)[]): number {
  let total = 0;
  plans.forEach((plan, n) => {
    const guess = RECORD_BYTES + (found[n]?.record.hasForwardCurves ? CURVES_BYTES : 0);
    const bytes = kept[n];
    if (bytes === undefined) {
      total += plan.length * guess;
      return;
    }
    // A kept record is the whole record; a comma goes between records.
    total += plan.length;
    for (let k = 0; k < plan.length; k++) total += bytes.lengthOf(plan.indexes[k] as number, guess);
  });
  return total;
}

/** Records copied from kept bytes in one go at most: a pause comes at least this often. */
const RUN_LIMIT = 256;

/** Writes plain history records, pausing between records once a piece is full (see answer.ts). */
function* plainBody(out: JsonWriter, catalogue: Catalogue, found: readonly InstrumentData[], plans: readonly Plan[], sel: FieldSelection, forecastOf: ForecastOf, converted: boolean): BodyWriter {
  const optional = sel.appraisalPrice || sel.pricingRationale || sel.change;
  for (let n = 0; n < found.length; n++) {
    const instrument = found[n] as InstrumentData;
    const plan = plans[n] as Plan;
    const series = instrument.series;
    // Asked again per instrument: between pauses other answers may have pushed this series' bytes out.
    const bytes = catalogue.recordBytes.of(series);
    if (n > 0) out.raw(",");
    // A record on the assessment's own day without optional fields is a kept record as it stands.
    const plain = (k: number): boolean => !optional && plan.days[k] === series.days[plan.indexes[k] as number];
    writeBlockHead(out, instrument, converted);
    let k = 0;
    while (k < plan.length) {
      if (k > 0) out.raw(",");
      if (bytes !== undefined && plain(k)) {
        k = bytes.writePlainRun(out, plan.indexes, k, min(plan.length, k + RUN_LIMIT), plain);
      } else {
        writeAssessment(out, series, plan.indexes[k] as number, dayString(plan.days[k] as number), sel, bytes);
        k++;
      }
      if (full(out)) yield;
    }
    writeBlockEnd(out, forecastOf(instrument));
  }
}

/** Writes averaged history records, pausing between records once a piece is full. */
function* averagesBody(
  out: JsonWriter,
  found: readonly InstrumentData[],
  plans: readonly Average[][],
  type: AverageType,
  to: number,
  sel: FieldSelection,
  forecastOf: ForecastOf,
  converted: boolean,
): BodyWriter {
  for (let n = 0; n < found.length; n++) {
    const instrument = found[n] as InstrumentData;
    if (n > 0) out.raw(",");
    writeBlockHead(out, instrument, converted);
    const averages = plans[n] as Average[];
    for (let k = 0; k < averages.length; k++) {
      if (k > 0) out.raw(",");
      const average = averages[k] as Average;
      writeAverage(out, instrument.series, type, average, dayString(min(average.period.end, to)), sel);
      if (full(out)) yield;
    }
    writeBlockEnd(out, forecastOf(instrument));
  }
}

type ForecastOf = (instrument: InstrumentData) => Forecast | undefined;

function* historyBody(out: JsonWriter, records: BodyWriter, found: readonly InstrumentData[], invalid: readonly InvalidInstrument[], type: string, from: number, to: number): BodyWriter {
  out.raw('{"instruments":[');
  yield* records;
  out.raw('],"calendar":{"type":"AssessmentDays","dates":[');
  const dates = assessedDays(found, from, to);
  for (let i = 0; i < dates.length; i++) {
    if (i > 0) out.raw(",");
    out.string(dates[i] as string);
    if (full(out)) yield;
  }
  out.raw(']},"priceCalculationType":').string(type);
  writeInvalid(out, invalid);
  out.raw("}");
}

/** The `/Prices/History` body (HistoryResponse) as JSON: whole, or streamed when large. Limits are checked first. */
export function historyQuery(catalogue: Catalogue, caller: ApiCaller, request: ParsedHistoryRequest, maxRecords: number, countCalendarDays = false): string | Buffer | Readable {
  const type = request.priceCalculationType;
  const target = catalogue.conversions.target(request.targetCurrency, request.targetUnitOfMeasure);
  const requirement = bothRequirements(
    bothRequirements(calculationRequirement(type), request.forecastType === undefined ? undefined : forecastRequirement(request.forecastType)),
    catalogue.conversions.requirement(target),
  );
  const resolved = catalogue.resolve(request.symbols, caller, requirement);
  const found = resolved.found.map((instrument) => catalogue.conversions.apply(instrument, target));
  const invalid = resolved.invalid;
  const converted = target !== undefined;
  const from = toEpochDay(request.fromDate);
  const to = toEpochDay(request.toDate);
  const today = toEpochDay(catalogue.data.today);
  const sel: FieldSelection = selectFields(request.fields);
  const forecastType = request.forecastType;
  const forecastOf: ForecastOf = (instrument) =>
    forecastType === undefined ? undefined : forecastFor(instrument, forecastType, request.fromDate, request.toDate);

  let records: BodyWriter;
  // Sized for the whole answer when it will be sent whole, for the first part of it when it will be streamed.
  const out = (bytes: number): JsonWriter => new JsonWriter(min(bytes, WHOLE_ANSWER_BYTES + PIECE_BYTES), catalogue.scratch);
  let writer: JsonWriter;
  if (type === "None") {
    const plans = found.map((instrument) => planPlain(instrument, request, from, to, today));
    const total = countCalendarDays ? found.length * max(0, to - from + 1) : plans.reduce((sum, plan) => sum + plan.length, 0);
    if (total > maxRecords) throw overLimit(total, maxRecords);
    const kept = found.map((instrument) => catalogue.recordBytes.of(instrument.series));
    // Plus each block's head and the calendar (13 bytes a date; at most one a day and one an assessment, so that
    // a range of centuries costs nothing up front).
    const calendarDates = min(max(0, to - from + 1), found.reduce((sum, instrument) => sum + instrument.series.length, 0));
    writer = out(expectedBytes(found, plans, kept) + found.length * 256 + calendarDates * 13 + 4096);
    records = plainBody(writer, catalogue, found, plans, sel, forecastOf, converted);
  } else {
    const plans = found.map((instrument) => planAverages(instrument, type, from, to));
    const total = plans.reduce((sum, plan) => sum + plan.length, 0);
    if (total > maxRecords) throw overLimit(total, maxRecords);
    writer = out(total * RECORD_BYTES + 4096);
    records = averagesBody(writer, found, plans, type, to, sel, forecastOf, converted);
  }
  return answerFrom(writer, historyBody(writer, records, found, invalid, type, from, to));
}
