/** Function names as files store them and as Excel shows them, and whether a formula calls a namespace's functions. */
import type { Expression } from "./parse";

/**
 * Canonical names already worked out, by namespace and name as written: a pure function's answers, asked for every call
 * of every formula at load and at each run (20,050-cell model: 14 MB of strings and regex matches less). Bounded.
 */
const known = new Map<string, Map<string, string>>();

/** `_xlfn.XLOOKUP`, `_xlfn._xlws.FILTER` (how files store newer functions), `_xldudf_PRICES_MID` and any case, as the name Excel shows. */
export function canonicalName(name: string, namespace: string): string {
  let names = known.get(namespace);
  const found = names?.get(name);
  if (found !== undefined) return found;
  let upper = name.toUpperCase().replace(/^(?:_XLFN\.)?(?:_XLWS\.)?/, "");
  if (upper.startsWith("_XLDUDF_")) {
    upper = upper.slice("_XLDUDF_".length);
    // Excel saves a JavaScript custom function as _xldudf_NAMESPACE_NAME (the namespace's dot written as _).
    if (upper.startsWith(`${namespace}_`)) upper = `${namespace}.${upper.slice(namespace.length + 1)}`;
  }
  if (names === undefined || names.size >= 10_000) known.set(namespace, (names = new Map<string, string>()));
  names.set(name, upper);
  return upper;
}

/** Whether the expression calls a function of `namespace` anywhere (what freezing replaces by its values). */
export function callsNamespace(expression: Expression, namespace: string): boolean {
  switch (expression.kind) {
    case "call":
      return canonicalName(expression.name, namespace).startsWith(`${namespace}.`) || expression.args.some((arg) => callsNamespace(arg, namespace));
    case "unary":
      return callsNamespace(expression.operand, namespace);
    case "binary":
      return callsNamespace(expression.left, namespace) || callsNamespace(expression.right, namespace);
    // `LET(p, PRICES.MID(A1), p*2)` calls PRICES in a binding: --freeze must see it
    case "let":
      return expression.bindings.some((binding) => callsNamespace(binding.value, namespace)) || callsNamespace(expression.body, namespace);
    default:
      return false;
  }
}
