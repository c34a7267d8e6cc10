/**
 * `/Prices` and its averages (spec 4.1, 4.3; conventions 9, 10). One record per distinct requested date, in
 * the order asked; a date before the first assessment has no record.
 */
import type { Readable } from "node:stream";
import { toEpochDay, type AverageType, type InvalidInstrument } from "../../api";
import { JsonWriter } from "../data/json";
import type { InstrumentData } from "../data/model";
import { answerFrom, full, PIECE_BYTES, WHOLE_ANSWER_BYTES, type BodyWriter } from "./answer";
import { writeBlockEnd, writeBlockHead, writeInvalid } from "./blocks";
import { bothRequirements, calculationRequirement, type ApiCaller, type Catalogue } from "./catalogue";
import { dayString } from "../data/day-strings";
import { firstIndexOnOrAfter, lastIndexOnOrBefore } from "../data/day-search";
import { periodOf } from "./periods";
import { averageOver, selectFields, writeAssessment, writeAverage, type FieldSelection } from "./records";
import type { SeriesBytes } from "./record-bytes";
import type { ParsedPricesRequest } from "./requests";

/** Writes the assessment on or before `day` (latest when undefined), standing for `date`; false when there is none. */
function plainRecord(out: JsonWriter, instrument: InstrumentData, day: number | undefined, date: string | undefined, sel: FieldSelection, cached: SeriesBytes | undefined): boolean {
  const series = instrument.series;
  const index = day === undefined ? series.length - 1 : lastIndexOnOrBefore(series.days, day);
  if (index < 0) return false;
  writeAssessment(out, series, index, date ?? dayString(series.days[index] as number), sel, cached);
  return true;
}

/**
 * The average of D's period to date. When D's period holds no assessment on or before D, the latest earlier
 * period's average stands for D, as the latest earlier assessment does for a plain price.
 */
function averagedRecord(
  out: JsonWriter,
  instrument: InstrumentData,
  type: AverageType,
  day: number | undefined,
  date: string | undefined,
  sel: FieldSelection,
): boolean {
  const series = instrument.series;
  const last = day === undefined ? series.length - 1 : lastIndexOnOrBefore(series.days, day);
  if (last < 0) return false;
  const lastDay = series.days[last] as number;
  const ownPeriod = periodOf(type, day ?? lastDay);
  const period = lastDay >= ownPeriod.start ? ownPeriod : periodOf(type, lastDay);
  const average = averageOver(series, firstIndexOnOrAfter(series.days, period.start), last, period);
  writeAverage(out, series, type, average, date ?? dayString(day ?? lastDay), sel);
  return true;
}

/** Writes the `/Prices` body, pausing between records once a piece is full (see answer.ts). */
function* pricesBody(out: JsonWriter, catalogue: Catalogue, found: readonly InstrumentData[], invalid: readonly InvalidInstrument[], request: ParsedPricesRequest): BodyWriter {
  const type = request.priceCalculationType;
  const sel = selectFields(request.fields);
  const dates = request.dates;
  const days = dates?.map(toEpochDay);
  const converted = request.targetCurrency !== undefined || request.targetUnitOfMeasure !== undefined;
  out.raw('{"instruments":[');
  for (let n = 0; n < found.length; n++) {
    const instrument = found[n] as InstrumentData;
    if (n > 0) out.raw(",");
    const cached = type === "None" ? catalogue.recordBytes.of(instrument.series) : undefined;
    writeBlockHead(out, instrument, converted);
    const count = dates === undefined || days === undefined ? 1 : dates.length;
    let written = 0;
    for (let i = 0; i < count; i++) {
      const mark = out.length;
      if (written > 0) out.raw(",");
      const day = days?.[i];
      const date = dates?.[i];
      const ok = type === "None" ? plainRecord(out, instrument, day, date, sel, cached) : averagedRecord(out, instrument, type, day, date, sel);
      if (ok) written++;
      else out.truncate(mark);
      if (full(out)) yield;
    }
    writeBlockEnd(out);
  }
  out.raw('],"priceCalculationType":').string(type);
  writeInvalid(out, invalid);
  out.raw("}");
}

/** The `/Prices` body (PricesResponse) as JSON: whole, or streamed when large. */
export function pricesQuery(catalogue: Catalogue, caller: ApiCaller, request: ParsedPricesRequest): string | Buffer | Readable {
  const target = catalogue.conversions.target(request.targetCurrency, request.targetUnitOfMeasure);
  const requirement = bothRequirements(calculationRequirement(request.priceCalculationType), catalogue.conversions.requirement(target));
  const resolved = catalogue.resolve(request.symbols, caller, requirement);
  const found = resolved.found.map((instrument) => catalogue.conversions.apply(instrument, target));
  const invalid = resolved.invalid;
  const expected = found.length * (request.dates?.length ?? 1) * 160 + 256;
  const out = new JsonWriter(Math.min(expected, WHOLE_ANSWER_BYTES + PIECE_BYTES), catalogue.scratch);
  return answerFrom(out, pricesBody(out, catalogue, found, invalid, request));
}
