/**
 * SUBTOTAL and AGGREGATE as Excel computes them over references: a cell that itself holds SUBTOTAL or AGGREGATE is
 * skipped (a grand total over sections does not count their subtotals twice), AGGREGATE's options may skip errors
 * too, and the aggregate is the worksheet function its number names. Rows are never hidden in the host's sheet, so
 * the hidden-row forms (101-111, options 1/3/5/7) give what Excel gives on a sheet without hidden or filtered rows.
 */
import type { CellPosition } from "../formula/a1";
import type { Expression } from "../formula/parse";
import { canonicalName } from "../formula/functions";
import { type Value, arrayOf, isArray } from "./value-array";
import { cellError, isCellError } from "./values";

const SUBTOTAL_FUNCTIONS = ["AVERAGE", "COUNT", "COUNTA", "MAX", "MIN", "PRODUCT", "STDEV", "STDEVP", "SUM", "VAR", "VARP"];
const AGGREGATE_FUNCTIONS = [...["AVERAGE", "COUNT", "COUNTA", "MAX", "MIN", "PRODUCT", "STDEV.S", "STDEV.P", "SUM", "VAR.S", "VAR.P", "MEDIAN", "MODE.SNGL"], ...["LARGE", "SMALL", "PERCENTILE.INC", "QUARTILE.INC", "PERCENTILE.EXC", "QUARTILE.EXC"]];
/** AGGREGATE's functions from 14 on take an array and a k. */
export const AGGREGATE_WITH_K = 14;

/** The worksheet function SUBTOTAL(number, ...) names (1-11, or 101-111 skipping hidden rows), or undefined. */
export function subtotalFunction(number: number): string | undefined {
  const n = Math.trunc(number);
  return SUBTOTAL_FUNCTIONS[(n > 100 ? n - 100 : n) - 1];
}

export function aggregateFunction(number: number): string | undefined {
  const n = Math.trunc(number);
  return n >= 1 ? AGGREGATE_FUNCTIONS[n - 1] : undefined;
}

/** AGGREGATE's options 0-7: whether nested SUBTOTAL/AGGREGATE cells and error values are skipped. */
export function aggregateOptions(option: number): { nested: boolean; errors: boolean } | undefined {
  const n = Math.trunc(option);
  if (n < 0 || n > 7) return undefined;
  return { nested: n <= 3, errors: n === 2 || n === 3 || n === 6 || n === 7 };
}

/** Whether a formula calls SUBTOTAL or AGGREGATE anywhere (such a cell is skipped by another one over it). */
export function callsAggregate(expression: Expression, namespace: string): boolean {
  switch (expression.kind) {
    case "call": {
      const name = canonicalName(expression.name, namespace);
      return name === "SUBTOTAL" || name === "AGGREGATE" || expression.args.some((arg) => callsAggregate(arg, namespace));
    }
    case "unary":
      return callsAggregate(expression.operand, namespace);
    case "binary":
      return callsAggregate(expression.left, namespace) || callsAggregate(expression.right, namespace);
    case "let":
      return expression.bindings.some((binding) => callsAggregate(binding.value, namespace)) || callsAggregate(expression.body, namespace);
    default:
      return false;
  }
}

/** A reference's values with the skipped cells blank (and errors blank when `errors`). */
export function withoutSkipped(value: Value, skipped: readonly CellPosition[], errors: boolean): Value {
  if (!isArray(value)) return errors && isCellError(value) ? null : value;
  const { range } = value;
  const rows = value.rows.map((row) => row.map((cell) => (errors && isCellError(cell) ? null : cell)));
  if (range) for (const cell of skipped) {
    const row = rows[cell.row - range.top];
    if (row && cell.col - range.left < row.length && cell.col >= range.left) row[cell.col - range.left] = null;
  }
  return arrayOf(rows, range);
}

export const notAFunctionNumber = (name: string) => cellError("#VALUE!", `${name}'s function number is not one of its functions`);
