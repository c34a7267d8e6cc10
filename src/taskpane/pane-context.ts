/** What every panel of the pane is given: the session, the loaded lists, the events, and the few shared actions. */
import type { DialogHost } from "../auth/dialog-host";
import type { DialogConfig } from "../auth/dialog-protocol";
import type { SilentOutcome } from "../auth/silent-sign-in";
import type { AddinSettings, SettingsStorage } from "../auth/settings";
import type { TokenStore } from "../auth/token-store";
import type { PricesAddin } from "../functions/hook";
import type { PricesClient, PricesClientOptions } from "../prices/types";
import type { WorkbookHost } from "./excel-host";
import type { FreezeWorkbook } from "./freeze";
import type { PaneEvents, PaneLists } from "./pane-events";
import type { PaneSession } from "./pane-session";
import type { ErrorEntry } from "./plain-errors";

export interface PaneDependencies {
  workbook: WorkbookHost;
  /** What Freeze/Unfreeze edit: Excel through `excelFreezeWorkbook`, or the workbench's stand-in answering the same calls. */
  freezeWorkbook: FreezeWorkbook;
  settingsStorage: SettingsStorage;
  dialogHost: DialogHost;
  /** Signs in without a window from the token service's session (prompt=none); absent: the pane starts signed out. */
  silentSignIn?: (config: DialogConfig) => Promise<SilentOutcome>;
  /** Folder URL of the pane page; the dialog page sits beside it. */
  pageBase: string;
  /** The functions' hook (shared runtime); undefined when the pane runs alone. */
  addin: () => PricesAddin | undefined;
  createClient: (options: PricesClientOptions) => PricesClient;
  fetch?: typeof fetch;
  now?: () => number;
  /** What the sheet does while nobody is signed in here, when a host fills it otherwise (the workbench's demo key). */
  signedOutEffect?: string;
}

export interface PaneContext {
  readonly deps: PaneDependencies;
  readonly workbook: WorkbookHost;
  readonly session: PaneSession;
  readonly events: PaneEvents;
  readonly fetch: typeof fetch;
  now(): number;
  settings: () => AddinSettings;
  store: () => TokenStore;
  client: () => PricesClient;
  /** Instruments and reference lists of the signed-in account (empty when signed out). */
  lists(): PaneLists;
  /** Says something to screen readers (and the tests). */
  announce(text: string): void;
  /** Logs an error where the Cell panel lists it; returns its plain words. */
  recordError(where: string, error: unknown): string;
  errors(): readonly ErrorEntry[];
  /** Writes a formula at the selection and says where. */
  insert(formula: string): Promise<void>;
  selectTab(panelId: string): void;
}

/**
 * A panel: wires its part of the page to the context. Adding a panel is one line in `PANELS` (app.ts); a panel
 * with a tab of its own creates it with `addPanelTab` (tabs.ts).
 */
export type Panel = (context: PaneContext) => void;
