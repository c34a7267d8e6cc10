/**
 * Which cells a workbook's formulas read, from their references alone, so the engine is given those cells and the
 * formulas instead of every cell of a 100,000-row book (the rest stays in the file as it is). Names and tables are read
 * as the engine reads them; a formula whose cells only evaluation can tell (INDIRECT, OFFSET) makes the answer "all".
 */
import { type RangeRef, formatCellAddress, rangeContains } from "../formula/a1";
import { canonicalName } from "../formula/functions";
import type { Expression, ReferenceExpression } from "../formula/parse";

/** The cells of one sheet the formulas read: single cells and small areas by address, large areas as areas. */
export interface SheetReach {
  readonly cells: Set<string>;
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
      return expression.args.every((arg) => collectAreas(sheet, arg, reading, areas));
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

export class CellsRead {
  private readonly reach = new Map<string, SheetReach>();
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
    const reach = this.reach.get(sheet) ?? { cells: new Set<string>(), areas: [] };
    this.reach.set(sheet, reach);
    if ((area.bottom - area.top + 1) * (area.right - area.left + 1) > LISTED_AREA) {
      reach.areas.push(area);
      return;
    }
    for (let row = area.top; row <= area.bottom; row += 1) {
      for (let col = area.left; col <= area.right; col += 1) reach.cells.add(formatCellAddress({ row, col }));
    }
  }

  /** Whether a formula reads the cell (`row`, `col` 0-based, `address` its A1 form) of `sheet`. */
  reads(sheet: string, address: string, row: number, col: number): boolean {
    if (this.everything) return true;
    const reach = this.reach.get(sheet);
    return reach !== undefined && (reach.cells.has(address) || reach.areas.some((area) => rangeContains(area, row, col)));
  }
}
