/**
 * Evaluates one formula's expression as dynamic-array Excel does: operators broadcast over arrays, references read
 * the sheet, IF/IFERROR/IFNA choose before they evaluate, LET binds names, defined names and structured references
 * resolve through the context, OFFSET and INDIRECT build references, worksheet functions come from `worksheet.ts`,
 * and calls the context knows as custom functions (PRICES.*) go to the engine, their arguments evaluated together
 * so the functions' client batches them. It answers at once wherever nothing waits for such a call, and with a promise
 * only above one (eventually.ts). What it cannot evaluate faithfully it does not guess: `whyLeftForExcel` names it
 * before the formula runs, and `LeftForExcelSignal` stops a run that meets it (thrown, or the promise's rejection).
 */
import type { CellPosition } from "../formula/a1";
import { canonicalName } from "../formula/functions";
import type { Expression, ReferenceExpression } from "../formula/parse";
import type { DateSystem } from "../formula/excel-dates";
import { MS_PER_DAY } from "../api/dates";
import { toBoolean } from "./coerce";
import type { ArgumentInput } from "./marshal";
import type { CustomRunner } from "./custom-calls";
import type { ResultGrid } from "./results";
import { fieldValue, plainGrid, type CellsReader } from "./rich-cells";
import { type ArrayValue, type Value, arrayOf, isArray, toGrid } from "./value-array";
import { type CellError, type CellValue, cellError, isCellError, isErrorText } from "./values";
import { type Eventually, abandon, allOf, andThen, inTurn, isPending } from "./eventually";
import { resultOf } from "./implicit-intersection";
import { LeftForExcelSignal } from "./left-for-excel";
import { callWorksheetFunction } from "./worksheet";
import { binaryOf, chooseBranch, intersect, mapValues, unaryOf } from "./operators";
import { aggregate, indirect, offsetOf, oneValue, referenceOf, rowOrColumn } from "./reference-functions";


export { LeftForExcelSignal };

export interface EvaluationContext {
  /** The values a reference covers (a spill reference: its anchor's result), or the error reading it gives. */
  reference(reference: ReferenceExpression): ArrayValue | CellError;
  /** A custom function's runner for a canonical name (`PRICES.MID`), or undefined when the name is not one. */
  custom(name: string): CustomRunner | undefined;
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
  cells?(reference: ReferenceExpression): ReturnType<CellsReader>;
  /** The cells of a reference holding SUBTOTAL or AGGREGATE, which those skip; undefined where it is not known (left for Excel). */
  aggregatesIn?(reference: ReferenceExpression): readonly CellPosition[] | undefined;
}

/** A formula's cells: one that is a single custom call keeps the data types its function returned, as Excel does. */
export function evaluateFormula(expression: Expression, context: EvaluationContext, namespace: string): Eventually<ResultGrid> {
  // a legacy formula's `@PRICES.HISTORY(...)`: its first cell, keeping its data type
  const { expression: whole, first } = resultOf(expression);
  const custom = whole.kind === "call" ? context.custom(canonicalName(whole.name, namespace)) : undefined;
  const evaluation = new Evaluation(context, namespace);
  if (whole.kind !== "call" || !custom) {
    const value = evaluation.value(expression, NO_BINDINGS);
    return isPending(value) ? value.then(toResult) : toResult(value);
  }
  return evaluation.callCustom(custom, whole.args, NO_BINDINGS).then((grid) => {
    const cells = first ? [[grid[0]?.[0] ?? null]] : grid;
    return cells.map((row) => row.map((cell) => (cell === null ? 0 : cell)));
  });
}

/** Functions whose references are known only when they run. */
export const DYNAMIC_REFERENCE_FUNCTIONS = new Set(["OFFSET", "INDIRECT"]);

/** LET's names bound where an expression is evaluated, in upper case. */
export type Scope = ReadonlyMap<string, Value>;

/** Outside any LET: no names bound (never written to; LET binds in a copy). */
const NO_BINDINGS: Scope = new Map();
const MISSING: Expression = { kind: "missing" };

/** An expression's value: at once where nothing in it waits for a custom call, else a promise of it. */
export function evaluate(expression: Expression, context: EvaluationContext, namespace: string, scope: Scope = NO_BINDINGS): Eventually<Value> {
  return new Evaluation(context, namespace).value(expression, scope);
}

/** One formula's evaluation: its context and namespace, shared by every node rather than captured per node. */
class Evaluation {
  constructor(
    readonly context: EvaluationContext,
    readonly namespace: string,
  ) {}

  value(expression: Expression, scope: Scope): Eventually<Value> {
    const { context } = this;
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
        return defined ? this.value(defined, NO_BINDINGS) : cellError("#NAME?", `the book defines no name ${expression.name}`);
      }
      case "let": {
        const inner = new Map(scope);
        const { bindings } = expression;
        const bind = (index: number): Eventually<boolean> => {
          const binding = bindings[index] as (typeof bindings)[number];
          return andThen(this.value(binding.value, inner), (value) => {
            inner.set(binding.name.toUpperCase(), value);
            return true;
          });
        };
        return andThen(inTurn(bindings.length, bind), () => this.value(expression.body, inner));
      }
      case "unary": {
        const { operator } = expression;
        const operand = this.value(expression.operand, scope);
        if (isPending(operand)) return operand.then((value) => unaryOf(operator, value, context.at, context.dateSystem));
        return unaryOf(operator, operand, context.at, context.dateSystem);
      }
      case "binary": {
        const left = this.value(expression.left, scope);
        let right: Eventually<Value>;
        try {
          right = this.value(expression.right, scope);
        } catch (error) {
          abandon(left);
          throw error;
        }
        const { operator } = expression;
        if (isPending(left) || isPending(right)) return Promise.all([left, right]).then(([a, b]) => binaryOf(operator, a, b, context.dateSystem));
        return binaryOf(operator, left, right, context.dateSystem);
      }
      case "call":
        return this.call(canonicalName(expression.name, this.namespace), expression.args, scope);
      case "field":
        return fieldValue(expression.target, expression.field, context.cells?.bind(context));
    }
  }

  /** Each argument's value, an empty one undefined, all started before any is awaited. */
  argumentValues(args: readonly Expression[], scope: Scope): Eventually<(Value | undefined)[]> {
    return allOf(args, (arg) => (arg.kind === "missing" ? undefined : this.value(arg, scope)));
  }

  /** A custom function called with its arguments' values: always a wait (the call goes to functions.js). */
  callCustom(custom: CustomRunner, args: readonly Expression[], scope: Scope): Promise<ResultGrid> {
    const values = this.argumentValues(args, scope);
    return isPending(values) ? values.then((ready) => custom(inputsOf(ready, args))) : custom(inputsOf(values, args));
  }

  /** Evaluation in `scope`, for the functions evaluated here (made only where one needs it: tsx names each closure it makes). */
  private inScope(scope: Scope): (inner: Expression) => Eventually<Value> {
    return (inner) => this.value(inner, scope);
  }

  private call(name: string, args: readonly Expression[], scope: Scope): Eventually<Value> {
    const { context } = this;
    const custom = context.custom(name);
    if (custom) {
      return this.callCustom(custom, args, scope).then((result) => {
        // Inside a larger expression a data type is its plain value (a price's number).
        const grid = plainGrid(result);
        return grid.length === 1 && grid[0]?.length === 1 ? (grid[0][0] ?? null) : arrayOf(grid);
      });
    }
    switch (name) {
      case "IF": {
        const recurse = this.inScope(scope);
        return andThen(recurse(args[0] ?? MISSING), (condition) => chooseIf(condition, args, recurse));
      }
      case "IFERROR":
      case "IFNA": {
        if (args.length !== 2) return cellError("#VALUE!", `${name} takes 2 arguments, got ${args.length}`);
        const caught = (cell: CellValue): boolean => isCellError(cell) && (name === "IFERROR" || cell.code === "#N/A");
        const recurse = this.inScope(scope);
        return andThen(recurse(args[0] ?? MISSING), (value) => {
          const anyCaught = isArray(value) ? value.rows.some((row) => row.some(caught)) : caught(value);
          if (!anyCaught) return value;
          // the fallback is read only where the value is caught: a shorter fallback leaves the value's good cells as they are
          return andThen(recurse(args[1] ?? MISSING), (fallback) =>
            mapValues([value, fallback], ([v, f]) => (v === undefined ? cellError("#N/A") : !caught(v) ? v : f === undefined ? cellError("#N/A") : (f ?? 0)), true),
          );
        });
      }
      case "TODAY":
      case "NOW": {
        if (args.length > 0) return cellError("#VALUE!", `${name} takes no arguments`);
        // NOW is today's serial plus the time of day (UTC, as TODAY's day is)
        return name === "NOW" ? context.today() + (Date.now() % MS_PER_DAY) / MS_PER_DAY : context.today();
      }
      case "ROW":
      case "COLUMN":
        return rowOrColumn(name, args, context, scope);
      case "ISREF":
        return referenceOf(args[0], context, scope) !== undefined;
      case "SINGLE":
        return andThen(this.value(args[0] ?? MISSING, scope), (value) => intersect(value, context.at));
      case "ANCHORARRAY": {
        // its cell may be OFFSET's (`ANCHORARRAY(OFFSET(A1,1,1))`), a reference made as it runs
        const inner = args[0];
        const made = inner?.kind === "call" && canonicalName(inner.name, "") === "OFFSET" ? offsetOf(inner.args, context, scope, this.inScope(scope)) : referenceOf(inner, context, scope);
        return andThen(made, (reference) => {
          if (isCellError(reference)) return reference;
          if (!reference || reference.range.top !== reference.range.bottom || reference.range.left !== reference.range.right) return cellError("#VALUE!", "ANCHORARRAY takes one cell");
          return context.reference({ ...reference, text: `${reference.text}#`, spill: true });
        });
      }
      case "OFFSET":
        return andThen(offsetOf(args, context, scope, this.inScope(scope)), (reference) => (isCellError(reference) ? reference : context.reference(reference)));
      case "INDIRECT": {
        const scalarArg = (index: number, fallback: CellValue): Eventually<CellValue> => {
          const arg = args[index];
          return arg === undefined || arg.kind === "missing" ? fallback : andThen(this.value(arg, scope), oneValue);
        };
        return andThen(scalarArg(0, null), (text) => andThen(scalarArg(1, true), (a1) => indirect(text, a1, context)));
      }
      case "SUBTOTAL":
      case "AGGREGATE":
        return aggregate(name, args, context, this.inScope(scope), scope);
      default: {
        const values = this.argumentValues(args, scope);
        // an empty argument (`ROUND(1.5,)`, `VLOOKUP(x,t,2,)`) reads as blank: 0, "" or FALSE
        if (isPending(values)) return values.then((ready) => worksheetCall(name, ready, context));
        return worksheetCall(name, values, context);
      }
    }
  }
}

function worksheetCall(name: string, values: readonly (Value | undefined)[], context: EvaluationContext): Value {
  return callWorksheetFunction(name, values.map((value) => value ?? null), { dateSystem: context.dateSystem, at: context.at });
}

/** IF once its condition is known: an array condition chooses cell by cell from both branches, a single one evaluates only its branch. */
function chooseIf(condition: Value, args: readonly Expression[], recurse: (inner: Expression) => Eventually<Value>): Eventually<Value> {
  if (isArray(condition) && !(condition.rows.length === 1 && condition.rows[0]?.length === 1)) {
    const branches = allOf([args[1] ?? { kind: "literal", value: true }, args[2] ?? { kind: "literal", value: false }], recurse);
    return andThen(branches, ([whenTrue, whenFalse]) => mapValues([condition, whenTrue ?? null, whenFalse ?? null], ([c, t, f]) => chooseBranch(c ?? null, t ?? null, f ?? null)));
  }
  const truth = toBoolean(isArray(condition) ? (condition.rows[0]?.[0] ?? null) : condition);
  if (isCellError(truth)) return truth;
  const branch = truth ? args[1] : args[2];
  if (branch === undefined) return truth;
  return branch.kind === "missing" ? 0 : recurse(branch);
}

/** What a custom function is given: each argument as a value, a grid (a range keeps where it is) or missing. */
function inputsOf(values: readonly (Value | undefined)[], args: readonly Expression[]): ArgumentInput[] {
  return values.map((value, index): ArgumentInput => {
    if (value === undefined) return { kind: "missing" };
    if (!isArray(value)) return { kind: "value", value };
    const source = args[index];
    const range = source?.kind === "reference" && !source.spill ? (value.range ?? source.range) : undefined;
    return range ? { kind: "grid", rows: value.rows, range } : { kind: "grid", rows: value.rows };
  });
}

/** A formula's value as the cells it covers: one value (a blank reference shows 0) or a spilled grid. */
export function toResult(value: Value): ResultGrid {
  if (!isArray(value)) return [[value === null ? 0 : value]];
  const grid = toGrid(value);
  return grid.map((row) => row.map((cell) => (cell === null ? 0 : cell)));
}
