/** The sheet: literal cells, formula anchors and the cells their results spill into. */
import { MAX_COLUMNS, MAX_ROWS, type RangeRef, columnName, formatCellAddress, formatRangeAddress } from "../formula/a1";
import { cellKey, positionOfKey } from "./addresses";
import type { ResultGrid } from "./results";
import { plainOf, type ResultCell } from "./rich-cells";
import { type CellValue, type PrintedValue, cellError, printValue } from "./values";

interface Spill {
  readonly row: number;
  readonly col: number;
  readonly grid: ResultGrid;
  /** For a #SPILL! anchor: the area the result needed. */
  readonly blocked?: RangeRef;
}

export class Sheet {
  private readonly literals = new Map<number, CellValue>();
  private readonly anchors = new Set<number>();
  /** Result of each evaluated anchor; a #SPILL! anchor holds a 1x1 grid. */
  private readonly results = new Map<number, Spill>();
  /** Spilled cell -> anchor that owns it (anchors are not listed). */
  private readonly owners = new Map<number, number>();

  /** The last row and column holding anything (a literal, an anchor, a spilled cell), or undefined for an empty sheet. */
  usedBounds(): { readonly bottom: number; readonly right: number } | undefined {
    let bottom = -1;
    let right = -1;
    for (const key of [...this.literals.keys(), ...this.anchors, ...this.owners.keys()]) {
      const { row, col } = positionOfKey(key);
      bottom = Math.max(bottom, row);
      right = Math.max(right, col);
    }
    return bottom < 0 ? undefined : { bottom, right };
  }

  setLiteral(row: number, col: number, value: CellValue): void {
    this.literals.set(cellKey(row, col), value);
  }

  removeLiteral(row: number, col: number): void {
    this.literals.delete(cellKey(row, col));
  }

  addAnchor(row: number, col: number): void {
    this.anchors.add(cellKey(row, col));
  }

  /** Forgets an anchor and frees the cells its result covered; returns that area. */
  removeAnchor(row: number, col: number): RangeRef | undefined {
    const area = this.clear(row, col);
    this.anchors.delete(cellKey(row, col));
    return area;
  }

  /** The cells an anchor's result covers (the anchor alone for one value or an error), if it has a result. */
  areaOf(row: number, col: number): RangeRef | undefined {
    const spill = this.results.get(cellKey(row, col));
    return spill ? areaOf(spill) : undefined;
  }

  /** For an anchor showing #SPILL!: the area its result needed. */
  blockedAreaOf(row: number, col: number): RangeRef | undefined {
    return this.results.get(cellKey(row, col))?.blocked;
  }

  isLiteral(row: number, col: number): boolean {
    return this.literals.has(cellKey(row, col));
  }

  isAnchor(row: number, col: number): boolean {
    return this.anchors.has(cellKey(row, col));
  }

  /** The anchor whose spill holds this cell, if any. */
  ownerOf(row: number, col: number): number | undefined {
    return this.owners.get(cellKey(row, col));
  }

  /** Neither literal, nor anchor, nor spilled into. */
  isBlank(row: number, col: number): boolean {
    const key = cellKey(row, col);
    return !this.literals.has(key) && !this.anchors.has(key) && !this.owners.has(key);
  }

  /** What references read: a data type's plain value. */
  value(row: number, col: number): CellValue {
    return plainOf(this.resultCell(row, col));
  }

  /** The cell as its formula left it: a data type keeps its record (cards, `A2.Mid`, number formats). */
  resultCell(row: number, col: number): ResultCell {
    const key = cellKey(row, col);
    const literal = this.literals.get(key);
    if (literal !== undefined) return literal;
    const anchor = this.anchors.has(key) ? key : this.owners.get(key);
    if (anchor === undefined) return null;
    const spill = this.results.get(anchor);
    if (!spill) return null;
    return spill.grid[row - spill.row]?.[col - spill.col] ?? null;
  }

  rangeValues(range: RangeRef): CellValue[][] {
    const rows: CellValue[][] = [];
    for (let row = range.top; row <= range.bottom; row += 1) {
      const cells: CellValue[] = [];
      for (let col = range.left; col <= range.right; col += 1) cells.push(this.value(row, col));
      rows.push(cells);
    }
    return rows;
  }

  /** Removes an anchor's result and frees the cells it spilled into; returns the area it covered. */
  clear(row: number, col: number): RangeRef | undefined {
    const key = cellKey(row, col);
    const spill = this.results.get(key);
    if (!spill) return undefined;
    this.results.delete(key);
    const area = areaOf(spill);
    for (let r = area.top; r <= area.bottom; r += 1) {
      for (let c = area.left; c <= area.right; c += 1) if (this.owners.get(cellKey(r, c)) === key) this.owners.delete(cellKey(r, c));
    }
    return area;
  }

  /**
   * Places a result right and down from its anchor. Every other cell of the area must be blank, else the anchor
   * shows #SPILL! and nothing spills. Returns the area the result now covers.
   */
  place(row: number, col: number, grid: ResultGrid): RangeRef {
    this.clear(row, col);
    const key = cellKey(row, col);
    const height = grid.length;
    const width = grid[0]?.length ?? 1;
    if (row + height > MAX_ROWS || col + width > MAX_COLUMNS) {
      return this.store(key, row, col, [[cellError("#SPILL!", "the result runs past the edge of the sheet")]]);
    }
    const area = { top: row, left: col, bottom: row + height - 1, right: col + width - 1 };
    for (let r = area.top; r <= area.bottom; r += 1) {
      for (let c = area.left; c <= area.right; c += 1) {
        if ((r !== row || c !== col) && !this.isBlank(r, c)) {
          const blocker = formatCellAddress({ row: r, col: c });
          return this.store(key, row, col, [[cellError("#SPILL!", `spill range ${formatRangeAddress(area)} isn't blank (${blocker})`)]], area);
        }
      }
    }
    for (let r = area.top; r <= area.bottom; r += 1) {
      for (let c = area.left; c <= area.right; c += 1) if (r !== row || c !== col) this.owners.set(cellKey(r, c), key);
    }
    return this.store(key, row, col, grid);
  }

  private store(key: number, row: number, col: number, grid: ResultGrid, blocked?: RangeRef): RangeRef {
    const spill: Spill = blocked ? { row, col, grid, blocked } : { row, col, grid };
    this.results.set(key, spill);
    return areaOf(spill);
  }

  /** Each anchor with a result, by its address and its result's: the area formatted only where it spills past the anchor. */
  spillAddresses(anchors: readonly { readonly row: number; readonly col: number; readonly address: string }[]): { readonly anchor: string; readonly area: string }[] {
    const out: { anchor: string; area: string }[] = [];
    for (const { row, col, address } of anchors) {
      const spill = this.results.get(cellKey(row, col));
      if (!spill) continue;
      const single = spill.grid.length === 1 && (spill.grid[0]?.length ?? 1) === 1;
      out.push({ anchor: address, area: single ? address : formatRangeAddress(areaOf(spill)) });
    }
    return out;
  }

  /** Every non-empty cell (an anchor even when blank) with its A1 address and what its formula left, in row-major order. */
  cellsInOrder(): { readonly address: string; readonly cell: ResultCell }[] {
    // the keys in a typed array, sorted as numbers without a comparator (20,050 cells: no set, no spread of three lists)
    const keys = new Float64Array(this.literals.size + this.anchors.size + this.owners.size);
    let count = 0;
    for (const key of this.literals.keys()) keys[count++] = key;
    for (const key of this.anchors) keys[count++] = key;
    for (const key of this.owners.keys()) keys[count++] = key;
    keys.sort();
    /** Each column's letters, made once. */
    const columns = new Map<number, string>();
    const out: { address: string; cell: ResultCell }[] = [];
    let previous = -1;
    for (const key of keys) {
      if (key === previous) continue;
      previous = key;
      const row = Math.floor(key / MAX_COLUMNS);
      const col = key % MAX_COLUMNS;
      const cell = this.resultCell(row, col);
      if (plainOf(cell) === null && !this.anchors.has(key)) continue;
      let letters = columns.get(col);
      if (letters === undefined) {
        letters = columnName(col);
        columns.set(col, letters);
      }
      out.push({ address: `${letters}${row + 1}`, cell });
    }
    return out;
  }

  /** Every non-empty cell in row-major order, errors printed as `#N/A: message`. */
  printed(): Record<string, PrintedValue> {
    const out: Record<string, PrintedValue> = {};
    for (const { address, cell } of this.cellsInOrder()) out[address] = printValue(plainOf(cell));
    return out;
  }
}

function areaOf(spill: Spill): RangeRef {
  return {
    top: spill.row,
    left: spill.col,
    bottom: spill.row + spill.grid.length - 1,
    right: spill.col + (spill.grid[0]?.length ?? 1) - 1,
  };
}
