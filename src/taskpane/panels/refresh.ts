/** Refresh: drop the cached values of the selection's, the sheet's or every symbol, then recalculate. */
import { byId } from "../dom";
import type { RefreshScope } from "../excel-host";
import type { PaneContext } from "../pane-context";
import { symbolsInFormulas } from "../diagnostics";

export function refreshPanel(context: PaneContext): void {
  async function refresh(scope: RefreshScope): Promise<void> {
    const result = byId("refresh-result");
    try {
      const client = context.client();
      let dropped: number;
      if (scope === "workbook") {
        dropped = client.invalidate();
      } else {
        const symbols = await symbolsInFormulas(await context.workbook.formulas(scope), (address) => context.workbook.values(address));
        dropped = symbols.length > 0 ? client.invalidate({ symbols }) : 0;
      }
      await context.workbook.recalculate(scope);
      result.textContent = `Refreshed the ${scope}: ${dropped} cached ${dropped === 1 ? "value" : "values"} dropped, recalculated.`;
      context.events.emit("counters", undefined);
    } catch (error) {
      result.textContent = context.recordError(`refresh ${scope}`, error);
    }
  }
  byId("refresh-selection").addEventListener("click", () => void refresh("selection"));
  byId("refresh-sheet").addEventListener("click", () => void refresh("sheet"));
  byId("refresh-workbook").addEventListener("click", () => void refresh("workbook"));
}
