/** The fields a cell can show: price record fields and instrument record fields, and how each is read. */
import { INSTRUMENT_BASE_FIELDS, type InstrumentRecord, type PriceRecord } from "../api/schemas";
import {
  ASSESSMENT_PERIOD_ALIAS,
  INSTRUMENT_OPTIONAL_FIELDS,
  PRICE_OPTIONAL_FIELDS,
  type PriceOptionalField,
} from "../api/vocabulary";
import { ArgumentError, NotAvailableError } from "./errors";
import { dateTimeToSerial, isoDateToSerial, type DateSystem } from "../formula/excel-dates";
import { show, squash, type DateFormat } from "./coerce";

export const PRICE_BASE_FIELDS = ["low", "mid", "high", "date", "assessmentDate", "revision"] as const;
export type PriceField = (typeof PRICE_BASE_FIELDS)[number] | PriceOptionalField;
export const PRICE_FIELDS: readonly PriceField[] = [...PRICE_BASE_FIELDS, ...PRICE_OPTIONAL_FIELDS];

/** HISTORY also offers `assessed`: FALSE for a day filled by carry-forward. */
export type HistoryField = PriceField | "assessed";
export const HISTORY_FIELDS: readonly HistoryField[] = [...PRICE_FIELDS, "assessed"];
export const DEFAULT_HISTORY_FIELDS: readonly HistoryField[] = ["date", "low", "mid", "high"];

/** A Map, not an object literal: user text such as "constructor" must not find Object.prototype's members. */
function findName<T extends string>(names: readonly T[], given: string, extra: ReadonlyMap<string, T> = new Map()): T | undefined {
  const wanted = squash(given);
  return names.find((name) => squash(name) === wanted) ?? extra.get(wanted);
}

const PRICE_FIELD_ALIASES: ReadonlyMap<string, PriceField> = new Map<string, PriceField>([
  [squash(ASSESSMENT_PERIOD_ALIAS), "assessmentPeriod"],
  ["price", "mid"],
]);

export function priceFieldOf(given: string | undefined, name = "field", fallback: PriceField = "mid"): PriceField {
  if (given === undefined) return fallback;
  const field = findName(PRICE_FIELDS, given, PRICE_FIELD_ALIASES);
  if (field === undefined) throw new ArgumentError(`${name} must be one of ${PRICE_FIELDS.join(", ")}; got ${show(given)}`);
  return field;
}

export function historyFieldOf(given: string): HistoryField {
  const field = findName(HISTORY_FIELDS, given, PRICE_FIELD_ALIASES);
  if (field === undefined) throw new ArgumentError(`fields must name ${HISTORY_FIELDS.join(", ")}; got ${show(given)}`);
  return field;
}

/** The optional fields (spec 2.5) the service must be asked for to show these fields. */
export function requestedPriceFields(fields: readonly HistoryField[]): string[] {
  return [...new Set(fields.filter((field) => OPTIONAL_PRICE_FIELDS.has(field)))];
}

const OPTIONAL_PRICE_FIELDS: ReadonlySet<string> = new Set<string>(PRICE_OPTIONAL_FIELDS);

export function dateOut(isoDate: string, format: DateFormat, system: DateSystem = "1900"): number | string {
  return format === "text" ? isoDate : isoDateToSerial(isoDate, system);
}

/** Date-times become serials with the UTC time of day as fraction, or stay text as served. */
export function dateTimeOut(value: string, format: DateFormat, system: DateSystem = "1900"): number | string {
  if (format === "text") return value;
  return dateTimeToSerial(value, system) ?? value;
}

export function priceFieldValue(record: PriceRecord, field: PriceField, format: DateFormat, symbol: string, system: DateSystem = "1900"): unknown {
  switch (field) {
    case "low":
    case "mid":
    case "high":
    case "revision":
      return record[field];
    case "date":
      return dateOut(record.date, format, system);
    case "assessmentDate":
      return dateTimeOut(record.assessmentDate, format, system);
    case "assessmentPeriod": {
      const period = record.assessmentPeriod ?? record.evaluationPeriod;
      if (period === undefined) {
        throw new NotAvailableError(`assessmentPeriod is given only for averages: set calculation for '${symbol}'`);
      }
      return period;
    }
    default: {
      const value = record[field];
      if (value === undefined) throw new NotAvailableError(`the service sent no ${field} for '${symbol}'`);
      return value;
    }
  }
}


type OptionalFieldMap = typeof INSTRUMENT_OPTIONAL_FIELDS;
export type InstrumentOptionalKey = OptionalFieldMap[keyof OptionalFieldMap];
export type InstrumentField = (typeof INSTRUMENT_BASE_FIELDS)[number] | InstrumentOptionalKey;

const OPTIONAL_BY_KEY = new Map<string, string>(
  Object.entries(INSTRUMENT_OPTIONAL_FIELDS).map(([request, key]) => [key, request]),
);
/** Instrument fields: the always-present ones, then the full names and flags named in `Fields` (spec 2.6). */
export const INSTRUMENT_FIELDS: readonly InstrumentField[] = [
  ...INSTRUMENT_BASE_FIELDS,
  ...(Object.values(INSTRUMENT_OPTIONAL_FIELDS) as InstrumentOptionalKey[]),
];
export const DEFAULT_INSTRUMENTS_FIELDS: readonly InstrumentField[] = [
  "symbol",
  "description",
  "currencyId",
  "unitOfMeasureId",
  "frequency",
];

export function instrumentFieldOf(given: string, name = "field"): InstrumentField {
  // "UnitOfMeasure" (the request name) and "unitOfMeasure" (the record key) squash alike.
  const field = findName(INSTRUMENT_FIELDS, given);
  if (field === undefined) throw new ArgumentError(`${name} must be one of ${INSTRUMENT_FIELDS.join(", ")}; got ${show(given)}`);
  return field;
}

/** The `Fields` names the service needs for these record keys. */
export function requestedInstrumentFields(fields: readonly InstrumentField[]): string[] {
  const names: string[] = [];
  for (const field of fields) {
    const request = OPTIONAL_BY_KEY.get(field);
    if (request !== undefined && !names.includes(request)) names.push(request);
  }
  return names;
}

export function instrumentFieldValue(record: InstrumentRecord, field: InstrumentField, format: DateFormat, system: DateSystem = "1900"): unknown {
  const value: unknown = record[field];
  if (value === undefined) throw new NotAvailableError(`the service sent no ${field} for '${record.symbol}'`);
  if (field === "launchDate" && typeof value === "string") return dateOut(value, format, system);
  if (Array.isArray(value)) return value.join(", ");
  return value;
}
