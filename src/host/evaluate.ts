/**
 * Evaluates one formula's expression as dynamic-array Excel does: operators broadcast over arrays, references read
 * the sheet, IF/IFERROR/IFNA choose before they evaluate, LET binds names, defined names and structured references
 * resolve through the context, OFFSET and INDIRECT build references, worksheet functions come from `worksheet.ts`,
 * and calls the context knows as custom functions (PRICES.*) go to the engine, their arguments evaluated together
 * so the functions' client batches them. What it cannot evaluate faithfully it does not guess: `whyLeftForExcel`
 * names it before the formula runs, and `LeftForExcelSignal` stops a run that meets it.
 */
import { type CellPosition, type RangeRef, MAX_COLUMNS, MAX_ROWS, formatRangeAddress, readReference } from "../formula/a1";
import { canonicalName } from "../formula/functions";
import type { Expression, ReferenceExpression } from "../formula/parse";
import type { DateSystem } from "../formula/excel-dates";
import { MS_PER_DAY } from "../api/dates";
import { compare, compareWith, toBoolean, toNumber, toText } from "./coerce";
import type { ArgumentInput } from "./marshal";
import type { ResultGrid } from "./results";
import { fieldValue, plainGrid, type CellsReader } from "./rich-cells";
import { type ArrayValue, type Value, arrayOf, isArray, toGrid } from "./value-array";
import { type CellError, type CellValue, cellError, isCellError, isErrorText } from "./values";
import { resultOf } from "./implicit-intersection";
import { LeftForExcelSignal } from "./left-for-excel";
import { power } from "./worksheet-math";
import { callWorksheetFunction } from "./worksheet";
import { AGGREGATE_WITH_K, aggregateFunction, aggregateOptions, notAFunctionNumber, subtotalFunction, withoutSkipped } from "./worksheet-subtotal";


export { LeftForExcelSignal };

export interface EvaluationContext {
  /** The values a reference covers (a spill reference: its anchor's result), or the error reading it gives. */
  reference(reference: ReferenceExpression): ArrayValue | CellError;
  /** A custom function's runner for a canonical name (`PRICES.MID`), or undefined when the name is not one. */
  custom(name: string): ((inputs: readonly ArgumentInput[]) => Promise<ResultGrid>) | undefined;
  /** Today as an Excel serial in the book's date system (TODAY, NOW). */
  today(): number;
  /** The book's date system: `YYYY-MM-DD` text in arithmetic becomes a serial in it. */
  readonly dateSystem: DateSystem;
  /** The formula's own cell (implicit intersection, ROW(), `[@Column]`). */
  readonly at: CellPosition;
  /** What a defined name stands for on this sheet, or undefined when the book does not define it. */
  name(name: string): Expression | undefined;
  /** The area a structured reference covers, or why it cannot be read. */
  structured(text: string): ReferenceExpression | string;
  /** The cells a reference covers with their data types (`A2.Mid`); without it, field access is #VALUE!. */
  readonly cells?: CellsReader;
  /** The cells of a reference holding SUBTOTAL or AGGREGATE, which those skip; undefined where it is not known (left for Excel). */
  aggregatesIn?(reference: ReferenceExpression): readonly CellPosition[] | undefined;
}

/** A formula's cells: one that is a single custom call keeps the data types its function returned, as Excel does. */
export async function evaluateFormula(expression: Expression, context: EvaluationContext, namespace: string): Promise<ResultGrid> {
  // a legacy formula's `@PRICES.HISTORY(...)`: its first cell, keeping its data type
  const { expression: whole, first } = resultOf(expression);
  const custom = whole.kind === "call" ? context.custom(canonicalName(whole.name, namespace)) : undefined;
  if (whole.kind !== "call" || !custom) return toResult(await evaluate(expression, context, namespace));
  const grid = await callCustom(custom, whole.args, (inner) => evaluate(inner, context, namespace));
  const cells = first ? [[grid[0]?.[0] ?? null]] : grid;
  return cells.map((row) => row.map((cell) => (cell === null ? 0 : cell)));
}

/** Functions whose references are known only when they run. */
export const DYNAMIC_REFERENCE_FUNCTIONS = new Set(["OFFSET", "INDIRECT"]);

type Scope = ReadonlyMap<string, Value>;

export async function evaluate(expression: Expression, context: EvaluationContext, namespace: string, scope: Scope = new Map()): Promise<Value> {
  const recurse = (inner: Expression, innerScope: Scope = scope): Promise<Value> => evaluate(inner, context, namespace, innerScope);
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
    case "table": {
      const reference = context.structured(expression.text);
      if (typeof reference === "string") throw new LeftForExcelSignal(reference);
      return context.reference(reference);
    }
    case "unsupported":
      throw new LeftForExcelSignal(expression.reason);
    case "name": {
      const bound = scope.get(expression.name.toUpperCase());
      if (bound !== undefined) return bound;
      const defined = context.name(expression.name);
      return defined ? recurse(defined, new Map()) : cellError("#NAME?", `the book defines no name ${expression.name}`);
    }
    case "let": {
      const inner = new Map(scope);
      for (const binding of expression.bindings) inner.set(binding.name.toUpperCase(), await recurse(binding.value, inner));
      return recurse(expression.body, inner);
    }
    case "unary": {
      if (expression.operator === "@") return intersect(await recurse(expression.operand), context.at);
      const operand = await recurse(expression.operand);
      return mapValues([operand], ([value]) => unary(expression.operator, value ?? null, context.dateSystem));
    }
    case "binary": {
      const [left, right] = await Promise.all([recurse(expression.left), recurse(expression.right)]);
      return mapValues([left, right], ([a, b]) => binary(expression.operator, a ?? null, b ?? null, context.dateSystem));
    }
    case "call":
      return call(canonicalName(expression.name, namespace), expression.args, context, recurse, scope);
    case "field":
      return fieldValue(expression.target, expression.field, context.cells);
  }
}

/** Excel's `@`: one cell of a range (the one in the formula's row or column), the first of an array, or a value as it is. */
function intersect(value: Value, at: CellPosition): Value {
  if (!isArray(value)) return value;
  const range = value.range;
  const rows = value.rows;
  if (rows.length === 1 && rows[0]?.length === 1) return rows[0][0] ?? null;
  if (!range) return rows[0]?.[0] ?? null;
  const oneColumn = range.left === range.right;
  const oneRow = range.top === range.bottom;
  if (oneColumn && at.row >= range.top && at.row <= range.bottom) return rows[at.row - range.top]?.[0] ?? null;
  if (oneRow && at.col >= range.left && at.col <= range.right) return rows[0]?.[at.col - range.left] ?? null;
  return cellError("#VALUE!", "the range does not meet the formula's row or column");
}

/** The reference an argument stands for (a reference, a name or a structured reference that is one), or undefined. */
function referenceOf(expression: Expression | undefined, context: EvaluationContext, scope: Scope, depth = 0): ReferenceExpression | undefined {
  if (!expression || depth > 16) return undefined;
  if (expression.kind === "reference") return expression;
  if (expression.kind === "table") {
    const reference = context.structured(expression.text);
    if (typeof reference === "string") throw new LeftForExcelSignal(reference);
    return reference;
  }
  if (expression.kind === "name" && !scope.has(expression.name.toUpperCase())) return referenceOf(context.name(expression.name), context, scope, depth + 1);
  return undefined;
}

async function call(name: string, args: readonly Expression[], context: EvaluationContext, recurse: (inner: Expression) => Promise<Value>, scope: Scope): Promise<Value> {
  const custom = context.custom(name);
  if (custom) {
    // Inside a larger expression a data type is its plain value (a price's number).
    const grid = plainGrid(await callCustom(custom, args, recurse));
    return grid.length === 1 && grid[0]?.length === 1 ? (grid[0][0] ?? null) : arrayOf(grid);
  }
  const scalarArg = async (index: number, fallback: CellValue): Promise<CellValue> => {
    const arg = args[index];
    if (arg === undefined || arg.kind === "missing") return fallback;
    return oneValue(await recurse(arg));
  };
  switch (name) {
    case "IF": {
      const condition = await recurse(args[0] ?? { kind: "missing" });
      if (isArray(condition) && !(condition.rows.length === 1 && condition.rows[0]?.length === 1)) {
        const [whenTrue, whenFalse] = await Promise.all([recurse(args[1] ?? { kind: "literal", value: true }), recurse(args[2] ?? { kind: "literal", value: false })]);
        return mapValues([condition, whenTrue, whenFalse], ([c, t, f]) => chooseBranch(c ?? null, t ?? null, f ?? null));
      }
      const truth = toBoolean(isArray(condition) ? (condition.rows[0]?.[0] ?? null) : condition);
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
      // the fallback is read only where the value is caught: a shorter fallback leaves the value's good cells as they are
      return mapValues([value, fallback], ([v, f]) => (v === undefined ? cellError("#N/A") : !caught(v) ? v : f === undefined ? cellError("#N/A") : (f ?? 0)), true);
    }
    case "TODAY":
    case "NOW": {
      if (args.length > 0) return cellError("#VALUE!", `${name} takes no arguments`);
      // NOW is today's serial plus the time of day (UTC, as TODAY's day is)
      return name === "NOW" ? context.today() + (Date.now() % MS_PER_DAY) / MS_PER_DAY : context.today();
    }
    case "ROW":
    case "COLUMN": {
      if (args.length === 0) return name === "ROW" ? context.at.row + 1 : context.at.col + 1;
      const reference = referenceOf(args[0], context, scope);
      if (!reference) return cellError("#VALUE!", `${name} reads a reference`);
      const { range } = reference;
      if (name === "ROW") return range.top === range.bottom ? range.top + 1 : arrayOf(Array.from({ length: range.bottom - range.top + 1 }, (_, r) => [range.top + r + 1]));
      return range.left === range.right ? range.left + 1 : arrayOf([Array.from({ length: range.right - range.left + 1 }, (_, c) => range.left + c + 1)]);
    }
    case "ISREF":
      return referenceOf(args[0], context, scope) !== undefined;
    case "SINGLE":
      return intersect(await recurse(args[0] ?? { kind: "missing" }), context.at);
    case "ANCHORARRAY": {
      // its cell may be OFFSET's (`ANCHORARRAY(OFFSET(A1,1,1))`), a reference made as it runs
      const inner = args[0];
      const reference = inner?.kind === "call" && canonicalName(inner.name, "") === "OFFSET" ? await offsetOf(inner.args, context, scope, recurse) : referenceOf(inner, context, scope);
      if (isCellError(reference)) return reference;
      if (!reference || reference.range.top !== reference.range.bottom || reference.range.left !== reference.range.right) return cellError("#VALUE!", "ANCHORARRAY takes one cell");
      return context.reference({ ...reference, text: `${reference.text}#`, spill: true });
    }
    case "OFFSET": {
      const reference = await offsetOf(args, context, scope, recurse);
      return isCellError(reference) ? reference : context.reference(reference);
    }
    case "INDIRECT":
      return indirect(await scalarArg(0, null), await scalarArg(1, true), context);
    case "SUBTOTAL":
    case "AGGREGATE":
      return aggregate(name, args, context, recurse, scope);
    default: {
      const values = await Promise.all(args.map((arg) => (arg.kind === "missing" ? Promise.resolve(undefined) : recurse(arg))));
      // an empty argument (`ROUND(1.5,)`, `VLOOKUP(x,t,2,)`) reads as blank: 0, "" or FALSE
      return callWorksheetFunction(name, values.map((value) => value ?? null), { dateSystem: context.dateSystem, at: context.at });
    }
  }
}

/** An argument taken as one value: a 1×1 array is its cell, a larger one #VALUE!. */
function oneValue(value: Value): CellValue {
  if (!isArray(value)) return value;
  return value.rows.length === 1 && value.rows[0]?.length === 1 ? (value.rows[0][0] ?? null) : cellError("#VALUE!", "expected one value, got an array");
}

/** The reference OFFSET(reference, rows, cols, [height], [width]) makes. */
async function offsetOf(args: readonly Expression[], context: EvaluationContext, scope: Scope, recurse: (inner: Expression) => Promise<Value>): Promise<ReferenceExpression | CellError> {
  const reference = referenceOf(args[0], context, scope);
  if (!reference || reference.spill) throw new LeftForExcelSignal("OFFSET of something other than a plain reference");
  const numbers: number[] = [];
  for (const [index, fallback] of [[1, 0], [2, 0], [3, reference.range.bottom - reference.range.top + 1], [4, reference.range.right - reference.range.left + 1]] as const) {
    const arg = args[index];
    const number = toNumber(arg === undefined || arg.kind === "missing" ? fallback : oneValue(await recurse(arg)), context.dateSystem);
    if (isCellError(number)) return number;
    numbers.push(Math.trunc(number));
  }
  const [rows = 0, cols = 0, height = 1, width = 1] = numbers;
  if (height < 1 || width < 1) return cellError("#REF!", "OFFSET of no cells");
  const top = reference.range.top + rows;
  const left = reference.range.left + cols;
  const range: RangeRef = { top, left, bottom: top + height - 1, right: left + width - 1 };
  if (top < 0 || left < 0 || range.bottom >= MAX_ROWS || range.right >= MAX_COLUMNS) return cellError("#REF!", "OFFSET goes outside the sheet");
  return { kind: "reference", text: formatRangeAddress(range), range, ...(reference.sheet === undefined ? {} : { sheet: reference.sheet }) };
}

/** SUBTOTAL(number, ref, ...) and AGGREGATE(number, options, ref, ... | array, k) over the references' values, nested ones skipped. */
async function aggregate(name: string, args: readonly Expression[], context: EvaluationContext, recurse: (inner: Expression) => Promise<Value>, scope: Scope): Promise<Value> {
  const subtotal = name === "SUBTOTAL";
  const scalar = async (arg: Expression | undefined, fallback: number): Promise<number | CellError> => {
    if (arg === undefined || arg.kind === "missing") return fallback;
    const value = await recurse(arg);
    return toNumber(isArray(value) ? (value.rows[0]?.[0] ?? null) : value, context.dateSystem);
  };
  const number = await scalar(args[0], Number.NaN);
  if (isCellError(number)) return number;
  const fn = subtotal ? subtotalFunction(number) : aggregateFunction(number);
  if (!fn) return notAFunctionNumber(name);
  const option = subtotal ? 0 : await scalar(args[1], 0);
  if (isCellError(option)) return option;
  const skips = aggregateOptions(option);
  if (!skips) return notAFunctionNumber(name);
  const withK = !subtotal && Math.trunc(number) >= AGGREGATE_WITH_K;
  const areas = subtotal ? args.slice(1) : withK ? args.slice(2, 3) : args.slice(2);
  if (areas.length === 0) return cellError("#VALUE!", `${name} needs a reference`);
  const values: Value[] = [];
  for (const area of areas) {
    const reference = referenceOf(area, context, scope);
    // only AGGREGATE's array form takes an array that is not a reference
    if (!reference && !withK) return cellError("#VALUE!", `${name} reads references`);
    const skipped = reference && skips.nested ? context.aggregatesIn?.(reference) : [];
    if (skipped === undefined) throw new LeftForExcelSignal(`${name} over ${reference?.text ?? "an array"}: which of its cells hold SUBTOTAL or AGGREGATE is not known here`);
    values.push(withoutSkipped(await recurse(area), skipped, skips.errors));
  }
  if (withK) {
    const k = await scalar(args[3], Number.NaN);
    if (isCellError(k)) return k;
    if (Number.isNaN(k)) return cellError("#VALUE!", `AGGREGATE ${Math.trunc(number)} needs its k`);
    values.push(k);
  }
  return callWorksheetFunction(fn, values, { dateSystem: context.dateSystem, at: context.at });
}

function indirect(text: CellValue, a1: CellValue, context: EvaluationContext): Value {
  if (isCellError(text)) return text;
  const style = toBoolean(a1);
  if (isCellError(style)) return style;
  if (!style) throw new LeftForExcelSignal("INDIRECT with R1C1 references is not supported");
  const written = toText(text);
  if (isCellError(written)) return written;
  const trimmed = written.trim();
  if (/^'?\[/.test(trimmed)) throw new LeftForExcelSignal(`INDIRECT of an external link: ${trimmed}`);
  const read = readReference(trimmed, 0);
  if (read && read.text.length === trimmed.length && read.range) {
    if (read.whole !== undefined) throw new LeftForExcelSignal(`INDIRECT of whole rows or columns: ${trimmed}`);
    const bang = trimmed.lastIndexOf("!");
    const sheetText = bang < 0 ? undefined : trimmed.slice(0, bang);
    const sheet = sheetText === undefined ? undefined : (/^'(.*)'$/.exec(sheetText)?.[1]?.replace(/''/g, "'") ?? sheetText);
    return context.reference({ kind: "reference", text: trimmed, range: read.range, ...(sheet === undefined ? {} : { sheet }) });
  }
  const defined = /^[A-Za-z_\\][A-Za-z0-9_.]*$/.test(trimmed) ? context.name(trimmed) : undefined;
  if (defined?.kind === "reference") return context.reference(defined);
  return cellError("#REF!", `INDIRECT: ${JSON.stringify(trimmed)} is not a reference`);
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
    const range = source?.kind === "reference" && !source.spill ? (value.range ?? source.range) : undefined;
    return range ? { kind: "grid", rows: value.rows, range } : { kind: "grid", rows: value.rows };
  });
  return custom(inputs);
}

function chooseBranch(condition: CellValue, whenTrue: CellValue, whenFalse: CellValue): CellValue {
  const truth = toBoolean(condition);
  if (isCellError(truth)) return truth;
  return truth ? whenTrue : whenFalse;
}

/**
 * Applies `fn` cell by cell, broadcasting a single value, a row or a column as Excel does; cells past a smaller
 * array's edge are #N/A (or, with `seesOutside`, given to `fn` as undefined). One cell in, one value out: a
 * single-cell reference in arithmetic is a value.
 */
export function mapValues(values: readonly Value[], fn: (cells: readonly (CellValue | undefined)[]) => CellValue, seesOutside = false): Value {
  const single = (value: Value): boolean => !isArray(value) || (value.rows.length === 1 && value.rows[0]?.length === 1);
  if (values.every(single)) return fn(values.map((value) => (isArray(value) ? (value.rows[0]?.[0] ?? null) : value)));
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
      row.push(outside && !seesOutside ? cellError("#N/A") : fn(cells));
    }
    rows.push(row);
  }
  return arrayOf(rows);
}


function unary(operator: string, value: CellValue, system: DateSystem): CellValue {
  if (operator === "+") return value;
  const number = toNumber(value, system);
  if (isCellError(number)) return number;
  if (operator === "-") return -number;
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
      return finite(a + b);
    case "-":
      return finite(a - b);
    case "*":
      return finite(a * b);
    case "/":
      return b === 0 ? cellError("#DIV/0!") : finite(a / b);
    case "^":
      return power(a, b);
    default:
      return cellError("#VALUE!", `unknown operator ${operator}`);
  }
}

function finite(value: number): number | CellError {
  return Number.isFinite(value) ? value : cellError("#NUM!");
}

/** A formula's value as the cells it covers: one value (a blank reference shows 0) or a spilled grid. */
export function toResult(value: Value): ResultGrid {
  if (!isArray(value)) return [[value === null ? 0 : value]];
  const grid = toGrid(value);
  return grid.map((row) => row.map((cell) => (cell === null ? 0 : cell)));
}
