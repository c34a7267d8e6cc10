/**
 * A book: `{ "cells": { "A1": "MB-AL-0004", "B1": "=PRICES.MID(A1)" }, "names": { "TaxRate": "0.2" } }`, read and
 * checked before anything runs. Text that is not a formula at all refuses the book; a formula the engine cannot
 * evaluate (LET once did) does not: it is left for Excel and shows why.
 */
import { type CellPosition, MAX_COLUMNS, MAX_ROWS, formatCellAddress, isA1Reference, parseCellAddress, parseRangeAddress, readCellReference } from "../formula/a1";
import { type Expression, FormulaSyntaxError } from "../formula/parse";
import { hostFormulaParser } from "./formula";
import { asLegacyFormula } from "./implicit-intersection";
import { type CellValue, cellError, isErrorText } from "./values";
import type { DefinedName } from "./book-names";
import { type SavedValues, readSaved } from "./book-saved";
import type { FixedArea } from "./fixed-array-area";

export interface LiteralCell extends CellPosition {
  /** An error literal (`{ "error": "#N/A" }`) is an error value in the cell, as Excel keeps one typed or saved. */
  readonly value: CellValue;
}

export interface FormulaCellSource extends CellPosition {
  readonly address: string;
  readonly text: string;
  readonly expression: Expression;
  /**
   * Stored without dynamic-array metadata (a plain or shared `<f>` in a file): evaluated as Excel 365 shows it, with
   * implicit intersection wherever Excel displays `@`, and never spilled (its expression already says so).
   */
  readonly legacy?: boolean;
  /** A legacy array formula's area (`{=...}`; `t="array"` without `cm` in a file): its result fills exactly these cells (fixed-array-area.ts). */
  readonly area?: FixedArea;
}

/** A formula's text and the tree its reader parsed from exactly that text. */
export interface ParsedFormula {
  readonly text: string;
  readonly expression: Expression;
}

export interface ParsedBook {
  readonly literals: readonly LiteralCell[];
  readonly formulas: readonly FormulaCellSource[];
  /** `"names": { "TaxRate": "0.2", "Prices": "$B$2:$B$9" }`: the book's defined names. */
  readonly names?: readonly DefinedName[];
  /** `"saved"`: the cached values the file saved for its formulas, against which the engine proves itself (book-saved.ts). */
  readonly saved?: SavedValues;
}

/** Bad input: the runner exits 2 with this message. */
export class BookError extends Error {
  override readonly name = "BookError";
  constructor(readonly problems: readonly string[]) {
    super(`invalid book: ${problems.join("; ")}`);
  }
}

/** `"names": { "TaxRate": "0.2" }`: each name's definition as a formula writes it, with or without "=". */
function readNames(json: object, problems: string[]): DefinedName[] {
  const names = (json as { names?: unknown }).names;
  if (names === undefined) return [];
  if (typeof names !== "object" || names === null || Array.isArray(names)) {
    problems.push('"names" must be an object of name -> definition');
    return [];
  }
  const out: DefinedName[] = [];
  for (const [name, definition] of Object.entries(names)) {
    if (!/^[A-Za-z_\\][A-Za-z0-9_.]*$/.test(name) || isA1Reference(name)) problems.push(`${JSON.stringify(name)} is not a name (letters, digits, _ and ., not a cell address)`);
    else if (typeof definition !== "string" || definition.replace(/^=/, "").trim() === "") problems.push(`the name ${name} needs its definition as text, e.g. "0.2" or "$B$2:$B$9"`);
    else out.push({ name, refersTo: definition.replace(/^=/, "") });
  }
  return out;
}

function isErrorLiteral(content: unknown): content is { error: unknown } {
  return typeof content === "object" && content !== null && !Array.isArray(content) && Object.keys(content).length === 1 && "error" in content;
}

/** `"legacy": ["K23", "B4"]`: the formula cells a file stored without dynamic-array metadata. */
function readLegacy(json: object, problems: string[]): Set<string> {
  const legacy = (json as { legacy?: unknown }).legacy;
  if (legacy === undefined) return new Set();
  const addresses = Array.isArray(legacy) ? legacy : [];
  const out = new Set<string>();
  for (const address of addresses) {
    const canonical = typeof address === "string" ? canonicalAddress(address) : undefined;
    if (canonical === undefined) {
      problems.push('"legacy" must be a list of cell addresses such as "B4"');
      return new Set();
    }
    out.add(canonical);
  }
  if (!Array.isArray(legacy)) problems.push('"legacy" must be a list of cell addresses such as "B4"');
  return out;
}

/** `B3` as a reader writes it (capitals, no `$`, no leading zero, inside the sheet): its position read without a regex; else undefined. */
export function canonicalCell(key: string): CellPosition | undefined {
  const position = { row: 0, col: 0 };
  return readCellReference(key, position) === true && position.row < MAX_ROWS && position.col < MAX_COLUMNS ? position : undefined;
}

/** A cell's address as the engine writes it (`b03` -> `B3`), or undefined for what is no cell or has a `$`. */
function canonicalAddress(text: string): string | undefined {
  if (canonicalCell(text) !== undefined) return text;
  const position = text.includes("$") ? undefined : parseCellAddress(text);
  return position === undefined ? undefined : formatCellAddress(position);
}

/** `"arrays": { "C2": "C2:C5" }`: the legacy array formulas (Ctrl+Shift+Enter) and the area each fills, from its cell. */
function readArrays(json: object, problems: string[]): Map<string, FixedArea> {
  const arrays = (json as { arrays?: unknown }).arrays;
  if (arrays === undefined) return new Map();
  const out = new Map<string, FixedArea>();
  if (typeof arrays !== "object" || arrays === null || Array.isArray(arrays)) {
    problems.push('"arrays" must be an object of formula cell -> its area, such as { "C2": "C2:C5" }');
    return out;
  }
  for (const [address, text] of Object.entries(arrays)) {
    const at = address.includes("$") ? undefined : parseCellAddress(address);
    const area = typeof text === "string" && !text.includes("$") ? parseRangeAddress(text) : undefined;
    if (at === undefined || area?.top !== at.row || area.left !== at.col) problems.push(`"arrays": ${JSON.stringify(address)} needs an area that starts at it, such as "C2:C5", got ${JSON.stringify(text)}`);
    else out.set(formatCellAddress(at), { rows: area.bottom - area.top + 1, cols: area.right - area.left + 1 });
  }
  return out;
}

/**
 * Text starting with `=` is a formula, with `'` a literal text without the quote; JSON numbers and booleans are
 * literals; null and "" are empty cells. Text that looks like a number stays text (JSON already says which it is).
 */
/**
 * `onCell` is called at each cell read, so a caller can report progress from inside a long book. `parsed` holds trees
 * a reader in this process parsed already (a workbook file's formulas): one is taken only for the very text it parsed.
 */
export function readBook(json: unknown, onCell?: () => void, parsed?: ReadonlyMap<string, ParsedFormula>): ParsedBook {
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new BookError(["a book is a JSON object with a cells object"]);
  const cells = (json as { cells?: unknown }).cells;
  if (typeof cells !== "object" || cells === null || Array.isArray(cells)) throw new BookError(['"cells" must be an object of address -> content']);
  const problems: string[] = [];
  const literals: LiteralCell[] = [];
  const formulas: FormulaCellSource[] = [];
  const parse = hostFormulaParser();
  const legacy = readLegacy(json, problems);
  const arrays = readArrays(json, problems);
  const keys = Object.keys(cells);
  const byKey = cells as Readonly<Record<string, unknown>>;
  /** Made at the first key written otherwise than a reader writes it (`b3`): only then can two keys name one cell. */
  let seen: Set<string> | undefined;
  /** The formulas `legacy` lists (each cell is read once, so a count tells whether every one listed holds a formula). */
  let legacyFormulas = 0;
  for (let index = 0; index < keys.length; index += 1) {
    onCell?.();
    const key = keys[index] as string;
    let position = canonicalCell(key);
    let address = key;
    if (position === undefined) {
      position = key.includes("$") ? undefined : parseCellAddress(key);
      if (!position) {
        problems.push(`${JSON.stringify(key)} is not a cell address such as B3`);
        continue;
      }
      address = formatCellAddress(position);
      seen ??= new Set(keys.slice(0, index).filter((earlier) => canonicalCell(earlier) !== undefined));
    }
    if (seen !== undefined) {
      if (seen.has(address)) {
        problems.push(`${address} is given twice`);
        continue;
      }
      seen.add(address);
    }
    const { row, col } = position;
    const content = byKey[key];
    if (content === null || content === "") continue;
    if (typeof content === "number") {
      if (Number.isFinite(content)) literals.push({ row, col, value: content });
      else problems.push(`${address}: numbers must be finite`);
    } else if (typeof content === "boolean") {
      literals.push({ row, col, value: content });
    } else if (typeof content === "string") {
      if (content.startsWith("=")) {
        try {
          const known = parsed?.get(address);
          const expression = known?.text === content ? known.expression : parse(content);
          const area = arrays.get(address);
          if (area !== undefined) arrays.delete(address);
          if (legacy.has(address)) {
            legacyFormulas += 1;
            formulas.push({ row, col, address, text: content, expression: asLegacyFormula(expression), legacy: true });
          } else if (area === undefined) formulas.push({ row, col, address, text: content, expression });
          else formulas.push({ row, col, address, text: content, expression, area });
        } catch (error) {
          if (!(error instanceof FormulaSyntaxError)) throw error;
          problems.push(`${address}: ${error.message}`);
        }
      } else {
        literals.push({ row, col, value: content.startsWith("'") ? content.slice(1) : content });
      }
    } else if (isErrorLiteral(content)) {
      if (isErrorText(content.error)) literals.push({ row, col, value: cellError(content.error) });
      else problems.push(`${address}: ${JSON.stringify(content.error)} is not an Excel error such as "#N/A"`);
    } else {
      problems.push(`${address}: a cell holds text, a number, a boolean, an error such as { "error": "#N/A" } or null, got ${Array.isArray(content) ? "an array" : typeof content}`);
    }
  }
  // a check rather than a delete per formula (10,000 deletes shrink and rehash the set again and again)
  if (legacyFormulas < legacy.size) {
    const held = new Set(formulas.map((formula) => formula.address));
    for (const address of legacy) if (!held.has(address)) problems.push(`"legacy" lists ${address}, which holds no formula`);
  }
  for (const address of arrays.keys()) problems.push(`"arrays" lists ${address}, which holds no formula`);
  const names = readNames(json, problems);
  const saved = readSaved(json, problems);
  if (problems.length > 0) throw new BookError(problems);
  return { literals, formulas, ...(names.length === 0 ? {} : { names }), ...(saved === undefined ? {} : { saved }) };
}
