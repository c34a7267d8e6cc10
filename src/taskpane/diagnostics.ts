/**
 * Tracing a cell back to the service: which function, the client keys it asked for, the request
 * that served each (endpoint and parameters, never the token), and whether the value was assessed
 * that day or carried forward. Pure: the workbook and the client come in as functions.
 */
import { dateOfTimestamp, matchName, parseIsoDate, PRICE_OPTIONAL_FIELDS, ASSESSMENT_PERIOD_ALIAS, CALCULATION_TYPES, type CalculationType } from "../api";
import type { HistoryKey, KeyLineage, LineageKey, PriceKey, PriceRecord, SymbolHistory } from "../prices/types";
import { serialToIsoDate } from "../functions/excelDates";
import { parseCall, type FormulaArg, type ParsedCall } from "./formula";

/** Resolves a reference to its cell values. */
export type ResolveRef = (address: string) => Promise<unknown[][]>;

async function argValues(arg: FormulaArg | undefined, resolve: ResolveRef): Promise<unknown[]> {
  if (!arg || arg.kind === "omitted") return [];
  if (arg.kind === "ref") return (await resolve(arg.address)).flat();
  return [arg.value];
}

function dateText(value: unknown): string | undefined {
  if (typeof value === "number") return serialToIsoDate(value);
  if (typeof value === "string") {
    if (value.trim() === "" || value.trim().toLowerCase() === "latest") return undefined;
    return parseIsoDate(value) ?? value;
  }
  return undefined;
}

function calculationOf(value: unknown): CalculationType | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const text = value.trim().toLowerCase();
  const short: Record<string, CalculationType> = { weekly: "WeeklyAverage", monthly: "MonthlyAverage", quarterly: "QuarterlyAverage", yearly: "YearlyAverage" };
  const found = matchName(CALCULATION_TYPES, value.trim()) ?? short[text];
  return found === "None" ? undefined : found;
}

function optionalField(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  if (value.trim().toLowerCase() === ASSESSMENT_PERIOD_ALIAS.toLowerCase()) return "assessmentPeriod";
  return matchName(PRICE_OPTIONAL_FIELDS, value.trim());
}

function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export interface TracedCall {
  call: ParsedCall;
  /** The client keys the call asks for (at most `limit`), as the functions build them. */
  keys: LineageKey[];
  /** Whether more keys exist than were listed. */
  truncated: boolean;
}

/** Symbols x dates of LOW/MID/HIGH/PRICE/AVERAGE, a history, an instrument or a reference list. */
export async function traceFormula(formula: string, resolve: ResolveRef, today: string, limit = 12): Promise<TracedCall | undefined> {
  const call = parseCall(formula);
  if (!call) return undefined;
  const [a0, a1, a2, a3] = call.args;
  const text = (values: unknown[]): string[] => values.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim());
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
      const symbols = text(await argValues(a0, resolve));
      const dateArg = call.name === "AVERAGE" ? a2 : a1;
      const dates = (await argValues(dateArg, resolve)).map(dateText);
      const calculation = call.name === "AVERAGE" ? calculationOf((await argValues(a1, resolve))[0]) : call.name === "PRICE" ? calculationOf((await argValues(a3, resolve))[0]) : undefined;
      const field = call.name === "PRICE" ? optionalField((await argValues(a2, resolve))[0]) : undefined;
      for (const symbol of symbols) {
        for (const date of dates.length > 0 ? dates : [undefined]) {
          const key: PriceKey = { symbol };
          if (date !== undefined) key.date = date;
          if (calculation) key.calculationType = calculation;
          if (field) key.fields = [field];
          push(key);
        }
      }
      break;
    }
    case "HISTORY": {
      const symbol = text(await argValues(a0, resolve))[0];
      const from = dateText((await argValues(a1, resolve))[0]);
      const to = dateText((await argValues(a2, resolve))[0]) ?? today;
      if (symbol && from) push({ symbol, fromDate: from, toDate: to } satisfies HistoryKey);
      break;
    }
    case "CURVE": {
      const symbol = text(await argValues(a0, resolve))[0];
      const date = dateText((await argValues(a1, resolve))[0]);
      if (symbol) push(date ? { symbol, date } : { symbol });
      break;
    }
    case "INSTRUMENT":
      for (const symbol of text(await argValues(a0, resolve))) push({ instrument: symbol });
      break;
    case "INSTRUMENTS":
      push({ instruments: true });
      break;
    case "REFERENCE": {
      const type = text(await argValues(a0, resolve))[0];
      const found = type ? matchName(["Currency", "UnitOfMeasure", "PriceCalculationType", "Incoterm", "Commodity", "Source"] as const, type) : undefined;
      if (found) push({ reference: found });
      break;
    }
    default:
      break;
  }
  return { call, keys, truncated: total > keys.length };
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
  if ("fromDate" in key) return `${key.symbol} history ${key.fromDate} to ${key.toDate}`;
  const parts = [key.symbol, key.date ?? "latest"];
  if (key.calculationType) parts.push(key.calculationType);
  if (key.fields?.length) parts.push(`fields ${key.fields.join(", ")}`);
  return parts.join(" · ");
}

/** "assessed on 2024-03-01" or "carried forward from 2024-02-28". */
export function assessedOrCarried(record: PriceRecord): string {
  const day = dateOfTimestamp(record.assessmentDate);
  return day === record.date ? `assessed on ${day}` : `carried forward from ${day} (no assessment on ${record.date})`;
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

/** Endpoint and parameters of the request behind a key; the token never appears (it travels in a header the log does not keep). */
export function describeLineage(lineage: KeyLineage | undefined, now: number): LineageLine {
  if (!lineage) return { source: "not asked yet in this session (recalculate the cell)", request: "", age: "" };
  const request = lineage.request;
  const params = request ? Object.entries(request.params).map(([k, v]) => `${k}=${v}`).join("&") : "";
  return {
    source: lineage.fromCache ? "from the cache" : "fresh from the service",
    request: request ? `${request.method} ${request.endpoint}${params ? `?${params}` : ""}${request.status ? ` → ${request.status}` : ""}` : "request no longer in the log",
    age: request ? `fetched ${age(now - request.sentAt)}` : "",
  };
}

export { addDays };

/** A cell's value as the pane shows it: numbers to ten significant digits, booleans as Excel writes them. */
export function cellText(value: unknown): string {
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(10)));
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value === null || value === undefined || value === "") return "(blank)";
  return String(value);
}
