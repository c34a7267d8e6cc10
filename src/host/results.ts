/** What a function hands back, read as Excel reads it: a value, a 2-D array, or an error. */
import type { FunctionMetadata } from "./metadata";
import { richCellOf, type ResultCell } from "./rich-cells";
import { asFunctionError } from "./runtime";
import { type CellValue, cellError } from "./values";

/** A data type (src/host/rich-cells.ts) stays in its cell with its plain value. */
export type ResultGrid = ResultCell[][];

/** One element: numbers must be finite; null shows as 0 as in Excel; data types are kept; other objects but errors are #VALUE!. */
export function toCellValue(value: unknown): ResultCell {
  if (value === null || value === undefined) return 0;
  if (typeof value === "number") return Number.isFinite(value) ? value : cellError("#NUM!");
  if (typeof value === "string" || typeof value === "boolean") return value;
  const error = asFunctionError(value);
  if (error) return error;
  const rich = richCellOf(value);
  if (rich) return rich;
  return cellError("#VALUE!", `unsupported result value ${Object.prototype.toString.call(value)}`);
}

/** A whole result, checked against the declared dimensionality. */
export function toResultGrid(metadata: FunctionMetadata, value: unknown): ResultGrid {
  const error = asFunctionError(value);
  if (error) return [[error]];
  if (metadata.result.dimensionality === "scalar") {
    if (Array.isArray(value)) return [[cellError("#VALUE!", `${metadata.name} is declared scalar but returned an array`)]];
    return [[toCellValue(value)]];
  }
  if (!Array.isArray(value) || !value.every((row) => Array.isArray(row))) {
    return [[cellError("#VALUE!", `${metadata.name} is declared matrix but did not return a 2-D array`)]];
  }
  const rows = value as unknown[][];
  const width = rows[0]?.length ?? 0;
  if (rows.length === 0 || width === 0) return [[cellError("#CALC!", "empty array")]];
  if (rows.some((row) => row.length !== width)) {
    return [[cellError("#VALUE!", `${metadata.name} returned rows of different lengths`)]];
  }
  return rows.map((row) => row.map(toCellValue));
}

/** A thrown value: a CustomFunctions.Error keeps its code and message; anything else is Excel's bare #VALUE!. */
export function thrownToCellValue(thrown: unknown): CellValue {
  return asFunctionError(thrown) ?? cellError("#VALUE!");
}
