/**
 * Raw parameters to typed requests (spec 4, conventions 3, 4, 8, 9, 11, 12, 17). Every fault is collected
 * and thrown as one 400 problem naming each parameter; nothing else is ever thrown.
 */
import {
  ASSESSMENT_PERIOD_ALIAS,
  CALCULATION_TYPES,
  CALENDAR_TYPES,
  DEFAULT_LIMITS,
  INSTRUMENT_FIELD_NAMES,
  PARAMETER_NAMES as P,
  PRICE_OPTIONAL_FIELDS,
  REFERENCE_TYPES,
  matchName,
  parseIsoDate,
  type CalculationType,
  type HistoryRequest,
  type InstrumentsRequest,
  type Limits,
  type PricesRequest,
  type ReferencesRequest,
} from "../../api";
import { badRequest, type ParameterError } from "./problems";
import { dedupe, farOver, listValues, oversizedParameters, singleValue, type RawParams } from "./params";

/** Names accepted in price `Fields`: spec 2.5 plus the second spelling of `assessmentPeriod`. */
export const PRICE_FIELD_NAMES: readonly string[] = [...PRICE_OPTIONAL_FIELDS, ASSESSMENT_PERIOD_ALIAS];
/** Fields every price record has: asked for in `Fields` by public clients, and ignored (convention 8). */
export const ALWAYS_PRICE_FIELDS: readonly string[] = ["date", "assessmentDate", "revision", "low", "mid", "high", "forwardCurves"];
/** Fields every instrument record has, ignored in `Fields` alike. */
export const ALWAYS_INSTRUMENT_FIELDS: readonly string[] = [
  "symbol", "productId", "description", "descriptionShort", "commodityId", "priceType", "locationId", "currencyId",
  "unitOfMeasureId", "incotermId", "launchDate", "frequency", "sourceId", "status", "priceCalculationTypeIds",
];

/** Limits, and whether an unknown `Fields` name is a 400 (`--strict-fields`) or ignored (default, convention 8). */
export interface RequestRules extends Limits {
  strictFields?: boolean;
  /** A history's records counted as the calendar days of its range per symbol, whatever it holds (`--count-calendar-days`). */
  countCalendarDays?: boolean;
}

export interface ParsedPricesRequest extends PricesRequest {
  symbols: string[];
  dates?: string[];
  fields: string[];
  priceCalculationType: CalculationType;
}

export interface ParsedHistoryRequest extends HistoryRequest {
  symbols: string[];
  fields: string[];
  calendarType: NonNullable<HistoryRequest["calendarType"]>;
  carryForward: boolean;
  priceCalculationType: CalculationType;
}

export interface ParsedInstrumentsRequest extends InstrumentsRequest {
  fields: string[];
}

/** Collects parameter errors so that one answer names every fault. */
class Faults {
  readonly list: ParameterError[] = [];
  add(parameter: string, message: string): void {
    this.list.push({ parameter, message });
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw badRequest(this.list);
  }
}

/** Caller text as quoted in a message: at most 40 characters of it (convention 8a). */
export function quote(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 40)}...` : value;
  return JSON.stringify(shown);
}

/** Refuses, before any other work, a request with a parameter too large to read (convention 8a). */
function refuseOversized(params: RawParams, rules: Limits): void {
  const oversized = oversizedParameters(params, (name) => {
    if (name === P.symbols.toLowerCase()) return farOver(rules.maxSymbols);
    if (name === P.dates.toLowerCase()) return farOver(rules.maxDates);
    return farOver(0);
  });
  if (oversized.length > 0) throw badRequest(oversized);
}

function symbolsOf(params: RawParams, faults: Faults, required: boolean, limits: Limits): string[] | undefined {
  const symbols = dedupe(listValues(params, P.symbols), (s) => s.toUpperCase());
  if (symbols.length === 0) {
    if (required) faults.add(P.symbols, "is required: give one or more instrument symbols");
    return undefined;
  }
  if (symbols.length > limits.maxSymbols) {
    faults.add(P.symbols, `${symbols.length} symbols is over the limit of ${limits.maxSymbols} symbols per request (maxSymbols)`);
  }
  return symbols;
}

/** The earliest date served, as .NET's DateTime (the vendor's likely platform) reads no year 0000. */
export const EARLIEST_DATE = "0001-01-01";

/** A date of the contract (convention 4) that is not before EARLIEST_DATE; otherwise a fault naming `name`. */
function servedDate(given: string, name: string, faults: Faults): string | undefined {
  const date = parseIsoDate(given);
  if (date === undefined) faults.add(name, `${quote(given)} is not a date YYYY-MM-DD`);
  else if (date < EARLIEST_DATE) faults.add(name, `${quote(given)} is before ${EARLIEST_DATE}, the earliest date served`);
  else return date;
  return undefined;
}

function dateOf(params: RawParams, name: string, faults: Faults, required: boolean): string | undefined {
  const { value, conflict } = singleValue(params, name, (text) => parseIsoDate(text) ?? text);
  if (conflict) {
    faults.add(name, "is given more than once with different values");
    return undefined;
  }
  if (value === undefined) {
    if (required) faults.add(name, "is required: give a date YYYY-MM-DD");
    return undefined;
  }
  return servedDate(value, name, faults);
}

/**
 * The known names given, canonical and deduplicated. Names in `ignored` are dropped; any other unknown name is a
 * fault when `strict`, else dropped too (lenient `Fields`, convention 8).
 */
function namesOf(params: RawParams, name: string, known: readonly string[], faults: Faults, what: string, ignored: readonly string[] = [], strict = true): string[] {
  const names: string[] = [];
  for (const given of listValues(params, name)) {
    const canonical = matchName(known, given);
    if (canonical !== undefined) names.push(canonical);
    else if (strict && matchName(ignored, given) === undefined) faults.add(name, `${quote(given)} is not a known ${what}; known: ${known.join(", ")}`);
  }
  return dedupe(names, (n) => n);
}

function calculationTypeOf(params: RawParams, faults: Faults, fromPath: CalculationType | undefined): CalculationType {
  const { value, conflict } = singleValue(params, P.priceCalculationType, (text) => text.toLowerCase());
  if (conflict) {
    faults.add(P.priceCalculationType, "is given more than once with different values");
    return fromPath ?? "None";
  }
  if (value === undefined) return fromPath ?? "None";
  const type = matchName(CALCULATION_TYPES, value);
  if (type === undefined) {
    faults.add(P.priceCalculationType, `${quote(value)} is not a calculation type; known: ${CALCULATION_TYPES.join(", ")}`);
    return fromPath ?? "None";
  }
  if (fromPath !== undefined && type !== fromPath) {
    faults.add(P.priceCalculationType, `${quote(value)} contradicts the path, which asks for ${fromPath}`);
  }
  return type;
}

/** `targetCurrency` and `targetUnitOfMeasure` (convention 21) as given, upper-cased; the catalogue checks the ids. */
function targetsOf(params: RawParams, faults: Faults): { targetCurrency?: string; targetUnitOfMeasure?: string } {
  const targets: { targetCurrency?: string; targetUnitOfMeasure?: string } = {};
  for (const name of [P.targetCurrency, P.targetUnitOfMeasure] as const) {
    const { value, conflict } = singleValue(params, name, (text) => text.toUpperCase());
    if (conflict) faults.add(name, "is given more than once with different values");
    else if (value !== undefined) targets[name] = value;
  }
  return targets;
}

export function parsePricesRequest(params: RawParams, limits: RequestRules, fromPath?: CalculationType): ParsedPricesRequest {
  refuseOversized(params, limits);
  const faults = new Faults();
  const symbols = symbolsOf(params, faults, true, limits) ?? [];
  const dates: string[] = [];
  for (const given of listValues(params, P.dates)) {
    const date = servedDate(given, P.dates, faults);
    if (date !== undefined) dates.push(date);
  }
  const distinctDates = dedupe(dates, (d) => d);
  if (distinctDates.length > limits.maxDates) {
    faults.add(P.dates, `${distinctDates.length} dates is over the limit of ${limits.maxDates} dates per request (maxDates)`);
  }
  const fields = namesOf(params, P.fields, PRICE_FIELD_NAMES, faults, "price field", ALWAYS_PRICE_FIELDS, limits.strictFields === true);
  const priceCalculationType = calculationTypeOf(params, faults, fromPath);
  const targets = targetsOf(params, faults);
  const records = symbols.length * Math.max(1, distinctDates.length);
  if (faults.list.length === 0 && records > limits.maxRecords) {
    faults.add(P.symbols, `${symbols.length} symbols x ${distinctDates.length} dates is over the limit of ${limits.maxRecords} price records per response (maxRecords)`);
  }
  faults.throwIfAny();
  const request: ParsedPricesRequest = { symbols, fields, priceCalculationType, ...targets };
  if (distinctDates.length > 0) request.dates = distinctDates;
  return request;
}

/** `1`/`0` read as `true`/`false` by comparison: never a lookup in an object keyed by the caller's text. */
function normaliseBoolean(text: string): string {
  const lower = text.toLowerCase();
  if (lower === "1") return "true";
  if (lower === "0") return "false";
  return lower;
}

function booleanOf(params: RawParams, name: string, faults: Faults): boolean {
  const { value, conflict } = singleValue(params, name, normaliseBoolean);
  if (conflict) {
    faults.add(name, "is given more than once with different values");
    return false;
  }
  if (value === undefined) return false;
  if (value === "true") return true;
  if (value === "false") return false;
  faults.add(name, `${quote(value)} is not a boolean: true or false`);
  return false;
}

export function parseHistoryRequest(params: RawParams, limits: RequestRules, fromPath?: CalculationType): ParsedHistoryRequest {
  refuseOversized(params, limits);
  const faults = new Faults();
  const symbols = symbolsOf(params, faults, true, limits) ?? [];
  const fromDate = dateOf(params, P.fromDate, faults, true);
  const toDate = dateOf(params, P.toDate, faults, true);
  if (fromDate !== undefined && toDate !== undefined && fromDate > toDate) {
    faults.add(P.fromDate, `${fromDate} is after ToDate ${toDate}`);
  }
  let calendarType: ParsedHistoryRequest["calendarType"] = "AssessmentDays";
  const calendar = singleValue(params, P.calendarType, (text) => text.toLowerCase());
  if (calendar.conflict) faults.add(P.calendarType, "is given more than once with different values");
  else if (calendar.value !== undefined) {
    const type = matchName(CALENDAR_TYPES, calendar.value);
    if (type === undefined) faults.add(P.calendarType, `${quote(calendar.value)} is not a calendar type; known: ${CALENDAR_TYPES.join(", ")}`);
    else calendarType = type;
  }
  const carryForward = booleanOf(params, P.carryForward, faults);
  const forecast = singleValue(params, P.forecastType);
  if (forecast.conflict) faults.add(P.forecastType, "is given more than once with different values");
  const fields = namesOf(params, P.fields, PRICE_FIELD_NAMES, faults, "price field", ALWAYS_PRICE_FIELDS, limits.strictFields === true);
  const priceCalculationType = calculationTypeOf(params, faults, fromPath);
  const targets = targetsOf(params, faults);
  faults.throwIfAny();
  const request: ParsedHistoryRequest = {
    ...targets,
    symbols,
    fromDate: fromDate as string,
    toDate: toDate as string,
    calendarType,
    carryForward,
    fields,
    priceCalculationType,
  };
  if (forecast.value !== undefined) request.forecastType = forecast.value;
  return request;
}

export function parseInstrumentsRequest(params: RawParams, limits: RequestRules): ParsedInstrumentsRequest {
  refuseOversized(params, limits);
  const faults = new Faults();
  const symbols = symbolsOf(params, faults, false, limits);
  const fields = namesOf(params, P.fields, INSTRUMENT_FIELD_NAMES, faults, "instrument field", ALWAYS_INSTRUMENT_FIELDS, limits.strictFields === true);
  faults.throwIfAny();
  const request: ParsedInstrumentsRequest = { fields };
  if (symbols !== undefined) request.symbols = symbols;
  return request;
}

export function parseReferencesRequest(params: RawParams, limits: Limits = DEFAULT_LIMITS): ReferencesRequest {
  refuseOversized(params, limits);
  const faults = new Faults();
  const types = namesOf(params, P.types, REFERENCE_TYPES, faults, "reference type") as ReferencesRequest["types"][number][];
  if (types.length === 0 && faults.list.length === 0) {
    faults.add(P.types, `is required: give one or more of ${REFERENCE_TYPES.join(", ")}`);
  }
  faults.throwIfAny();
  return { types };
}
