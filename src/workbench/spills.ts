/**
 * Where each formula's result spilled, for drawing spill borders as Excel does. The host engine keeps spill
 * ownership private, so it is read back from the values: a spill is the rectangle right and down of its anchor
 * whose cells hold values but no entries of their own (anchors are taken in row order so a neighbour's spill that
 * started higher stops the walk).
 */
import { parseRangeAddress, type CellPosition, type RangeRef } from "../host/addresses";
import { isCellError, type CellValue } from "../host/values";

export interface SpillInfo {
  readonly anchor: CellPosition;
  /** The cells the result covers (the anchor alone for a single value or an error). */
  readonly area: RangeRef;
  /** For a #SPILL! anchor: the range the result needed, drawn dashed. */
  readonly blocked?: RangeRef;
}

export interface SheetReader {
  /** Formula anchors, any order. */
  readonly anchors: readonly CellPosition[];
  /** A cell with an entry of its own (literal or formula). */
  hasEntry(row: number, col: number): boolean;
  value(row: number, col: number): CellValue;
}

/** `#SPILL!: spill range B2:C9 isn't blank (C4)` -> B2:C9. */
export function blockedRange(value: CellValue): RangeRef | undefined {
  if (!isCellError(value) || value.code !== "#SPILL!" || !value.message) return undefined;
  const match = /spill range ([A-Z]+\d+(?::[A-Z]+\d+)?)/.exec(value.message);
  return match?.[1] ? parseRangeAddress(match[1]) : undefined;
}

export function findSpills(sheet: SheetReader): SpillInfo[] {
  const taken = new Set<string>();
  const key = (row: number, col: number): string => `${row}:${col}`;
  const free = (row: number, col: number): boolean => !sheet.hasEntry(row, col) && !taken.has(key(row, col)) && sheet.value(row, col) !== null;
  const anchors = [...sheet.anchors].sort((a, b) => a.row - b.row || a.col - b.col);
  const spills: SpillInfo[] = [];
  for (const anchor of anchors) {
    const value = sheet.value(anchor.row, anchor.col);
    const blocked = blockedRange(value);
    let right = anchor.col;
    let bottom = anchor.row;
    if (!blocked && value !== null) {
      while (free(anchor.row, right + 1)) right += 1;
      while (free(bottom + 1, anchor.col)) bottom += 1;
    }
    const area = { top: anchor.row, left: anchor.col, bottom, right };
    for (let row = area.top; row <= area.bottom; row += 1) for (let col = area.left; col <= area.right; col += 1) taken.add(key(row, col));
    spills.push(blocked ? { anchor, area, blocked } : { anchor, area });
  }
  return spills;
}

/** The spill holding a cell, if any. */
export function spillAt(spills: readonly SpillInfo[], row: number, col: number): SpillInfo | undefined {
  return spills.find((spill) => row >= spill.area.top && row <= spill.area.bottom && col >= spill.area.left && col <= spill.area.right);
}
