/** What a person types into a workbench cell, read as Excel reads an entry, and the sheet of entries as a host book. */
import { formatCellAddress, parseCellAddress, type CellPosition } from "../formula/a1";
import { FormulaSyntaxError, isNumberLiteral } from "../formula/parse";
import { parseHostFormula } from "../host/formula";

/** A cell's content in a host book: formula or literal text, a number, a boolean. */
export type BookContent = string | number | boolean;

export type EntryResult = { readonly ok: true; readonly content: BookContent | undefined } | { readonly ok: false; readonly message: string };

/**
 * `=...` is a formula (refused with the parser's message when it isn't one the host runs, as Excel refuses
 * a broken formula); a plain number is a number; TRUE/FALSE a boolean; `'` keeps the rest as text; blank clears.
 */
export function readEntry(typed: string): EntryResult {
  const text = typed.trim();
  if (text === "") return { ok: true, content: undefined };
  if (text.startsWith("=")) {
    try {
      parseHostFormula(text);
    } catch (error) {
      if (error instanceof FormulaSyntaxError) return { ok: false, message: `There's a problem with this formula: ${error.message}` };
      throw error;
    }
    return { ok: true, content: text };
  }
  if (typed.startsWith("'")) return { ok: true, content: typed };
  if (isNumberLiteral(text)) return { ok: true, content: Number(text) };
  if (/^(true|false)$/i.test(text)) return { ok: true, content: text.toUpperCase() === "TRUE" };
  return { ok: true, content: typed };
}

/** How an entry shows in the formula bar (what was typed, numbers and booleans as Excel shows them). */
export function entryText(content: BookContent | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "boolean") return content ? "TRUE" : "FALSE";
  return String(content);
}

/** The cells a person filled in, by address; everything else is blank. */
export class EntrySheet {
  private readonly entries = new Map<string, BookContent>();

  constructor(initial: Readonly<Record<string, BookContent>> = {}) {
    for (const [address, content] of Object.entries(initial)) this.put(address, content);
  }

  /** Reads and stores what was typed; refuses a broken formula without changing the sheet. */
  enter(position: CellPosition, typed: string): EntryResult {
    const result = readEntry(typed);
    if (!result.ok) return result;
    const address = formatCellAddress(position);
    if (result.content === undefined) this.entries.delete(address);
    else this.entries.set(address, result.content);
    return result;
  }

  /** Replaces the sheet with book contents as they are (no reading of typed text). */
  load(cells: Readonly<Record<string, BookContent>>): void {
    this.entries.clear();
    for (const [address, content] of Object.entries(cells)) this.put(address, content);
  }

  get(position: CellPosition): BookContent | undefined {
    return this.entries.get(formatCellAddress(position));
  }

  isFormula(position: CellPosition): boolean {
    const content = this.get(position);
    return typeof content === "string" && content.startsWith("=");
  }

  positions(): CellPosition[] {
    return [...this.entries.keys()].map((address) => parseCellAddress(address)).filter((p): p is CellPosition => p !== undefined);
  }

  /** The host's book format (see docs/workbook-runner.md). */
  book(): { cells: Record<string, BookContent> } {
    return { cells: Object.fromEntries(this.entries) };
  }

  private put(address: string, content: BookContent): void {
    const position = parseCellAddress(address);
    if (!position) throw new Error(`${address} is not a cell address`);
    this.entries.set(formatCellAddress(position), content);
  }
}
