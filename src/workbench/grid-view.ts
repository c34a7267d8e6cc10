/**
 * The grid on screen: column letters and row numbers, values as Excel shows them, the selected spill's blue border
 * (dashed where a #SPILL! result would go), a formula bar, and editing in the cell (type, Enter, Tab, Escape, F2,
 * Delete, arrows). It reads the sheet and the calculator; edits go back through `onEnter`. Only the rows in view
 * (and a margin) exist as table rows, and a redraw touches only the cells whose text or look changed: a sheet of
 * thousands of cells stays quick to type in.
 */
import { formatCellAddress, formatRangeAddress, parseCellAddress, type CellPosition, type RangeRef } from "../formula/a1";
import { dataTypeClasses } from "./card-view";
import { isCellError } from "../host/values";
import { entryText, type EntrySheet } from "./cells";
import type { Calculator } from "./calculator";
import { CellText, placeClasses } from "./cell-text";
import { errorText } from "./format";
import { ColumnWidths } from "./grid-columns";
import { SpillIndex, type SpillInfo } from "./spills";
import { COLUMN_WIDTH, describe, paintText, rangeOf, sameCell, setHeight, spacerCell } from "./grid-paint";

export interface GridViewOptions {
  /** Stores an entry and recalculates; returns a message when the entry is refused. */
  onEnter(position: CellPosition, typed: string): string | undefined;
  onSelect(selection: RangeRef, active: CellPosition): void;
  /** Since when the service cannot be reached (PRICES values shown are then marked as fetched before), or undefined. */
  keptSince?(): number | undefined;
}

const MIN_ROWS = 60;
const MIN_COLS = 26;
/** Rows drawn above and below the visible ones, so short scrolls and nearby clicks find their cells. */
const OVERSCAN = 30;
const HEADER_HEIGHT = 21;
const ROW_HEADER_WIDTH = 40;

export class GridView {
  private rows = 0;
  private cols = 0;
  private readonly table: HTMLTableElement;
  private readonly body: HTMLTableSectionElement;
  private readonly headRow: HTMLTableRowElement;
  private active: CellPosition = { row: 0, col: 0 };
  private selection: RangeRef = { top: 0, left: 0, bottom: 0, right: 0 };
  private editor: { input: HTMLInputElement; position: CellPosition } | undefined;
  private spills = new SpillIndex();
  private frame = 0;
  /** The rows that exist as table rows, first..last, by row. */
  private first = 0;
  private last = -1;
  private readonly rowElements = new Map<number, HTMLTableRowElement>();
  private readonly topSpacer: HTMLTableCellElement;
  private readonly bottomSpacer: HTMLTableCellElement;
  private rowHeight = 21;
  private readonly columns: ColumnWidths;
  private readonly texts: CellText;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly formulaInput: HTMLInputElement,
    private readonly nameBox: HTMLElement,
    private readonly message: HTMLElement,
    private readonly sheet: EntrySheet,
    private readonly calculator: Calculator,
    private readonly options: GridViewOptions,
  ) {
    this.table = document.createElement("table");
    this.table.className = "grid";
    this.table.setAttribute("role", "grid");
    this.table.setAttribute("aria-label", "Sheet1");
    const head = this.table.createTHead();
    this.headRow = head.insertRow();
    this.headRow.appendChild(document.createElement("th")).className = "corner";
    this.body = this.table.createTBody();
    this.topSpacer = spacerCell(this.body.insertRow());
    this.bottomSpacer = spacerCell(this.body.insertRow());
    this.columns = new ColumnWidths(this.headRow);
    this.texts = new CellText(sheet, calculator, () => this.spills, () => options.keptSince?.());
    scroller.appendChild(this.table);
    scroller.addEventListener("scroll", () => {
      this.scheduleRender();
    }, { passive: true });
    scroller.tabIndex = 0;
    this.wireEvents();
  }

  /** The spills as last drawn (for the chart and the pane). */
  spillList(): readonly SpillInfo[] {
    return this.spills.list;
  }

  /** The spill holding a cell, as last drawn. */
  spillAt(row: number, col: number): SpillInfo | undefined {
    return this.spills.at(row, col);
  }

  currentSelection(): { selection: RangeRef; active: CellPosition } {
    return { selection: this.selection, active: this.active };
  }

  /** Redraws on the next animation frame (many results may arrive in one frame). */
  scheduleRender(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  render(): void {
    if (this.frame !== 0) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
    }
    this.spills = new SpillIndex(this.calculator.spills());
    let { bottom, right } = this.spills.extent();
    // The active cell counts too, so every cell the keyboard reaches exists and can be typed into.
    for (const position of [...this.sheet.positions(), this.active]) {
      bottom = Math.max(bottom, position.row);
      right = Math.max(right, position.col);
    }
    this.ensureSize(Math.max(MIN_ROWS, bottom + 12), Math.max(MIN_COLS, right + 3));
    this.placeWindow();
    const selectedSpill = this.spills.at(this.active.row, this.active.col);
    const border = selectedSpill?.blocked ?? (selectedSpill && !sameCell(selectedSpill.area) ? selectedSpill.area : undefined);
    this.rowElements.forEach((tr, row) => {
      for (let col = 0; col < this.cols; col += 1) {
        const td = tr.cells[col + 1];
        if (!td || (this.editor && this.editor.position.row === row && this.editor.position.col === col)) continue;
        this.paintCell(td, row, col, border, selectedSpill?.blocked !== undefined);
      }
    });
    this.paintFormulaBar();
    if (this.columns.takeGrowth()) {
      // a column grew to fit its text: its header is wider now; draw again with the new widths
      this.last = -1;
      this.render();
    }
  }

  /**
   * Makes table rows for the rows in view (plus a margin) and drops the others; a row element always stands for
   * the same row, so a cell found by its address stays that cell. Spacers keep the scroll height.
   */
  private placeWindow(): void {
    const measured = this.rowElements.values().next().value?.getBoundingClientRect().height ?? 0;
    if (measured > 0) this.rowHeight = measured;
    const height = this.scroller.clientHeight > 0 ? this.scroller.clientHeight : 800;
    const top = Math.max(0, this.scroller.scrollTop - HEADER_HEIGHT);
    let first = Math.max(0, Math.floor(top / this.rowHeight) - OVERSCAN);
    let last = Math.min(this.rows - 1, Math.ceil((top + height) / this.rowHeight) + OVERSCAN);
    // The row being edited stays drawn, so scrolling away keeps what is typed.
    if (this.editor) {
      first = Math.min(first, this.editor.position.row);
      last = Math.max(last, this.editor.position.row);
    }
    if (first === this.first && last === this.last) return;
    for (const [row, tr] of this.rowElements) {
      if (row < first || row > last) {
        tr.remove();
        this.rowElements.delete(row);
      }
    }
    let next: ChildNode = this.bottomSpacer.parentElement as HTMLTableRowElement;
    for (let row = last; row >= first; row -= 1) {
      let tr = this.rowElements.get(row);
      if (!tr) {
        tr = document.createElement("tr");
        const th = document.createElement("th");
        th.scope = "row";
        th.textContent = String(row + 1);
        tr.appendChild(th);
        this.addCells(tr, row, 0, this.cols);
        this.body.insertBefore(tr, next);
        this.rowElements.set(row, tr);
      }
      next = tr;
    }
    this.first = first;
    this.last = last;
    setHeight(this.topSpacer, first * this.rowHeight);
    setHeight(this.bottomSpacer, Math.max(0, this.rows - 1 - last) * this.rowHeight);
    this.topSpacer.colSpan = this.cols + 1;
    this.bottomSpacer.colSpan = this.cols + 1;
  }

  private rowElement(row: number): HTMLTableRowElement | undefined {
    return this.rowElements.get(row);
  }

  select(range: RangeRef, active: CellPosition = { row: range.top, col: range.left }): void {
    // as Excel: a refused entry keeps its cell until it is fixed or Escape drops it
    if (!this.commitEditor()) return;
    // a refusal from the formula bar belongs to the cell left behind
    if (this.message.classList.contains("refusal")) this.showMessage("", false);
    this.selection = range;
    this.active = active;
    this.scrollIntoView(active);
    this.options.onSelect(this.selection, this.active);
  }

  /** Starts editing the active cell, as typing or F2 does. */
  edit(initial?: string): void {
    const { row, col } = this.active;
    const td = this.rowElement(row)?.cells[col + 1];
    if (!td) return;
    const input = document.createElement("input");
    input.className = "cell-editor";
    input.setAttribute("aria-label", `Edit ${formatCellAddress(this.active)}`);
    input.value = initial ?? entryText(this.sheet.get(this.active));
    td.textContent = "";
    td.appendChild(input);
    this.editor = { input, position: { row, col } };
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
    input.addEventListener("input", () => {
      this.formulaInput.value = input.value;
    });
    input.addEventListener("keydown", (event) => {
      this.editorKey(event);
    });
    input.addEventListener("blur", () => {
      if (this.editor?.input === input) this.commitEditor();
    });
  }

  private editorKey(event: KeyboardEvent): void {
    // the grid's own keydown (on the scroller, an ancestor) must not move a second time
    if (event.key === "Enter" || event.key === "Tab" || event.key === "Escape") event.stopPropagation();
    if (event.key === "Enter" || event.key === "Tab") {
      event.preventDefault();
      if (!this.commitEditor()) return;
      this.move(event.key === "Enter" ? (event.shiftKey ? -1 : 1) : 0, event.key === "Tab" ? (event.shiftKey ? -1 : 1) : 0);
      this.scroller.focus();
    } else if (event.key === "Escape") {
      event.preventDefault();
      this.cancelEditor();
      this.scroller.focus();
    }
  }

  /** Stores the editor's text; false (editor kept open) when the entry is refused. */
  private commitEditor(): boolean {
    const editor = this.editor;
    if (!editor) return true;
    const refusal = this.options.onEnter(editor.position, editor.input.value);
    if (refusal !== undefined) {
      this.showMessage(refusal, true);
      editor.input.focus();
      return false;
    }
    this.editor = undefined;
    editor.input.remove();
    this.showMessage("", false);
    this.render();
    return true;
  }

  private cancelEditor(): void {
    const editor = this.editor;
    if (!editor) return;
    this.editor = undefined;
    editor.input.remove();
    this.showMessage("", false);
    this.render();
  }

  private move(rows: number, cols: number, extend = false): void {
    const row = Math.max(0, this.active.row + rows);
    const col = Math.max(0, this.active.col + cols);
    if (extend) {
      const anchor = { row: this.selection.top === this.active.row ? this.selection.bottom : this.selection.top, col: this.selection.left === this.active.col ? this.selection.right : this.selection.left };
      this.select(rangeOf(anchor, { row, col }), { row, col });
    } else {
      this.select({ top: row, left: col, bottom: row, right: col });
    }
  }

  private wireEvents(): void {
    this.table.addEventListener("mousedown", (event) => {
      const td = (event.target as HTMLElement).closest("td");
      if (!td || td.querySelector(".cell-editor")) return;
      const position = parseCellAddress(td.dataset["address"] ?? "");
      if (!position) return;
      event.preventDefault();
      this.scroller.focus();
      if (event.shiftKey) this.select(rangeOf({ row: this.selection.top, col: this.selection.left }, position), position);
      else this.select({ top: position.row, left: position.col, bottom: position.row, right: position.col });
    });
    this.table.addEventListener("dblclick", (event) => {
      if ((event.target as HTMLElement).closest("td")) this.edit();
    });
    this.scroller.addEventListener("keydown", (event) => {
      if (this.editor) return;
      const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1], Enter: [1, 0], Tab: [0, 1] };
      const forward = moves[event.key];
      // Shift+Enter and Shift+Tab go back, as in Excel; Shift+arrow extends the selection
      const back = event.shiftKey && (event.key === "Enter" || event.key === "Tab");
      const step = forward && back ? ([-forward[0], -forward[1]] as [number, number]) : forward;
      if (step) {
        event.preventDefault();
        this.move(step[0], step[1], event.shiftKey && event.key.startsWith("Arrow"));
      } else if (event.key === "F2") {
        event.preventDefault();
        this.edit();
      } else if (event.key === "Delete" || event.key === "Backspace") {
        event.preventDefault();
        this.options.onEnter(this.active, "");
        this.render();
      } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        this.edit(event.key);
      }
    });
    this.formulaInput.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        const refusal = this.options.onEnter(this.active, this.formulaInput.value);
        this.showMessage(refusal ?? "", refusal !== undefined);
        if (refusal === undefined) {
          this.render();
          this.scroller.focus();
        }
      } else if (event.key === "Escape") {
        this.paintFormulaBar();
        this.scroller.focus();
      }
    });
  }

  /** The sheet's logical size: column headers for every column, rows drawn on demand by placeWindow. */
  private ensureSize(rows: number, cols: number): void {
    if (cols > this.cols) {
      for (let col = this.cols; col < cols; col += 1) {
        this.headRow.appendChild(this.columns.header(col, (which, width) => {
          this.resizeColumn(which, width);
        }));
      }
      this.rowElements.forEach((tr, row) => {
        this.addCells(tr, row, this.cols, cols);
      });
      this.cols = cols;
      this.last = -1;
    }
    if (rows > this.rows) this.last = -1;
    this.rows = Math.max(this.rows, rows);
  }

  /** The width of a column in px. */
  columnWidth(col: number): number {
    return this.columns.width(col);
  }

  /** Sets a column's width (at least MIN_COLUMN_WIDTH), as dragging its header's right edge does. */
  resizeColumn(col: number, width: number): void {
    this.columns.resize(col, width);
    this.last = -1;
    this.render();
  }

  private addCells(tr: HTMLTableRowElement | undefined, row: number, from: number, to: number): void {
    if (!tr) return;
    for (let col = from; col < to; col += 1) {
      const td = tr.insertCell();
      td.dataset["address"] = formatCellAddress({ row, col });
    }
  }

  private paintCell(td: HTMLTableCellElement, row: number, col: number, border: RangeRef | undefined, dashed: boolean): void {
    const entry = this.sheet.get({ row, col });
    const isFormula = typeof entry === "string" && entry.startsWith("=");
    const value = this.calculator.value(row, col);
    const spill = isFormula || entry !== undefined ? undefined : this.spills.at(row, col);
    const pending = isFormula && value === null && this.calculator.evaluating;
    const text = this.textAt(row, col);
    // Text runs on over blank neighbours and stops at the first filled one, as in Excel.
    const room = typeof value === "string" && !pending ? this.texts.blankRun(row, col + 1) : 0;
    let runWidth = 0;
    for (let c = col; c <= col + room; c += 1) runWidth += this.columnWidth(c);
    paintText(td, text, room, runWidth);
    if (room === 0 && !pending) this.columns.fit(col, text);
    const maxWidth = this.columnWidth(col) !== COLUMN_WIDTH ? `${this.columnWidth(col)}px` : "";
    if (td.style.maxWidth !== maxWidth) td.style.maxWidth = maxWidth;
    const classes: string[] = [];
    if (typeof value === "number" || typeof value === "boolean") classes.push("num");
    if (isCellError(value)) classes.push("err");
    if (pending) classes.push("busy");
    if (room > 0) classes.push("overflow");
    if (isFormula) classes.push("anchor");
    else if (spill) classes.push("spilled");
    classes.push(...dataTypeClasses(this.calculator.resultCell(row, col)));
    const kept = this.texts.keptMark(row, col, value, entry, spill);
    if (kept) classes.push("kept");
    const className = [...classes, ...placeClasses(row, col, this.selection, this.active, border, dashed)].join(" ");
    if (td.className !== className) td.className = className;
    // a live cell says when it last changed by itself
    const changed = this.calculator.lastChanged(td.dataset["address"] ?? "");
    const title = errorText(value) ?? kept ?? (changed === undefined ? "" : `Live: last changed ${new Date(changed).toLocaleTimeString()}`);
    if (td.title !== title) td.title = title;
  }

  /** What a cell shows: #BUSY! while its formula waits, dates in date columns of a spill, else Excel's General format. */
  textAt(row: number, col: number): string {
    return this.texts.textAt(row, col);
  }

  /** The number format Excel's `range.numberFormat` gives: the one written, else a date format where a date shows. */
  numberFormatAt(row: number, col: number): string {
    return this.texts.numberFormatAt(row, col);
  }

  /** Writes number formats, as `range.numberFormat = ...` does ("General" drops the cell's). */
  setNumberFormats(cells: readonly { readonly row: number; readonly col: number; readonly format: string }[]): void {
    this.texts.setNumberFormats(cells);
    this.render();
  }

  private paintFormulaBar(): void {
    const range = this.selection;
    this.nameBox.textContent = formatRangeAddress(range) === formatCellAddress(this.active) ? formatCellAddress(this.active) : formatRangeAddress(range);
    const entry = this.sheet.get(this.active);
    const spill = entry === undefined ? this.spills.at(this.active.row, this.active.col) : undefined;
    const text = spill ? entryText(this.sheet.get(spill.anchor)) : entryText(entry);
    if (document.activeElement !== this.formulaInput) this.formulaInput.value = text;
    this.formulaInput.classList.toggle("ghost", spill !== undefined);
    const value = this.calculator.value(this.active.row, this.active.col);
    if (!this.message.classList.contains("refusal")) this.message.textContent = describe(formatCellAddress(this.active), value, spill);
  }

  private showMessage(text: string, refusal: boolean): void {
    this.message.classList.toggle("refusal", refusal);
    this.message.setAttribute("role", refusal ? "alert" : "status");
    if (refusal) this.message.textContent = text;
    else this.paintFormulaBar();
  }

  /** Scrolls the least that shows the cell, then draws the rows now in view. */
  private scrollIntoView(position: CellPosition): void {
    // first grow the sheet to hold the cell, so there is room to scroll to it
    this.render();
    const scroller = this.scroller;
    const top = HEADER_HEIGHT + position.row * this.rowHeight;
    if (top - HEADER_HEIGHT < scroller.scrollTop) scroller.scrollTop = top - HEADER_HEIGHT;
    else if (scroller.clientHeight > 0 && top + this.rowHeight > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = top + this.rowHeight - scroller.clientHeight;
    let left = ROW_HEADER_WIDTH;
    for (let col = 0; col < position.col; col += 1) left += this.columnWidth(col);
    const width = this.columnWidth(position.col);
    if (left - ROW_HEADER_WIDTH < scroller.scrollLeft) scroller.scrollLeft = left - ROW_HEADER_WIDTH;
    else if (scroller.clientWidth > 0 && left + width > scroller.scrollLeft + scroller.clientWidth) scroller.scrollLeft = left + width - scroller.clientWidth;
    this.render();
  }
}
