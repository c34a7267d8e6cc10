/**
 * The sheet tabs under the grid, as Excel has them: Sheet1 (the grid) and every other sheet of the workbook (the
 * `Prices provenance` sheet Freeze writes), so what the pane writes can be read where it is made. Other sheets show
 * as a plain read-only table.
 */
import { columnName } from "../formula/a1";
import { scalarText } from "../formula/text";
import type { OtherSheets } from "./other-sheets";

export interface SheetTabsOptions {
  readonly bar: HTMLElement;
  /** The grid (and its formula bar), shown for the main sheet. */
  readonly main: readonly HTMLElement[];
  readonly mainName: string;
  /** Where another sheet's table goes. */
  readonly other: HTMLElement;
  readonly sheets: OtherSheets;
}

export interface SheetTabs {
  /** The sheet on screen. */
  shown(): string;
  show(name: string): void;
}

export function sheetTabs(options: SheetTabsOptions): SheetTabs {
  let shown = options.mainName;

  function renderBar(): void {
    const names = [options.mainName, ...options.sheets.names()];
    options.bar.replaceChildren(
      ...names.map((name) => {
        const tab = document.createElement("button");
        tab.type = "button";
        tab.setAttribute("role", "tab");
        tab.setAttribute("aria-selected", String(name === shown));
        tab.dataset["sheet"] = name;
        tab.textContent = name;
        tab.addEventListener("click", () => { show(name); });
        return tab;
      }),
    );
  }

  function renderOther(): void {
    const positions = options.sheets.positions(shown);
    const bottom = Math.max(0, ...positions.map((p) => p.row));
    const right = Math.max(0, ...positions.map((p) => p.col));
    const table = document.createElement("table");
    table.className = "sheet-table";
    table.setAttribute("aria-label", shown);
    const head = table.createTHead().insertRow();
    head.appendChild(document.createElement("th"));
    for (let col = 0; col <= right; col += 1) head.appendChild(document.createElement("th")).textContent = columnName(col);
    const body = table.createTBody();
    for (let row = 0; row <= bottom; row += 1) {
      const tr = body.insertRow();
      tr.appendChild(document.createElement("th")).textContent = String(row + 1);
      for (let col = 0; col <= right; col += 1) {
        const value = options.sheets.get(shown, row, col);
        const td = tr.insertCell();
        td.textContent = value === "" ? "" : scalarText(value);
        if (typeof value === "number") td.className = "num";
      }
    }
    options.other.replaceChildren(table);
  }

  function show(name: string): void {
    shown = name === options.mainName || options.sheets.has(name) ? name : options.mainName;
    const main = shown === options.mainName;
    for (const element of options.main) element.hidden = !main;
    options.other.hidden = main;
    if (!main) renderOther();
    renderBar();
  }

  options.sheets.onChange(() => { show(shown); });
  renderBar();
  return { shown: () => shown, show };
}
