/** The grid's column widths: those the user dragged, those grown to fit their text (as Excel's AutoFit), and the drag handles. */
import { columnName } from "../formula/a1";
import { CELL_PADDING, COLUMN_WIDTH, MAX_FIT_WIDTH, MIN_COLUMN_WIDTH, textMeasurer } from "./grid-paint";

export class ColumnWidths {
  /** Widths of the columns the user resized (px); the others fit their content (`fitted`) or are COLUMN_WIDTH. */
  private readonly widths = new Map<number, number>();
  /** Widths grown to fit the text drawn in a column (up to MAX_FIT_WIDTH), as Excel's AutoFit would. */
  private readonly fitted = new Map<number, number>();
  /** Whether a column grew to fit its text since `takeGrowth` last asked. */
  private grew = false;
  private readonly measure = textMeasurer();

  constructor(private readonly headRow: HTMLTableRowElement) {}

  /** The width of a column in px. */
  width(col: number): number {
    return this.widths.get(col) ?? this.fitted.get(col) ?? COLUMN_WIDTH;
  }

  /** Sets a column's width (at least MIN_COLUMN_WIDTH) and its header's. */
  resize(col: number, width: number): void {
    this.widths.set(col, Math.max(MIN_COLUMN_WIDTH, Math.round(width)));
    this.styleHeader(col);
  }

  /** Grows a column the user has not sized so that `text` shows whole. */
  fit(col: number, text: string): void {
    if (text === "" || this.widths.has(col)) return;
    const need = Math.min(MAX_FIT_WIDTH, Math.ceil(this.measure(text) + CELL_PADDING));
    if (need > this.width(col)) {
      this.fitted.set(col, need);
      this.grew = true;
    }
  }

  /** Whether a column grew to fit since the last call; if so, widens the headers of the fitted columns. */
  takeGrowth(): boolean {
    if (!this.grew) return false;
    this.grew = false;
    for (const [col] of this.fitted) this.styleHeader(col);
    return true;
  }

  private styleHeader(col: number): void {
    const th = this.headRow.children[col + 1] as HTMLElement | undefined;
    const px = `${this.width(col)}px`;
    if (th && th.style.width !== px) for (const property of ["width", "minWidth", "maxWidth"] as const) th.style[property] = px;
  }

  /** A column's header: its letter, and a handle that `resize`s it when dragged. */
  header(col: number, resize: (col: number, width: number) => void): HTMLTableCellElement {
    const th = document.createElement("th");
    th.textContent = columnName(col);
    th.scope = "col";
    th.appendChild(this.handle(th, col, resize));
    return th;
  }

  /** A drag handle on the right edge of a column header (pointer events, so mouse, pen and touch alike). */
  private handle(th: HTMLElement, col: number, resize: (col: number, width: number) => void): HTMLElement {
    const handle = document.createElement("span");
    handle.className = "col-resize";
    handle.title = `Drag to resize column ${columnName(col)}`;
    handle.setAttribute("aria-hidden", "true");
    handle.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      event.stopPropagation();
      const startX = event.clientX;
      const startWidth = this.width(col);
      handle.setPointerCapture(event.pointerId);
      const move = (next: PointerEvent): void => {
        resize(col, startWidth + next.clientX - startX);
      };
      const end = (): void => {
        handle.removeEventListener("pointermove", move);
        handle.removeEventListener("pointerup", end);
        handle.removeEventListener("pointercancel", end);
      };
      handle.addEventListener("pointermove", move);
      handle.addEventListener("pointerup", end);
      handle.addEventListener("pointercancel", end);
    });
    th.classList.add("resizable");
    return handle;
  }
}
