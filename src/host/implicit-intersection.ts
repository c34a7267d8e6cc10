/**
 * A formula a file stores without dynamic-array metadata (a plain or shared `<f>`, no `cm`) as Excel 365 evaluates
 * it: the `@` Excel would display put into its expression. Legacy Excel evaluated a cell formula in value context:
 * where a value is taken (an operator's operand, a function's value parameter, the formula's result) a range gives
 * the cell in the formula's row or column and an array its first value; a reference parameter (SUM's, IF's branches)
 * takes a reference whole; an array parameter (SUMPRODUCT's, INDEX's first, LOOKUP's vectors) evaluates everything
 * in it as arrays. So `=C7+G7:J7` reads `=@C7+@G7:J7`, `=UPPER(R1000:R2000)` reads `=UPPER(@R1000:R2000)`,
 * `=COLUMN(G17:H21)` reads `=@COLUMN(G17:H21)`, and no legacy formula spills.
 * (Microsoft, "Implicit intersection operator: @"; the parameter classes of [MS-XLS] 2.5.198.)
 */
import { canonicalName } from "../formula/functions";
import type { Expression } from "../formula/parse";
import { type ParamLetter } from "./worksheet-spec";
import { WORKSHEET_FUNCTIONS } from "./worksheet";

/** How an argument is taken: as one value, as a reference (or whatever the expression gives), or evaluated as an array. */
type Context = "value" | "reference" | "array";

/** Parameters Excel evaluates as arrays even in a plain formula (the `INDEX((A1:A9=x)*1,0)` idiom works without Ctrl+Shift+Enter). */
const ARRAY_PARAMETERS: Readonly<Record<string, "all" | readonly number[]>> = {
  SUMPRODUCT: "all",
  INDEX: [0],
  LOOKUP: [1, 2],
  MMULT: "all",
  MDETERM: "all",
  MINVERSE: "all",
  TRANSPOSE: "all",
  FREQUENCY: "all",
  TREND: "all",
  GROWTH: "all",
  LINEST: "all",
  LOGEST: "all",
  SUMX2MY2: "all",
  SUMX2PY2: "all",
  SUMXMY2: "all",
  CORREL: "all",
  COVAR: "all",
  PEARSON: "all",
  RSQ: "all",
  SLOPE: "all",
  INTERCEPT: "all",
  STEYX: "all",
  FORECAST: [1, 2],
  TTEST: [0, 1],
  CHITEST: "all",
  PROB: [0, 1],
  ROWS: "all",
  COLUMNS: "all",
};

/** The functions evaluate.ts runs itself, by parameter: `v` a value, `r` a reference (IF's branches can be references). */
const OWN_PARAMETERS: Readonly<Record<string, string>> = {
  IF: "vrr",
  IFERROR: "vv",
  IFNA: "vv",
  ROW: "r",
  COLUMN: "r",
  ISREF: "r",
  SINGLE: "r",
  ANCHORARRAY: "r",
  OFFSET: "rvvvv",
  INDIRECT: "vv",
};

/** `namespace` names the custom functions, whose arguments stay as written (the engine marshals them by their metadata). */
export function asLegacyFormula(expression: Expression, namespace = "PRICES"): Expression {
  return inContext(expression, "value", namespace);
}

function inContext(expression: Expression, context: Context, namespace: string): Expression {
  if (context === "array") return expression;
  switch (expression.kind) {
    case "reference":
    case "name":
    case "table":
      return context === "value" ? at(expression) : expression;
    case "call": {
      const args = expression.args.map((arg, index) => inContext(arg, argumentContext(expression.name, index, namespace), namespace));
      // a node whose parts come back as they were is kept, not copied (a PRICES call's arguments stay as written)
      const call: Expression = args.every((arg, index) => arg === expression.args[index]) ? expression : { ...expression, args };
      return context === "value" ? at(call) : call;
    }
    case "unary": {
      const operand = inContext(expression.operand, expression.operator === "@" ? "reference" : "value", namespace);
      return operand === expression.operand ? expression : { ...expression, operand };
    }
    case "binary": {
      const left = inContext(expression.left, "value", namespace);
      const right = inContext(expression.right, "value", namespace);
      return left === expression.left && right === expression.right ? expression : { ...expression, left, right };
    }
    case "let":
      return {
        ...expression,
        bindings: expression.bindings.map((binding) => ({ ...binding, value: inContext(binding.value, "reference", namespace) })),
        body: inContext(expression.body, context, namespace),
      };
    default:
      return expression;
  }
}

/** What a formula's value comes from, past the `@` a legacy formula's result takes (`first`: its first cell only). */
export function resultOf(expression: Expression): { readonly expression: Expression; readonly first: boolean } {
  return expression.kind === "unary" && expression.operator === "@" ? { expression: expression.operand, first: true } : { expression, first: false };
}

function at(operand: Expression): Expression {
  return { kind: "unary", operator: "@", operand };
}

function argumentContext(written: string, index: number, namespace: string): Context {
  const name = canonicalName(written, namespace);
  const arrays = ARRAY_PARAMETERS[name];
  if (arrays === "all" || arrays?.includes(index)) return "array";
  const own = OWN_PARAMETERS[name];
  if (own !== undefined) return own[Math.min(index, own.length - 1)] === "v" ? "value" : "reference";
  const fn = Object.hasOwn(WORKSHEET_FUNCTIONS, name) ? WORKSHEET_FUNCTIONS[name] : undefined;
  // a custom function or one the engine lacks: its arguments as written (the engine leaves the latter for Excel)
  if (!fn) return "array";
  const letter: ParamLetter = fn.params[Math.min(index, fn.params.length - 1)] ?? "v";
  return letter === "r" || letter === "v" ? "reference" : "value";
}
