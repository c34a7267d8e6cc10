/**
 * Which cells a workbook's formulas read, from their references alone, so the engine is given those cells and the
 * formulas instead of every cell of a 100,000-row book (the rest stays in the file as it is). Names and tables are read
 * as the engine reads them; a formula whose cells only evaluation can tell (INDIRECT, OFFSET) makes the answer "all".
 */
import { MAX_COLUMNS, MAX_ROWS, type RangeRef, rangeContains } from "../formula/a1";
import { canonicalName } from "../formula/functions";
import type { Expression, ReferenceExpression } from "../formula/parse";

/** The cells of one sheet the formulas read: single cells and small areas by address, large areas as areas. */
export interface SheetReach {
  /** By `cellKey`. */
  readonly cells: Set<number>;
  readonly areas: RangeRef[];
}

/** An area up to this many cells is listed cell by cell (a lookup is one Set check); a larger one is kept as an area. */
const LISTED_AREA = 10_000;

/** Functions that reach cells their arguments do not name. */
const DYNAMIC_FUNCTIONS = new Set(["INDIRECT", "OFFSET", "ANCHORARRAY"]);

/** An area of a sheet a formula names. */
export interface SheetArea {
  readonly sheet: string;
  readonly area: RangeRef;
}

/** How a formula's defined names and structured references read (the engine's own reading, src/host/book-scope.ts). */
export interface NameReader {
  name(name: string): Expression | undefined;
  structured(text: string): ReferenceExpression | string;
}

/**
 * The areas `expression` on `sheet` names (a whole column as all its cells; names and tables through `names`), or
 * undefined when its reach only evaluation can tell; `sheets` resolves a sheet name as written (lower case) to the
 * workbook's. Another workbook's cells are not in this one.
 */
export function referencesOf(sheet: string, expression: Expression, sheets: ReadonlyMap<string, string>, names?: NameReader): SheetArea[] | undefined {
  const areas: SheetArea[] = [];
  return collectAreas(sheet, expression, { sheets, names, depth: 0 }, areas) ? areas : undefined;
}

interface Reading {
  readonly sheets: ReadonlyMap<string, string>;
  readonly names: NameReader | undefined;
  readonly depth: number;
}

/** Adds the areas `expression` names to `areas` (more rather than fewer); false when only evaluation can tell what it reads. */
function collectAreas(sheet: string, expression: Expression, reading: Reading, areas: SheetArea[]): boolean {
  switch (expression.kind) {
    case "reference": {
      const target = expression.sheet === undefined ? sheet : reading.sheets.get(expression.sheet.toLowerCase());
      if (target !== undefined) areas.push({ sheet: target, area: expression.range });
      return true;
    }
    case "field":
      return collectAreas(sheet, expression.target, reading, areas);
    case "call":
      if (DYNAMIC_FUNCTIONS.has(canonicalName(expression.name, ""))) return false;
      // a loop, not `every` with a closure made for each call of 20,000 formulas
      for (const arg of expression.args) if (!collectAreas(sheet, arg, reading, areas)) return false;
      return true;
    case "unary":
      return collectAreas(sheet, expression.operand, reading, areas);
    case "binary":
      return collectAreas(sheet, expression.left, reading, areas) && collectAreas(sheet, expression.right, reading, areas);
    case "let":
      // a LET name that is also a defined name counts the defined name's cells too: more, never fewer
      return expression.bindings.every((binding) => collectAreas(sheet, binding.value, reading, areas)) && collectAreas(sheet, expression.body, reading, areas);
    case "name": {
      if (reading.names === undefined || reading.depth > 16) return false;
      const defined = reading.names.name(expression.name);
      return defined === undefined || collectAreas(sheet, defined, { ...reading, depth: reading.depth + 1 }, areas);
    }
    case "table": {
      const reference = reading.names?.structured(expression.text);
      return reference !== undefined && typeof reference !== "string" && collectAreas(sheet, reference, reading, areas);
    }
    default:
      // literals, errors, arrays; what the engine leaves for Excel unread (an external link, LAMBDA) needs no cell
      return true;
  }
}

/**
 * A record per sheet, by the sheet's name, that keeps the last one asked for: the model's 40,000 areas and lookups
 * name one sheet, by the very same string, so most lookups are one string comparison and no hashing.
 */
class BySheet<T> {
  private readonly records = new Map<string, T>();
  private lastName: string | undefined;
  private last: T | undefined;

  constructor(private readonly make: () => T) {}

  /** The sheet's record, made when `make` (else undefined for a sheet with none). */
  get(name: string, make: boolean): T | undefined {
    if (name === this.lastName) return this.last;
    let found = this.records.get(name);
    if (found === undefined && make) this.records.set(name, (found = this.make()));
    if (found === undefined) return undefined;
    this.lastName = name;
    this.last = found;
    return found;
  }
}

export class CellsRead {
  private readonly reach = new BySheet<SheetReach>(() => ({ cells: new Set<number>(), areas: [] }));
  /** Set once a formula reads cells its text does not name: every cell is needed. */
  everything = false;

  /** Records what a formula reads: the areas `referencesOf` gives, undefined when only evaluation can tell. */
  add(areas: readonly SheetArea[] | undefined): void {
    if (this.everything) return;
    if (areas === undefined) {
      this.everything = true;
      return;
    }
    for (const { sheet: target, area } of areas) this.area(target, area);
  }

  private area(sheet: string, area: RangeRef): void {
    const reach = this.reach.get(sheet, true) as SheetReach;
    if ((area.bottom - area.top + 1) * (area.right - area.left + 1) > LISTED_AREA) {
      reach.areas.push(area);
      return;
    }
    for (let row = area.top; row <= area.bottom; row += 1) {
      for (let col = area.left; col <= area.right; col += 1) reach.cells.add(cellKey(row, col));
    }
  }

  /** Whether a formula reads the cell (`row`, `col` 0-based) of `sheet`. */
  reads(sheet: string, row: number, col: number): boolean {
    if (this.everything) return true;
    const reach = this.reach.get(sheet, false);
    return reach !== undefined && (reach.cells.has(cellKey(row, col)) || reach.areas.some((area) => rangeContains(area, row, col)));
  }
}

/** A formula as the price cone sees it. */
export interface ConeFormula {
  readonly sheet: string;
  readonly address: string;
  readonly row: number;
  readonly col: number;
  /** It calls a PRICES function anywhere: where the cone starts. */
  readonly callsPrices: boolean;
  /** Its saved array area (`t="array"`), and whether it is a dynamic array whose result may grow. */
  readonly array?: { readonly area: RangeRef; readonly dynamic: boolean };
  /** The areas it reads (`referencesOf`), undefined when only evaluation can tell. */
  readonly reach: readonly SheetArea[] | undefined;
}

/** A cell of a sheet as one number (row-major, as `addressesOf` walks an area): a Map key with no string built. */
function cellKey(row: number, col: number): number {
  return row * MAX_COLUMNS + col;
}

/** A cell's row and column back from its `cellKey`. */
function rowOf(key: number): number {
  return Math.floor(key / MAX_COLUMNS);
}

function colOf(key: number): number {
  return key % MAX_COLUMNS;
}

/** One sheet's formulas (by their index in the cone's list) by the cell they lie on, and by the cells they read. */
interface SheetCones {
  readonly anchors: Map<number, number>;
  /** Readers of small areas by the cells they read (a list per cell, no record: its row and column are in its key). */
  readonly readers: Map<number, number[]>;
}

/**
 * Finds the formulas whose cells an area covers (anchors and saved array areas), and the formulas that read an area:
 * each formula as its index in the list, so the cone is one array of flags, not two Sets of 20,000 records.
 */
class ConeIndex {
  private readonly sheets = new BySheet<SheetCones>(() => ({ anchors: new Map(), readers: new Map() }));
  private readonly arrays: number[] = [];
  /** Readers of large areas. */
  private readonly largeReads: { readonly formula: number; readonly sheet: string; readonly area: RangeRef }[] = [];
  /** Formulas whose reach only evaluation can tell. */
  readonly unknownReach: number[] = [];

  constructor(formulas: readonly ConeFormula[]) {
    for (let index = 0; index < formulas.length; index += 1) {
      const formula = formulas[index] as ConeFormula;
      this.sheet(formula.sheet, true)?.anchors.set(cellKey(formula.row, formula.col), index);
      if (formula.array) this.arrays.push(index);
      if (formula.reach === undefined) {
        this.unknownReach.push(index);
        continue;
      }
      for (const { sheet, area } of formula.reach) {
        if (size(area) > LISTED_AREA) {
          this.largeReads.push({ formula: index, sheet, area });
          continue;
        }
        const readers = this.sheet(sheet, true)?.readers;
        if (readers === undefined) continue;
        for (let row = area.top; row <= area.bottom; row += 1) {
          for (let col = area.left; col <= area.right; col += 1) {
            const key = cellKey(row, col);
            const known = readers.get(key);
            if (known === undefined) readers.set(key, [index]);
            else known.push(index);
          }
        }
      }
    }
  }

  /** A sheet's index, made when `make` (else undefined for a sheet no formula lies on or reads). */
  private sheet(name: string, make: boolean): SheetCones | undefined {
    return this.sheets.get(name, make);
  }

  /** Hands `visit` the formulas whose anchor or saved array lies in `area` of `sheet` (the formulas a reader of it needs). */
  covering(formulas: readonly ConeFormula[], sheet: string, area: RangeRef, visit: (formula: number) => void): void {
    const anchors = this.sheet(sheet, false)?.anchors;
    if (anchors === undefined) return;
    if (size(area) > LISTED_AREA) {
      for (const [key, formula] of anchors) if (rangeContains(area, rowOf(key), colOf(key))) visit(formula);
    } else {
      for (let row = area.top; row <= area.bottom; row += 1) {
        for (let col = area.left; col <= area.right; col += 1) {
          const formula = anchors.get(cellKey(row, col));
          if (formula !== undefined) visit(formula);
        }
      }
    }
    for (const index of this.arrays) {
      const formula = formulas[index];
      if (formula?.sheet === sheet && formula.array !== undefined && overlap(formula.array.area, area)) visit(index);
    }
  }

  /** Hands `visit` the formulas that read any cell of `area` of `sheet`. */
  readers(sheet: string, area: RangeRef, visit: (formula: number) => void): void {
    const byCell = this.sheet(sheet, false)?.readers;
    if (byCell !== undefined && size(area) > LISTED_AREA) {
      for (const [key, readers] of byCell) if (rangeContains(area, rowOf(key), colOf(key))) for (const reader of readers) visit(reader);
    } else if (byCell !== undefined) {
      for (let row = area.top; row <= area.bottom; row += 1) {
        for (let col = area.left; col <= area.right; col += 1) {
          const readers = byCell.get(cellKey(row, col));
          if (readers !== undefined) for (const reader of readers) visit(reader);
        }
      }
    }
    for (const read of this.largeReads) if (read.sheet === sheet && overlap(read.area, area)) visit(read.formula);
  }
}

/**
 * The price cone: the formulas that call PRICES, the formulas their arguments need (transitively, through references,
 * names and tables), and the formulas that read a PRICES result (transitively: references, ranges, names, tables, a
 * saved spill; a dynamic array's whole columns below its anchor, where a longer result may spill; every formula whose
 * reach only evaluation can tell, INDIRECT and OFFSET). Only these are evaluated; every other formula keeps its value.
 * Answers, by the formulas' order, whether each is in it.
 */
export function priceCone(formulas: readonly ConeFormula[]): boolean[] {
  const index = new ConeIndex(formulas);
  const cone: boolean[] = formulas.map((formula) => formula.callsPrices);
  const seeds: number[] = [];
  for (let at = 0; at < formulas.length; at += 1) if (cone[at] === true) seeds.push(at);
  const precedents = [...seeds];
  const precede = (needed: number): void => {
    if (cone[needed] === true) return;
    cone[needed] = true;
    precedents.push(needed);
  };
  for (let next = precedents.pop(); next !== undefined; next = precedents.pop()) {
    for (const { sheet, area } of formulas[next]?.reach ?? []) index.covering(formulas, sheet, area, precede);
  }
  const dependents = [...seeds, ...(seeds.length > 0 ? index.unknownReach : [])];
  /** The formulas whose readers were asked for (a precedent in the cone may still read a PRICES result). */
  const seen = formulas.map(() => false);
  for (const formula of dependents) {
    seen[formula] = true;
    cone[formula] = true;
  }
  const depend = (reader: number): void => {
    if (seen[reader] === true) return;
    seen[reader] = true;
    cone[reader] = true;
    dependents.push(reader);
  };
  for (let next = dependents.pop(); next !== undefined; next = dependents.pop()) {
    const formula = formulas[next];
    if (formula !== undefined) index.readers(formula.sheet, resultArea(formula), depend);
  }
  return cone;
}

/** The cells a formula's result may cover: its saved area, and for a dynamic array the whole columns below it. */
function resultArea(formula: ConeFormula): RangeRef {
  const area = formula.array?.area ?? { top: formula.row, left: formula.col, bottom: formula.row, right: formula.col };
  return formula.array?.dynamic ? { ...area, bottom: MAX_ROWS - 1 } : area;
}

function size(area: RangeRef): number {
  return (area.bottom - area.top + 1) * (area.right - area.left + 1);
}

function overlap(a: RangeRef, b: RangeRef): boolean {
  return a.top <= b.bottom && b.top <= a.bottom && a.left <= b.right && b.left <= a.right;
}
