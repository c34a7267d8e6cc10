/** A1 addresses: one sheet, Excel's bounds (XFD1048576). Rows and columns are 0-based inside the host. */

export const MAX_ROWS = 1_048_576;
export const MAX_COLUMNS = 16_384;
export const SHEET_NAME = "Sheet1";

export interface CellPosition {
  readonly row: number;
  readonly col: number;
}

export interface RangeRef {
  readonly top: number;
  readonly left: number;
  readonly bottom: number;
  readonly right: number;
}

const CELL = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/;

export function columnName(col: number): string {
  let name = "";
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

export function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

/** `B3` / `$B$3` to a position, or undefined when not an address inside the sheet. */
export function parseCellAddress(text: string): CellPosition | undefined {
  const match = CELL.exec(text.trim());
  if (!match) return undefined;
  const col = columnIndex(match[1] ?? "");
  const row = Number(match[2]) - 1;
  if (row < 0 || row >= MAX_ROWS || col < 0 || col >= MAX_COLUMNS) return undefined;
  return { row, col };
}

export function formatCellAddress(position: CellPosition): string {
  return `${columnName(position.col)}${position.row + 1}`;
}

/** `A1:B20` (corners in any order) or a single cell, as a normalised range. */
export function parseRangeAddress(text: string): RangeRef | undefined {
  const parts = text.split(":");
  if (parts.length > 2) return undefined;
  const first = parseCellAddress(parts[0] ?? "");
  const second = parts.length === 2 ? parseCellAddress(parts[1] ?? "") : first;
  if (!first || !second) return undefined;
  return {
    top: Math.min(first.row, second.row),
    left: Math.min(first.col, second.col),
    bottom: Math.max(first.row, second.row),
    right: Math.max(first.col, second.col),
  };
}

export function formatRangeAddress(range: RangeRef): string {
  const start = formatCellAddress({ row: range.top, col: range.left });
  if (range.top === range.bottom && range.left === range.right) return start;
  return `${start}:${formatCellAddress({ row: range.bottom, col: range.right })}`;
}

/** Key of a cell in the sheet's maps. */
export function cellKey(row: number, col: number): number {
  return row * MAX_COLUMNS + col;
}

export function positionOfKey(key: number): CellPosition {
  return { row: Math.floor(key / MAX_COLUMNS), col: key % MAX_COLUMNS };
}

export function rangeContains(range: RangeRef, row: number, col: number): boolean {
  return row >= range.top && row <= range.bottom && col >= range.left && col <= range.right;
}
