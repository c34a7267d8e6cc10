/**
 * The slice of `Excel.run` the task pane and the functions use (selection, formulas, values, used range,
 * calculate, spills, clearing, other sheets), over the workbench grid. The pane in the workbench's iframe gets it as
 * its `Excel` global, so its inserts land in the grid and its selection is the grid's. Sheets other than the grid's
 * (the `Prices provenance` sheet Freeze writes) live in the page's OtherSheets, which its sheet tabs show.
 */
import type { DataTypeSupport } from "../functions/data-types";
import { formatRangeAddress, parseRangeAddress, sheetPrefix, splitSheet, type RangeRef } from "../formula/a1";
import { SHEET_NAME } from "../host/addresses";
import type { OtherSheets } from "./other-sheets";

/** What the workbench offers the stub (plain values only: it may live in another window). */
export interface GridAccess {
  selection(): RangeRef;
  /** The entry as typed: formula text, literal text or number; "" when blank. */
  entry(row: number, col: number): string | number | boolean;
  /** The value Excel's `range.values` gives: numbers, text, booleans, errors as their code, "" for blank. */
  value(row: number, col: number): string | number | boolean;
  /** Enters what `range.formulas = ...` wrote, then recalculates. */
  enter(row: number, col: number, content: string | number | boolean): void;
  /** The cell's number format as Excel's `range.numberFormat` gives it ("General", or a date format where a date shows). */
  numberFormat(row: number, col: number): string;
  setNumberFormats(cells: readonly { readonly row: number; readonly col: number; readonly format: string }[]): void;
  /** Enters a whole range's contents, then recalculates once. */
  enterAll(cells: readonly { readonly row: number; readonly col: number; readonly content: string | number | boolean }[]): void;
  usedRange(): RangeRef | undefined;
  /** The anchor of the result a cell belongs to (the anchor itself too), when that result spilled past one cell. */
  spillParent(row: number, col: number): { row: number; col: number } | undefined;
  /** The area an anchor's result spilled over, when it spilled past one cell. */
  spillArea(row: number, col: number): RangeRef | undefined;
  /** Calls `listener` after each change of selection; returns the way to stop. */
  onSelectionChanged(listener: () => void): () => void;
  /** The workbook's other sheets (the provenance sheet Freeze writes), which the workbench shows as tabs. */
  readonly sheets: OtherSheets;
  /** Full recalculation; resolves when every value is back. */
  recalculate(): Promise<void>;
  /** Runs the formulas of one range again, and what reads them (Excel's `range.calculate()`). */
  recalculateRange?(area: RangeRef): Promise<void>;
  /** What the grid shows of Excel's data types (the pane's Settings says it). */
  dataTypes?(): DataTypeSupport;
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
  get numberFormat(): string[][] {
    return this.read((row, col) => this.grid.numberFormat(row, col)) as string[][];
  }
  set numberFormat(rows: string[][]) {
    const cells: { row: number; col: number; format: string }[] = [];
    for (const [i, line] of rows.entries()) {
      for (const [j, format] of line.entries()) cells.push({ row: this.area.top + i, col: this.area.left + j, format });
    }
    this.grid.setNumberFormats(cells.filter((cell) => cell.row <= this.area.bottom && cell.col <= this.area.right));
  }
  get formulas(): Matrix {
    return this.read((row, col) => this.grid.entry(row, col));
  }
  set formulas(rows: Matrix) {
    this.write(rows);
  }
  /** As Excel: values are entered as typed (text starting with = would be a formula; the pane writes none such). */
  set values(rows: Matrix) {
    this.write(rows);
  }
  private write(rows: Matrix): void {
    const cells: { row: number; col: number; content: string | number | boolean }[] = [];
    for (const [i, line] of rows.entries()) {
      for (const [j, content] of line.entries()) {
        if (this.area.top + i <= this.area.bottom && this.area.left + j <= this.area.right) cells.push({ row: this.area.top + i, col: this.area.left + j, content });
      }
    }
    if (cells.length === 1 && cells[0]) this.grid.enter(cells[0].row, cells[0].col, cells[0].content);
    else if (cells.length > 1) this.grid.enterAll(cells);
  }
  clear(): void {
    const cells: { row: number; col: number; content: string }[] = [];
    for (let row = this.area.top; row <= this.area.bottom; row += 1) {
      for (let col = this.area.left; col <= this.area.right; col += 1) if (this.grid.entry(row, col) !== "") cells.push({ row, col, content: "" });
    }
    if (cells.length > 0) this.grid.enterAll(cells);
  }
  getSpillingToRangeOrNullObject(): RangeStub | NullRange {
    const area = this.grid.spillArea(this.area.top, this.area.left);
    return area ? new RangeStub(this.grid, area, this.pending) : new NullRange();
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
    this.pending.push(this.grid.recalculateRange ? this.grid.recalculateRange(this.area) : this.grid.recalculate());
  }
}

class NullRange {
  readonly isNullObject = true;
  load(): this {
    return this;
  }
  clear(): void {}
}

/** A sheet other than the grid's: its cells live in the workbench page's OtherSheets (its tabs show them), values only. */
class MemorySheet {
  readonly isNullObject = false;
  constructor(
    readonly name: string,
    private readonly store: OtherSheets,
  ) {}
  getRange(address: string): MemoryRange {
    return new MemoryRange(this.name, this.store, rangeOf(address));
  }
  getUsedRangeOrNullObject(): MemoryRange | NullRange {
    const positions = this.store.positions(this.name);
    if (positions.length === 0) return new NullRange();
    return new MemoryRange(this.name, this.store, {
      top: Math.min(...positions.map(({ row }) => row)),
      left: Math.min(...positions.map(({ col }) => col)),
      bottom: Math.max(...positions.map(({ row }) => row)),
      right: Math.max(...positions.map(({ col }) => col)),
    });
  }
  delete(): void {
    this.store.remove(this.name);
  }
  load(): this {
    return this;
  }
}

class MemoryRange {
  readonly isNullObject = false;
  constructor(
    private readonly sheet: string,
    private readonly store: OtherSheets,
    private readonly area: RangeRef,
  ) {}
  get address(): string {
    return `${sheetPrefix(this.sheet)}${formatRangeAddress(this.area)}`;
  }
  get values(): Matrix {
    const rows: Matrix = [];
    for (let row = this.area.top; row <= this.area.bottom; row += 1) {
      const cells: (string | number | boolean)[] = [];
      for (let col = this.area.left; col <= this.area.right; col += 1) cells.push(this.store.get(this.sheet, row, col));
      rows.push(cells);
    }
    return rows;
  }
  set values(rows: Matrix) {
    this.store.write(this.sheet, rows.flatMap((cells, i) => cells.map((value, j) => ({ row: this.area.top + i, col: this.area.left + j, value }))));
  }
  clear(): void {
    const cells: { row: number; col: number; value: string }[] = [];
    for (let row = this.area.top; row <= this.area.bottom; row += 1) for (let col = this.area.left; col <= this.area.right; col += 1) cells.push({ row, col, value: "" });
    this.store.write(this.sheet, cells);
  }
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
  const others = grid.sheets;
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
    const itemOrNull = (name: string): typeof sheet | MemorySheet | undefined => (name === SHEET_NAME ? sheet : others.has(name) ? new MemorySheet(name, others) : undefined);
    const workbook = {
      getSelectedRange: () => new RangeStub(grid, grid.selection(), pending),
      onSelectionChanged: {
        add: (handler: () => Promise<void>) => {
          const stop = grid.onSelectionChanged(() => void handler());
          return { context: {}, remove: stop };
        },
      },
      worksheets: {
        get items() {
          return [sheet, ...others.names().map((name) => new MemorySheet(name, others))];
        },
        getActiveWorksheet: () => sheet,
        getItem: (name: string) => {
          const found = itemOrNull(name);
          if (!found) throw new Error(`ItemNotFound: no sheet ${name}`);
          return found;
        },
        getItemOrNullObject: (name: string) => itemOrNull(name) ?? { isNullObject: true, load: () => undefined },
        add: (name: string) => {
          if (itemOrNull(name)) throw new Error(`ItemAlreadyExists: ${name}`);
          others.add(name);
          return new MemorySheet(name, others);
        },
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
    ClearApplyTo: { all: "All", formats: "Formats", contents: "Contents", hyperlinks: "Hyperlinks", removeHyperlinks: "RemoveHyperlinks" },
  };
}

