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

/**
 * Any cell value as its text: blank as "", a scalar as Excel writes it, an error as its code (`#N/A`) whether it
 * comes as the host's `{ kind: "error", code }`, a book's `{ error }` or Office's `{ basicValue }`; any other object as "".
 */
export function cellValueText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") return scalarText(value);
  if (typeof value !== "object") return typeof value === "bigint" ? value.toString() : "";
  const fields = value as Record<string, unknown>;
  for (const key of ["code", "error"]) {
    const code = fields[key];
    if (typeof code === "string") return code;
  }
  const basic = fields["basicValue"];
  return typeof basic === "number" || typeof basic === "boolean" || typeof basic === "string" ? scalarText(basic) : "";
}
