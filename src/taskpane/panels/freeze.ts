/** Freeze / Unfreeze: the buttons over src/taskpane/freeze.ts, for the selection, the sheet or the workbook. */
import { todayIso } from "../../api";
import { pricesCalls } from "../formula-calls";
import { byId } from "../dom";
import type { RefreshScope } from "../excel-host";
import { describeWithCalls, freeze, unfreeze } from "../freeze";
import type { PaneContext } from "../pane-context";

function chosenScope(): RefreshScope {
  const checked = document.querySelector<HTMLInputElement>('input[name="freeze-scope"]:checked');
  return checked?.value === "sheet" || checked?.value === "workbook" ? checked.value : "selection";
}

export function freezePanel(context: PaneContext): void {
  const result = byId("freeze-result");
  const workbook = context.deps.freezeWorkbook;

  async function run(action: "freeze" | "unfreeze"): Promise<void> {
    const scope = chosenScope();
    result.textContent = action === "freeze" ? `Freezing the ${scope}…` : `Unfreezing the ${scope}…`;
    try {
      // let the click finish and the message show before the workbook work starts
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (action === "freeze") {
        const client = context.client();
        const today = todayIso(new Date(context.now()));
        const system = context.deps.addin()?.dateSystem ?? "1900";
        const describe = describeWithCalls({
          calls: (formula) => pricesCalls(formula, (address) => context.workbook.values(address), today),
          client,
          serviceUrl: context.settings().environment.baseUrl,
          system,
        });
        const count = await freeze(workbook, scope, describe);
        result.textContent = count === 0 ? `No PRICES formulas in the ${scope}.` : `Froze ${count} ${count === 1 ? "formula" : "formulas"} in the ${scope}; see the sheet "Prices provenance".`;
      } else {
        const count = await unfreeze(workbook, scope);
        result.textContent = count === 0 ? `Nothing frozen in the ${scope}.` : `Restored ${count} ${count === 1 ? "formula" : "formulas"} in the ${scope}.`;
      }
      context.announce(result.textContent);
    } catch (error) {
      result.textContent = context.recordError(action, error);
    }
  }
  byId("freeze").addEventListener("click", () => void run("freeze"));
  byId("unfreeze").addEventListener("click", () => void run("unfreeze"));
}
