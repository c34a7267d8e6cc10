/**
 * Refresh: drop the cached values of the selection's, the sheet's or every symbol, then recalculate. A sheet or
 * workbook refresh is planned first (src/refresh-plan/plan.ts); above the user's threshold the pane shows the plan and
 * asks before sending anything.
 */
import { idsOfSymbols, planKeys, refreshQuestion } from "../../refresh-plan/plan";
import { planThreshold } from "../../prices/persistent/pane-persistence";
import { byId } from "../dom";
import type { RefreshScope } from "../excel-host";
import type { PaneContext } from "../pane-context";
import { symbolsInFormulas } from "../diagnostics";

export function refreshPanel(context: PaneContext): void {
  const result = byId("refresh-result");
  const confirm = byId("refresh-confirm");
  let pending: (() => Promise<void>) | undefined;

  const symbolsOf = async (scope: RefreshScope): Promise<string[]> => symbolsInFormulas(await context.workbook.formulas(scope), (address) => context.workbook.values(address));

  async function refresh(scope: RefreshScope, symbols: string[] | undefined): Promise<void> {
    try {
      const client = context.client();
      const dropped = symbols === undefined ? client.invalidate() : symbols.length > 0 ? client.invalidate({ symbols }) : 0;
      await context.workbook.recalculate(scope);
      result.textContent = `Refreshed the ${scope}: ${dropped} cached ${dropped === 1 ? "value" : "values"} dropped, recalculated.`;
      context.events.emit("counters", undefined);
    } catch (error) {
      result.textContent = context.recordError(`refresh ${scope}`, error);
    }
  }

  /** The question when the refresh is above the threshold, else undefined; a plan that cannot be made asks nothing (the refresh goes as before plans existed). */
  async function question(scope: RefreshScope, symbols: string[] | undefined): Promise<string | undefined> {
    const persistence = context.session.persistence();
    const settings = context.settings();
    try {
      const plan = await planKeys(idsOfSymbols(persistence.knownIds(), symbols), { baseUrl: settings.environment.baseUrl, createClient: context.deps.createClient, limits: settings.limits, maxInFlight: settings.maxInFlight });
      return refreshQuestion(scope, plan, planThreshold(persistence.settings()));
    } catch (error) {
      context.recordError(`plan the ${scope} refresh`, error);
      return undefined;
    }
  }

  async function start(scope: RefreshScope): Promise<void> {
    confirm.hidden = true;
    pending = undefined;
    let symbols: string[] | undefined;
    try {
      symbols = scope === "workbook" ? undefined : await symbolsOf(scope);
    } catch (error) {
      result.textContent = context.recordError(`refresh ${scope}`, error);
      return;
    }
    if (scope === "selection") return refresh(scope, symbols);
    const asked = await question(scope, symbols);
    if (asked === undefined) return refresh(scope, symbols);
    byId("refresh-question").textContent = asked;
    result.textContent = "";
    pending = () => refresh(scope, symbols);
    confirm.hidden = false;
  }

  function answer(go: boolean): void {
    const run = pending;
    pending = undefined;
    confirm.hidden = true;
    if (go && run) void run();
    else result.textContent = "Refresh cancelled: nothing was sent.";
  }

  byId("refresh-selection").addEventListener("click", () => void start("selection"));
  byId("refresh-sheet").addEventListener("click", () => void start("sheet"));
  byId("refresh-workbook").addEventListener("click", () => void start("workbook"));
  byId("refresh-anyway").addEventListener("click", () => answer(true));
  byId("refresh-cancel").addEventListener("click", () => answer(false));
}
