/**
 * The change report per cell: which PRICES cells show another value after a refresh, and why, from the cells the
 * refresh described (provenance rows: sheet, cell, formula, symbol, date asked) and the key changes the persistent
 * cache heard of. A cell is matched to its key by symbol and date asked; several keys of one symbol and date (other
 * averages or conversions) are told apart by the assessment the cell now shows.
 */
import type { ProvenanceRow } from "../prices/provenance";
import type { SessionState } from "../prices/persistent/snapshot";
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
  if (typeof value === "object") {
    const { code, error } = value as { code?: unknown; error?: unknown };
    if (typeof code === "string") return code;
    if (typeof error === "string") return error;
    return JSON.stringify(value);
  }
  return String(value);
}

function matchingChange(row: ProvenanceRow, changes: readonly KeyChange[]): KeyChange | undefined {
  const candidates = changes.filter((change) => change.symbol === row.symbol.trim().toUpperCase() && change.dateAsked === row.dateAsked);
  if (candidates.length <= 1) return candidates[0];
  return candidates.find((change) => change.after?.revision === row.revision && change.after.assessmentDate.slice(0, 10) === row.assessmentDate) ?? candidates[0];
}

export function cellChanges(
  result: { readonly provenance: readonly ProvenanceRow[]; readonly sheets: readonly { readonly name: string; readonly values: Readonly<Record<string, unknown>> }[] },
  state: SessionState,
  saved: (sheet: string, address: string) => unknown,
): CellChange[] {
  const values = new Map(result.sheets.map((sheet) => [sheet.name, sheet.values]));
  const seen = new Set<string>();
  const changed: CellChange[] = [];
  for (const row of result.provenance) {
    const where = `${row.sheet}!${row.address}`;
    if (seen.has(where)) continue;
    seen.add(where);
    const before = saved(row.sheet, row.address);
    const after = values.get(row.sheet)?.[row.address];
    if (before === undefined || sameCellValue(before, after)) continue;
    const change = matchingChange(row, state.changes);
    changed.push({
      sheet: row.sheet,
      cell: row.address,
      formula: row.formula,
      old: before,
      new: after,
      reason: change?.reason ?? "value changed",
      oldAssessmentDate: change?.before.assessmentDate.slice(0, 10) ?? "",
      newAssessmentDate: change?.after?.assessmentDate.slice(0, 10) ?? (row.assessmentDate === "" ? "" : row.assessmentDate),
      oldRevision: change?.before.revision ?? "",
      newRevision: change?.after?.revision ?? row.revision,
    });
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
