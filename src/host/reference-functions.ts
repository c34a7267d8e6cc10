/**
 * The functions evaluate.ts runs itself because they read references rather than values: ROW, COLUMN, OFFSET (a
 * reference made as it runs), INDIRECT (one read from text), SUBTOTAL and AGGREGATE (which skip the SUBTOTAL and
 * AGGREGATE cells in their ranges).
 */
import { type RangeRef, MAX_COLUMNS, MAX_ROWS, formatRangeAddress, readReference } from "../formula/a1";
import type { Expression, ReferenceExpression } from "../formula/parse";
import { toBoolean, toNumber, toText } from "./coerce";
import type { EvaluationContext, Scope } from "./evaluate";
import { type Eventually, andThen, inTurn } from "./eventually";
import { LeftForExcelSignal } from "./left-for-excel";
import { type Value, arrayOf, isArray } from "./value-array";
import { type CellError, type CellValue, cellError, isCellError } from "./values";
import { callWorksheetFunction } from "./worksheet";
import { AGGREGATE_WITH_K, aggregateFunction, aggregateOptions, notAFunctionNumber, subtotalFunction, withoutSkipped } from "./worksheet-subtotal";

const MISSING: Expression = { kind: "missing" };

/** ROW() and COLUMN(): the formula's own, or a reference's (an array for several rows or columns). */
export function rowOrColumn(name: string, args: readonly Expression[], context: EvaluationContext, scope: Scope): Value {
  if (args.length === 0) return name === "ROW" ? context.at.row + 1 : context.at.col + 1;
  const reference = referenceOf(args[0], context, scope);
  if (!reference) return cellError("#VALUE!", `${name} reads a reference`);
  const { range } = reference;
  if (name === "ROW") return range.top === range.bottom ? range.top + 1 : arrayOf(Array.from({ length: range.bottom - range.top + 1 }, (_, r) => [range.top + r + 1]));
  return range.left === range.right ? range.left + 1 : arrayOf([Array.from({ length: range.right - range.left + 1 }, (_, c) => range.left + c + 1)]);
}

/** The reference an argument stands for (a reference, a name or a structured reference that is one), or undefined. */
export function referenceOf(expression: Expression | undefined, context: EvaluationContext, scope: Scope, depth = 0): ReferenceExpression | undefined {
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

/** An argument taken as one value: a 1×1 array is its cell, a larger one #VALUE!. */
export function oneValue(value: Value): CellValue {
  if (!isArray(value)) return value;
  return value.rows.length === 1 && value.rows[0]?.length === 1 ? (value.rows[0][0] ?? null) : cellError("#VALUE!", "expected one value, got an array");
}

/** The reference OFFSET(reference, rows, cols, [height], [width]) makes. */
export function offsetOf(args: readonly Expression[], context: EvaluationContext, scope: Scope, recurse: (inner: Expression) => Eventually<Value>): Eventually<ReferenceExpression | CellError> {
  const reference = referenceOf(args[0], context, scope);
  if (!reference || reference.spill) throw new LeftForExcelSignal("OFFSET of something other than a plain reference");
  const fallbacks = [0, 0, reference.range.bottom - reference.range.top + 1, reference.range.right - reference.range.left + 1];
  const numbers: number[] = [];
  let failed: CellError | undefined;
  // each number in turn: the first that is an error is OFFSET's value, and the ones after it are not evaluated
  const next = (index: number): Eventually<boolean> => {
    const arg = args[index + 1];
    const given = arg === undefined || arg.kind === "missing" ? (fallbacks[index] ?? 0) : andThen(recurse(arg), oneValue);
    return andThen(given, (value) => {
      const number = toNumber(value, context.dateSystem);
      if (isCellError(number)) failed = number;
      else numbers.push(Math.trunc(number));
      return failed === undefined;
    });
  };
  return andThen(inTurn(fallbacks.length, next), () => failed ?? offsetReference(reference, numbers));
}

function offsetReference(reference: ReferenceExpression, numbers: readonly number[]): ReferenceExpression | CellError {
  const [rows = 0, cols = 0, height = 1, width = 1] = numbers;
  if (height < 1 || width < 1) return cellError("#REF!", "OFFSET of no cells");
  const top = reference.range.top + rows;
  const left = reference.range.left + cols;
  const range: RangeRef = { top, left, bottom: top + height - 1, right: left + width - 1 };
  if (top < 0 || left < 0 || range.bottom >= MAX_ROWS || range.right >= MAX_COLUMNS) return cellError("#REF!", "OFFSET goes outside the sheet");
  return { kind: "reference", text: formatRangeAddress(range), range, ...(reference.sheet === undefined ? {} : { sheet: reference.sheet }) };
}

/** SUBTOTAL(number, ref, ...) and AGGREGATE(number, options, ref, ... | array, k) over the references' values, nested ones skipped. */
export function aggregate(name: string, args: readonly Expression[], context: EvaluationContext, recurse: (inner: Expression) => Eventually<Value>, scope: Scope): Eventually<Value> {
  const subtotal = name === "SUBTOTAL";
  const scalar = (arg: Expression | undefined, fallback: number): Eventually<number | CellError> => {
    if (arg === undefined || arg.kind === "missing") return fallback;
    return andThen(recurse(arg), (value) => toNumber(isArray(value) ? (value.rows[0]?.[0] ?? null) : value, context.dateSystem));
  };
  return andThen(scalar(args[0], Number.NaN), (number) => {
    if (isCellError(number)) return number;
    const fn = subtotal ? subtotalFunction(number) : aggregateFunction(number);
    if (!fn) return notAFunctionNumber(name);
    return andThen(subtotal ? 0 : scalar(args[1], 0), (option) => {
      if (isCellError(option)) return option;
      const skips = aggregateOptions(option);
      if (!skips) return notAFunctionNumber(name);
      const withK = !subtotal && Math.trunc(number) >= AGGREGATE_WITH_K;
      const areas = subtotal ? args.slice(1) : withK ? args.slice(2, 3) : args.slice(2);
      if (areas.length === 0) return cellError("#VALUE!", `${name} needs a reference`);
      const values: Value[] = [];
      let refused: CellError | undefined;
      const area = (index: number): Eventually<boolean> => {
        const expression = areas[index];
        const reference = referenceOf(expression, context, scope);
        // only AGGREGATE's array form takes an array that is not a reference
        if (!reference && !withK) {
          refused = cellError("#VALUE!", `${name} reads references`);
          return false;
        }
        const skipped = reference && skips.nested ? context.aggregatesIn?.(reference) : [];
        if (skipped === undefined) throw new LeftForExcelSignal(`${name} over ${reference?.text ?? "an array"}: which of its cells hold SUBTOTAL or AGGREGATE is not known here`);
        return andThen(recurse(expression ?? MISSING), (value) => {
          values.push(withoutSkipped(value, skipped, skips.errors));
          return true;
        });
      };
      return andThen(inTurn(areas.length, area), () => {
        if (refused) return refused;
        if (!withK) return callWorksheetFunction(fn, values, { dateSystem: context.dateSystem, at: context.at });
        return andThen(scalar(args[3], Number.NaN), (k) => {
          if (isCellError(k)) return k;
          if (Number.isNaN(k)) return cellError("#VALUE!", `AGGREGATE ${Math.trunc(number)} needs its k`);
          return callWorksheetFunction(fn, [...values, k], { dateSystem: context.dateSystem, at: context.at });
        });
      });
    });
  });
}

export function indirect(text: CellValue, a1: CellValue, context: EvaluationContext): Value {
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

