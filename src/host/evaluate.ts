/**
 * Evaluates one formula's expression as dynamic-array Excel does: operators broadcast over arrays, references read
 * the sheet, IF/IFERROR/IFNA choose before they evaluate, worksheet functions come from `worksheet.ts`, and calls
 * the context knows as custom functions (PRICES.*) go to the engine, their arguments evaluated together so the
 * functions' client batches them.
 */
import { canonicalName } from "../formula/functions";
import type { Expression, ReferenceExpression } from "../formula/parse";
import { generalNumber } from "../formula/text";
import { type DateSystem, isoDateToSerial } from "../functions/excelDates";
import { parseIsoDate } from "../api/dates";
import type { ArgumentInput } from "./marshal";
import type { ResultGrid } from "./results";
import { fieldValue, plainGrid, type CellsReader } from "./rich-cells";
import { type ArrayValue, type Value, arrayOf, isArray, toGrid } from "./value-array";
import { type CellError, type CellValue, cellError, isCellError, isErrorText } from "./values";
import { callWorksheetFunction } from "./worksheet";

const MS_PER_DAY = 86_400_000;

export interface EvaluationContext {
  /** The values a reference covers (a spill reference: its anchor's result), or the error reading it gives. */
  reference(reference: ReferenceExpression): ArrayValue | CellError;
  /** A custom function's runner for a canonical name (`PRICES.MID`), or undefined when the name is not one. */
  custom(name: string): ((inputs: readonly ArgumentInput[]) => Promise<ResultGrid>) | undefined;
  /** Today as an Excel serial in the book's date system (TODAY, NOW). */
  today(): number;
  /** The book's date system: `YYYY-MM-DD` text in arithmetic becomes a serial in it. */
  readonly dateSystem: DateSystem;
  /** The cells a reference covers with their data types (`A2.Mid`); without it, field access is #VALUE!. */
  readonly cells?: CellsReader;
}

/** A formula's cells: one that is a single custom call keeps the data types its function returned, as Excel does. */
export async function evaluateFormula(expression: Expression, context: EvaluationContext, namespace: string): Promise<ResultGrid> {
  const custom = expression.kind === "call" ? context.custom(canonicalName(expression.name, namespace)) : undefined;
  if (expression.kind !== "call" || !custom) return toResult(await evaluate(expression, context, namespace));
  const grid = await callCustom(custom, expression.args, (inner) => evaluate(inner, context, namespace));
  return grid.map((row) => row.map((cell) => (cell === null ? 0 : cell)));
}

export async function evaluate(expression: Expression, context: EvaluationContext, namespace: string): Promise<Value> {
  const recurse = (inner: Expression): Promise<Value> => evaluate(inner, context, namespace);
  switch (expression.kind) {
    case "literal":
      return expression.value;
    case "missing":
      return null;
    case "error":
      return isErrorText(expression.code) ? cellError(expression.code) : cellError("#VALUE!", `unknown error ${expression.code}`);
    case "array":
      return arrayOf(expression.rows.map((row) => [...row]));
    case "reference":
      return context.reference(expression);
    case "name":
      return cellError("#NAME?", `defined names are not supported by the host: ${expression.name}`);
    case "unary": {
      const operand = await recurse(expression.operand);
      return mapValues([operand], ([value]) => unary(expression.operator, value ?? null, context.dateSystem));
    }
    case "binary": {
      const [left, right] = await Promise.all([recurse(expression.left), recurse(expression.right)]);
      return mapValues([left, right], ([a, b]) => binary(expression.operator, a ?? null, b ?? null, context.dateSystem));
    }
    case "call":
      return call(canonicalName(expression.name, namespace), expression.args, context, recurse);
    case "field":
      return fieldValue(expression.target, expression.field, context.cells);
  }
}

async function call(name: string, args: readonly Expression[], context: EvaluationContext, recurse: (inner: Expression) => Promise<Value>): Promise<Value> {
  const custom = context.custom(name);
  if (custom) {
    // Inside a larger expression a data type is its plain value (a price's number).
    const grid = plainGrid(await callCustom(custom, args, recurse));
    return grid.length === 1 && grid[0]?.length === 1 ? (grid[0][0] ?? null) : arrayOf(grid);
  }
  switch (name) {
    case "IF": {
      const condition = await recurse(args[0] ?? { kind: "missing" });
      if (isArray(condition)) {
        const [whenTrue, whenFalse] = await Promise.all([recurse(args[1] ?? { kind: "literal", value: true }), recurse(args[2] ?? { kind: "literal", value: false })]);
        return mapValues([condition, whenTrue, whenFalse], ([c, t, f]) => chooseBranch(c ?? null, t ?? null, f ?? null));
      }
      const truth = toBoolean(condition);
      if (isCellError(truth)) return truth;
      const branch = truth ? args[1] : args[2];
      if (branch === undefined) return truth;
      return branch.kind === "missing" ? 0 : recurse(branch);
    }
    case "IFERROR":
    case "IFNA": {
      if (args.length !== 2) return cellError("#VALUE!", `${name} takes 2 arguments, got ${args.length}`);
      const value = await recurse(args[0] ?? { kind: "missing" });
      const caught = (cell: CellValue): boolean => isCellError(cell) && (name === "IFERROR" || cell.code === "#N/A");
      const anyCaught = isArray(value) ? value.rows.some((row) => row.some(caught)) : caught(value);
      if (!anyCaught) return value;
      const fallback = await recurse(args[1] ?? { kind: "missing" });
      return mapValues([value, fallback], ([v, f]) => (caught(v ?? null) ? (f ?? 0) : (v ?? null)));
    }
    case "TODAY":
    case "NOW": {
      if (args.length > 0) return cellError("#VALUE!", `${name} takes no arguments`);
      // NOW is today's serial plus the time of day (UTC, as TODAY's day is)
      return name === "NOW" ? context.today() + (Date.now() % MS_PER_DAY) / MS_PER_DAY : context.today();
    }
    default: {
      const values = await Promise.all(args.map((arg) => (arg.kind === "missing" ? Promise.resolve(undefined) : recurse(arg))));
      return callWorksheetFunction(name, values);
    }
  }
}

async function callCustom(
  custom: (inputs: readonly ArgumentInput[]) => Promise<ResultGrid>,
  args: readonly Expression[],
  recurse: (inner: Expression) => Promise<Value>,
): Promise<ResultGrid> {
  const values = await Promise.all(args.map((arg) => (arg.kind === "missing" ? Promise.resolve(undefined) : recurse(arg))));
  const inputs = values.map((value, index): ArgumentInput => {
    if (value === undefined) return { kind: "missing" };
    if (!isArray(value)) return { kind: "value", value };
    const source = args[index];
    return source?.kind === "reference" && !source.spill ? { kind: "grid", rows: value.rows, range: source.range } : { kind: "grid", rows: value.rows };
  });
  return custom(inputs);
}

function chooseBranch(condition: CellValue, whenTrue: CellValue, whenFalse: CellValue): CellValue {
  const truth = toBoolean(condition);
  if (isCellError(truth)) return truth;
  return truth ? whenTrue : whenFalse;
}

/** Applies `fn` cell by cell, broadcasting a single value, a row or a column as Excel does; cells past a smaller array's edge are #N/A. */
export function mapValues(values: readonly Value[], fn: (cells: readonly (CellValue | undefined)[]) => CellValue): Value {
  if (!values.some(isArray)) return fn(values as readonly CellValue[]);
  const grids = values.map((value) => (isArray(value) ? value.rows : [[value]]));
  const height = Math.max(...grids.map((grid) => grid.length));
  const width = Math.max(...grids.map((grid) => grid[0]?.length ?? 1));
  const rows: CellValue[][] = [];
  for (let r = 0; r < height; r += 1) {
    const row: CellValue[] = [];
    for (let c = 0; c < width; c += 1) {
      const cells = grids.map((grid) => {
        const gr = grid.length === 1 ? 0 : r;
        const gc = (grid[0]?.length ?? 1) === 1 ? 0 : c;
        return grid[gr]?.[gc];
      });
      const outside = cells.some((cell) => cell === undefined);
      row.push(outside ? cellError("#N/A") : fn(cells));
    }
    rows.push(row);
  }
  return arrayOf(rows);
}

/** Excel's number coercion: blank 0, TRUE 1, numeric or YYYY-MM-DD text (a serial in `system`); anything else #VALUE!. */
export function toNumber(value: CellValue, system: DateSystem = "1900"): number | CellError {
  if (isCellError(value)) return value;
  if (value === null) return 0;
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  const trimmed = value.trim();
  if (trimmed !== "" && Number.isFinite(Number(trimmed))) return Number(trimmed);
  const iso = parseIsoDate(trimmed);
  if (iso !== undefined) return isoDateToSerial(iso, system);
  return cellError("#VALUE!", `expected a number, got ${JSON.stringify(value)}`);
}

export function toText(value: CellValue): string | CellError {
  if (isCellError(value)) return value;
  if (value === null) return "";
  if (typeof value === "number") return generalNumber(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return value;
}

function toBoolean(value: Value): boolean | CellError {
  if (isArray(value)) return cellError("#VALUE!", "expected one value, got an array");
  if (isCellError(value)) return value;
  if (value === null) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (/^true$/i.test(value)) return true;
  if (/^false$/i.test(value)) return false;
  return cellError("#VALUE!", `expected TRUE or FALSE, got ${JSON.stringify(value)}`);
}

function finite(value: number): number | CellError {
  return Number.isFinite(value) ? value : cellError("#NUM!");
}

function unary(operator: string, value: CellValue, system: DateSystem): CellValue {
  const number = toNumber(value, system);
  if (isCellError(number)) return number;
  if (operator === "-") return -number;
  if (operator === "+") return number;
  if (operator === "%") return number / 100;
  return cellError("#VALUE!", `unknown operator ${operator}`);
}

function binary(operator: string, left: CellValue, right: CellValue, system: DateSystem): CellValue {
  if (isCellError(left)) return left;
  if (isCellError(right)) return right;
  if (operator === "&") return `${toText(left) as string}${toText(right) as string}`;
  if (["=", "<>", "<", ">", "<=", ">="].includes(operator)) return compareWith(operator, compare(left, right));
  const a = toNumber(left, system);
  if (isCellError(a)) return a;
  const b = toNumber(right, system);
  if (isCellError(b)) return b;
  switch (operator) {
    case "+":
      return a + b;
    case "-":
      return a - b;
    case "*":
      return a * b;
    case "/":
      return b === 0 ? cellError("#DIV/0!") : a / b;
    case "^":
      return finite(a ** b);
    default:
      return cellError("#VALUE!", `unknown operator ${operator}`);
  }
}

function compareWith(operator: string, order: number): boolean {
  switch (operator) {
    case "=":
      return order === 0;
    case "<>":
      return order !== 0;
    case "<":
      return order < 0;
    case ">":
      return order > 0;
    case "<=":
      return order <= 0;
    default:
      return order >= 0;
  }
}

/** Excel's order: numbers < text (without case) < FALSE < TRUE; a blank compares as 0, "" or FALSE. */
export function compare(left: CellValue, right: CellValue): number {
  const rank = (value: CellValue): number => (typeof value === "number" ? 0 : typeof value === "string" ? 1 : 2);
  const a = left === null ? blankLike(right) : left;
  const b = right === null ? blankLike(left) : right;
  if (isCellError(a) || isCellError(b)) return 0;
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase().localeCompare(b.toLowerCase());
  return Number(a) - Number(b);
}

function blankLike(other: CellValue): CellValue {
  if (typeof other === "string") return "";
  if (typeof other === "boolean") return false;
  return 0;
}

/** A formula's value as the cells it covers: one value (a blank reference shows 0) or a spilled grid. */
export function toResult(value: Value): ResultGrid {
  if (!isArray(value)) return [[value === null ? 0 : value]];
  const grid = toGrid(value);
  return grid.map((row) => row.map((cell) => (cell === null ? 0 : cell)));
}
