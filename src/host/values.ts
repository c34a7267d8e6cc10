/** Cell values of the host's sheet: what Excel shows in a cell, errors included. */
import type { Scalar } from "../formula/parse";
import type { Unanswered } from "../functions/errors";

export type { Scalar, Unanswered };

/** Excel's error texts; `#SPILL!`, `#CALC!`, `#BUSY!` and `#GETTING_DATA` are the host's own (or saved in a file), never a function's output. */
export const ERROR_TEXTS = [
  "#VALUE!",
  "#N/A",
  "#DIV/0!",
  "#NUM!",
  "#NULL!",
  "#NAME?",
  "#REF!",
  "#SPILL!",
  "#CALC!",
  "#BUSY!",
  "#GETTING_DATA",
] as const;
export type ErrorText = (typeof ERROR_TEXTS)[number];

export interface CellError {
  readonly kind: "error";
  readonly code: ErrorText;
  readonly message?: string;
  /** A function's error that is no answer from the service about the cell (src/functions/errors.ts), and of which kind. */
  readonly unanswered?: Unanswered;
}

/** `null` is an empty cell. */
export type CellValue = Scalar | CellError | null;

export function cellError(code: ErrorText, message?: string, unanswered?: Unanswered): CellError {
  const error: CellError = message === undefined || message === "" ? { kind: "error", code } : { kind: "error", code, message };
  return unanswered === undefined ? error : { ...error, unanswered };
}

/** Whether two literals are the same entry (an error by its code). */
export function sameLiteral(a: CellValue, b: CellValue): boolean {
  return isCellError(a) || isCellError(b) ? isCellError(a) && isCellError(b) && a.code === b.code : a === b;
}

export function isCellError(value: unknown): value is CellError {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "error";
}

export function isErrorText(text: unknown): text is ErrorText {
  return typeof text === "string" && (ERROR_TEXTS as readonly string[]).includes(text);
}

/** How a value prints in the runner's JSON: errors as `#N/A: message`. */
export type PrintedValue = Scalar | null;

export function printValue(value: CellValue): PrintedValue {
  if (isCellError(value)) return value.message ? `${value.code}: ${value.message}` : value.code;
  return value;
}
