/**
 * Which price key a LOW/MID/HIGH/PRICE/AVERAGE call asks for each (symbol, date), read from the call's arguments by
 * the functions' own readers, so that the pane's explanation and the runner's provenance name the key a cell asked
 * (average, field and conversion included) and find it in the client's cache.
 */
import type { ConversionTarget } from "../api";
import type { HistoryKey, PriceKey } from "../prices/types";
import { targetAsWritten, withTarget } from "./conversion-args";
import type { DateSystem } from "../formula/excel-dates";
import { historyArguments } from "./history-functions";
import type { PriceField } from "./fields";
import { type PriceRequest, averageRequest, priceKeys, priceRequest } from "./price-functions";

const FIXED_FIELDS: ReadonlyMap<string, PriceField> = new Map<string, PriceField>([["LOW", "low"], ["MID", "mid"], ["HIGH", "high"]]);

/** Where each converting function takes its `currency` and `unit` arguments (0-based, functions.json order). */
const CONVERSION_ARGUMENTS: ReadonlyMap<string, readonly [number, number]> = new Map<string, readonly [number, number]>([
  ["LOW", [2, 3]],
  ["MID", [2, 3]],
  ["HIGH", [2, 3]],
  ["PRICE", [5, 6]],
  ["AVERAGE", [4, 5]],
  ["HISTORY", [9, 10]],
  ["CURVE", [3, 4]],
  ["LIVE", [2, 3]],
]);

/** A call's argument by position (the first cell of a range). */
export type ArgumentAt = (index: number) => unknown;

/** Whether the call is one of the price grid functions (symbols by dates). */
export function isPriceCall(name: string): boolean {
  return FIXED_FIELDS.has(name) || name === "PRICE" || name === "AVERAGE" || name === "LIVE";
}

/** The argument that holds a price call's dates; LIVE has none (-1: no argument, the latest). */
export function datesArgument(name: string): number {
  if (name === "LIVE") return -1;
  return name === "AVERAGE" ? 2 : 1;
}

/** Field and calculation of a price call, as the function reads them; throws the function's ArgumentError where it refuses them. */
export function priceCallRequest(name: string, arg: ArgumentAt): PriceRequest {
  const fixed = FIXED_FIELDS.get(name);
  if (fixed !== undefined) return { field: fixed, calculation: "None", dateFormat: "serial" };
  if (name === "LIVE") return priceRequest(arg(1), undefined, undefined);
  return name === "PRICE" ? priceRequest(arg(2), arg(3), arg(4)) : averageRequest(arg(1), arg(3));
}

/** The conversion a call asks, as written (undefined for a function that does not convert); throws where the function refuses it. */
export function callTarget(name: string, arg: ArgumentAt): ConversionTarget | undefined {
  const at = CONVERSION_ARGUMENTS.get(name);
  return at === undefined ? undefined : targetAsWritten(arg(at[0]), arg(at[1]));
}

/** The key each (symbol, date) of a price call asks; throws where the function refuses its field, calculation or conversion. */
export function priceCallKeys(name: string, arg: ArgumentAt): (symbol: string, date: string | undefined) => PriceKey {
  return priceKeys({ ...priceCallRequest(name, arg), target: callTarget(name, arg) });
}

/** The key a HISTORY call asks (range, calendar, average, fields, conversion); throws where the function refuses its arguments. */
export function historyCallKey(args: readonly unknown[], today: string, system: DateSystem = "1900"): HistoryKey {
  const [symbol, from, to, fields, headers, calendar, calculation, order, dateFormat] = args;
  const key = historyArguments(today, symbol, from, to, fields ?? undefined, headers, calendar, calculation, order, dateFormat, system).key;
  return withTarget(key, callTarget("HISTORY", (index) => args[index]));
}
