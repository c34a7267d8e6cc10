/**
 * What is live (PRICES.LIVE): how many cells, which instruments, when each is asked next and why, the requests live
 * updates made today; and the setting that turns live updates off (cells then keep their value and nothing is
 * asked). Built by the panel itself on the "Cell & refresh" tab; the setting is kept per user like the others.
 */
import type { SettingsStorage } from "../../auth/settings";
import type { PricesAddin } from "../../functions/hook";
import type { LiveState } from "../../prices/live-registry";
import { byId, h, replace } from "../dom";
import type { PaneContext } from "../pane-context";

export const LIVE_UPDATES_KEY = "prices.liveUpdates";

export function storedLiveUpdates(storage: SettingsStorage): boolean {
  return storage.read(LIVE_UPDATES_KEY) !== "off";
}

const PHASES: Readonly<Record<string, string>> = {
  waiting: "next due",
  due: "due now, asked every minute",
  late: "late, asked less often",
  correction: "correction check",
};

/** The panel's words for a state (pure, so a test reads them without a page). */
export function liveSummary(state: LiveState | undefined, on: boolean): string {
  if (!on) return "Live updates are off: live cells keep their value and nothing is asked.";
  if (!state || state.cells === 0) return "No live cells. =PRICES.LIVE(\"MB-AL-0004\") shows the latest mid and updates itself when a new assessment is published.";
  const paused = state.paused.filter((reason) => reason !== "setting");
  const pause = paused.length > 0 ? ` Paused (${paused.join(", ")}): catches up in one request when back.` : "";
  return `${state.cells} live cell${state.cells === 1 ? "" : "s"} over ${state.instruments.length} instrument${state.instruments.length === 1 ? "" : "s"}; ${state.requestsToday} request${state.requestsToday === 1 ? "" : "s"} for live updates today (${state.pollsToday} poll${state.pollsToday === 1 ? "" : "s"}).${pause}`;
}

export function livePanel(context: PaneContext): void {
  const storage = context.deps.settingsStorage;
  const addin = (): PricesAddin | undefined => context.deps.addin();
  addin()?.setLiveUpdates(storedLiveUpdates(storage));
  const box = h("input", { type: "checkbox", id: "set-live-updates" });
  box.checked = storedLiveUpdates(storage);
  const summary = h("p", { id: "live-summary", role: "status" });
  const table = h("table", { id: "live-instruments", "aria-label": "Live instruments" });

  function render(): void {
    const hook = addin();
    const state = hook?.liveState();
    summary.textContent = liveSummary(state, hook?.liveUpdates ?? box.checked);
    const rows = (state?.instruments ?? []).map((i) =>
      h(
        "tr",
        {},
        h("th", { scope: "row" }, i.symbol),
        h("td", {}, i.frequency),
        h("td", {}, `${i.shownDate}${i.revision > 0 ? ` (revision ${i.revision})` : ""}`),
        h("td", {}, i.nextAt === undefined ? "paused" : `${new Date(i.nextAt).toLocaleString()} (${PHASES[i.phase] ?? i.phase}${i.phase === "correction" ? "" : `: ${i.awaiting}'s`})`),
      ),
    );
    replace(table, ...(rows.length === 0 ? [] : [h("thead", {}, h("tr", {}, h("th", {}, "Instrument"), h("th", {}, "Frequency"), h("th", {}, "Shown"), h("th", {}, "Asked next"))), h("tbody", {}, ...rows)]));
  }

  box.addEventListener("change", () => {
    const on = box.checked;
    storage.write(LIVE_UPDATES_KEY, on ? "on" : "off").then(
      () => {
        addin()?.setLiveUpdates(on);
        context.announce(on ? "Live cells update again when prices are published." : "Live updates are off.");
        render();
      },
      (error: unknown) => {
        summary.textContent = context.recordError("live setting", error);
      },
    );
  });

  let queued = false;
  /** A poll of many cells ends in one redraw. */
  const redraw = (): void => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      render();
    });
  };
  addin()?.onLiveState(redraw);
  context.events.on("tab", (panel) => {
    if (panel === "panel-cell") render();
  });
  const fieldset = h("fieldset", { id: "live" }, h("legend", {}, "Live cells"), h("label", {}, box, " Update live cells when prices are published (PRICES.LIVE)"), summary, table);
  byId("panel-cell").append(fieldset);
  render();
}
