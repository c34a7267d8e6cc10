/**
 * The cells a price key's change concerns, for the pane's jump to each: the formula cells whose PRICES.LOW/MID/HIGH/
 * PRICE/AVERAGE call names the change's symbol and date asked (no date for a latest value), read as the pane reads
 * formulas elsewhere (src/taskpane/formula-calls.ts: literals, referenced cells, TODAY()-N). A day of a history
 * concerns the HISTORY calls that asked that history (symbol, from and to).
 */
import { addDays } from "../api";
import type { KeyChange } from "../sessions/change-log";
import type { ResolveRef } from "./diagnostics";
import type { FormulaCell } from "./excel-host";
import { pricesCalls } from "./formula-calls";

const PRICE_KEY_FUNCTIONS = new Set(["LOW", "MID", "HIGH", "PRICE", "AVERAGE", "HISTORY"]);

/** 1900-system serial 25569 is 1970-01-01. */
const SERIAL_OF_EPOCH = 25569;

function flat(value: unknown): unknown[] {
  return Array.isArray(value) ? value.flatMap(flat) : [value];
}

function asDate(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim().slice(0, 10);
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return addDays("1970-01-01", value - SERIAL_OF_EPOCH);
  return undefined;
}

function concerns(change: KeyChange, name: string, args: readonly unknown[], today: string): boolean {
  const symbols = flat(args[0]).filter((value): value is string => typeof value === "string").map((value) => value.trim().toUpperCase());
  if (!symbols.includes(change.symbol)) return false;
  if (change.within !== undefined || name === "HISTORY") return name === "HISTORY" && `${asDate(flat(args[1])[0]) ?? ""}..${asDate(flat(args[2])[0]) ?? today}` === change.within;
  const dates = flat(args[1]).filter((value) => value !== null && value !== undefined && value !== "");
  return change.dateAsked === "latest" ? dates.length === 0 : dates.some((value) => asDate(value) === change.dateAsked);
}

/** Per change id, the addresses of the cells it concerns, in workbook order. */
export async function cellsOfChanges(changes: readonly KeyChange[], cells: readonly FormulaCell[], resolve: ResolveRef, today: string): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>(changes.map((change) => [change.id, []]));
  for (const cell of cells) {
    const calls = (await pricesCalls(cell.formula, resolve, today)).filter((call) => PRICE_KEY_FUNCTIONS.has(call.name));
    for (const change of changes) {
      // The days of one history share its id, and its cells.
      const list = found.get(change.id);
      if (list && !list.includes(cell.address) && calls.some((call) => concerns(change, call.name, call.args, today))) list.push(cell.address);
    }
  }
  return found;
}
