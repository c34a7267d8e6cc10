/**
 * How a worksheet function takes its arguments, as data: one letter per parameter says whether Excel lifts it over
 * an array and how it coerces it, so every function gets Excel's single-cell-reference, blank and error rules from
 * one dispatcher (worksheet.ts) instead of each its own.
 */
import type { DateSystem } from "../formula/excel-dates";
import type { CellPosition } from "../formula/a1";
import { type ArrayValue, type Value, arrayOf, isArray } from "./value-array";
import { type CellValue, isCellError } from "./values";

/** An evaluated argument; undefined when it was left out. */
export type Arg = Value | undefined;

export interface WorksheetEnv {
  readonly dateSystem: DateSystem;
  /** The formula's own cell. */
  readonly at: CellPosition;
}

/**
 * Parameter letters. Lifted over arrays (one result per cell) and, when one cell, read as that cell:
 * `n` number, `t` text, `b` TRUE/FALSE (each coerced as Excel does, an error returned before the function runs),
 * `s` a scalar as it is (blank is null), `e` a scalar whose errors the function reads itself.
 * Taken whole: `r` an array (a scalar becomes a 1x1 array), `v` a value as given (an aggregate tells a range from a typed argument).
 */
export type ParamLetter = "n" | "t" | "b" | "s" | "e" | "r" | "v";

export interface FunctionSpec {
  readonly params: readonly ParamLetter[];
  readonly min: number;
  /** The last parameter repeats (SUM's numbers). */
  readonly rest: boolean;
  readonly run: (args: readonly Arg[], env: WorksheetEnv) => Value;
}

/** `spec("tn", run, 1)`: LEFT(text, [count]); `spec("v", run, 1, true)`: SUM(number, ...). */
export function spec(params: string, run: FunctionSpec["run"], min = params.length, rest = false): FunctionSpec {
  return { params: Array.from(params) as ParamLetter[], min, rest, run };
}

export function asArray(value: Arg): ArrayValue {
  if (isArray(value)) return value;
  return arrayOf([[value ?? null]]);
}

/** Every cell of a value, row by row. */
export function cellsOf(value: Arg): CellValue[] {
  if (value === undefined) return [];
  if (!isArray(value)) return [value];
  return value.rows.flat();
}

/** A coerced number argument, or `fallback` when left out. */
export function num(value: Arg, fallback = 0): number {
  return typeof value === "number" ? value : fallback;
}

export function str(value: Arg, fallback = ""): string {
  return typeof value === "string" ? value : fallback;
}

export function bool(value: Arg, fallback = false): boolean {
  return typeof value === "boolean" ? value : fallback;
}

export function scalarOf(value: Arg): CellValue {
  if (value === undefined) return null;
  if (isArray(value)) return value.rows[0]?.[0] ?? null;
  return value;
}

export function firstError(values: readonly CellValue[]): CellValue | undefined {
  return values.find(isCellError);
}
