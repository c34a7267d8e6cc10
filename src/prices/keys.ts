/**
 * Keys in normal form: symbols upper-case, dates canonical, fields canonical and sorted, defaults made
 * explicit. Two asks that mean the same thing get the same `id`, which names them in the cache.
 */
import { isCalendarDate, parseIsoDate } from "../api/dates";
import {
  ASSESSMENT_PERIOD_ALIAS,
  CALCULATION_TYPES,
  CALENDAR_TYPES,
  INSTRUMENT_FIELD_NAMES,
  PRICE_OPTIONAL_FIELDS,
  REFERENCE_TYPES,
  matchName,
  type CalculationType,
  type CalendarType,
  type InstrumentFieldName,
  type PriceOptionalField,
  type ReferenceType,
} from "../api/vocabulary";
import { InvalidKeyError } from "./errors";
import type { HistoryKey, LineageKey, PriceKey } from "./types";

export interface NormPriceKey {
  kind: "price";
  id: string;
  symbol: string;
  /** Undefined = latest. */
  date: string | undefined;
  calculationType: CalculationType;
  fields: PriceOptionalField[];
  /** Target currency and unit ids, upper-case; undefined = the instrument's own. */
  currency: string | undefined;
  unit: string | undefined;
  /** Calculation type and conversion: keys of one group can share a request. */
  group: string;
}

export interface NormHistoryKey {
  kind: "history";
  id: string;
  symbol: string;
  fromDate: string;
  toDate: string;
  calendarType: CalendarType;
  carryForward: boolean;
  forecastType: string | undefined;
  calculationType: CalculationType;
  fields: PriceOptionalField[];
  currency: string | undefined;
  unit: string | undefined;
  /** Everything but symbol and fields: keys with equal options share a request. */
  options: string;
}

export interface NormInstrumentKey {
  kind: "instrument";
  id: string;
  symbol: string;
  fields: InstrumentFieldName[];
}

export interface NormInstrumentsKey {
  kind: "instruments";
  id: string;
  fields: InstrumentFieldName[];
}

export interface NormReferenceKey {
  kind: "reference";
  id: string;
  type: ReferenceType;
}

export type NormKey = NormPriceKey | NormHistoryKey | NormInstrumentKey | NormInstrumentsKey | NormReferenceKey;

/** Printable ASCII without lower-case letters or commas (no padding either): already in normal form. */
function isNormalSymbol(text: string): boolean {
  if (text.length === 0) return false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 33 || code > 126 || code === 44 || (code >= 97 && code <= 122)) return false;
  }
  return true;
}

export function normSymbol(symbol: unknown): string {
  if (typeof symbol === "string" && isNormalSymbol(symbol)) return symbol;
  const text = typeof symbol === "string" ? symbol.trim().toUpperCase() : "";
  if (text === "" || text.includes(",")) throw new InvalidKeyError("symbol", `Invalid symbol: ${JSON.stringify(symbol)}`);
  return text;
}

export function normDate(date: unknown, argument = "date"): string {
  // The common case without allocating: already `YYYY-MM-DD` and a real day.
  if (typeof date === "string" && isCalendarDate(date)) return date;
  const canonical = typeof date === "string" ? parseIsoDate(date) : undefined;
  if (!canonical) throw new InvalidKeyError(argument, `Invalid ${argument}: ${JSON.stringify(date)} (expected YYYY-MM-DD)`);
  return canonical;
}

function normCalculationType(value: unknown): CalculationType {
  if (value === undefined || value === null || value === "") return "None";
  const found = typeof value === "string" ? matchName(CALCULATION_TYPES, value.trim()) : undefined;
  if (!found) throw new InvalidKeyError("calculationType", `Unknown calculation type: ${JSON.stringify(value)} (one of ${CALCULATION_TYPES.join(", ")})`);
  return found;
}

/** Shared by every key without fields; never written to. */
const NO_FIELDS: never[] = [];

export function normPriceFields(fields: readonly string[] | undefined): PriceOptionalField[] {
  if (!fields || fields.length === 0) return NO_FIELDS;
  const found = new Set<PriceOptionalField>();
  for (const field of fields) {
    const name = typeof field === "string" ? field.trim() : "";
    if (name === "") continue;
    const canonical = name.toLowerCase() === ASSESSMENT_PERIOD_ALIAS.toLowerCase() ? "assessmentPeriod" : matchName(PRICE_OPTIONAL_FIELDS, name);
    if (!canonical) throw new InvalidKeyError("fields", `Unknown price field: ${JSON.stringify(field)} (one of ${PRICE_OPTIONAL_FIELDS.join(", ")})`);
    found.add(canonical);
  }
  return [...found].sort();
}

export function normInstrumentFields(fields: readonly string[] | undefined): InstrumentFieldName[] {
  if (!fields || fields.length === 0) return NO_FIELDS;
  const found = new Set<InstrumentFieldName>();
  for (const field of fields) {
    const name = typeof field === "string" ? field.trim() : "";
    if (name === "") continue;
    const canonical = matchName(INSTRUMENT_FIELD_NAMES, name);
    if (!canonical) throw new InvalidKeyError("fields", `Unknown instrument field: ${JSON.stringify(field)} (one of ${INSTRUMENT_FIELD_NAMES.join(", ")})`);
    found.add(canonical);
  }
  return [...found].sort();
}

/** The end of a price key's id without fields or calculation type. */
const PLAIN_TAIL = "|None|";

/** A currency or unit id (any case, blanks around dropped; no blank, comma, `|` or `/` inside: the key's separators); blank = none. */
function normTarget(value: unknown, argument: "currency" | "unit"): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === "string" ? value.trim().toUpperCase() : undefined;
  if (text === "") return undefined;
  if (text === undefined || !/^[^\s,|/]{1,40}$/.test(text)) {
    throw new InvalidKeyError(argument, `Invalid ${argument}: ${JSON.stringify(value)} (expected an id such as ${argument === "currency" ? "EUR" : "LB"})`);
  }
  return text;
}

/** `|EUR/LB`, or "" for no conversion: the part of an id and a group that names the conversion. */
function conversionPart(currency: string | undefined, unit: string | undefined): string {
  return currency === undefined && unit === undefined ? "" : "|" + (currency ?? "") + "/" + (unit ?? "");
}

/** A price key's date as a JavaScript caller may leave it out (absent, null or blank: the latest), else the day. */
function normAskedDate(value: unknown): string | undefined {
  return value === undefined || value === null || value === "" ? undefined : normDate(value);
}

export function normPriceKey(key: PriceKey): NormPriceKey {
  const symbol = normSymbol(key.symbol);
  const date = normAskedDate(key.date);
  const calculationType = normCalculationType(key.calculationType);
  const fields = normPriceFields(key.fields);
  const currency = normTarget(key.currency, "currency");
  const unit = normTarget(key.unit, "unit");
  const conversion = conversionPart(currency, unit);
  // Plain concatenation with the common tail as one constant: fewer intermediate strings for a call made once per cell.
  const tail = fields.length === 0 && calculationType === "None" ? PLAIN_TAIL : "|" + calculationType + "|" + fields.join(",");
  // trim() (a no-op on these characters) hands back one flat string instead of a tree of four partial strings, which
  // the lineage and cache maps would hash and compare again and again (about 0.15 us a key of a cold 10,000-key sheet).
  const id = ("p|" + symbol + "|" + (date === undefined ? "latest" : date) + tail + conversion).trim();
  const group = conversion === "" ? calculationType : calculationType + conversion;
  return { kind: "price", id, symbol, date, calculationType, fields, currency, unit, group };
}

export function normHistoryKey(key: HistoryKey): NormHistoryKey {
  const symbol = normSymbol(key.symbol);
  const fromDate = normDate(key.fromDate, "fromDate");
  const toDate = normDate(key.toDate, "toDate");
  if (fromDate > toDate) throw new InvalidKeyError("fromDate", `fromDate ${fromDate} is after toDate ${toDate}`);
  let calendarType: CalendarType = "AssessmentDays";
  if (key.calendarType !== undefined) {
    const found = matchName(CALENDAR_TYPES, key.calendarType.trim());
    if (!found) throw new InvalidKeyError("calendarType", `Unknown calendar type: ${JSON.stringify(key.calendarType)} (one of ${CALENDAR_TYPES.join(", ")})`);
    calendarType = found;
  }
  const carryForward = key.carryForward === true;
  const forecastType = typeof key.forecastType === "string" && key.forecastType.trim() !== "" ? key.forecastType.trim() : undefined;
  const calculationType = normCalculationType(key.calculationType);
  const fields = normPriceFields(key.fields);
  const currency = normTarget(key.currency, "currency");
  const unit = normTarget(key.unit, "unit");
  const options = `${fromDate}|${toDate}|${calendarType}|${carryForward}|${forecastType ?? ""}|${calculationType}${conversionPart(currency, unit)}`;
  return {
    kind: "history",
    id: `h|${symbol}|${options}|${fields.join(",")}`,
    symbol,
    fromDate,
    toDate,
    calendarType,
    carryForward,
    forecastType,
    calculationType,
    fields,
    currency,
    unit,
    options,
  };
}

export function normInstrumentKey(symbol: string, fields: readonly string[] | undefined): NormInstrumentKey {
  const canonical = normSymbol(symbol);
  const names = normInstrumentFields(fields);
  return { kind: "instrument", id: `i|${canonical}|${names.join(",")}`, symbol: canonical, fields: names };
}

export function normInstrumentsKey(fields: readonly string[] | undefined): NormInstrumentsKey {
  const names = normInstrumentFields(fields);
  return { kind: "instruments", id: `l|${names.join(",")}`, fields: names };
}

export function normReferenceKey(type: string): NormReferenceKey {
  const found = typeof type === "string" ? matchName(REFERENCE_TYPES, type.trim()) : undefined;
  if (!found) throw new InvalidKeyError("type", `Unknown reference type: ${JSON.stringify(type)} (one of ${REFERENCE_TYPES.join(", ")})`);
  return { kind: "reference", id: `r|${found}`, type: found };
}

/** Normal form of any key `lineage` accepts. */
export function normLineageKey(key: LineageKey): NormKey {
  if ("reference" in key) return normReferenceKey(key.reference);
  if ("instruments" in key) return normInstrumentsKey(key.fields);
  if ("instrument" in key) return normInstrumentKey(key.instrument, key.fields);
  if ("fromDate" in key) return normHistoryKey(key);
  return normPriceKey(key);
}
