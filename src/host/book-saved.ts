/**
 * A book's saved values, the proof's oracle: `"saved": { "K23": 55, "K24": { "error": "#VALUE!" }, "F1": [[...], ...] }`
 * holds each formula cell's cached value as the file saved it (an array formula's whole saved area as rows), and
 * `"savedUnproven": "why"` says the file's cached values are not Excel's (so nothing is proven against them).
 */
import { formatCellAddress, parseCellAddress } from "../formula/a1";
import { type CellValue, type Scalar, cellError, isErrorText } from "./values";

/** One saved cell: a value, an error by its code as the file wrote it (`#GETTING_DATA` included), or empty. */
export type SavedCell = Scalar | { readonly error: string } | null;

/** A formula's saved result: one row of one cell for a single value. */
export type SavedGrid = readonly (readonly SavedCell[])[];

export interface SavedValues {
  /** By the formula's address (`B2`). */
  readonly cells: ReadonlyMap<string, SavedGrid>;
  /** Why the book's cached values are not Excel's, when they are not. */
  readonly unproven?: string;
}

function savedCell(value: unknown): SavedCell | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "object" && !Array.isArray(value) && typeof (value as { error?: unknown }).error === "string") return { error: (value as { error: string }).error };
  return undefined;
}

function savedGrid(value: unknown): SavedGrid | undefined {
  if (!Array.isArray(value)) {
    const cell = savedCell(value);
    return cell === undefined || cell === null ? undefined : [[cell]];
  }
  const rows = value.map((row: unknown) => (Array.isArray(row) ? row.map(savedCell) : undefined));
  const width = rows[0]?.length ?? 0;
  if (width === 0 || rows.some((row) => row === undefined || row.length !== width || row.includes(undefined))) return undefined;
  return rows as SavedCell[][];
}

/** Reads `saved` and `savedUnproven`; a bad entry is a problem named for the book's error. */
export function readSaved(json: object, problems: string[]): SavedValues | undefined {
  const { saved, savedUnproven } = json as { saved?: unknown; savedUnproven?: unknown };
  if (saved === undefined) return undefined;
  if (typeof saved !== "object" || saved === null || Array.isArray(saved)) {
    problems.push('"saved" must be an object of address -> saved value');
    return undefined;
  }
  const cells = new Map<string, SavedGrid>();
  for (const [key, value] of Object.entries(saved)) {
    const position = parseCellAddress(key);
    const grid = savedGrid(value);
    if (!position || grid === undefined) problems.push(`saved ${JSON.stringify(key)}: a cell address with a value, { "error": "#N/A" } or rows of them`);
    else cells.set(formatCellAddress(position), grid);
  }
  if (savedUnproven !== undefined && typeof savedUnproven !== "string") problems.push('"savedUnproven" must say why, as text');
  return typeof savedUnproven === "string" ? { cells, unproven: savedUnproven } : { cells };
}

/** A saved cell as the engine's value (an error code the host does not know reads as #N/A naming it). */
export function savedCellValue(cell: SavedCell): CellValue {
  if (cell === null || typeof cell !== "object") return cell;
  return isErrorText(cell.error) ? cellError(cell.error) : cellError("#N/A", `saved ${cell.error}`);
}
