/**
 * Provenance of the runner's frozen cells: from the custom calls the engine recorded for each formula, the price keys
 * behind each cell (symbols down, dates across, as the functions lay them out), described by the client's cache and
 * lineage (src/prices/provenance.ts). A HISTORY or other table gets one row naming its symbol and range of dates (and, for
 * a HISTORY, when its request left and which endpoint served it).
 */
import { formatCellAddress, parseCellAddress } from "../formula/a1";
import { dateOf, isBlank } from "../functions/coerce";
import type { DateSystem } from "../functions/excelDates";
import { todayIso } from "../api/dates";
import { datesArgument, historyCallKey, isPriceCall, priceCallKeys } from "../functions/call-keys";
import type { HistoryKey, PriceKey } from "../prices/types";
import { type ProvenanceClient, type ProvenanceRow, describePrice, describeRetrieval } from "../prices/provenance";
import type { CustomCallRecord } from "./engine";

interface Cell {
  readonly value: unknown;
  readonly row: number;
  readonly col: number;
}

function cellsOf(arg: unknown): Cell[] {
  if (!Array.isArray(arg)) return [{ value: arg, row: 0, col: 0 }];
  return (arg as unknown[]).flatMap((row, r) => (Array.isArray(row) ? row.map((value: unknown, c) => ({ value, row: r, col: c })) : [{ value: row, row: r, col: 0 }]));
}

/** A date argument as the functions read it in the book's date system: an ISO date, or undefined for the latest; not ok where refused. */
function readDate(value: unknown, system: DateSystem): { ok: true; value: string | undefined } | { ok: false } {
  try {
    return { ok: true, value: dateOf(value, "date", system) };
  } catch {
    return { ok: false };
  }
}

function isoDateOf(value: unknown, system: DateSystem): string | undefined {
  const date = readDate(value, system);
  return date.ok ? date.value : undefined;
}

function pairs(symbols: Cell[], dates: Cell[]): { symbol: Cell; date: Cell; row: number; col: number }[] {
  if (dates.length <= 1) {
    const date = dates[0] ?? { value: null, row: 0, col: 0 };
    return symbols.map((symbol) => ({ symbol, date, row: symbol.row, col: symbol.col }));
  }
  if (symbols.length === 1 && symbols[0]) {
    const symbol = symbols[0];
    return dates.map((date) => ({ symbol, date, row: date.row, col: date.col }));
  }
  const symbolsDown = symbols.every((cell) => cell.col === 0);
  const datesAcross = dates.every((cell) => cell.row === 0);
  if (symbolsDown && datesAcross) return symbols.flatMap((symbol) => dates.map((date) => ({ symbol, date, row: symbol.row, col: date.col })));
  return symbols.flatMap((symbol) => {
    const date = dates.find((cell) => cell.row === symbol.row && cell.col === symbol.col);
    return date ? [{ symbol, date, row: symbol.row, col: symbol.col }] : [];
  });
}

/**
 * The key each (symbol, date) of a price call asked (average, field and conversion included, so the described record
 * is the one the cell showed, from the cache), or undefined where the function refused its arguments.
 */
function keysOfCall(name: string, args: readonly unknown[]): ((symbol: string, date: string | undefined) => PriceKey) | undefined {
  try {
    return priceCallKeys(name, (index) => cellsOf(args[index])[0]?.value);
  } catch {
    return undefined;
  }
}

/** The key a HISTORY call asked, or undefined where the function refused its arguments. */
function historyKeyOf(args: readonly unknown[], system: DateSystem): HistoryKey | undefined {
  try {
    return historyCallKey(args, todayIso(), system);
  } catch {
    return undefined;
  }
}

export interface FormulaCalls {
  readonly text: string;
  readonly calls: readonly CustomCallRecord[];
  /** The range the formula's result covers. */
  readonly resultRange: string;
}

export async function provenanceOf(
  sheet: string,
  formulas: ReadonlyMap<string, FormulaCalls>,
  client: ProvenanceClient | undefined,
  serviceUrl: string,
  system: DateSystem = "1900",
): Promise<ProvenanceRow[]> {
  const rows: Promise<ProvenanceRow>[] = [];
  for (const [anchor, { text, calls, resultRange }] of formulas) {
    const origin = parseCellAddress(anchor) ?? { row: 0, col: 0 };
    for (const call of calls) {
      const base = { sheet, formula: text, resultRange, assessmentDate: "", revision: "" as const, carried: "" as const, retrievedAt: "", serviceUrl: "" };
      const name = call.name.toUpperCase();
      const keyOf = isPriceCall(name) ? keysOfCall(name, call.args) : undefined;
      if (!keyOf) {
        const [first, second, third] = call.args;
        const history = name === "HISTORY" ? historyKeyOf(call.args, system) : undefined;
        const asked = history ? `${history.fromDate}..${history.toDate}` : name === "HISTORY" ? `${isoDateOf(second, system) ?? ""}..${isoDateOf(third, system) ?? "today"}` : "";
        const symbol = cellsOf(first).map((cell) => String(cell.value ?? "")).join(", ");
        const fetched = history && client ? describeRetrieval(client, history, serviceUrl) : {};
        rows.push(Promise.resolve({ ...base, address: anchor, symbol, dateAsked: asked, ...fetched }));
        continue;
      }
      const dates = cellsOf(call.args[datesArgument(name)]);
      for (const pair of pairs(cellsOf(call.args[0]), dates)) {
        // As the functions read it: a blank date inside a range is a blank cell, a refused one an error; neither asked anything.
        if (dates.length > 1 && isBlank(pair.date.value)) continue;
        const address = call.whole ? formatCellAddress({ row: origin.row + call.row + pair.row, col: origin.col + call.col + pair.col }) : anchor;
        const symbol = String(pair.symbol.value ?? "");
        const date = readDate(pair.date.value, system);
        const row: ProvenanceRow = { ...base, address, symbol, dateAsked: date.ok ? (date.value ?? "latest") : String(pair.date.value) };
        rows.push(
          client && symbol !== "" && date.ok
            ? describePrice(client, keyOf(symbol, date.value), serviceUrl).then((described) => ({ ...row, ...described }))
            : Promise.resolve(row),
        );
      }
    }
  }
  return Promise.all(rows);
}
