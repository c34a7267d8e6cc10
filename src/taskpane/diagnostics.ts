/**
 * Tracing a cell back to the service: which function, the client keys it asked for, the request
 * that served each (endpoint and parameters, never the token), and whether the value was assessed
 * that day or carried forward. Pure: the workbook and the client come in as functions.
 */
import { addDays, dateOfTimestamp, todayIso } from "../api";
import type { KeyLineage, LineageKey, PriceKey, PriceRecord, SymbolHistory } from "../prices/types";
import { INSTRUMENT_FIELDS, instrumentFieldOf, requestedInstrumentFields } from "../functions/fields";
import { dateOf, headersOf, isBlank, isSingleCell, symbolOf } from "../functions/coerce";
import { type DateSystem, serialToIsoDate } from "../formula/excel-dates";
import { ArgumentError } from "../functions/errors";
import { FORECAST_DEFAULT_TYPE, FORECAST_HORIZON_DAYS, historyArguments } from "../functions/history-functions";
import { referenceTypeOf } from "../functions/metadata-functions";
import { priceKeys } from "../functions/price-functions";
import { type ArgumentAt, callTarget, datesArgument, priceCallRequest } from "../functions/call-keys";
import { withTarget } from "../functions/conversion-args";
import type { ConversionTarget } from "../api";
import { crossLayout, readItems } from "../functions/shape";
import { cellValueText } from "../formula/text";
import { parseCall, type FormulaArg, type ParsedCall } from "./formula";
import { isDateFormat } from "./number-format";

/** Resolves a reference to its cell values. */
export type ResolveRef = (address: string) => Promise<unknown[][]>;

async function argValues(arg: FormulaArg | undefined, resolve: ResolveRef, today = todayIso()): Promise<unknown[]> {
  if (!arg || arg.kind === "omitted") return [];
  if (arg.kind === "ref") return (await resolve(arg.address)).flat();
  if (arg.kind === "today") return [addDays(today, arg.offsetDays)];
  return [arg.value];
}

/** What the functions read from an argument, or undefined where they refuse it: that cell shows #VALUE! and asks nothing. */
function asTheFunctionsRead<T>(read: () => T): { value: T } | undefined {
  try {
    return { value: read() };
  } catch (error) {
    if (error instanceof ArgumentError) return undefined;
    throw error;
  }
}

/** The conversion a call asks, as written (undefined when none, or when an argument is refused). */
function targetOf(name: string, first: ArgumentAt): ConversionTarget | undefined {
  return asTheFunctionsRead(() => callTarget(name, first))?.value;
}

/** What a trace may ask the client: FORECAST's key starts at the instrument's latest assessment. */
export interface TraceLookups {
  latestDate?: (key: PriceKey) => Promise<string>;
}


export interface TracedCall {
  call: ParsedCall;
  /** The client keys the call asks for (at most `limit`), as the functions build them. */
  keys: LineageKey[];
  /** Whether more keys exist than were listed. */
  truncated: boolean;
}

/** What LOW/MID/HIGH/PRICE/AVERAGE ask (field and calculation) as the functions read it, or undefined where they refuse it. */
function priceRequestOf(name: string, first: ArgumentAt) {
  return asTheFunctionsRead(() => priceCallRequest(name, first));
}

/** HISTORY's arguments as the function reads them (a range of fields passed whole), or undefined where it refuses them. */
function historyArgumentsOf(values: readonly unknown[][], today: string, system: DateSystem) {
  const first = (index: number): unknown => values[index]?.[0];
  const fieldsArg = values[3] !== undefined && values[3].length > 0 ? values[3] : undefined;
  return asTheFunctionsRead(() => historyArguments(today, first(0), first(1), first(2), fieldsArg, first(4), first(5), first(6), first(7), first(8), system));
}

/**
 * Symbols x dates of LOW/MID/HIGH/PRICE/AVERAGE, a history, an instrument or a reference list, read by the functions' own readers.
 * `system` is the workbook's date system, as the functions read serials (`PricesAddin.dateSystem`).
 */
export async function traceFormula(formula: string, resolve: ResolveRef, today: string, limit = 12, system: DateSystem = "1900", lookups: TraceLookups = {}): Promise<TracedCall | undefined> {
  const call = parseCall(formula);
  if (!call) return undefined;
  const values = await Promise.all(call.args.map((arg) => argValues(arg, resolve, today)));
  const first = (index: number): unknown => values[index]?.[0];
  const texts = (index: number): string[] =>
    (values[index] ?? []).filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim());
  const keys: LineageKey[] = [];
  let total = 0;
  const push = (key: LineageKey): void => {
    total++;
    if (keys.length < limit) keys.push(key);
  };
  switch (call.name) {
    case "LOW":
    case "MID":
    case "HIGH":
    case "PRICE":
    case "AVERAGE": {
      const request = priceRequestOf(call.name, first);
      if (!request) break;
      const keyOf = priceKeys({ ...request.value, target: targetOf(call.name, first) });
      const dateValues = values[datesArgument(call.name)] ?? [];
      // A refused date fills only its own cell, and a blank one in a range stays blank; the others still ask.
      const asked = dateValues.length > 1 ? dateValues.filter((value) => !isBlank(value)) : dateValues;
      const dates = dateValues.length > 0 ? asked.flatMap((value) => asTheFunctionsRead(() => dateOf(value, "date", system)) ?? []) : [{ value: undefined }];
      for (const symbol of texts(0)) for (const date of dates) push(keyOf(symbol, date.value));
      break;
    }
    case "HISTORY": {
      const read = historyArgumentsOf(values, today, system);
      if (read) push(withTarget(read.value.key, targetOf(call.name, first)));
      break;
    }
    case "CURVE": {
      const symbol = texts(0)[0];
      const date = asTheFunctionsRead(() => dateOf(first(1), "date", system));
      if (symbol && date) push(withTarget(date.value ? { symbol, date: date.value } : { symbol }, targetOf(call.name, first)));
      break;
    }
    case "INSTRUMENT": {
      // the key the function asks: the fields it names, or every field for the whole record
      const field = asTheFunctionsRead(() => (typeof first(1) === "string" && String(first(1)).trim() !== "" ? [instrumentFieldOf(String(first(1)).trim())] : INSTRUMENT_FIELDS));
      const fields = field ? requestedInstrumentFields(field.value) : [];
      for (const symbol of texts(0)) push(fields.length > 0 ? { instrument: symbol, fields } : { instrument: symbol });
      break;
    }
    case "CONVERSIONS":
      for (const symbol of texts(0).slice(0, 1)) push({ instrument: symbol });
      break;
    case "FORECAST": {
      // FORECAST asks from the latest assessment on: the pane asks the client for it (a cache hit after the cell's own)
      const symbol = texts(0)[0];
      const type = texts(1)[0] ?? FORECAST_DEFAULT_TYPE;
      const target = targetOf(call.name, first);
      const latest = symbol && lookups.latestDate ? await lookups.latestDate(withTarget({ symbol }, target)).catch(() => undefined) : undefined;
      if (symbol && latest) push(withTarget({ symbol, fromDate: latest, toDate: addDays(latest, FORECAST_HORIZON_DAYS), forecastType: type }, target));
      break;
    }
    case "INSTRUMENTS":
      push({ instruments: true });
      break;
    case "REFERENCE": {
      const type = asTheFunctionsRead(() => referenceTypeOf(first(0)));
      if (type) push({ reference: type.value });
      break;
    }
    default:
      break;
  }
  return { call, keys, truncated: total > keys.length };
}

async function argMatrix(arg: FormulaArg | undefined, resolve: ResolveRef, today: string): Promise<unknown[][]> {
  if (!arg || arg.kind === "omitted") return [[null]];
  if (arg.kind === "ref") return resolve(arg.address);
  return [await argValues(arg, resolve, today)];
}

/** One cell of a call's result: the key behind it, and for a table the record row it shows. */
export interface TracedElement {
  call: ParsedCall;
  /** The client key this cell's value came from; undefined when the cell asks nothing (a refused argument, outside the result). */
  key: LineageKey | undefined;
  /** The cell is a header row of the table. */
  header: boolean;
  /** HISTORY, CURVE: which data row of the table (0 = the first under the headers). */
  dataRow?: number;
  /** HISTORY: the order of the rows (the client keeps them newest first). */
  order?: "ascending" | "descending";
}

/**
 * The element at (`row`, `col`) of the result of `formula` (0, 0 = the anchor), read with the functions' own
 * readers and layouts: a (symbol, date) of a price grid, a row of a history, a month of a curve.
 */
export async function traceElement(formula: string, resolve: ResolveRef, today: string, row: number, col: number, system: DateSystem = "1900", lookups: TraceLookups = {}): Promise<TracedElement | undefined> {
  const call = parseCall(formula);
  if (!call) return undefined;
  const values = await Promise.all(call.args.map((arg) => argValues(arg, resolve, today)));
  const first = (index: number): unknown => values[index]?.[0];
  const none: TracedElement = { call, key: undefined, header: false };
  switch (call.name) {
    case "LOW":
    case "MID":
    case "HIGH":
    case "PRICE":
    case "AVERAGE": {
      const request = priceRequestOf(call.name, first);
      if (!request) return none;
      const symbols = readItems(await argMatrix(call.args[0], resolve, today), (cell) => symbolOf(cell));
      const dateMatrix = await argMatrix(call.args[datesArgument(call.name)], resolve, today);
      const dateRange = !isSingleCell(dateMatrix);
      // As the functions read it: a blank date in a range is a blank cell that asks nothing.
      const dates = readItems(dateMatrix, (cell) => (dateRange && isBlank(cell) ? null : dateOf(cell, "date", system)));
      const layout = asTheFunctionsRead(() => crossLayout(symbols, dates));
      if (!layout || row >= layout.value.rows || col >= layout.value.cols) return none;
      const [symbol, date] = layout.value.at(row, col);
      if (!symbol.ok || !date.ok || symbol.value === undefined || date.value === null) return none;
      return { call, key: priceKeys({ ...request.value, target: targetOf(call.name, first) })(symbol.value, date.value), header: false };
    }
    case "HISTORY": {
      const read = historyArgumentsOf(values, today, system);
      if (!read) return none;
      const { headers, order } = read.value;
      const key = withTarget(read.value.key, targetOf(call.name, first));
      return row < headers ? { call, key, header: true } : { call, key, header: false, dataRow: row - headers, order };
    }
    case "CURVE":
    case "FORECAST": {
      const traced = await traceFormula(formula, resolve, today, 1, system, lookups);
      const headers = asTheFunctionsRead(() => headersOf(first(2)));
      if (!traced?.keys[0] || !headers) return none;
      return row < headers.value ? { call, key: traced.keys[0], header: true } : { call, key: traced.keys[0], header: false, dataRow: row - headers.value };
    }
    default: {
      const traced = await traceFormula(formula, resolve, today, 12, system, lookups);
      if (!traced) return none;
      // INSTRUMENT: one symbol per row; the lists: one key for the whole table
      const key = traced.keys.length === 1 ? traced.keys[0] : traced.keys[row];
      return { call, key, header: false };
    }
  }
}

/** Symbols named in PRICES.* formulas (text arguments and referenced cells), for a targeted cache drop. */
export async function symbolsInFormulas(formulas: readonly string[], resolve: ResolveRef): Promise<string[]> {
  const found = new Set<string>();
  for (const formula of formulas) {
    const call = parseCall(formula);
    if (!call || ["INSTRUMENTS", "REFERENCE"].includes(call.name)) continue;
    for (const value of await argValues(call.args[0], resolve)) {
      if (typeof value === "string" && value.trim() !== "") found.add(value.trim().toUpperCase());
    }
  }
  return [...found].sort();
}

export function describeKey(key: LineageKey): string {
  if ("reference" in key) return `reference list ${key.reference}`;
  if ("instruments" in key) return "instrument list";
  if ("instrument" in key) return `instrument ${key.instrument}`;
  const converted = key.currency || key.unit ? ` · in ${[key.currency, key.unit].filter((id) => id).join("/")}` : "";
  if ("fromDate" in key) return `${key.symbol} history ${key.fromDate} to ${key.toDate}${converted}`;
  const parts = [key.symbol, key.date ?? "latest"];
  if (key.calculationType) parts.push(key.calculationType);
  if (key.fields?.length) parts.push(`fields ${key.fields.join(", ")}`);
  return parts.join(" · ") + converted;
}

/**
 * The conversion a key asks, from the instrument's own currency and unit (when the pane knows the instrument) to the
 * target: "from USD/MT to EUR/LB"; undefined for a key without one. The service states no rate, so none is shown.
 */
export function describeConversion(key: LineageKey, own: { currencyId: string; unitOfMeasureId: string } | undefined): string | undefined {
  if (!("symbol" in key) || (!key.currency && !key.unit)) return undefined;
  const from = own === undefined ? "its own currency and unit" : `${own.currencyId}/${own.unitOfMeasureId}`;
  const to = `${key.currency || own?.currencyId || "own currency"}/${key.unit || own?.unitOfMeasureId || "own unit"}`;
  return `from ${from} to ${to}, each value at the rate of its assessment's day (the service states no rate)`;
}

/**
 * "assessed on 2024-03-01", "carried forward from 2024-02-28 (...)", or for a correction published days after the
 * day it stands for (revision 1 or more) "assessed on 2024-03-01, corrected on 2024-03-05 (revision 1)".
 */
export function assessedOrCarried(record: PriceRecord): string {
  const day = dateOfTimestamp(record.assessmentDate);
  if (day === record.date) return `assessed on ${day}`;
  if (day > record.date) {
    return record.revision > 0 ? `assessed on ${record.date}, corrected on ${day} (revision ${record.revision})` : `assessed on ${record.date}, published on ${day}`;
  }
  return `carried forward from ${day} (no assessment on ${record.date})`;
}

export function historySummary(history: SymbolHistory): string {
  const carried = history.prices.filter((p) => !history.assessedDates.has(p.date)).length;
  return `${history.prices.length} rows, ${history.prices.length - carried} assessed, ${carried} carried forward`;
}

/** "3 s ago", "4 min ago", "2 h ago". */
export function age(ms: number): string {
  if (ms < 60_000) return `${Math.max(0, Math.round(ms / 1000))} s ago`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min ago`;
  return `${Math.round(ms / 3_600_000)} h ago`;
}

export interface LineageLine {
  source: string;
  request: string;
  age: string;
}

/**
 * Endpoint and parameters of the request behind a key, and where the value came from in plain words; the token never
 * appears (it travels in a header the log does not keep). A last known value served while the service was
 * unreachable, or a value from this computer's cache kept from an earlier session, says so (the persistent cache's
 * note), never "fresh from the service".
 */
export function describeLineage(lineage: KeyLineage | undefined, now: number): LineageLine {
  if (!lineage) return { source: "not asked yet in this session (recalculate the cell)", request: "", age: "" };
  const request = lineage.request;
  const params = request ? Object.entries(request.params).map(([k, v]) => `${k}=${v}`).join("&") : "";
  const requestText = request ? `${request.method} ${request.endpoint}${params ? `?${params}` : ""}${request.status ? ` → ${request.status}` : ""}` : "";
  const note = lineage.cacheNote;
  if (note?.startsWith("last known value")) {
    return { source: `this computer's cache: ${note}`, request: request ? `${requestText} (failed${request.error ? `: ${request.error}` : ""})` : "", age: "" };
  }
  if (request?.error !== undefined && !lineage.fromCache) return { source: `the request failed: ${request.error}`, request: requestText, age: `asked ${age(now - request.sentAt)}` };
  if (!request && note !== undefined) return { source: `this computer's cache (${note})`, request: "asked in an earlier session", age: "" };
  return {
    source: lineage.fromCache ? (note !== undefined ? `from the cache (${note})` : "from the cache") : "fresh from the service",
    request: request ? requestText : "request no longer in the log",
    age: request ? `fetched ${age(now - request.sentAt)}` : "",
  };
}

/** A cell's value as the pane shows it: numbers to ten significant digits (a date under a date format), booleans as Excel writes them. */
export function cellText(value: unknown, numberFormat?: unknown, system: DateSystem = "1900"): string {
  if (value === null || value === undefined || value === "") return "(blank)";
  if (typeof value === "number" && isDateFormat(numberFormat)) {
    const day = serialToIsoDate(value, system);
    if (day !== undefined) return day;
  }
  return cellValueText(value);
}
