/** The grid's drawing helpers and sizes: text measured and run over blank cells, spacer rows, range tests. */
import { formatCellAddress, type CellPosition, type RangeRef } from "../formula/a1";
import type { CellValue } from "../host/values";
import { errorText } from "./format";
import type { SpillInfo } from "./spills";

export const COLUMN_WIDTH = 96;
/** The format a date takes in the workbench (ISO, the functions' own text form). */
export const DATE_FORMAT = "yyyy-mm-dd";
export const MIN_COLUMN_WIDTH = 24;
/** A column fitted to its text grows at most this wide (long descriptions are cut, as in a narrow Excel column). */
export const MAX_FIT_WIDTH = 260;
/** A cell's padding and border, beside its text. */
export const CELL_PADDING = 12;

/** The width of a text in the grid's font, from a canvas (no layout), remembered per text. */
export function textMeasurer(): (text: string) => number {
  const known = new Map<string, number>();
  let context: CanvasRenderingContext2D | null | undefined;
  return (text) => {
    const cached = known.get(text);
    if (cached !== undefined) return cached;
    if (context === undefined) {
      context = document.createElement("canvas").getContext("2d");
      const probe = document.querySelector("table.grid td") ?? document.body;
      if (context) context.font = getComputedStyle(probe).font || '13px "Segoe UI", system-ui, sans-serif';
    }
    const width = context ? context.measureText(text).width : text.length * 8;
    if (known.size > 20_000) known.clear();
    known.set(text, width);
    return width;
  };
}

export function spacerCell(tr: HTMLTableRowElement): HTMLTableCellElement {
  tr.className = "spacer";
  tr.setAttribute("aria-hidden", "true");
  return tr.insertCell();
}

export function setHeight(td: HTMLTableCellElement, px: number): void {
  const height = `${px}px`;
  if (td.style.height !== height) td.style.height = height;
  const display = px > 0 ? "" : "none";
  if (td.parentElement && td.parentElement.style.display !== display) td.parentElement.style.display = display;
}

/** `runWidth`: the px of the cell and the `room` blank cells its text may run over. */
export function paintText(td: HTMLTableCellElement, text: string, room: number, runWidth: number): void {
  if (room === 0) {
    if (td.firstElementChild || td.textContent !== text) td.textContent = text;
    return;
  }
  const width = `${runWidth - 8}px`;
  const span = td.firstElementChild instanceof HTMLSpanElement ? td.firstElementChild : td.appendChild(document.createElement("span"));
  if (td.childNodes.length > 1) for (const node of [...td.childNodes]) if (node !== span) node.remove();
  if (span.textContent !== text) span.textContent = text;
  if (span.style.width !== width) span.style.width = width;
}

export function describe(address: string, value: CellValue, spill: SpillInfo | undefined): string {
  const error = errorText(value);
  const where = spill ? ` (spilled from ${formatCellAddress(spill.anchor)})` : "";
  if (error) return `${address}${where}: ${error}`;
  return value === null ? "" : `${address}${where}`;
}

export function rangeHas(range: RangeRef, row: number, col: number): boolean {
  return row >= range.top && row <= range.bottom && col >= range.left && col <= range.right;
}

export function sameCell(range: RangeRef): boolean {
  return range.top === range.bottom && range.left === range.right;
}

export function rangeOf(a: CellPosition, b: CellPosition): RangeRef {
  return { top: Math.min(a.row, b.row), left: Math.min(a.col, b.col), bottom: Math.max(a.row, b.row), right: Math.max(a.col, b.col) };
}
