/**
 * The Cache tab: the signed-in user's persistent cache (entries, size), how many values show a last known value
 * because the service is unreachable and since when, what the last refreshes changed and why (with a jump to each
 * cell a change concerns), "Forget cached prices",
 * and the cache's settings (last known values when unreachable, forget on sign-out, size).
 */
import { type KeyChange, summarizeChanges } from "../../sessions/change-log";
import { todayIso } from "../../api/dates";
import { cellsOfChanges } from "../change-cells";
import { describePlan, describeThreshold, needsConfirmation, planKeys } from "../../sessions/refresh-plan";
import { planThreshold } from "../../sessions/pane-persistence";
import { h, oncePerMicrotask, replace } from "../dom";
import type { PaneContext } from "../pane-context";
import { addPanelTab } from "../tabs";

export function cachePanel(context: PaneContext): void {
  const persistence = context.session.persistence();
  const section = addPanelTab("panel-cache", "Cache");
  const status = h("p", { id: "cache-status", "aria-live": "polite" });
  const offline = h("p", { id: "cache-offline", class: "muted", "aria-live": "polite" });
  const summary = h("p", { id: "cache-changes-summary" });
  const changes = h("ul", { id: "cache-changes" });
  const result = h("p", { id: "cache-result", class: "muted", "aria-live": "polite" });
  const lastKnown = h("input", { type: "checkbox", id: "cache-last-known" });
  const forgetOnSignOut = h("input", { type: "checkbox", id: "cache-forget-on-sign-out" });
  const megabytes = h("input", { type: "number", id: "cache-max-mb", min: 1, step: 1 });
  const confirmRequests = h("input", { type: "number", id: "cache-confirm-requests", min: 0, step: 1 });
  const confirmRecords = h("input", { type: "number", id: "cache-confirm-records", min: 0, step: 1 });

  function render(): void {
    const opened = persistence.status();
    status.textContent = opened
      ? `${opened.entries} cached values for ${opened.subject}, ${(opened.bytes / 1024 / 1024).toFixed(1)} MB of ${persistence.settings().maxMegabytes} MB`
      : "Sign in to keep prices between sessions.";
    const { values, since, unconfirmed } = persistence.offline();
    const why = unconfirmed ? "service unreachable; unconfirmed: it has not said this session that you may still see them" : "service unreachable";
    offline.textContent =
      values === 0 ? "" : `${values} ${values === 1 ? "cell holds a last known value" : "cells hold last known values"} (${why}), fetched since ${new Date(since ?? 0).toLocaleString()}`;
    const list = persistence.changes.list();
    summary.textContent = summarizeChanges(list.map((change) => change.reason));
    const items = list.map((change) => {
      const where = h("span", { class: "change-cells" });
      return { change, where, item: h("li", {}, `${change.symbol} ${change.dateAsked}: ${change.reason}, ${change.before.mid} (rev ${change.before.revision}) → ${change.after ? `${change.after.mid} (rev ${change.after.revision})` : (change.error ?? "error")} `, where) };
    });
    replace(changes, ...items.map(({ item }) => item));
    // reading every formula of the workbook: only while the tab is shown (the tab event redraws it on opening)
    if (items.length > 0 && !section.hidden) void showCells(items);
    const settings = persistence.settings();
    lastKnown.checked = settings.lastKnownWhenUnreachable;
    forgetOnSignOut.checked = settings.forgetOnSignOut;
    megabytes.value = String(settings.maxMegabytes);
    confirmRequests.value = String(settings.confirmAboveRequests);
    confirmRecords.value = String(settings.confirmAboveRecords);
  }

  let drawn = 0;
  /** Beside each change, a link per cell it concerns that selects the cell in Excel. */
  async function showCells(items: { change: KeyChange; where: HTMLElement }[]): Promise<void> {
    const drawing = ++drawn;
    try {
      const found = await cellsOfChanges(items.map(({ change }) => change), await context.workbook.formulaCells(), (address) => context.workbook.values(address), todayIso());
      if (drawing !== drawn) return;
      for (const { change, where } of items) {
        const cells = found.get(change.id) ?? [];
        replace(
          where,
          ...(cells.length === 0
            ? [h("span", { class: "muted" }, "(no cell of this workbook asks it now)")]
            : cells.map((address) => h("button", { type: "button", class: "link change-jump", title: `Select ${address}`, onclick: () => void jump(address) }, address))),
        );
      }
    } catch (error) {
      if (drawing === drawn) result.textContent = context.recordError("find the changed cells", error);
    }
  }

  async function jump(address: string): Promise<void> {
    try {
      await context.workbook.select(address);
    } catch (error) {
      result.textContent = context.recordError(`select ${address}`, error);
    }
  }

  async function save(): Promise<void> {
    const maxMegabytes = Number(megabytes.value);
    const count = (input: HTMLInputElement, name: "confirmAboveRequests" | "confirmAboveRecords"): Partial<Record<typeof name, number>> => {
      const value = Number(input.value);
      return input.value.trim() !== "" && Number.isInteger(value) && value >= 0 ? { [name]: value } : {};
    };
    await persistence.saveSettings({
      ...persistence.settings(),
      lastKnownWhenUnreachable: lastKnown.checked,
      forgetOnSignOut: forgetOnSignOut.checked,
      ...(Number.isFinite(maxMegabytes) && maxMegabytes > 0 ? { maxMegabytes } : {}),
      ...count(confirmRequests, "confirmAboveRequests"),
      ...count(confirmRecords, "confirmAboveRecords"),
    });
    result.textContent = "Cache settings saved (the size applies from the next sign-in).";
    render();
  }

  const planned = h("p", { id: "cache-plan", "aria-live": "polite" });

  /** What refreshing every cached key would ask, sending nothing. */
  async function plan(): Promise<void> {
    try {
      const settings = context.settings();
      const refresh = await planKeys(persistence.knownIds(), { baseUrl: settings.environment.baseUrl, createClient: context.deps.createClient, limits: settings.limits, maxInFlight: settings.maxInFlight });
      planned.textContent = `A workbook refresh would send ${describePlan(refresh)}${needsConfirmation(refresh, planThreshold(persistence.settings())) ? ` (above ${describeThreshold(planThreshold(persistence.settings()))}: the Refresh buttons ask first)` : ""}.`;
    } catch (error) {
      planned.textContent = context.recordError("plan a refresh", error);
    }
  }

  async function forget(): Promise<void> {
    try {
      await persistence.forget();
      const dropped = context.client().invalidate();
      result.textContent = `Forgot the cached prices of this account (${dropped} values in memory dropped too).`;
    } catch (error) {
      result.textContent = context.recordError("forget cached prices", error);
    }
    render();
  }

  section.append(
    h("h2", {}, "Cached prices"),
    status,
    offline,
    h("button", { type: "button", id: "cache-forget", onclick: () => void forget() }, "Forget cached prices"),
    result,
    h("button", { type: "button", id: "cache-plan-workbook", onclick: () => void plan() }, "Plan a workbook refresh"),
    planned,
    h("h3", {}, "What changed"),
    summary,
    changes,
    h("h3", {}, "Settings"),
    h("label", { class: "inline" }, lastKnown, " Show the last known value when the service is unreachable"),
    h("label", { class: "inline" }, forgetOnSignOut, " Forget cached prices on sign-out"),
    h("label", {}, "Size limit (MB) ", megabytes),
    h("label", {}, "Ask before a sheet or workbook refresh of more than ", confirmRequests, " requests"),
    h("label", {}, "… or more than ", confirmRecords, " records"),
    h("button", { type: "button", id: "cache-save", onclick: () => void save() }, "Save cache settings"),
  );
  context.events.on("tab", (panel) => {
    if (panel === "panel-cache") render();
  });
  context.events.on("counters", oncePerMicrotask(render));
  context.events.on("auth", () => { queueMicrotask(render); });
  render();
}
