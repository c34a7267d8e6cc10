/**
 * A legacy array formula (`{=...}`, Ctrl+Shift+Enter; `t="array"` without `cm` in a file) fills exactly the area it
 * was entered over, as Excel does: a single value shows in every cell, a single row in every row and a single column
 * in every column, a longer result is cut to the area and a shorter one shows #N/A past its end. It never spills.
 */
import type { ResultGrid } from "./results";
import type { ResultCell } from "./rich-cells";
import { cellError } from "./values";

/** The rows and columns of a legacy array formula's area. */
export interface FixedArea {
  readonly rows: number;
  readonly cols: number;
}

/** `grid` as the cells of `area` show it. */
export function fitToArea(grid: ResultGrid, area: FixedArea): ResultGrid {
  const rows = grid.length;
  const cols = grid[0]?.length ?? 0;
  const fitted: ResultCell[][] = [];
  for (let row = 0; row < area.rows; row += 1) {
    const from = grid[rows === 1 ? 0 : row];
    const cells: ResultCell[] = [];
    for (let col = 0; col < area.cols; col += 1) cells.push(from?.[cols === 1 ? 0 : col] ?? cellError("#N/A"));
    fitted.push(cells);
  }
  return fitted;
}
