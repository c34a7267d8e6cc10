/** The host's one sheet: its name and the keys of its cell maps (A1 reading and writing is in src/formula/a1.ts). */
import { MAX_COLUMNS, type CellPosition } from "../formula/a1";

export const SHEET_NAME = "Sheet1";

/** Key of a cell in the sheet's maps. */
export function cellKey(row: number, col: number): number {
  return row * MAX_COLUMNS + col;
}

export function positionOfKey(key: number): CellPosition {
  return { row: Math.floor(key / MAX_COLUMNS), col: key % MAX_COLUMNS };
}
