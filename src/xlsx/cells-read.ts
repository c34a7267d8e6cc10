/**
 * Which cells a workbook's formulas read, from their references alone, so the engine is given those cells and the
 * formulas instead of every cell of a 100,000-row book (the rest stays in the file as it is). A formula whose cells
 * only evaluation can tell (a defined name, a table, INDIRECT, OFFSET, a whole column) makes the answer "all".
 */
import { parseA1Ref, tokenize } from "@borgar/fx";
import { type RangeRef, formatCellAddress, rangeContains } from "../formula/a1";

/** The cells of one sheet the formulas read: single cells and small areas by address, large areas as areas. */
export interface SheetReach {
  readonly cells: Set<string>;
  readonly areas: RangeRef[];
}

/** An area up to this many cells is listed cell by cell (a lookup is one Set check); a larger one is kept as an area. */
const LISTED_AREA = 10_000;

/** References whose cells depend on evaluation, and functions that reach cells their arguments do not name. */
const DYNAMIC_TOKENS = new Set(["range_named", "range_beam", "range_ternary", "structured", "unknown"]);
const DYNAMIC_FUNCTIONS = new Set(["INDIRECT", "OFFSET", "_XLFN.ANCHORARRAY"]);
const PLAIN_TOKENS = new Set(["fx_prefix", "func", "operator", "range", "number", "string", "bool", "error", "whitespace", "newline"]);

/** An area of a sheet a formula names. */
export interface SheetArea {
  readonly sheet: string;
  readonly area: RangeRef;
}

/**
 * The areas `formula` (with `=`) on `sheet` names, or undefined when its reach only evaluation can tell; `sheets`
 * resolves a sheet name as written (lower case) to the workbook's. Another workbook's cells are not in this one.
 */
export function referencesOf(sheet: string, formula: string, sheets: ReadonlyMap<string, string>): SheetArea[] | undefined {
  const areas: SheetArea[] = [];
  for (const token of tokenize(formula, { mergeRefs: true })) {
    if (DYNAMIC_TOKENS.has(token.type) || !PLAIN_TOKENS.has(token.type) || (token.type === "func" && DYNAMIC_FUNCTIONS.has(token.value.toUpperCase()))) return undefined;
    if (token.type !== "range") continue;
    const reference = parseA1Ref(token.value);
    if (reference === undefined || !("range" in reference)) return undefined;
    const context = reference.context?.[0];
    if (context !== undefined && context.startsWith("[")) continue;
    const target = context === undefined ? sheet : sheets.get(context.toLowerCase());
    if (target === undefined) continue;
    const { top, left, bottom, right } = reference.range;
    if (top == null || left == null || bottom == null || right == null) return undefined;
    areas.push({ sheet: target, area: { top, left, bottom, right } });
  }
  return areas;
}

export class CellsRead {
  private readonly reach = new Map<string, SheetReach>();
  /** Set once a formula reads cells its text does not name: every cell is needed. */
  everything = false;

  /** Records what `formula` (with `=`) on `sheet` reads. */
  add(sheet: string, formula: string, sheets: ReadonlyMap<string, string>): void {
    if (this.everything) return;
    const areas = referencesOf(sheet, formula, sheets);
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
