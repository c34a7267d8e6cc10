/**
 * Builds PRICES.* formulas from typed arguments, and reads them back for diagnostics.
 * Text is always written as an Excel string literal with quotes doubled, so no value can end the
 * literal early and smuggle in a formula; references are checked against the A1 grammar (src/formula).
 */
import { isA1Reference, sheetPrefix } from "../formula/a1";
import { canonicalName } from "../formula/functions";
import { FormulaSyntaxError, parseFormula, type FormulaArgument, type FormulaCall } from "../formula/parse";
import { FUNCTIONS, NAMESPACE, type FunctionSpec } from "./catalogue";

export type FormulaArg =
  | { kind: "text"; value: string }
  | { kind: "number"; value: number }
  | { kind: "boolean"; value: boolean }
  | { kind: "ref"; address: string }
  /** A rolling date: `TODAY()`, `TODAY()-365`; recalculates every day, so a model rolls forward. */
  | { kind: "today"; offsetDays: number }
  | { kind: "omitted" };

/** Excel refuses text literals longer than 255 characters inside a formula. */
export const MAX_TEXT_LITERAL = 255;

export class FormulaError extends Error {
  override name = "FormulaError";
}

/** `he said "hi"` -> `"he said ""hi"""`. Control characters (CR, LF, NUL, ...) are refused: Excel cannot hold them in a literal. */
export function quoteText(value: string): string {
  if (value.length > MAX_TEXT_LITERAL) {
    throw new FormulaError(`text is longer than ${MAX_TEXT_LITERAL} characters`);
  }
  // eslint-disable-next-line no-control-regex -- Excel refuses these control characters in a formula's text: they are matched on purpose
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new FormulaError("text holds a control character");
  return `"${value.replace(/"/g, '""')}"`;
}

/** Quotes a sheet name for a reference when it needs it (`My sheet` -> `'My sheet'`, `O'Brien` -> `'O''Brien'`). */
export function qualifyAddress(sheet: string, area: string): string {
  const address = `${sheetPrefix(sheet)}${area}`;
  if (!isA1Reference(address)) throw new FormulaError(`not a cell reference: ${address}`);
  return address;
}

export function formatArg(arg: FormulaArg): string {
  switch (arg.kind) {
    case "text":
      return quoteText(arg.value);
    case "number":
      if (!Number.isFinite(arg.value)) throw new FormulaError("number is not finite");
      return String(arg.value);
    case "boolean":
      return arg.value ? "TRUE" : "FALSE";
    case "ref":
      if (!isA1Reference(arg.address)) throw new FormulaError(`not a cell reference: ${arg.address}`);
      return arg.address;
    case "today":
      if (!Number.isInteger(arg.offsetDays)) throw new FormulaError("a rolling date moves by whole days");
      return arg.offsetDays === 0 ? "TODAY()" : `TODAY()${arg.offsetDays < 0 ? "-" : "+"}${Math.abs(arg.offsetDays)}`;
    case "omitted":
      return "";
  }
}

/** `=PRICES.MID("MB-AL-0004","2024-03-01")`; trailing omitted arguments are dropped, inner ones left empty. */
export function buildFormula(fn: FunctionSpec | string, args: readonly FormulaArg[]): string {
  const spec = typeof fn === "string" ? FUNCTIONS.find((f) => f.name === fn) : fn;
  if (!spec || !FUNCTIONS.includes(spec)) throw new FormulaError(`unknown function: ${typeof fn === "string" ? fn : fn.name}`);
  if (args.length > spec.parameters.length) throw new FormulaError(`${spec.name} takes at most ${spec.parameters.length} arguments`);
  let last = args.length;
  while (last > 0 && args[last - 1]?.kind === "omitted") last--;
  spec.parameters.forEach((parameter, index) => {
    if (!parameter.optional && (index >= last || args[index]?.kind === "omitted")) {
      throw new FormulaError(`${spec.name}: ${parameter.name} is required`);
    }
  });
  const written = args.slice(0, last).map(formatArg);
  return `=${NAMESPACE}.${spec.name}(${written.join(",")})`;
}

/** Turns what the user typed in a builder box into an argument: blank is omitted, a reference stays one, else text or number. */
export function argFromInput(input: string, kind: "text" | "number" | "auto" = "auto"): FormulaArg {
  const value = input.trim();
  if (value === "") return { kind: "omitted" };
  if (isA1Reference(value) && /\d/.test(value)) return { kind: "ref", address: value };
  if (kind !== "text" && /^-?\d+(\.\d+)?$/.test(value)) return { kind: "number", value: Number(value) };
  if (kind === "number") throw new FormulaError(`not a number: ${value}`);
  return { kind: "text", value };
}

/** One PRICES.* call read back from a cell: its function and arguments (references left unresolved). */
export interface ParsedCall {
  name: string;
  args: FormulaArg[];
}

/** A function of the namespace as Excel shows it (canonicalName reads the `_xldudf_PRICES_MID` form files hold). */
const PRICES_NAME = new RegExp(`^${NAMESPACE}\\.([A-Z]+)$`);

/**
 * Reads `=PRICES.NAME(arg, ...)` where each argument is a literal, a reference, a rolling date (`TODAY()-365`, as the
 * builder writes) or empty; anything else (other nested calls, operators, array constants) gives undefined, and the
 * diagnostics say it cannot be traced.
 */
export function parseCall(formula: string): ParsedCall | undefined {
  let call: FormulaCall;
  try {
    call = parseFormula(formula);
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return undefined;
    throw error;
  }
  const name = PRICES_NAME.exec(canonicalName(call.name, NAMESPACE))?.[1];
  if (name === undefined) return undefined;
  const args: FormulaArg[] = [];
  for (const arg of call.args) {
    if (arg.kind === "array") return undefined;
    args.push(formulaArgOf(arg));
  }
  return { name: name.toUpperCase(), args };
}

function formulaArgOf(arg: Exclude<FormulaArgument, { kind: "array" }>): FormulaArg {
  switch (arg.kind) {
    case "missing":
      return { kind: "omitted" };
    case "reference":
      return { kind: "ref", address: arg.text };
    case "today":
      return arg;
    case "literal":
      if (typeof arg.value === "string") return { kind: "text", value: arg.value };
      if (typeof arg.value === "number") return { kind: "number", value: arg.value };
      return { kind: "boolean", value: arg.value };
  }
}
