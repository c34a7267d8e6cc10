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

/** A value read back from a sheet as text: text as itself, a number or boolean as JavaScript writes it, an error as its text, else "". */
export function cellText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return typeof value === "object" && value !== null ? (errorTextOf(value) ?? "") : "";
}
