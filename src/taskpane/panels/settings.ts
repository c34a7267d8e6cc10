/** The Settings tab: environment (sandbox or a service), limits per request, cache ages and the timeout. */
import { saveSettings, type AddinSettings } from "../../auth/settings";
import { byId } from "../dom";
import type { PaneContext } from "../pane-context";

export function settingsPanel(context: PaneContext): void {
  const field = (id: string): HTMLInputElement => byId(id, HTMLInputElement);

  function renderSettings(): void {
    const settings = context.settings();
    const env = settings.environment;
    field(env.kind === "sandbox" ? "env-sandbox" : "env-service").checked = true;
    field("set-baseUrl").value = env.baseUrl;
    field("set-authority").value = env.authority;
    field("set-clientId").value = env.clientId;
    field("set-scope").value = env.scope;
    field("set-maxSymbols").value = String(settings.limits.maxSymbols);
    field("set-maxDates").value = String(settings.limits.maxDates);
    field("set-maxRecords").value = String(settings.limits.maxRecords);
    field("set-maxInFlight").value = String(settings.maxInFlight);
    field("set-latest").value = String(settings.cache.latestSeconds);
    field("set-past").value = String(settings.cache.pastSeconds);
    field("set-reference").value = String(settings.cache.referenceSeconds);
    field("set-timeout").value = String(settings.timeoutMs);
  }

  byId("settings-form", HTMLFormElement).addEventListener("submit", (event) => {
    event.preventDefault();
    const number = (id: string): number => Number(field(id).value);
    const next: AddinSettings = {
      environment: {
        kind: field("env-service").checked ? "service" : "sandbox",
        baseUrl: field("set-baseUrl").value,
        authority: field("set-authority").value,
        clientId: field("set-clientId").value,
        scope: field("set-scope").value,
      },
      limits: { maxSymbols: number("set-maxSymbols"), maxDates: number("set-maxDates"), maxRecords: number("set-maxRecords") },
      cache: { latestSeconds: number("set-latest"), pastSeconds: number("set-past"), referenceSeconds: number("set-reference") },
      maxInFlight: number("set-maxInFlight"),
      timeoutMs: number("set-timeout"),
    };
    saveSettings(context.deps.settingsStorage, next)
      .then((saved) => {
        context.session.applySettings(saved);
        renderSettings();
        context.events.emit("settings", saved);
        byId("settings-result").textContent = "Settings saved.";
      })
      .catch((error: unknown) => {
        byId("settings-result").textContent = context.recordError("settings", error);
      });
  });

  renderSettings();
}
