/** How Excel writes a constant in a cell: numbers in the General format, booleans as TRUE/FALSE, text as itself. */
import type { Scalar } from "./parse";

/** General format: up to ten significant digits, no trailing zeros. */
export function generalNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(10)));
}

export function scalarText(value: Scalar): string {
  if (typeof value === "number") return generalNumber(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return value;
}
