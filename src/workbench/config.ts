/**
 * Where the workbench finds the service: `workbench-config.json` served by `npm start` (the sandbox it started,
 * possibly on other ports), else the local sandbox's default URLs. The demo signs in with the sandbox's
 * documented demo service key, so the sheet fills before anyone signs in.
 */
import { parseSettings, SANDBOX_ENVIRONMENT, saveSettings, SETTINGS_KEY, type SettingsStorage } from "../auth/settings";
import { userSettingsStorage } from "../taskpane/settings-storage";
import { fastClockSetting, type FastClockSetting } from "../prices/live-clock";
import { isCalendarDate } from "../api/dates";
import { secureUrl } from "../api/urls";

export interface WorkbenchConfig {
  /** `https://localhost:4000/physical/v2` */
  readonly apiUrl: string;
  /** `https://localhost:4000/auth` */
  readonly issuer: string;
  /** The data's "today" when the sandbox froze it; else the browser's date is used. */
  readonly today?: string;
  /** `npm start -- --live-demo`: the sandbox's fast clock, which live cells follow (issue 31). */
  readonly liveClock?: FastClockSetting;
}

export { DEMO_SERVICE } from "./demo-token-protocol";

export const CONFIG_FILE = "workbench-config.json";

function serviceUrl(value: unknown): string | undefined {
  const url = typeof value === "string" ? secureUrl(value) : undefined;
  return url?.href.replace(/\/+$/, "");
}

export function parseConfig(json: unknown): WorkbenchConfig {
  const raw = typeof json === "object" && json !== null ? (json as Record<string, unknown>) : {};
  const today = typeof raw.today === "string" && isCalendarDate(raw.today) ? raw.today : undefined;
  const liveClock = fastClockSetting(raw.liveClock);
  return {
    apiUrl: serviceUrl(raw.apiUrl) ?? SANDBOX_ENVIRONMENT.baseUrl,
    issuer: serviceUrl(raw.issuer) ?? SANDBOX_ENVIRONMENT.authority,
    ...(today ? { today } : {}),
    ...(liveClock ? { liveClock } : {}),
  };
}

export async function loadConfig(fetchFn: typeof fetch = fetch): Promise<WorkbenchConfig> {
  try {
    const response = await fetchFn(CONFIG_FILE, { cache: "no-store" });
    return parseConfig(response.ok ? await response.json() : {});
  } catch {
    return parseConfig({});
  }
}

/** localStorage as the pane reads it (the pane's own per-user storage). */
export function localSettingsStorage(storage: Storage): SettingsStorage {
  return userSettingsStorage({ localStorage: storage });
}

/**
 * Points the pane's "local sandbox" environment at the sandbox this workbench uses (npm start may have chosen
 * other ports). A pane set to another service is left alone. Returns true when the settings changed.
 */
export async function alignPaneSettings(storage: SettingsStorage, config: WorkbenchConfig): Promise<boolean> {
  const settings = parseSettings(storage.read(SETTINGS_KEY));
  if (settings.environment.kind !== "sandbox") return false;
  if (settings.environment.baseUrl === config.apiUrl && settings.environment.authority === config.issuer) return false;
  await saveSettings(storage, { ...settings, environment: { ...settings.environment, baseUrl: config.apiUrl, authority: config.issuer } });
  return true;
}
