/**
 * The PRICES calls of a formula as the pane can read them without an engine: every call, nested ones included
 * (`=AVERAGE(PRICES.HISTORY(...))`), with each argument read as the function receives it (text, numbers, a blank, the
 * values of a referenced cell or range, `TODAY()-N` as that day). A call with an argument the pane cannot read (another
 * nested formula) is left out rather than guessed. These are the records src/functions/frozen-provenance.ts describes, as the
 * runner's engine records them, so the pane's Freeze and the runner's --freeze share one provenance.
 */
import { addDays } from "../api";
import { canonicalName } from "../formula/functions";
import { type Expression, FormulaSyntaxError, parseExpression } from "../formula/parse";
import type { PricesCallRecord } from "../functions/frozen-provenance";
import type { ResolveRef } from "./diagnostics";

const NAMESPACE = "PRICES";

/** Not readable by the pane (a formula inside an argument): the call it belongs to is skipped. */
const UNREADABLE = Symbol("unreadable");

async function argumentValue(arg: Expression, resolve: ResolveRef, today: string): Promise<unknown> {
  switch (arg.kind) {
    case "missing":
      return null;
    case "literal":
      return arg.value;
    case "reference": {
      if (arg.spill) return UNREADABLE;
      const cells = await resolve(arg.text);
      return cells.length === 1 && cells[0]?.length === 1 ? cells[0][0] : cells;
    }
    case "unary":
      if ((arg.operator === "-" || arg.operator === "+") && arg.operand.kind === "literal" && typeof arg.operand.value === "number") return arg.operator === "-" ? -arg.operand.value : arg.operand.value;
      return UNREADABLE;
    case "call":
      if (arg.name.toUpperCase() === "TODAY" && arg.args.length === 0) return today;
      return UNREADABLE;
    case "binary": {
      // TODAY()-N, as the builder and the one-click inserts write a rolling date
      const today0 = arg.left.kind === "call" && arg.left.name.toUpperCase() === "TODAY" && arg.left.args.length === 0;
      const days = arg.right.kind === "literal" && typeof arg.right.value === "number" && Number.isInteger(arg.right.value) ? arg.right.value : undefined;
      if (today0 && days !== undefined && (arg.operator === "-" || arg.operator === "+")) return addDays(today, arg.operator === "-" ? -days : days);
      return UNREADABLE;
    }
    default:
      return UNREADABLE;
  }
}

/** Every PRICES call of `formula`, outermost first; `whole` when the formula is that call alone. */
export async function pricesCalls(formula: string, resolve: ResolveRef, today: string): Promise<PricesCallRecord[]> {
  let root: Expression;
  try {
    root = parseExpression(formula);
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return [];
    throw error;
  }
  const records: PricesCallRecord[] = [];
  const visit = async (node: Expression): Promise<void> => {
    if (node.kind === "unary") return visit(node.operand);
    if (node.kind === "binary") {
      await visit(node.left);
      return visit(node.right);
    }
    if (node.kind !== "call") return;
    const name = canonicalName(node.name, NAMESPACE);
    if (name.startsWith(`${NAMESPACE}.`)) {
      const args = await Promise.all(node.args.map((arg) => argumentValue(arg, resolve, today)));
      if (!args.includes(UNREADABLE)) records.push({ name: name.slice(NAMESPACE.length + 1), args, row: 0, col: 0, whole: node === root });
    }
    for (const arg of node.args) await visit(arg);
  };
  await visit(root);
  return records;
}
