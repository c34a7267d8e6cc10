/**
 * Why a formula cannot be evaluated with Excel's semantics, told before it runs: a function the host does not
 * evaluate, an empty argument it does not read as Excel does, a whole row or column where the blank cells past the
 * used area would change the value, an unknown table, through LET bindings and defined names.
 */
import { isExcelFunction } from "../formula/excel-function-names";
import { canonicalName } from "../formula/functions";
import type { Expression, ReferenceExpression } from "../formula/parse";
import { isWorksheetFunction } from "./worksheet";

/** Functions evaluated here rather than in worksheet.ts: they choose before evaluating, or read references themselves. */
const EVALUATED_HERE = new Set(["IF", "IFERROR", "IFNA", "TODAY", "NOW", "ROW", "COLUMN", "OFFSET", "INDIRECT", "ANCHORARRAY", "SINGLE", "ISREF", "SUBTOTAL", "AGGREGATE"]);
/** Functions whose empty argument (`VLOOKUP(x, t, 2, )`) the host reads as Excel does: blank, or XLOOKUP's default. */
const EMPTY_ARGUMENT_OK = new Set(["IF", "IFERROR", "IFNA", "VLOOKUP", "HLOOKUP", "INDEX", "XLOOKUP", "ROUND", "ROUNDUP", "ROUNDDOWN", "SUM", "PV", "FV", "PMT", "NPER", "IPMT", "PPMT"]);

/**
 * Functions whose value is the same over a whole row or column as over its used area, which is what the engine reads:
 * they skip blank cells (Excel reads all 1,048,576 rows; ROWS, COUNTBLANK, INDEX past the used area would not agree).
 */
const WHOLE_LINES_OK = new Set(["SUM", "COUNT", "COUNTA", "AVERAGE", "MAX", "MIN", "PRODUCT", "MEDIAN", "SUMIF", "SUMIFS", "AVERAGEIF", "AVERAGEIFS"]);
/** Counting by criteria skips blank cells only when no criterion can meet one (`""`, `"="` and `"<>x"` do). */
const WHOLE_LINES_COUNTED = new Set(["COUNTIF", "COUNTIFS"]);

/** Whether a constant criterion never meets a blank cell. */
function skipsBlanks(criterion: Expression | undefined): boolean {
  if (criterion?.kind !== "literal") return false;
  const { value } = criterion;
  return typeof value !== "string" || (value !== "" && value !== "=" && !value.startsWith("<>"));
}

/** Whether a whole row or column may be an argument of this call (the function reads only the used area the same). */
function wholeLinesAllowed(name: string, args: readonly Expression[]): boolean {
  if (WHOLE_LINES_OK.has(name)) return true;
  // COUNTIF(range, criterion), COUNTIFS(range1, criterion1, ...): every criterion a constant that skips blanks
  return WHOLE_LINES_COUNTED.has(name) && args.every((arg, index) => index % 2 === 0 || skipsBlanks(arg));
}

export interface StaticContext {
  readonly namespace: string;
  name(name: string): Expression | undefined;
  /** The area of a structured reference, or why it cannot be read; without it, tables are not known. */
  structured?(text: string): ReferenceExpression | string;
  /**
   * A function no Excel knows: `#NAME?` as Excel shows it where nothing else computed it (a JSON book, the default),
   * or `left` for a file Excel saved, where it may be an add-in's or a macro's that Excel computed (Bloomberg's BDP).
   */
  readonly unknownFunctions?: "name-error" | "left";
}

/** Why a formula cannot be evaluated with Excel's semantics before it runs, or undefined when it can. */
export function whyLeftForExcel(expression: Expression, context: StaticContext, bound: ReadonlySet<string> = new Set(), seen: ReadonlySet<string> = new Set()): string | undefined {
  switch (expression.kind) {
    case "unsupported":
      return expression.reason;
    case "table": {
      const reference = context.structured?.(expression.text) ?? `structured reference ${expression.text}: the book's tables are not known`;
      return typeof reference === "string" ? reference : undefined;
    }
    case "call": {
      const name = canonicalName(expression.name, context.namespace);
      const custom = name.startsWith(`${context.namespace}.`);
      if (!custom && !EVALUATED_HERE.has(name) && !isWorksheetFunction(name)) {
        // one Excel knows, or another add-in's, is Excel's to compute; a name Excel does not know is #NAME? (evaluated)
        if (isExcelFunction(name) || /^_xldudf_/i.test(expression.name)) return `function not supported: ${name}`;
        if (context.unknownFunctions === "left") return `${name} is no Excel function: an add-in's or a macro's, which only Excel with it computes`;
      }
      if (!custom && !EMPTY_ARGUMENT_OK.has(name) && expression.args.some((arg) => arg.kind === "missing")) return `an empty argument of ${name} is not supported`;
      for (const arg of expression.args) {
        if (arg.kind === "reference" && arg.whole !== undefined && wholeLinesAllowed(name, expression.args)) continue;
        const why = whyLeftForExcel(arg, context, bound, seen);
        if (why) return why;
      }
      return undefined;
    }
    case "reference":
      return expression.whole === undefined
        ? undefined
        : `${expression.text}: a whole row or column is evaluated only inside ${[...WHOLE_LINES_OK].join(", ")} and COUNTIF(S) with criteria that skip blanks (elsewhere Excel's value depends on the blank cells past the used area)`;
    case "unary":
      return whyLeftForExcel(expression.operand, context, bound, seen);
    case "binary":
      return whyLeftForExcel(expression.left, context, bound, seen) ?? whyLeftForExcel(expression.right, context, bound, seen);
    case "let": {
      const names = new Set(bound);
      for (const binding of expression.bindings) {
        const why = whyLeftForExcel(binding.value, context, names, seen);
        if (why) return why;
        names.add(binding.name.toUpperCase());
      }
      return whyLeftForExcel(expression.body, context, names, seen);
    }
    case "name": {
      const key = expression.name.toUpperCase();
      if (bound.has(key) || seen.has(key)) return undefined;
      const defined = context.name(expression.name);
      return defined ? whyLeftForExcel(defined, context, new Set(), new Set([...seen, key])) : undefined;
    }
    default:
      return undefined;
  }
}
