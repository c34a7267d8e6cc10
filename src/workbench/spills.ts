/**
 * Where each formula's result spilled, for drawing spill borders as Excel does: the host engine's own placements
 * (`WorkbookEngine.spills`), indexed by cell so the grid finds a cell's spill without a search.
 */
import type { RangeRef } from "../formula/a1";
import { cellKey } from "../host/addresses";
import type { SpillPlacement } from "../host/engine";

/** The cells a result covers (the anchor alone for one value or an error); for #SPILL! also the area it needed. */
export type SpillInfo = SpillPlacement;

export class SpillIndex {
  private readonly byCell = new Map<number, SpillInfo>();

  constructor(readonly list: readonly SpillInfo[] = []) {
    for (const spill of list) {
      const area = spill.area;
      for (let row = area.top; row <= area.bottom; row += 1) for (let col = area.left; col <= area.right; col += 1) this.byCell.set(cellKey(row, col), spill);
    }
  }

  /** The spill holding a cell, if any. */
  at(row: number, col: number): SpillInfo | undefined {
    return this.byCell.get(cellKey(row, col));
  }

  /** The lowest row and rightmost column any result covers or needed. */
  extent(): { bottom: number; right: number } {
    let bottom = 0;
    let right = 0;
    for (const spill of this.list) {
      bottom = Math.max(bottom, spill.area.bottom, spill.blocked?.bottom ?? 0);
      right = Math.max(right, spill.area.right, spill.blocked?.right ?? 0);
    }
    return { bottom, right };
  }
}

/** Whether two placements draw alike (same anchor, area and blocked area). */
export function sameSpill(a: SpillInfo | undefined, b: SpillInfo | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.anchor.row === b.anchor.row && a.anchor.col === b.anchor.col && sameRange(a.area, b.area) && sameRange(a.blocked, b.blocked);
}

function sameRange(a: RangeRef | undefined, b: RangeRef | undefined): boolean {
  if (!a || !b) return a === b;
  return a.top === b.top && a.left === b.left && a.bottom === b.bottom && a.right === b.right;
}
