/**
 * A1 references as Excel writes them: columns A..XFD, rows 1..1048576, optionally sheet-qualified
 * (`Sheet1!A1`, `'My sheet'!$A$1:$B$2`), whole columns `A:C` and whole rows `1:3`. Rows and columns
 * are 0-based once read.
 */

export const MAX_ROWS = 1_048_576;
export const MAX_COLUMNS = 16_384;

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

/** A reference read from formula text: the text as written, the area it covers, and whether it names whole columns or rows. */
export interface ReadReference {
  readonly text: string;
  /** Undefined when a corner lies outside the sheet (`A0`, `XFE1`). */
  readonly range: RangeRef | undefined;
  readonly whole?: "columns" | "rows";
}

const PLAIN_SHEET = "[A-Za-z_][A-Za-z0-9_.]*";
const QUOTED_SHEET = "'(?:[^'\\[\\]*?/\\\\:]|'')+'";
const COLUMN = "\\$?([A-Za-z]{1,3})";
const ROW = "\\$?(\\d{1,7})";
/** Groups: 1-4 the corners of a cell area, 5-6 whole columns, 7-8 whole rows. */
const AREA = `(?:${COLUMN}${ROW}(?::${COLUMN}${ROW})?|${COLUMN}:${COLUMN}|${ROW}:${ROW})`;
const REFERENCE = `(?:(?:${PLAIN_SHEET}|${QUOTED_SHEET})!)?${AREA}`;
/** A reference ends where a name or a call could not go on (`LOG10(` is a function, not LOG10). */
const REFERENCE_AT = new RegExp(`${REFERENCE}(?![A-Za-z0-9_.(])`, "y");
const CELL = new RegExp(`^${COLUMN}${ROW}$`);
const PLAIN_SHEET_NAME = new RegExp(`^${PLAIN_SHEET}$`);

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

function inSheet(position: CellPosition): boolean {
  return position.row >= 0 && position.row < MAX_ROWS && position.col >= 0 && position.col < MAX_COLUMNS;
}

function spanning(a: CellPosition, b: CellPosition): RangeRef | undefined {
  if (!inSheet(a) || !inSheet(b)) return undefined;
  return {
    top: Math.min(a.row, b.row),
    left: Math.min(a.col, b.col),
    bottom: Math.max(a.row, b.row),
    right: Math.max(a.col, b.col),
  };
}

/** `B3` / `$B$3` to a position, or undefined when not an address inside the sheet. */
export function parseCellAddress(text: string): CellPosition | undefined {
  // by its characters, as CELL reads it (`$`, 1-3 letters in either case, `$`, 1-7 digits): no match array, no
  // column's letters upper-cased and iterated (40,000 references of the bench model's formulas)
  const cell = text.trim();
  let at = cell.charCodeAt(0) === 36 ? 1 : 0;
  const letters = at;
  let col = 0;
  for (; at < cell.length && at - letters < 4; at += 1) {
    const code = cell.charCodeAt(at) | 32;
    if (code < 97 || code > 122) break;
    col = col * 26 + code - 96;
  }
  if (at === letters || at - letters > 3) return undefined;
  if (cell.charCodeAt(at) === 36) at += 1;
  const digits = at;
  let row = 0;
  for (; at < cell.length; at += 1) {
    const code = cell.charCodeAt(at);
    if (code < 48 || code > 57) return undefined;
    row = row * 10 + code - 48;
  }
  if (at === digits || at - digits > 7) return undefined;
  const position = { row: row - 1, col: col - 1 };
  return inSheet(position) ? position : undefined;
}

export function formatCellAddress(position: CellPosition): string {
  return `${columnName(position.col)}${position.row + 1}`;
}

/**
 * `r` read as a cell reference by its characters (1-3 letters in either case, then digits; no `$`: a sheet part's cell
 * `r` as `^([A-Za-z]{1,3})(\d+)$` reads it), into `into` (0-based); whether `r` is already the address formatCellAddress
 * writes for it (upper case, no leading zero), or undefined when `r` is no cell reference. The sheet's bounds are the
 * caller's to check.
 */
export function readCellReference(r: string, into: { row: number; col: number }): boolean | undefined {
  let col = 0;
  let upper = true;
  let at = 0;
  for (; at < r.length && at < 4; at += 1) {
    const code = r.charCodeAt(at);
    if (code >= 65 && code <= 90) col = col * 26 + code - 64;
    else if (code >= 97 && code <= 122) {
      col = col * 26 + code - 96;
      upper = false;
    } else break;
  }
  if (at === 0 || at > 3 || at === r.length) return undefined;
  const digits = at;
  let row = 0;
  for (; at < r.length; at += 1) {
    const code = r.charCodeAt(at);
    if (code < 48 || code > 57) return undefined;
    row = row * 10 + code - 48;
  }
  const short = r.length - digits <= 15;
  into.col = col - 1;
  // past 15 digits a sum of digits may round otherwise than Number() reads them
  into.row = (short ? row : Number(r.slice(digits))) - 1;
  return upper && short && r.charCodeAt(digits) !== 48;
}

/** `A1:B20` (corners in any order) or a single cell, as a normalised range. */
export function parseRangeAddress(text: string): RangeRef | undefined {
  const parts = text.split(":");
  if (parts.length > 2) return undefined;
  const first = parseCellAddress(parts[0] ?? "");
  const second = parts.length === 2 ? parseCellAddress(parts[1] ?? "") : first;
  return first && second ? spanning(first, second) : undefined;
}

export function formatRangeAddress(range: RangeRef): string {
  const start = formatCellAddress({ row: range.top, col: range.left });
  if (range.top === range.bottom && range.left === range.right) return start;
  return `${start}:${formatCellAddress({ row: range.bottom, col: range.right })}`;
}

export function rangeContains(range: RangeRef, row: number, col: number): boolean {
  return row >= range.top && row <= range.bottom && col >= range.left && col <= range.right;
}

/** The reference that starts at `offset` of `text`, or undefined when none does. */
export function readReference(text: string, offset: number): ReadReference | undefined {
  REFERENCE_AT.lastIndex = offset;
  const match = REFERENCE_AT.exec(text);
  if (!match) return undefined;
  const [written, c1, r1, c2, r2, firstColumn, lastColumn, firstRow, lastRow] = match;
  if (c1 !== undefined) {
    const corner = { row: Number(r1) - 1, col: columnIndex(c1) };
    const other = c2 === undefined ? corner : { row: Number(r2) - 1, col: columnIndex(c2) };
    return { text: written, range: spanning(corner, other) };
  }
  if (firstColumn !== undefined) {
    const range = spanning({ row: 0, col: columnIndex(firstColumn) }, { row: MAX_ROWS - 1, col: columnIndex(lastColumn ?? "") });
    return { text: written, range, whole: "columns" };
  }
  const range = spanning({ row: Number(firstRow) - 1, col: 0 }, { row: Number(lastRow) - 1, col: MAX_COLUMNS - 1 });
  return { text: written, range, whole: "rows" };
}

/** Whether `address` is an A1 reference inside the sheet (optionally sheet-qualified, `'My sheet'!A1:B2`). */
export function isA1Reference(address: string): boolean {
  const read = readReference(address, 0);
  return read !== undefined && read.text.length === address.length && read.range !== undefined;
}

/** `'O''Brien'!A1` to its sheet (`O'Brien`) and area (`A1`); an address without a sheet has only the area. */
export function splitSheet(address: string): { sheet?: string; area: string } {
  const bang = address.lastIndexOf("!");
  if (bang < 0) return { area: address };
  const written = address.slice(0, bang);
  const quoted = /^'(.*)'$/.exec(written);
  return { sheet: quoted ? (quoted[1] ?? "").replace(/''/g, "'") : written, area: address.slice(bang + 1) };
}

/** A sheet name as a reference writes it: quoted when it needs to be (`My sheet` -> `'My sheet'`, `O'Brien` -> `'O''Brien'`, `AB1` -> `'AB1'`). */
export function sheetPrefix(sheet: string): string {
  const plain = PLAIN_SHEET_NAME.test(sheet) && !CELL.test(sheet);
  return `${plain ? sheet : `'${sheet.replace(/'/g, "''")}'`}!`;
}
