/**
 * The change report per cell: which PRICES cells show another value after a refresh, and why, from the cells the
 * refresh described (provenance rows: sheet, cell, formula, symbol, date asked) and the key changes the persistent
 * cache heard of. A cell is matched to its key by symbol and date asked; several keys of one symbol and date (other
 * averages or conversions) are told apart by the assessment the cell now shows. A table's result (HISTORY, CURVE) is
 * compared in every cell it covers; a cell of a history is matched to the day whose record moved from its old value
 * to its new one, and the other changed cells of its row to the same day.
 */
import { formatCellAddress, parseRangeAddress } from "../formula/a1";
import { errorTextOf } from "../formula/text";
import type { ProvenanceRow } from "../prices/provenance";
import type { SessionState } from "./page-session";
import type { ChangeReason, KeyChange } from "./change-log";

export interface CellChange {
  readonly sheet: string;
  readonly cell: string;
  readonly formula: string;
  readonly old: unknown;
  readonly new: unknown;
  readonly reason: ChangeReason;
  readonly oldAssessmentDate: string;
  readonly newAssessmentDate: string;
  readonly oldRevision: number | "";
  readonly newRevision: number | "";
}

export const CHANGES_COLUMNS = ["sheet", "cell", "formula", "old", "new", "reason", "old assessment date", "new assessment date", "old revision", "new revision"] as const;

/** Equal as a cell shows them: numbers to 1 part in 10^12 (a file keeps 15 significant digits), errors by code. */
export function sameCellValue(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
  return printed(a) === printed(b);
}

function printed(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return errorTextOf(value) ?? JSON.stringify(value);
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" || typeof value === "bigint" ? String(value) : typeof value;
}

function matchingChange(row: ProvenanceRow, changes: readonly KeyChange[]): KeyChange | undefined {
  const candidates = changes.filter((change) => change.within === undefined && change.symbol === row.symbol.trim().toUpperCase() && change.dateAsked === row.dateAsked);
  if (candidates.length <= 1) return candidates[0];
  return candidates.find((change) => change.after?.revision === row.revision && change.after.assessmentDate.slice(0, 10) === row.assessmentDate) ?? candidates[0];
}

/** The day of a history whose record moved from `old` to `now` in one of the fields a history cell shows. */
function movedDay(days: readonly KeyChange[], old: unknown, now: unknown): KeyChange | undefined {
  return days.find(({ before, after }) => after !== undefined && (["low", "mid", "high"] as const).some((field) => sameCellValue(before[field], old) && sameCellValue(after[field], now)));
}

interface Changed {
  readonly address: string;
  readonly row: number;
  readonly old: unknown;
  readonly new: unknown;
}

export function cellChanges(
  result: { readonly provenance: readonly ProvenanceRow[]; readonly sheets: readonly { readonly name: string; readonly values: Readonly<Record<string, unknown>> }[] },
  state: SessionState,
  saved: (sheet: string, address: string) => unknown,
): CellChange[] {
  const values = new Map(result.sheets.map((sheet) => [sheet.name, sheet.values]));
  const seen = new Set<string>();
  const changed: CellChange[] = [];
  const report = (row: ProvenanceRow, cell: Changed, change: KeyChange | undefined): void => {
    changed.push({
      sheet: row.sheet,
      cell: cell.address,
      formula: row.formula,
      old: cell.old,
      new: cell.new,
      reason: change?.reason ?? "value changed",
      oldAssessmentDate: change?.before.assessmentDate.slice(0, 10) ?? "",
      newAssessmentDate: change?.after?.assessmentDate.slice(0, 10) ?? (change?.within === undefined && row.assessmentDate !== "" ? row.assessmentDate : ""),
      oldRevision: change?.before.revision ?? "",
      newRevision: change?.after?.revision ?? (change?.within === undefined ? row.revision : ""),
    });
  };
  /** The cell, unless seen already or showing what the file held (or nothing the file held). */
  const compare = (sheet: string, address: string, row: number): Changed | undefined => {
    const where = `${sheet}!${address}`;
    if (seen.has(where)) return undefined;
    seen.add(where);
    const before = saved(sheet, address);
    const after = values.get(sheet)?.[address];
    return before === undefined || sameCellValue(before, after) ? undefined : { address, row, old: before, new: after };
  };
  // By symbol and start: a history without an end date ends on the service's today, which provenance may read otherwise.
  const startOf = (range: string): string => range.slice(0, range.indexOf(".."));
  const daysOf = (row: ProvenanceRow): KeyChange[] =>
    row.dateAsked.includes("..") ? state.changes.filter((change) => change.within !== undefined && startOf(change.within) === startOf(row.dateAsked) && change.symbol === row.symbol.trim().toUpperCase()) : [];
  // Each cell a price formula described first; then every cell of a history, and the other cells of results that cover several.
  for (const row of result.provenance) {
    if (daysOf(row).length > 0) continue;
    const cell = compare(row.sheet, row.address, 0);
    if (cell) report(row, cell, matchingChange(row, state.changes));
  }
  // Once per result: a price formula's result has a row per cell, all naming the same range.
  const results = new Set<string>();
  for (const row of result.provenance) {
    const area = parseRangeAddress(row.resultRange);
    const days = daysOf(row);
    if (!area || (area.top === area.bottom && area.left === area.right && days.length === 0) || results.has(`${row.sheet}!${row.resultRange}`)) continue;
    results.add(`${row.sheet}!${row.resultRange}`);
    const cells: Changed[] = [];
    for (let at = area.top; at <= area.bottom; at += 1) {
      for (let col = area.left; col <= area.right; col += 1) {
        const cell = compare(row.sheet, formatCellAddress({ row: at, col }), at);
        if (cell) cells.push(cell);
      }
    }
    if (days.length === 0) {
      for (const cell of cells) report(row, cell, matchingChange(row, state.changes));
      continue;
    }
    // A history's row shows one day: the day one of its cells moved like, for every changed cell of the row.
    const dayOfRow = new Map<number, KeyChange | undefined>();
    for (const cell of cells) if (!dayOfRow.get(cell.row)) dayOfRow.set(cell.row, movedDay(days, cell.old, cell.new));
    for (const cell of cells) report(row, cell, dayOfRow.get(cell.row));
  }
  return changed;
}

function csvField(value: unknown): string {
  const text = printed(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function changesCsv(changes: readonly CellChange[]): string {
  const rows = changes.map((change) =>
    [change.sheet, change.cell, change.formula, change.old, change.new, change.reason, change.oldAssessmentDate, change.newAssessmentDate, change.oldRevision, change.newRevision].map(csvField).join(","),
  );
  return [CHANGES_COLUMNS.join(","), ...rows].join("\r\n") + "\r\n";
}
