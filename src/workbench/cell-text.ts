/** What a grid cell shows: its text (dates, #BUSY!, rich values), its number format, the kept-value note, and where it lies (selection, spill border). */
import { formatCellAddress, type CellPosition, type RangeRef } from "../formula/a1";
import { richText } from "../host/rich-cells";
import { isCellError, type CellValue } from "../host/values";
import type { Calculator } from "./calculator";
import { entryText, type EntrySheet } from "./cells";
import { dateColumns, displayText, formulaShowsDates, isDateCell } from "./format";
import { DATE_FORMAT, rangeHas } from "./grid-paint";
import type { SpillIndex, SpillInfo } from "./spills";
import { isDateFormat } from "../taskpane/number-format";

export class CellText {
  /** Number formats written to cells (Freeze keeps a date column's), by `row,col`; the rest show as General or as dated by their formula. */
  private readonly formats = new Map<string, string>();

  /** `spills` gives the spills as last drawn; `keptSince` since when the service cannot be reached, if it cannot. */
  constructor(
    private readonly sheet: EntrySheet,
    private readonly calculator: Calculator,
    private readonly spills: () => SpillIndex,
    private readonly keptSince: () => number | undefined,
  ) {}

  /** What a cell shows: #BUSY! while its formula waits, dates in date columns of a spill, else Excel's General format. */
  textAt(row: number, col: number): string {
    const isFormula = this.sheet.isFormula({ row, col });
    const value = this.calculator.value(row, col);
    if (isFormula && value === null && this.calculator.evaluating) return "#BUSY!";
    const rich = richText(this.calculator.resultCell(row, col));
    if (rich !== undefined) return rich;
    return displayText(value, this.showsDate(row, col));
  }

  /** Whether a number shows as a date: by its number format, else by its table's header or its formula. */
  private showsDate(row: number, col: number): boolean {
    const value = this.calculator.value(row, col);
    if (typeof value !== "number") return false;
    const format = this.formats.get(`${row},${col}`);
    if (format !== undefined) return isDateFormat(format);
    const owner = this.spills().at(row, col);
    if (owner) {
      const header = row > owner.area.top ? this.calculator.value(owner.area.top, col) : null;
      const rowName = col > owner.area.left ? this.calculator.value(row, owner.area.left) : null;
      const formula = entryText(this.sheet.get(owner.anchor));
      // a header row names the column; without one, HISTORY's fields say which columns are dates
      return isDateCell(header, rowName) || formulaShowsDates(formula) || (dateColumns(formula)?.has(col - owner.area.left) ?? false);
    }
    return this.sheet.isFormula({ row, col }) && formulaShowsDates(entryText(this.sheet.get({ row, col })));
  }

  /** The number format Excel's `range.numberFormat` gives: the one written, else a date format where a date shows. */
  numberFormatAt(row: number, col: number): string {
    return this.formats.get(`${row},${col}`) ?? (this.showsDate(row, col) ? DATE_FORMAT : "General");
  }

  /** Writes number formats, as `range.numberFormat = ...` does ("General" drops the cell's). */
  setNumberFormats(cells: readonly { readonly row: number; readonly col: number; readonly format: string }[]): void {
    for (const { row, col, format } of cells) {
      if (format === "" || format === "General") this.formats.delete(`${row},${col}`);
      else this.formats.set(`${row},${col}`, format);
    }
  }

  /** How many blank cells follow from `col` on (at most 8). */
  blankRun(row: number, col: number): number {
    let count = 0;
    while (count < 8 && this.sheet.get({ row, col: col + count }) === undefined && this.calculator.value(row, col + count) === null) count += 1;
    return count;
  }

  /** The note of a PRICES value shown while the service cannot be reached: it was fetched before, not now. */
  keptMark(row: number, col: number, value: CellValue, entry: unknown, spill: SpillInfo | undefined): string | undefined {
    const since = this.keptSince();
    if (since === undefined || value === null || isCellError(value)) return undefined;
    const formula = spill ? entryText(this.sheet.get(spill.anchor)) : typeof entry === "string" ? entry : "";
    if (!/PRICES\./i.test(formula)) return undefined;
    return `${formatCellAddress({ row, col })}: last known value, fetched before the service became unreachable (${new Date(since).toLocaleString()}); refresh when it is back.`;
  }
}

/** The classes of a cell's place: in the selection, the active cell, and the edges of a spill's `border` (dashed where a #SPILL! would go). */
export function placeClasses(row: number, col: number, selection: RangeRef, active: CellPosition, border: RangeRef | undefined, dashed: boolean): string[] {
  const classes: string[] = [];
  if (rangeHas(selection, row, col)) classes.push("in-selection");
  if (row === active.row && col === active.col) classes.push("active");
  if (border && rangeHas(border, row, col)) {
    classes.push(dashed ? "spill-dashed" : "spill-border");
    if (row === border.top) classes.push("edge-t");
    if (row === border.bottom) classes.push("edge-b");
    if (col === border.left) classes.push("edge-l");
    if (col === border.right) classes.push("edge-r");
  }
  return classes;
}
