/** "Explain the selected cell": the formula, its value, and for each value it asked, where the answer came from. */
import { todayIso } from "../../api";
import type { LineageKey } from "../../prices/types";
import { findFunction } from "../catalogue";
import { assessedOrCarried, cellText, describeKey, describeLineage, historySummary, traceFormula } from "../diagnostics";
import { byId, h, replace } from "../dom";
import type { PaneContext } from "../pane-context";
import { plainWords } from "../plain-errors";

export function explainCellPanel(context: PaneContext): void {
  async function explainSelection(): Promise<void> {
    const out = byId("diagnostics");
    replace(out, h("p", { class: "muted" }, "Reading the selected cell…"));
    try {
      const selection = await context.workbook.selection();
      const formula = selection.formulas[0]?.[0];
      if (typeof formula !== "string" || !formula.startsWith("=")) {
        replace(out, h("p", {}, `${selection.cell} holds no formula.`));
        return;
      }
      const traced = await traceFormula(formula, (address) => context.workbook.values(address), todayIso(new Date(context.now())));
      if (!traced) {
        replace(out, h("p", {}, `${selection.cell}: `, h("code", {}, formula)), h("p", {}, "This is not a single PRICES call with plain arguments, so it cannot be traced."));
        return;
      }
      const blocks: HTMLElement[] = [];
      for (const key of traced.keys) blocks.push(await explainKey(key));
      replace(
        out,
        h("p", {}, h("strong", {}, selection.cell), " · ", h("code", {}, formula)),
        h("p", { class: "cell-value" }, "Value ", h("strong", {}, cellText(selection.values[0]?.[0]))),
        h("p", { class: "muted" }, `Function PRICES.${traced.call.name}: ${findFunction(traced.call.name)?.help ?? ""}`),
        ...blocks,
        traced.truncated ? h("p", { class: "muted" }, `Only the first ${traced.keys.length} values are explained.`) : null,
      );
    } catch (error) {
      replace(out, h("p", { class: "error" }, context.recordError("diagnostics", error)));
    }
  }

  async function explainKey(key: LineageKey): Promise<HTMLElement> {
    const client = context.client();
    // lineage first: asking for the value below would itself count as a cache hit
    const line = describeLineage(client.lineage(key), context.now());
    const rows: [string, string][] = [["Asked for", describeKey(key)], ["Source", line.source], ["Request", line.request], ["Age", line.age]];
    if (line.request) {
      try {
        if ("fromDate" in key) rows.push(["Rows", historySummary(await client.history(key))]);
        else if ("symbol" in key) {
          const record = await client.price(key);
          rows.push(["Service answer", `low ${record.low} · mid ${record.mid} · high ${record.high}`], ["Assessment", record.assessmentDate], ["Revision", String(record.revision)], ["Assessed or carried", assessedOrCarried(record)]);
        }
      } catch (error) {
        rows.push(["Answer", plainWords(error)]);
      }
    }
    return h("table", { class: "lineage", "aria-label": `Lineage of ${describeKey(key)}` }, h("tbody", {}, ...rows.filter(([, v]) => v !== "").map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, v)))));
  }

  byId("trace").addEventListener("click", () => void explainSelection());
}
