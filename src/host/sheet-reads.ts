/** How a formula reads a sheet: a reference's values, and the cells with their data types (`A2.Mid`). */
import { type RangeRef, formatCellAddress } from "../formula/a1";
import type { ReferenceExpression } from "../formula/parse";
import type { ResultCell } from "./rich-cells";
import type { Sheet } from "./sheet";
import { type ArrayValue, arrayOf } from "./value-array";
import { type CellError, cellError } from "./values";

/** A reference's values on `sheet`: whole rows and columns over the used area, a spill reference as its anchor's result. */
export function readSheet(sheet: Sheet, reference: ReferenceExpression, isAnchor: (row: number, col: number) => boolean): ArrayValue | CellError {
  if (reference.whole !== undefined) {
    const used = sheet.usedBounds();
    const range = { ...reference.range, bottom: Math.min(reference.range.bottom, used?.bottom ?? 0), right: Math.min(reference.range.right, used?.right ?? 0) };
    if (range.bottom < range.top || range.right < range.left) return arrayOf([[null]]);
    return arrayOf(sheet.rangeValues(range), range);
  }
  if (!reference.spill) return arrayOf(sheet.rangeValues(reference.range), reference.range);
  const { top: row, left: col } = reference.range;
  const area = isAnchor(row, col) ? sheet.areaOf(row, col) : undefined;
  if (!area) return cellError("#REF!", `${reference.text}: ${formatCellAddress({ row, col })} holds no formula result`);
  if (sheet.blockedAreaOf(row, col)) return cellError("#SPILL!", `${reference.text}: the spill is blocked`);
  return arrayOf(sheet.rangeValues(area));
}

export function cellsOf(sheet: Sheet, range: RangeRef): ResultCell[][] {
  const rows: ResultCell[][] = [];
  for (let row = range.top; row <= range.bottom; row += 1) {
    const cells: ResultCell[] = [];
    for (let col = range.left; col <= range.right; col += 1) cells.push(sheet.resultCell(row, col));
    rows.push(cells);
  }
  return rows;
}
