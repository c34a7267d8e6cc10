/**
 * Beside and under the grid: the card of the selected cell, the chart of the chosen PRICES.HISTORY spill, and the
 * list of error messages in the spills. Redrawn when values arrive, at most once per frame.
 */
import { formatCellAddress, type CellPosition } from "../formula/a1";
import type { Calculator } from "./calculator";
import type { CardView } from "./card-view";
import { type EntrySheet, entryText } from "./cells";
import { historyChartData, lineChartSvg } from "./chart";
import { errorText } from "./format";
import type { GridView } from "./grid-view";
import type { SpillInfo } from "./spills";

export interface SidePanelParts {
  readonly chart: HTMLElement;
  readonly messages: HTMLElement;
  readonly sheet: EntrySheet;
  readonly calculator: Calculator;
  view(): GridView | undefined;
  card(): CardView | undefined;
}

export class SidePanels {
  /** The anchor of the HISTORY spill the chart shows. */
  chartAnchor: CellPosition | undefined;
  private chartHtml = "";
  private messagesText = "";
  private sideFrame = 0;

  constructor(private readonly parts: SidePanelParts) {}

  renderChart(): void {
    const { chart, sheet } = this.parts;
    const anchor = this.chartAnchor;
    const spill = anchor ? this.parts.view()?.spillList().find((s) => s.anchor.row === anchor.row && s.anchor.col === anchor.col) : undefined;
    const formula = spill ? entryText(sheet.get(spill.anchor)) : "";
    const grid = spill ? this.rangeValues(spill) : [];
    const data = spill && /^=\s*PRICES\.HISTORY\s*\(/i.test(formula) ? historyChartData(grid, `${formatCellAddress(spill.anchor)} ${formula}`) : undefined;
    const html = data ? lineChartSvg(data, 720, 280) : '<p class="hint">Select a cell of a PRICES.HISTORY result to chart it.</p>';
    if (html !== this.chartHtml) chart.innerHTML = html;
    this.chartHtml = html;
    chart.dataset["anchor"] = data && spill ? formatCellAddress(spill.anchor) : "";
  }

  render(): void {
    this.parts.card()?.refresh();
    this.renderChart();
    this.renderMessages();
  }

  schedule(): void {
    if (this.sideFrame !== 0) return;
    this.sideFrame = requestAnimationFrame(() => {
      this.sideFrame = 0;
      this.render();
    });
  }

  private rangeValues(spill: SpillInfo) {
    const rows = [];
    for (let row = spill.area.top; row <= spill.area.bottom; row += 1) {
      const cells = [];
      for (let col = spill.area.left; col <= spill.area.right; col += 1) cells.push(this.parts.calculator.value(row, col));
      rows.push(cells);
    }
    return rows;
  }

  private renderMessages(): void {
    const { messages, calculator } = this.parts;
    const items: string[] = [];
    for (const anchor of this.parts.view()?.spillList() ?? []) {
      for (let row = anchor.area.top; row <= anchor.area.bottom && items.length < 30; row += 1) {
        for (let col = anchor.area.left; col <= anchor.area.right && items.length < 30; col += 1) {
          const text = errorText(calculator.value(row, col));
          if (text) items.push(`${formatCellAddress({ row, col })}  ${text}`);
        }
      }
    }
    const text = items.join("\n");
    if (text === this.messagesText && messages.firstChild) return;
    this.messagesText = text;
    const list = document.createElement("ul");
    for (const item of items) list.appendChild(document.createElement("li")).textContent = item;
    messages.replaceChildren(list);
  }
}
