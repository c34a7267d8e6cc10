/**
 * Refresh: drop the cached values of the selection's, the sheet's or every symbol, then recalculate. A sheet or
 * workbook refresh is planned first (src/sessions/refresh-plan.ts); above the user's threshold the pane shows the plan and
 * asks before sending anything.
 */
import { idsOfSymbols, planKeys, refreshQuestion } from "../../sessions/refresh-plan";
import { planThreshold } from "../../sessions/pane-persistence";
import { byId } from "../dom";
import type { RefreshScope } from "../excel-host";
import type { PaneContext } from "../pane-context";
import { symbolsInFormulas, traceFormula } from "../diagnostics";
import { todayIso } from "../../api/dates";
import type { CacheFilter, LineageKey, PriceKey } from "../../prices/types";

export function refreshPanel(context: PaneContext): void {
  const result = byId("refresh-result");
  const confirm = byId("refresh-confirm");
  let pending: (() => Promise<void>) | undefined;

  const resolve = (address: string): Promise<unknown[][]> => context.workbook.values(address);
  const symbolsOf = async (scope: RefreshScope): Promise<string[]> => symbolsInFormulas(await context.workbook.formulas(scope), resolve);

  /**
   * What a selection's refresh drops: the keys its formulas ask, traced with the functions' own readers, so other
   * cells of the same symbols keep their values; a formula that cannot be traced drops its symbols' keys as before.
   */
  async function selectionFilters(): Promise<CacheFilter[]> {
    const today = todayIso(new Date(context.now()));
    const system = context.deps.addin()?.dateSystem ?? "1900";
    const client = context.client();
    const lookups = { latestDate: async (key: PriceKey) => (await client.price(key, { cachedOnly: true })).date };
    const keys: LineageKey[] = [];
    const untraced: string[] = [];
    for (const formula of await context.workbook.formulas("selection")) {
      const traced = await traceFormula(formula, resolve, today, Number.MAX_SAFE_INTEGER, system, lookups).catch(() => undefined);
      if (traced && traced.keys.length > 0 && !traced.truncated) keys.push(...traced.keys);
      else untraced.push(formula);
    }
    const symbols = await symbolsInFormulas(untraced, resolve);
    return [...(keys.length > 0 ? [{ keys }] : []), ...(symbols.length > 0 ? [{ symbols }] : [])];
  }

  /** Values answered from this computer's cache because the service was unreachable (none unless the Cache tab allows it). */
  const kept = (): number => context.session.persistence().offline().values;

  async function refresh(scope: RefreshScope, symbols: string[] | undefined): Promise<void> {
    try {
      const client = context.client();
      const dropped =
        scope === "selection"
          ? (await selectionFilters()).reduce((sum, filter) => sum + client.invalidate(filter), 0)
          : symbols === undefined
            ? client.invalidate()
            : symbols.length > 0
              ? client.invalidate({ symbols })
              : 0;
      const before = client.stats();
      await context.workbook.recalculate(scope);
      // cells' own errors (an unknown symbol) are the cells' answer; a request that failed as a whole is the refresh's
      const failed = client.stats().errors - before.errors;
      const failedRequests = client.stats().failedRequests - before.failedRequests;
      const reach = context.session.reach.state();
      // a refresh that reached nothing is a failure, said as one, never "refreshed"
      result.textContent = !reach.reachable
        ? `Refresh of the ${scope} failed: the prices service cannot be reached (${reach.cause ?? "no connection"}). ${dropped} cached ${dropped === 1 ? "value was" : "values were"} dropped; ${failed} ${failed === 1 ? "value" : "values"} could not be fetched and ${kept()} ${kept() === 1 ? "shows its" : "show their"} last known value (the Cache tab's setting); the others say "service unreachable". Refresh again when the service is back.`
        : failedRequests > 0
          ? `Refreshed the ${scope} with errors: ${dropped} cached ${dropped === 1 ? "value" : "values"} dropped, ${failedRequests} ${failedRequests === 1 ? "request" : "requests"} to the service failed (see Counters).`
          : `Refreshed the ${scope}: ${dropped} cached ${dropped === 1 ? "value" : "values"} dropped, recalculated.`;
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
    if (scope === "selection") return refresh(scope, undefined);
    let symbols: string[] | undefined;
    try {
      symbols = scope === "workbook" ? undefined : await symbolsOf(scope);
    } catch (error) {
      result.textContent = context.recordError(`refresh ${scope}`, error);
      return;
    }
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
  byId("refresh-anyway").addEventListener("click", () => { answer(true); });
  byId("refresh-cancel").addEventListener("click", () => { answer(false); });
}
