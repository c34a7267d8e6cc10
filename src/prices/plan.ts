/**
 * Request planning for dated price keys: which (symbols x dates) requests cover a set of asked
 * (symbol, date) pairs. Pure functions; see docs/client.md for the algorithm and its bounds.
 *
 * 1. Group rows (symbols) by the exact set of columns (dates) asked of them: each group is a full
 *    rectangle, fetched without waste, tiled into the fewest chunks the three limits allow.
 * 2. Pack the tiles into merged requests while each merged request stays within the limits and fetches
 *    at most `maxOverfetch` records per record asked.
 * 3. Do both with symbols as rows and with dates as rows; keep the plan with fewer requests.
 * A full grid is one group, hence the minimal `ceil(S/maxSymbols) x ceil(D/maxDates)` tiles when records
 * fit; the per-symbol (per-date) plan is never worse than one request per symbol (date) chunked by the
 * limits, because that is one of the tilings step 1 considers, and packing only merges.
 */
import type { Limits } from "../api/vocabulary";

export interface Tile {
  symbols: string[];
  dates: string[];
}

interface Unit {
  rows: string[];
  cols: string[];
}

/** Packing looks for a home among this many most recent requests (keeps planning linear). */
const PACKING_WINDOW = 32;

/** Fewest uniform chunks covering `rows x cols` under the limits: sizes of row and column chunks. */
export function gridChunks(rows: number, cols: number, maxRows: number, maxCols: number, maxRecords: number): { rowChunks: number; colChunks: number } {
  let best = { rowChunks: rows, colChunks: cols, total: rows * cols };
  for (let rowChunks = Math.ceil(rows / maxRows); rowChunks <= rows && rowChunks < best.total; rowChunks += 1) {
    const rowSize = Math.ceil(rows / rowChunks);
    const colSize = Math.min(maxCols, Math.floor(maxRecords / rowSize), cols);
    if (colSize < 1) continue;
    const colChunks = Math.ceil(cols / colSize);
    if (rowChunks * colChunks < best.total) best = { rowChunks, colChunks, total: rowChunks * colChunks };
  }
  return { rowChunks: best.rowChunks, colChunks: best.colChunks };
}

/** `count` chunks whose sizes differ by at most one, order kept. */
export function splitEven<T>(items: readonly T[], count: number): T[][] {
  const chunks: T[][] = [];
  const base = Math.floor(items.length / count);
  const extra = items.length % count;
  let start = 0;
  for (let index = 0; index < count; index += 1) {
    const size = base + (index < extra ? 1 : 0);
    chunks.push(items.slice(start, start + size));
    start += size;
  }
  return chunks;
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  const step = Math.max(1, Math.floor(size));
  for (let start = 0; start < items.length; start += step) chunks.push(items.slice(start, start + step));
  return chunks;
}

/** Requests of the two simple plans the issue bounds the planner by: one per date, one per symbol (chunked). */
export function baselineRequests(bySymbol: ReadonlyMap<string, ReadonlySet<string>>, limits: Limits): { perDate: number; perSymbol: number } {
  const perSymbolChunk = Math.max(1, Math.min(limits.maxDates, limits.maxRecords));
  const perDateChunk = Math.max(1, Math.min(limits.maxSymbols, limits.maxRecords));
  const symbolsByDate = new Map<string, number>();
  let perSymbol = 0;
  for (const dates of bySymbol.values()) {
    perSymbol += Math.ceil(dates.size / perSymbolChunk);
    for (const date of dates) symbolsByDate.set(date, (symbolsByDate.get(date) ?? 0) + 1);
  }
  let perDate = 0;
  for (const count of symbolsByDate.values()) perDate += Math.ceil(count / perDateChunk);
  return { perDate, perSymbol };
}

/** Plans requests covering every (symbol, date) pair asked; `maxOverfetch` >= 1. */
export function planPairs(bySymbol: ReadonlyMap<string, ReadonlySet<string>>, limits: Limits, maxOverfetch: number): Tile[] {
  const lists = new Map<string, string[]>();
  for (const [symbol, dates] of bySymbol) lists.set(symbol, [...dates]);
  return planDateLists(lists, limits, maxOverfetch);
}

/**
 * `planPairs` over each symbol's distinct dates as a list (the lists are sorted in place). A full grid,
 * where every symbol asks the same dates, is recognised by comparing the lists and planned as one
 * rectangle in each orientation, without grouping by joined signatures or indexing symbols by date.
 */
export function planDateLists(datesBySymbol: ReadonlyMap<string, string[]>, limits: Limits, maxOverfetch: number): Tile[] {
  const limitsOk = sanitize(limits);
  const rowsBySymbol = new Map<string, string[]>();
  let shared: string[] | undefined;
  let uniform = true;
  for (const [symbol, dates] of datesBySymbol) {
    if (dates.length === 0) continue;
    // Sorting copies the list: a sheet's dates mostly come in order already.
    if (!isSorted(dates)) dates.sort();
    rowsBySymbol.set(symbol, dates);
    if (!shared) shared = dates;
    else if (uniform) uniform = sameItems(shared, dates);
  }
  if (!shared) return [];
  const overfetch = Math.max(1, maxOverfetch);
  let symbolGroups: Unit[];
  let dateGroups: Unit[];
  if (uniform) {
    const symbols = [...rowsBySymbol.keys()];
    symbolGroups = [{ rows: symbols, cols: shared }];
    dateGroups = [{ rows: shared, cols: [...symbols].sort() }];
  } else {
    const rowsByDate = new Map<string, string[]>();
    for (const [symbol, dates] of rowsBySymbol) {
      for (const date of dates) {
        const symbols = rowsByDate.get(date);
        if (symbols) symbols.push(symbol);
        else rowsByDate.set(date, [symbol]);
      }
    }
    for (const symbols of rowsByDate.values()) symbols.sort();
    symbolGroups = groupRows(rowsBySymbol);
    dateGroups = groupRows(rowsByDate);
  }
  const bySymbolPlan = planOriented(symbolGroups, limitsOk.maxSymbols, limitsOk.maxDates, limitsOk.maxRecords, overfetch).map((unit): Tile => ({ symbols: unit.rows, dates: unit.cols }));
  const byDatePlan = planOriented(dateGroups, limitsOk.maxDates, limitsOk.maxSymbols, limitsOk.maxRecords, overfetch).map((unit): Tile => ({ symbols: unit.cols, dates: unit.rows }));
  if (bySymbolPlan.length !== byDatePlan.length) return bySymbolPlan.length < byDatePlan.length ? bySymbolPlan : byDatePlan;
  return records(bySymbolPlan) <= records(byDatePlan) ? bySymbolPlan : byDatePlan;
}

function isSorted(items: readonly string[]): boolean {
  for (let index = 1; index < items.length; index += 1) if ((items[index - 1] as string) > (items[index] as string)) return false;
  return true;
}

function sameItems(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/** Rows asking exactly the same (sorted) columns form a full rectangle. */
function groupRows(colsByRow: ReadonlyMap<string, string[]>): Unit[] {
  const groups = new Map<string, Unit>();
  for (const [row, cols] of colsByRow) {
    const signature = cols.join("\u0000");
    const group = groups.get(signature);
    if (group) group.rows.push(row);
    else groups.set(signature, { rows: [row], cols });
  }
  return [...groups.values()];
}

export function records(tiles: readonly Tile[]): number {
  let total = 0;
  for (const tile of tiles) total += tile.symbols.length * tile.dates.length;
  return total;
}

function sanitize(limits: Limits): Limits {
  const whole = (value: number): number => Math.max(1, Math.floor(Number.isFinite(value) ? value : 1));
  return { maxSymbols: whole(limits.maxSymbols), maxDates: whole(limits.maxDates), maxRecords: whole(limits.maxRecords) };
}

function planOriented(groups: readonly Unit[], maxRows: number, maxCols: number, maxRecords: number, overfetch: number): Unit[] {
  // 1. Each group is a full rectangle: tile it with the fewest uniform chunks.
  const units: Unit[] = [];
  for (const group of groups) {
    const { rowChunks, colChunks } = gridChunks(group.rows.length, group.cols.length, maxRows, maxCols, maxRecords);
    for (const rows of splitEven(group.rows, rowChunks)) {
      for (const cols of splitEven(group.cols, colChunks)) units.push({ rows, cols });
    }
  }
  if (units.length <= 1) return units;
  // 2. Largest first, then by first column so that neighbours in time meet in the packing window.
  units.sort((a, b) => b.rows.length * b.cols.length - a.rows.length * a.cols.length || compare(a.cols[0], b.cols[0]));
  return pack(units, maxRows, maxCols, maxRecords, overfetch);
}

interface Bin {
  rows: Set<string>;
  cols: Set<string>;
  asked: number;
}

function pack(units: readonly Unit[], maxRows: number, maxCols: number, maxRecords: number, overfetch: number): Unit[] {
  const bins: Bin[] = [];
  for (const unit of units) {
    const asked = unit.rows.length * unit.cols.length;
    let best: Bin | undefined;
    let bestCost = Infinity;
    for (let index = bins.length - 1; index >= 0 && index >= bins.length - PACKING_WINDOW; index -= 1) {
      const bin = bins[index] as Bin;
      const rows = bin.rows.size + countMissing(unit.rows, bin.rows);
      if (rows > maxRows) continue;
      const cols = bin.cols.size + countMissing(unit.cols, bin.cols);
      const cost = rows * cols;
      if (cols > maxCols || cost > maxRecords || cost > overfetch * (bin.asked + asked)) continue;
      const added = cost - bin.rows.size * bin.cols.size;
      if (added < bestCost) {
        best = bin;
        bestCost = added;
      }
    }
    if (best) {
      for (const row of unit.rows) best.rows.add(row);
      for (const col of unit.cols) best.cols.add(col);
      best.asked += asked;
    } else {
      bins.push({ rows: new Set(unit.rows), cols: new Set(unit.cols), asked });
    }
  }
  return bins.map((bin) => ({ rows: [...bin.rows].sort(), cols: [...bin.cols].sort() }));
}

function countMissing(items: readonly string[], set: ReadonlySet<string>): number {
  let missing = 0;
  for (const item of items) if (!set.has(item)) missing += 1;
  return missing;
}

function compare(a: string | undefined, b: string | undefined): number {
  return (a ?? "") < (b ?? "") ? -1 : (a ?? "") > (b ?? "") ? 1 : 0;
}
