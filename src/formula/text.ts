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

/** An error cell's text ("#N/A") as the hosts hand an error over: the engine's `{ code }`, a book's `{ error }`; else undefined. */
export function errorTextOf(value: object): string | undefined {
  const { code, error } = value as { code?: unknown; error?: unknown };
  if (typeof code === "string") return code;
  return typeof error === "string" ? error : undefined;
}

/**
 * Any cell value as its text, the one way to turn a cell into text: blank as "", a scalar as Excel writes it, an error
 * as its code (`#N/A`) whether it comes as the host's `{ kind: "error", code }`, a book's `{ error }` or Office's
 * `{ basicValue }`; any other object as "" (never "[object Object]").
 */
export function cellValueText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") return scalarText(value);
  if (typeof value !== "object") return typeof value === "bigint" ? value.toString() : "";
  const code = errorTextOf(value);
  if (code !== undefined) return code;
  const basic = (value as Record<string, unknown>)["basicValue"];
  return typeof basic === "number" || typeof basic === "boolean" || typeof basic === "string" ? scalarText(basic) : "";
}
