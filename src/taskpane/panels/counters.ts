/** The client's counters and the last errors, redrawn once per burst of changes. */
import { byId, h, oncePerMicrotask, replace } from "../dom";
import type { PaneContext } from "../pane-context";

export function countersPanel(context: PaneContext): void {
  function renderCounters(): void {
    const stats = context.client().stats();
    const rows: [string, number][] = [
      ["Values asked", stats.keysAsked],
      ["Cache hits", stats.cacheHits],
      ["Requests sent", stats.requestsSent],
      ["Retries", stats.retries],
      ["Values answered with an error", stats.errors],
      ["Failed requests", stats.failedRequests],
      ["In flight", stats.inFlight],
      ["Cached entries", stats.cacheEntries],
    ];
    replace(byId("counters"), h("tbody", {}, ...rows.map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, String(v))))));
    const list = context.errors();
    replace(
      byId("errors"),
      ...(list.length === 0 ? [h("li", { class: "muted" }, "No errors.")] : list.map((e) => h("li", { class: "error" }, `${new Date(e.at).toLocaleTimeString()} · ${e.where}: ${e.text}${e.count > 1 ? ` (${e.count} times)` : ""}`))),
    );
  }

  context.events.on("counters", oncePerMicrotask(renderCounters));
  context.events.on("tab", (panel) => {
    if (panel === "panel-cell") renderCounters();
  });
  renderCounters();
}
