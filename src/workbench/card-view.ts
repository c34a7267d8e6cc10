/**
 * The workbench's card: selecting a cell that holds a data type (an instrument entity, a price that carries its
 * record) opens its card beside the cell, as Excel does; any other cell closes it. The card lists the fields
 * in the value's layout, formatted as Excel shows them.
 */
import { formatCellAddress, type CellPosition } from "../formula/a1";
import { cardFieldText, cardOf, isRichCell, richText, type ResultCell } from "../host/rich-cells";

const STYLE = `
.data-card { position: absolute; z-index: 20; min-width: 260px; max-width: 360px; background: #fff; border: 1px solid #b8c4d6;
  border-radius: 6px; box-shadow: 0 4px 16px rgba(0,0,0,.18); font: 13px/1.4 system-ui, sans-serif; padding: 10px 12px;
  max-height: calc(100vh - 16px); overflow-y: auto; box-sizing: border-box; }
.data-card header { display: flex; align-items: flex-start; gap: 8px; }
.data-card h3 { margin: 0; font-size: 15px; flex: 1; }
.data-card .subtitle { margin: 2px 0 6px; color: #555; }
.data-card h4 { margin: 8px 0 2px; font-size: 12px; text-transform: uppercase; color: #456; }
.data-card dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 0; }
.data-card dt { color: #555; }
.data-card dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
.data-card button.close { border: 0; background: none; font-size: 16px; cursor: pointer; line-height: 1; }
td.data-type::before { content: "\\25A4"; color: #2a6ebb; margin-right: 4px; font-size: 11px; }
`;

export interface CardViewOptions {
  /** The cell with its data type, if any. */
  cellAt(position: CellPosition): ResultCell;
  /** The grid's element of a cell, to place the card beside it (undefined when scrolled out of the drawn rows). */
  cellElement(position: CellPosition): HTMLElement | undefined;
}

export class CardView {
  private readonly element: HTMLDivElement;
  private shown: CellPosition | undefined;

  constructor(
    private readonly document: Document,
    private readonly options: CardViewOptions,
  ) {
    if (!document.getElementById("data-card-style")) {
      const style = document.createElement("style");
      style.id = "data-card-style";
      style.textContent = STYLE;
      document.head.appendChild(style);
    }
    this.element = document.createElement("div");
    this.element.className = "data-card";
    this.element.setAttribute("role", "dialog");
    this.element.hidden = true;
    document.body.appendChild(this.element);
  }

  /** Opens the cell's card, or closes the card when the cell holds no data type. */
  show(position: CellPosition): void {
    const cell = this.options.cellAt(position);
    if (!isRichCell(cell)) {
      this.hide();
      return;
    }
    this.shown = position;
    this.fill(position, cell);
    // shown before it is placed: its height decides how high it starts
    this.element.hidden = false;
    this.place(position);
  }

  /** Draws the open card again (its cell's value may have changed). */
  refresh(): void {
    if (this.shown) this.show(this.shown);
  }

  hide(): void {
    this.shown = undefined;
    this.element.hidden = true;
  }

  private fill(position: CellPosition, cell: Extract<ResultCell, { kind: "rich" }>): void {
    const card = cardOf(cell);
    const address = formatCellAddress(position);
    this.element.dataset["address"] = address;
    this.element.setAttribute("aria-label", `Card of ${address}: ${card.title}`);
    const doc = this.document;
    const header = doc.createElement("header");
    const title = header.appendChild(doc.createElement("h3"));
    title.textContent = card.title;
    const close = header.appendChild(doc.createElement("button"));
    close.className = "close";
    close.type = "button";
    close.textContent = "×";
    close.setAttribute("aria-label", "Close the card");
    close.addEventListener("click", () => { this.hide(); });
    const parts: HTMLElement[] = [header];
    if (card.subtitle !== undefined) {
      const subtitle = doc.createElement("p");
      subtitle.className = "subtitle";
      subtitle.textContent = card.subtitle;
      parts.push(subtitle);
    }
    if (cell.value.type === "Double") {
      const value = doc.createElement("p");
      value.className = "subtitle";
      value.textContent = richText(cell) ?? "";
      parts.push(value);
    }
    for (const section of card.sections) {
      const box = doc.createElement("section");
      if (section.title !== undefined) box.appendChild(doc.createElement("h4")).textContent = section.title;
      const list = box.appendChild(doc.createElement("dl"));
      for (const field of section.fields) {
        const name = list.appendChild(doc.createElement("dt"));
        name.textContent = field.name;
        const value = list.appendChild(doc.createElement("dd"));
        value.dataset["field"] = field.name;
        value.textContent = cardFieldText(field);
      }
      parts.push(box);
    }
    this.element.replaceChildren(...parts);
  }

  /** Beside the cell, right of it (left when there is no room), in page coordinates. */
  private place(position: CellPosition): void {
    const cell = this.options.cellElement(position);
    const view = this.document.defaultView;
    if (!cell || !view) return;
    const rect = cell.getBoundingClientRect();
    const width = this.element.offsetWidth || 300;
    const right = rect.right + 6;
    const left = right + width > view.innerWidth ? Math.max(0, rect.left - width - 6) : right;
    // within the window: a long card starts higher and scrolls inside itself (max-height), as on a 1280 x 720 screen
    const height = this.element.offsetHeight;
    const top = Math.max(8, Math.min(rect.top, view.innerHeight - height - 8));
    this.element.style.left = `${left + view.scrollX}px`;
    this.element.style.top = `${top + view.scrollY}px`;
  }
}

/** The classes a grid cell gets when it holds a data type (it shows the card icon). */
export function dataTypeClasses(cell: ResultCell): string[] {
  return isRichCell(cell) ? ["data-type"] : [];
}

/** The workbench's value setting: `?values=rich` in its address; plain otherwise, as in Excel. */
export function workbenchValueMode(search: string): "plain" | "rich" {
  return new URLSearchParams(search).get("values") === "rich" ? "rich" : "plain";
}
