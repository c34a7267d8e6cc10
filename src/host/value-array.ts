/** An evaluated formula part: one cell value, or an array (a range's values, a spill, an array constant, a function's array). */
import type { RangeRef } from "../formula/a1";
import { type CellValue, cellError } from "./values";

export interface ArrayValue {
  readonly kind: "array";
  readonly rows: readonly (readonly CellValue[])[];
  /** Where the values came from, when a plain reference gave them. */
  readonly range?: RangeRef;
}

export type Value = CellValue | ArrayValue;

export function arrayOf(rows: readonly (readonly CellValue[])[], range?: RangeRef): ArrayValue {
  return range === undefined ? { kind: "array", rows } : { kind: "array", rows, range };
}

export function isArray(value: Value | undefined): value is ArrayValue {
  return typeof value === "object" && value !== null && value.kind === "array";
}

/** The rows as a rectangular grid; an empty array is Excel's #CALC!. */
export function toGrid(value: ArrayValue): CellValue[][] {
  const width = Math.max(0, ...value.rows.map((row) => row.length));
  if (value.rows.length === 0 || width === 0) return [[cellError("#CALC!", "empty array")]];
  // only a short row is padded with #N/A; a blank cell inside the array stays blank
  return value.rows.map((row) => Array.from({ length: width }, (_, col) => (col < row.length ? (row[col] ?? null) : cellError("#N/A"))));
}
