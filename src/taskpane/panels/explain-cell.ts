/**
 * "Explain the selected cell": for any cell of a PRICES result, spilled cells included, the element under the
 * cursor: the formula and where the cell sits in its result, the key it asked, the request that served it, and its
 * assessment. Follows the selection while the Cell tab is open, and clears on sign-out and on a change of account.
 */
import { todayIso } from "../../api";
import type { AuthState } from "../../auth/token-store";
import type { LineageKey, PriceKey, PricesClient } from "../../prices/types";
import { findFunction } from "../catalogue";
import { assessedOrCarried, cellText, describeConversion, describeKey, describeLineage, historySummary, traceElement, traceFormula, type TracedElement } from "../diagnostics";
import { byId, h, replace } from "../dom";
import type { CellSelection } from "../excel-host";
import type { PaneContext } from "../pane-context";
import { plainWords } from "../plain-errors";
import { publicationOf } from "../publication-lookup";

/** A selection change waits this long for the next one (arrow keys held down) before explaining. */
const FOLLOW_DELAY_MS = 150;

type Rows = [string, string][];

const table = (label: string, rows: Rows): HTMLElement =>
  h("table", { class: "lineage", "aria-label": label }, h("tbody", {}, ...rows.filter(([, v]) => v !== "").map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, v)))));

export function explainCellPanel(context: PaneContext): void {
  const out = byId("diagnostics");
  let generation = 0;
  let shownFor: string | undefined;
  let panelShown = false;

  /** Where the formula is and where the cell sits in its result. */
  function locate(selection: CellSelection): { formula: string; anchor: string; row: number; col: number } | undefined {
    if (selection.spill) return { formula: selection.spill.formula, anchor: selection.spill.anchor, row: selection.spill.row, col: selection.spill.col };
    const formula = selection.formulas[0]?.[0];
    return typeof formula === "string" && formula.startsWith("=") ? { formula, anchor: selection.cell, row: 0, col: 0 } : undefined;
  }

  async function explainSelection(): Promise<void> {
    const mine = ++generation;
    const client = context.client();
    const show = (...children: (HTMLElement | null)[]): void => {
      if (mine === generation) replace(out, ...children);
    };
    show(h("p", { class: "muted" }, "Reading the selected cell…"));
    try {
      const selection = await context.workbook.selection();
      shownFor = accountOf(context.store().state());
      const found = locate(selection);
      if (!found) {
        show(h("p", {}, `${selection.cell} holds no formula and is not part of a spilled result.`));
        return;
      }
      const today = todayIso(new Date(context.now()));
      const resolve = (address: string): Promise<unknown[][]> => context.workbook.values(address);
      const system = context.deps.addin()?.dateSystem ?? "1900";
      const lookups = { latestDate: async (key: PriceKey) => (await client.price(key)).date };
      const element = await traceElement(found.formula, resolve, today, found.row, found.col, system, lookups);
      if (!element) {
        show(h("p", {}, `${selection.cell}: `, h("code", {}, found.formula)), h("p", {}, "This is not a single PRICES call with plain arguments, so it cannot be traced."));
        return;
      }
      const spilled = found.row > 0 || found.col > 0;
      const where = spilled ? `row ${found.row + 1}, column ${found.col + 1} of the result of ${found.anchor}` : found.anchor === selection.cell ? "" : `the result of ${found.anchor}`;
      const head = [
        h("p", {}, h("strong", {}, selection.cell), where ? ` · ${where}` : "", " · ", h("code", {}, found.formula)),
        h("p", { class: "cell-value" }, "Value ", h("strong", {}, cellText(selection.values[0]?.[0], selection.numberFormats?.[0]?.[0], system))),
        h("p", { class: "muted" }, `Function PRICES.${element.call.name}: ${findFunction(element.call.name)?.help ?? ""}`),
      ];
      if (element.header) {
        show(...head, h("p", {}, "A header of the table: it names the column (or the symbol) and asks nothing."), element.key ? await explainKey(client, element.key) : null);
        return;
      }
      if (element.key) {
        show(...head, await explainKey(client, element.key, element), await publicationBlock(element.key));
        return;
      }
      // a cell the element reader cannot pin down: every key of the call, as before
      const traced = await traceFormula(found.formula, resolve, today, 12, system, lookups);
      const blocks: HTMLElement[] = [];
      for (const key of traced?.keys ?? []) blocks.push(await explainKey(client, key));
      show(...head, ...blocks, traced?.truncated ? h("p", { class: "muted" }, `Only the first ${traced.keys.length} values are explained.`) : null);
    } catch (error) {
      show(h("p", { class: "error" }, context.recordError("diagnostics", error)));
    }
  }

  async function explainKey(client: PricesClient, key: LineageKey, element?: TracedElement): Promise<HTMLElement> {
    // lineage first: asking for the value below would itself count as a cache hit
    const line = describeLineage(client.lineage(key), context.now());
    const rows: Rows = [["Asked for", describeKey(key)], ["Source", line.source], ["Request", line.request], ["Age", line.age]];
    const symbol = "symbol" in key ? key.symbol.toUpperCase() : undefined;
    const conversion = describeConversion(key, context.lists().instruments.find((item) => item.symbol.toUpperCase() === symbol));
    if (conversion !== undefined) rows.splice(1, 0, ["Conversion", conversion]);
    if (line.request) {
      try {
        if ("fromDate" in key) {
          const history = await client.history(key);
          const forecast = key.forecastType === undefined ? undefined : history.forecast;
          if (forecast) {
            rows.push(["Forecast", `${forecast.symbol}: ${forecast.forecastPrices.length} forecast prices from the latest assessment (${key.fromDate}) on`]);
            const point = element?.dataRow === undefined ? undefined : forecast.forecastPrices[element.dataRow];
            if (point) rows.push(["This row", `${point.date.slice(0, 10)} · low ${point.low} · mid ${point.mid} · high ${point.high}`]);
          } else rows.push(["Rows", historySummary(history)]);
          if (element?.dataRow !== undefined && !forecast) {
            const shown = element.order === "ascending" ? [...history.prices].reverse() : history.prices;
            const record = shown[element.dataRow];
            if (record) rows.push(["This row", `${record.date} · low ${record.low} · mid ${record.mid} · high ${record.high}`], ["Assessment", record.assessmentDate], ["Assessed or carried", assessedOrCarried(record)]);
          }
        } else if ("symbol" in key) {
          const record = await client.price(key);
          rows.push(["Service answer", `low ${record.low} · mid ${record.mid} · high ${record.high}`], ["Assessment", record.assessmentDate], ["Revision", String(record.revision)], ["Assessed or carried", assessedOrCarried(record)]);
        }
      } catch (error) {
        rows.push(["Answer", plainWords(error)]);
      }
    }
    return table(`Lineage of ${describeKey(key)}`, rows);
  }

  /** When the element's instrument is assessed and whether today's is out (price, history and curve keys). */
  async function publicationBlock(key: LineageKey): Promise<HTMLElement | null> {
    if (!("symbol" in key)) return null;
    try {
      const publication = await publicationOf(context, key.symbol);
      return h("p", { class: `publication ${publication.state}` }, h("strong", {}, "Publication: "), publication.text);
    } catch (error) {
      return h("p", { class: "publication muted" }, `Publication: not known (${plainWords(error)})`);
    }
  }

  function clear(reason: string): void {
    generation++;
    shownFor = undefined;
    replace(out, h("p", { class: "muted" }, reason));
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  const follow = byId("follow-selection", HTMLInputElement);
  void context.workbook
    .onSelectionChanged(() => {
      if (!follow.checked || !panelShown) return;
      clearTimeout(timer);
      timer = setTimeout(() => void explainSelection(), FOLLOW_DELAY_MS);
    })
    .catch((error: unknown) => {
      follow.disabled = true;
      context.recordError("selection events", error);
    });

  context.events.on("tab", (panel) => {
    const opened = panel === "panel-cell" && !panelShown;
    panelShown = panel === "panel-cell";
    // following from the start: opening the tab explains the cell already selected
    if (opened && follow.checked) void explainSelection();
  });
  context.events.on("auth", (state) => {
    if (shownFor === undefined) return;
    if (state.status !== "signed-in") clear("Signed out: the explanation was cleared.");
    else if (accountOf(state) !== shownFor) clear(`Now signed in as ${state.account}: the explanation was cleared.`);
  });
  byId("trace").addEventListener("click", () => void explainSelection());
}

function accountOf(state: AuthState): string {
  return state.status === "signed-in" ? state.account : "";
}
