/**
 * The one reader of formula text: `=NAME(arg, ...)`, a single call whose arguments are text in quotes,
 * numbers, TRUE/FALSE, array constants, A1 references or empty. The host runs what it reads; the pane
 * reads PRICES.* calls back to trace them.
 */
import { readReference, type RangeRef } from "./a1";

/** A constant as a formula writes it. */
export type Scalar = number | string | boolean;

export type FormulaArgument =
  | { readonly kind: "missing" }
  | { readonly kind: "literal"; readonly value: Scalar }
  | { readonly kind: "array"; readonly rows: readonly (readonly Scalar[])[] }
  | { readonly kind: "reference"; readonly range: RangeRef; readonly text: string; readonly whole?: "columns" | "rows" };

export interface FormulaCall {
  /** As written, e.g. `PRICES.MID`. */
  readonly name: string;
  readonly args: readonly FormulaArgument[];
}

export interface ParseOptions {
  /** Whether `A:C` and `1:3` are accepted (default true); a reader that walks every referenced cell says false. */
  readonly wholeRowsAndColumns?: boolean;
}

export class FormulaSyntaxError extends Error {
  override readonly name = "FormulaSyntaxError";
  constructor(
    readonly formula: string,
    readonly position: number,
    detail: string,
  ) {
    super(`${detail} at position ${position + 1} of ${formula}`);
  }
}

const NAME = /[A-Za-z_][A-Za-z0-9_.]*/y;
const NUMBER_SOURCE = "[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?";
const NUMBER = new RegExp(NUMBER_SOURCE, "y");
const WHOLE_NUMBER = new RegExp(`^${NUMBER_SOURCE}$`);
const BOOLEAN = /(TRUE|FALSE)(?![A-Za-z0-9_.(])/iy;

/** Whether `text` is a number as a formula or a typed cell writes it (`-1.5`, `.5`, `2e3`). */
export function isNumberLiteral(text: string): boolean {
  return WHOLE_NUMBER.test(text);
}

/** Parses `=NAME(args)`; throws FormulaSyntaxError for anything else. */
export function parseFormula(formula: string, options: ParseOptions = {}): FormulaCall {
  const reader = new Reader(formula);
  reader.skipSpace();
  reader.expect("=");
  reader.skipSpace();
  const name = reader.match(NAME);
  if (name === undefined) reader.fail("expected a function name");
  reader.skipSpace();
  reader.expect("(");
  const args: FormulaArgument[] = [];
  reader.skipSpace();
  if (reader.peek() === ")") {
    reader.advance();
  } else {
    for (;;) {
      reader.skipSpace();
      const next = reader.peek();
      args.push(next === "," || next === ")" ? { kind: "missing" } : readArgument(reader, options.wholeRowsAndColumns ?? true));
      reader.skipSpace();
      const separator = reader.peek();
      reader.advance();
      if (separator === ")") break;
      if (separator !== ",") reader.fail("expected , or )", -1);
    }
  }
  reader.skipSpace();
  if (!reader.atEnd()) reader.fail("unexpected text after the call");
  return { name: name ?? "", args };
}

function readArgument(reader: Reader, wholeLines: boolean): FormulaArgument {
  const next = reader.peek();
  if (next === '"') return { kind: "literal", value: readString(reader) };
  if (next === "{") return readArray(reader);
  const bool = reader.match(BOOLEAN);
  if (bool !== undefined) return { kind: "literal", value: bool.toUpperCase() === "TRUE" };
  const start = reader.offset;
  const reference = readReference(reader.text, start);
  if (reference && (wholeLines || reference.whole === undefined)) {
    if (reference.range === undefined) reader.fail(`reference outside the sheet: ${reference.text}`);
    reader.offset += reference.text.length;
    const { text, range, whole } = reference;
    return whole === undefined ? { kind: "reference", range, text } : { kind: "reference", range, text, whole };
  }
  if (reference) reader.fail(`whole rows and columns are not supported: ${reference.text}`);
  const number = readNumber(reader);
  if (number !== undefined) return { kind: "literal", value: number };
  return reader.fail("expected text in quotes, a number, TRUE/FALSE, a cell reference or a range");
}

function readString(reader: Reader): string {
  reader.expect('"');
  let text = "";
  for (;;) {
    if (reader.atEnd()) reader.fail("unterminated text");
    const char = reader.peek();
    reader.advance();
    if (char === '"') {
      if (reader.peek() !== '"') return text;
      reader.advance();
    }
    text += char;
  }
}

function readNumber(reader: Reader): number | undefined {
  const text = reader.match(NUMBER);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) reader.fail(`number out of range: ${text}`, -text.length);
  return value;
}

/** Array constants `{1,2;3,4}`: rows split by `;`, items by `,`, all rows the same length. */
function readArray(reader: Reader): FormulaArgument {
  reader.expect("{");
  const rows: Scalar[][] = [[]];
  for (;;) {
    reader.skipSpace();
    const next = reader.peek();
    let item: Scalar;
    if (next === '"') item = readString(reader);
    else {
      const bool = reader.match(BOOLEAN);
      const number = bool === undefined ? readNumber(reader) : undefined;
      if (bool !== undefined) item = bool.toUpperCase() === "TRUE";
      else if (number !== undefined) item = number;
      else return reader.fail("expected a constant in the array");
    }
    rows[rows.length - 1]?.push(item);
    reader.skipSpace();
    const separator = reader.peek();
    reader.advance();
    if (separator === "}") break;
    if (separator === ";") rows.push([]);
    else if (separator !== ",") reader.fail("expected , ; or } in the array", -1);
  }
  const width = rows[0]?.length ?? 0;
  if (rows.some((row) => row.length !== width)) reader.fail("array rows differ in length", -1);
  return { kind: "array", rows };
}

class Reader {
  offset = 0;
  constructor(readonly text: string) {}

  atEnd(): boolean {
    return this.offset >= this.text.length;
  }
  peek(): string {
    return this.text[this.offset] ?? "";
  }
  advance(): void {
    this.offset += 1;
  }
  skipSpace(): void {
    while (/\s/.test(this.peek()) && !this.atEnd()) this.offset += 1;
  }
  expect(char: string): void {
    if (this.peek() !== char) this.fail(`expected ${char}`);
    this.offset += 1;
  }
  match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.offset;
    const match = pattern.exec(this.text);
    if (!match) return undefined;
    this.offset += match[0].length;
    return match[0];
  }
  fail(detail: string, shift = 0): never {
    throw new FormulaSyntaxError(this.text, Math.max(0, this.offset + shift), detail);
  }
}
