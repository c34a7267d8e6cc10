/**
 * Builds PRICES.* formulas from typed arguments, and reads them back for diagnostics.
 * Text is always written as an Excel string literal with quotes doubled, so no value can end the
 * literal early and smuggle in a formula; references are checked against the A1 grammar.
 */
import { FUNCTIONS, NAMESPACE, type FunctionSpec } from "./catalogue";

export type FormulaArg =
  | { kind: "text"; value: string }
  | { kind: "number"; value: number }
  | { kind: "boolean"; value: boolean }
  | { kind: "ref"; address: string }
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
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new FormulaError("text holds a control character");
  return `"${value.replace(/"/g, '""')}"`;
}

const COLUMN = "\\$?[A-Za-z]{1,3}";
const ROW = "\\$?[1-9][0-9]{0,6}";
const CELL = `${COLUMN}${ROW}`;
const AREA = `(?:${CELL}(?::${CELL})?|${COLUMN}:${COLUMN}|${ROW}:${ROW})`;
const PLAIN_SHEET = "[A-Za-z_][A-Za-z0-9_.]*";
const QUOTED_SHEET = "'(?:[^'\\[\\]*?/\\\\:]|'')+'";
const ADDRESS = new RegExp(`^(?:(?:${PLAIN_SHEET}|${QUOTED_SHEET})!)?${AREA}$`);

/** Whether `address` is an A1 reference (optionally sheet-qualified, `'My sheet'!A1:B2`). */
export function isA1Reference(address: string): boolean {
  return ADDRESS.test(address);
}

/** Quotes a sheet name for a reference when it needs it (`My sheet` -> `'My sheet'`, `O'Brien` -> `'O''Brien'`). */
export function qualifyAddress(sheet: string, area: string): string {
  const plain = new RegExp(`^${PLAIN_SHEET}$`).test(sheet) && !new RegExp(`^${CELL}$`).test(sheet);
  const name = plain ? sheet : `'${sheet.replace(/'/g, "''")}'`;
  const address = `${name}!${area}`;
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
    case "omitted":
      return "";
  }
}

/** `=PRICES.MID("MB-AL-0004","2024-03-01")`; trailing omitted arguments are dropped, inner ones left empty. */
export function buildFormula(fn: FunctionSpec | string, args: readonly FormulaArg[]): string {
  const spec = typeof fn === "string" ? FUNCTIONS.find((f) => f.name === fn) : fn;
  if (!spec || !FUNCTIONS.includes(spec)) throw new FormulaError(`unknown function: ${String(typeof fn === "string" ? fn : fn.name)}`);
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

/**
 * Reads `=PRICES.NAME(arg, ...)` where each argument is a literal, a reference or empty; anything
 * else (nested calls, operators) gives undefined, and the diagnostics say it cannot be traced.
 */
export function parseCall(formula: string): ParsedCall | undefined {
  const text = formula.trim();
  const head = new RegExp(`^=\\s*(?:_xldudf_)?${NAMESPACE}\\.([A-Za-z]+)\\s*\\(`, "i").exec(text);
  if (!head || !text.endsWith(")")) return undefined;
  const name = (head[1] ?? "").toUpperCase();
  const body = text.slice(head[0].length, -1);
  const args: FormulaArg[] = [];
  let i = 0;
  const skipBlanks = (): void => {
    while (i < body.length && /\s/.test(body[i] ?? "")) i++;
  };
  for (;;) {
    skipBlanks();
    if (i >= body.length || body[i] === ",") {
      args.push({ kind: "omitted" });
    } else if (body[i] === '"') {
      let value = "";
      i++;
      for (;;) {
        if (i >= body.length) return undefined;
        const ch = body[i] ?? "";
        if (ch === '"') {
          if (body[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += ch;
        i++;
      }
      args.push({ kind: "text", value });
    } else {
      const match = /^[^,]+/.exec(body.slice(i));
      const token = (match?.[0] ?? "").trim();
      i += match?.[0].length ?? 0;
      if (/^-?\d+(\.\d+)?$/.test(token)) args.push({ kind: "number", value: Number(token) });
      else if (/^(TRUE|FALSE)$/i.test(token)) args.push({ kind: "boolean", value: token.toUpperCase() === "TRUE" });
      else if (isA1Reference(token)) args.push({ kind: "ref", address: token });
      else return undefined;
    }
    skipBlanks();
    if (i >= body.length) break;
    if (body[i] !== ",") return undefined;
    i++;
  }
  if (args.length === 1 && args[0]?.kind === "omitted" && body.trim() === "") args.length = 0;
  return { name, args };
}
