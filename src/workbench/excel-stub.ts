/**
 * The slice of `Excel.run` the task pane and the functions use (selection, formulas, values, used range,
 * calculate), over the workbench grid. The pane in the workbench's iframe gets it as its `Excel` global, so its
 * inserts land in the grid and its selection is the grid's.
 */
import { formatRangeAddress, parseRangeAddress, splitSheet, type RangeRef } from "../formula/a1";
import { SHEET_NAME } from "../host/addresses";

/** What the workbench offers the stub (plain values only: it may live in another window). */
export interface GridAccess {
  selection(): RangeRef;
  /** The entry as typed: formula text, literal text or number; "" when blank. */
  entry(row: number, col: number): string | number | boolean;
  /** The value Excel's `range.values` gives: numbers, text, booleans, errors as their code, "" for blank. */
  value(row: number, col: number): string | number | boolean;
  /** Enters what `range.formulas = ...` wrote, then recalculates. */
  enter(row: number, col: number, content: string | number | boolean): void;
  usedRange(): RangeRef | undefined;
  /** The anchor of the result a cell belongs to (the anchor itself too), when that result spilled past one cell. */
  spillParent(row: number, col: number): { row: number; col: number } | undefined;
  /** Calls `listener` after each change of selection; returns the way to stop. */
  onSelectionChanged(listener: () => void): () => void;
  /** Full recalculation; resolves when every value is back. */
  recalculate(): Promise<void>;
}

type Matrix = (string | number | boolean)[][];

class RangeStub {
  readonly isNullObject = false;
  constructor(
    private readonly grid: GridAccess,
    private readonly area: RangeRef,
    private readonly pending: Promise<void>[],
  ) {}
  get address(): string {
    return `${SHEET_NAME}!${formatRangeAddress(this.area)}`;
  }
  get rowCount(): number {
    return this.area.bottom - this.area.top + 1;
  }
  get columnCount(): number {
    return this.area.right - this.area.left + 1;
  }
  private read(pick: (row: number, col: number) => string | number | boolean): Matrix {
    const rows: Matrix = [];
    for (let row = this.area.top; row <= this.area.bottom; row += 1) {
      const cells: (string | number | boolean)[] = [];
      for (let col = this.area.left; col <= this.area.right; col += 1) cells.push(pick(row, col));
      rows.push(cells);
    }
    return rows;
  }
  get values(): Matrix {
    return this.read((row, col) => this.grid.value(row, col));
  }
  get formulas(): Matrix {
    return this.read((row, col) => this.grid.entry(row, col));
  }
  set formulas(rows: Matrix) {
    rows.forEach((cells, i) =>
      cells.forEach((content, j) => {
        if (this.area.top + i <= this.area.bottom && this.area.left + j <= this.area.right) this.grid.enter(this.area.top + i, this.area.left + j, content);
      }),
    );
  }
  get rowIndex(): number {
    return this.area.top;
  }
  get columnIndex(): number {
    return this.area.left;
  }
  getSpillParentOrNullObject(): RangeStub | NullRange {
    const parent = this.grid.spillParent(this.area.top, this.area.left);
    return parent ? new RangeStub(this.grid, { top: parent.row, left: parent.col, bottom: parent.row, right: parent.col }, this.pending) : new NullRange();
  }
  getCell(row: number, col: number): RangeStub {
    const top = this.area.top + row;
    const left = this.area.left + col;
    return new RangeStub(this.grid, { top, left, bottom: top, right: left }, this.pending);
  }
  load(): this {
    return this;
  }
  calculate(): void {
    this.pending.push(this.grid.recalculate());
  }
}

class NullRange {
  readonly isNullObject = true;
  load(): this {
    return this;
  }
}

function rangeOf(address: string): RangeRef {
  const range = parseRangeAddress(splitSheet(address).area);
  if (!range) throw new Error(`InvalidArgument: ${address} is not a range address`);
  return range;
}

/** An `Excel` global: `run(batch)` with `context.workbook` and `context.sync()` (which waits for recalculations). */
export function createExcelStub(grid: GridAccess): unknown {
  // Excel.run(batch), or Excel.run(object, batch) to reuse an earlier object's context (removing an event handler)
  const run = async <T>(first: unknown, second?: (context: unknown) => Promise<T>): Promise<T> => {
    const batch = typeof first === "function" ? (first as (context: unknown) => Promise<T>) : second;
    if (!batch) throw new Error("InvalidArgument: Excel.run needs a batch function");
    const pending: Promise<void>[] = [];
    const sheet = {
      name: SHEET_NAME,
      getRange: (address: string) => new RangeStub(grid, rangeOf(address), pending),
      getUsedRangeOrNullObject: () => {
        const used = grid.usedRange();
        return used ? new RangeStub(grid, used, pending) : new NullRange();
      },
      calculate: () => {
        pending.push(grid.recalculate());
      },
      load() {
        return this;
      },
    };
    const workbook = {
      getSelectedRange: () => new RangeStub(grid, grid.selection(), pending),
      onSelectionChanged: {
        add: (handler: () => Promise<void>) => {
          const stop = grid.onSelectionChanged(() => void handler());
          return { context: {}, remove: stop };
        },
      },
      worksheets: {
        items: [sheet],
        getActiveWorksheet: () => sheet,
        getItem: () => sheet,
        load() {
          return this;
        },
      },
      application: {
        calculate: () => {
          pending.push(grid.recalculate());
        },
      },
    };
    const context = {
      workbook,
      sync: async () => {
        await Promise.all(pending.splice(0));
      },
    };
    return batch(context);
  };
  return {
    run,
    CalculationType: { full: "Full", recalculate: "Recalculate", fullRebuild: "FullRebuild" },
  };
}

