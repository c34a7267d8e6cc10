/**
 * What the engine is given of a read workbook: the price cone's formulas (every other formula becomes its saved
 * value), their saved values for the proof, and only the cells they read or a spill may cover, with the legacy list.
 */
import { type RangeRef, formatCellAddress, formatRangeAddress, parseCellAddress } from "../formula/a1";
import type { SheetInput } from "../host/page-api";
import type { ParsedFormula } from "../host/book";
import type { Expression } from "../formula/parse";
import type { SavedCell, SavedGrid } from "../host/book-saved";
import { CellsRead, type ConeFormula, type SheetArea, priceCone } from "./cells-read";
import type { SheetCell } from "./sheet-part";
import type { BookCells, FormulaSource, ReadCells, SavedLiteral } from "./workbook-file";

/**
 * A formula as the read found it: its source, where it lies, what it reads, its tree and its cell, one record per
 * formula cell (the cone, the cells read, the engine's parsed formulas and the copy take it as it is, no address read
 * again, no second Map from source to record).
 */
export interface ReadFormula extends ConeFormula, FormulaSource {
  readonly array?: { readonly area: RangeRef; readonly dynamic: boolean };
  readonly expression: Expression;
  readonly cell: SheetCell;
}

/** What a record reads once the read is done: nothing kept (`forgetReach`). */
const FORGOTTEN: readonly SheetArea[] = Object.freeze([]);

/**
 * Drops what each record reads once the cone and the cells read are found, its only readers: the workbook is kept to
 * the write, and the model's 19,800 lists of areas were 6 MB of it. Read-time code must not run after this.
 */
export function forgetReach(formulas: ReadonlyMap<string, ReadonlyMap<string, ReadFormula>>): void {
  for (const records of formulas.values()) for (const record of records.values()) (record as { reach: ReadFormula["reach"] }).reach = FORGOTTEN;
}

/**
 * Keeps only the price cone as formulas (cells-read.ts `priceCone`): every other formula becomes its saved value, and
 * its saved spill literals, for the engine to read and never evaluate. Returns the cone's formulas by sheet.
 */
export function onlyTheCone(
  sheets: Map<string, ReadCells>,
  formulas: ReadonlyMap<string, ReadonlyMap<string, ReadFormula>>,
  spilled: ReadonlyMap<string, ReadonlyMap<string, SavedLiteral>>,
): Map<string, Map<string, ReadFormula>> {
  const all: ReadFormula[] = [];
  for (const sources of formulas.values()) for (const formula of sources.values()) all.push(formula);
  const inCone = priceCone(all);
  const cone = new Map<string, Map<string, ReadFormula>>([...formulas.keys()].map((sheet) => [sheet, new Map<string, ReadFormula>()]));
  for (const [index, formula] of all.entries()) {
    if (inCone[index] === true) {
      cone.get(formula.sheet)?.set(formula.address, formula);
      continue;
    }
    const cells = sheets.get(formula.sheet) ?? new Map<string, SavedLiteral>();
    putSaved(cells, formula.address, formula.saved);
    for (const address of formula.array === undefined ? [] : cellsOf(formula.array.area)) {
      const literal = spilled.get(formula.sheet)?.get(address);
      if (address !== formula.address && literal !== undefined) cells.set(address, literal);
    }
  }
  return cone;
}

/** The book's `saved`: each cone formula's cached value, an array formula's whole saved area as rows (src/host/book-saved.ts). */
export function savedBook(cone: ReadonlyMap<string, FormulaSource> | undefined, saved: ReadonlyMap<string, SavedCell> | undefined): Record<string, SavedCell | SavedGrid> {
  const book: Record<string, SavedCell | SavedGrid> = {};
  for (const [address, source] of cone ?? []) {
    const area = source.array?.area;
    if (area !== undefined && (area.bottom > area.top || area.right > area.left)) {
      const rows: SavedCell[][] = [];
      for (let row = area.top; row <= area.bottom; row += 1) {
        const cells: SavedCell[] = [];
        for (let col = area.left; col <= area.right; col += 1) cells.push(saved?.get(formatCellAddress({ row, col })) ?? null);
        rows.push(cells);
      }
      if (saved?.has(address) === true) book[address] = rows;
      continue;
    }
    const value = saved?.get(address);
    if (value !== undefined) book[address] = value;
  }
  return book;
}

/** Each sheet with its formulas and only the cells they read (every cell when one formula's reach is known only to evaluation). */
export function onlyCellsRead(
  sheets: ReadonlyMap<string, ReadonlyMap<string, SavedLiteral>>,
  formulas: ReadonlyMap<string, ReadonlyMap<string, FormulaSource & Partial<Pick<ConeFormula, "row" | "col" | "reach">>>>,
  onProgress: (cells: number) => void = () => undefined,
): SheetInput[] {
  let walked = 0;
  const read = new CellsRead();
  for (const sources of formulas.values()) {
    for (const source of sources.values()) read.add(source.reach);
  }
  return [...sheets].map(([name, cells]) => {
    const legacy = legacyLists(formulas.get(name));
    if (read.everything) return { name, book: { cells: Object.fromEntries(cells), ...legacy } };
    const shadowed = spillShadow(formulas.get(name) ?? new Map<string, FormulaSource>());
    const kept: BookCells = {};
    for (const [address, value] of cells) {
      walked += 1;
      if (walked % 5_000 === 0) onProgress(walked);
      if (typeof value === "string" && value.startsWith("=")) {
        kept[address] = value;
        continue;
      }
      const position = parseCellAddress(address);
      if (position !== undefined && (shadowed(position.row, position.col) || read.reads(name, position.row, position.col))) kept[address] = value;
    }
    return { name, book: { cells: kept, ...legacy } };
  });
}

/**
 * Each cone formula's tree as the read parsed it, with the very text the sheet's cells (and so the engine's book, which
 * keeps every formula's) hold for it: book.ts takes it instead of parsing again.
 */
export function parsedFormulas(cells: ReadonlyMap<string, SavedLiteral>, sources: ReadonlyMap<string, FormulaSource & { readonly expression?: Expression }> | undefined): Map<string, ParsedFormula> {
  const parsed = new Map<string, ParsedFormula>();
  for (const [address, source] of sources ?? []) {
    const text = cells.get(address);
    const { expression } = source;
    if (typeof text === "string" && expression !== undefined) parsed.set(address, { text, expression });
  }
  return parsed;
}

/**
 * The book's `"legacy"` list, formulas stored without dynamic-array metadata (plain or shared), which Excel 365 never
 * spills; and its `"arrays"`, legacy array formulas (`t="array"` without `cm`) and the area each fills exactly. One
 * loop over the formulas for both, not entries spread, filtered and mapped (three arrays of 20,000 in the bench's model).
 */
function legacyLists(sources: ReadonlyMap<string, FormulaSource> | undefined): { legacy?: string[]; arrays?: Record<string, string> } {
  const legacy: string[] = [];
  const arrays: Record<string, string> = {};
  let anyArray = false;
  for (const [address, source] of sources ?? []) {
    if (source.array === undefined) legacy.push(address);
    else if (!source.array.dynamic) {
      arrays[address] = formatRangeAddress(source.array.area);
      anyArray = true;
    }
  }
  return { ...(legacy.length === 0 ? {} : { legacy }), ...(anyArray ? { arrays } : {}) };
}

/**
 * Whether a cell lies right of and below some formula, where a result may spill: the engine must know the entries
 * there, or a grown spill (a history a day longer) would cover one and the copy overwrite it (Excel shows #SPILL!).
 */
function spillShadow(anchors: ReadonlyMap<string, FormulaSource & Partial<Pick<ConeFormula, "row" | "col">>>): (row: number, col: number) => boolean {
  /** Per column, the top row of a formula in that column or any left of it. */
  const top: number[] = [];
  for (const [address, source] of anchors) {
    const position = source.row !== undefined && source.col !== undefined ? { row: source.row, col: source.col } : parseCellAddress(address);
    if (position !== undefined) top[position.col] = Math.min(top[position.col] ?? Infinity, position.row);
  }
  let highest = Infinity;
  for (let col = 0; col < top.length; col += 1) {
    highest = Math.min(highest, top[col] ?? Infinity);
    top[col] = highest;
  }
  return (row, col) => (top[Math.min(col, top.length - 1)] ?? Infinity) <= row;
}

/** Every cell of `range`, row by row, as A1 addresses. */
export function* cellsOf(range: RangeRef): Generator<string> {
  for (let row = range.top; row <= range.bottom; row += 1) {
    for (let col = range.left; col <= range.right; col += 1) yield formatCellAddress({ row, col });
  }
}

/** Gives a cell back the value Excel saved for it, or leaves it empty when Excel saved none. */
export function putSaved(cells: ReadCells, address: string, saved: SavedLiteral | undefined): void {
  if (saved === undefined) cells.delete(address);
  else cells.set(address, saved);
}
