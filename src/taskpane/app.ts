/**
 * The task pane: builds the session (settings, token store, client), the shared context, and then each panel in
 * `PANELS`. Office globals arrive through the adapters in `PaneDependencies`, so the pane runs against a stub
 * workbook as well as against Excel.
 */
import type { AddinSettings } from "../auth/settings";
import type { TokenStore } from "../auth/token-store";
import type { PricesClient } from "../prices/types";
import { byId, setUpTabs } from "./dom";
import { trackInstrumentLists } from "./instrument-lists";
import type { Panel, PaneContext, PaneDependencies } from "./pane-context";
import { createPaneEvents } from "./pane-events";
import { createPaneSession } from "./pane-session";
import type { PanePersistence } from "../sessions/pane-persistence";
import { accountPanel } from "./panels/account";
import { builderPanel } from "./panels/builder";
import { cachePanel } from "./panels/cache";
import { countersPanel } from "./panels/counters";
import { explainCellPanel } from "./panels/explain-cell";
import { freezePanel } from "./panels/freeze";
import { livePanel } from "./panels/live";
import { referencesPanel } from "./panels/references";
import { refreshPanel } from "./panels/refresh";
import { searchPanel } from "./panels/search";
import { settingsPanel } from "./panels/settings";
import { valueModePanel } from "./panels/value-mode";
import { ErrorLog } from "./plain-errors";
import { type ServiceReach, unreachableLine } from "./service-reach";

export type { PaneDependencies } from "./pane-context";

/** Every panel of the pane, in the order they are wired. A new panel is one line here. */
const PANELS: readonly Panel[] = [accountPanel, searchPanel, referencesPanel, builderPanel, refreshPanel, freezePanel, explainCellPanel, countersPanel, settingsPanel, valueModePanel, cachePanel, livePanel];

export interface Pane {
  readonly store: TokenStore;
  client(): PricesClient;
  settings(): AddinSettings;
  /** The signed-in user's persistent cache and change log (the browser test feeds the log a change). */
  persistence(): PanePersistence;
  /** Whether the service answers (the workbench's header reads it while its functions use this pane's client). */
  readonly reach: ServiceReach;
}

export function startPane(deps: PaneDependencies): Pane {
  const now = deps.now ?? Date.now;
  const fetchFn = deps.fetch ?? ((input, init) => fetch(input, init));
  const errors = new ErrorLog();
  const events = createPaneEvents();
  const session = createPaneSession({
    settingsStorage: deps.settingsStorage,
    addin: deps.addin,
    createClient: deps.createClient,
    fetch: fetchFn,
    now,
    onClientError: (where, error) => {
      errors.add(where, error, now());
      events.emit("counters", undefined);
    },
    onAuth: (state) => { events.emit("auth", state); },
  });
  let selectTab: (panelId: string) => void = () => undefined;

  const context: PaneContext = {
    deps,
    workbook: deps.workbook,
    session,
    events,
    fetch: fetchFn,
    now,
    settings: session.settings,
    store: session.store,
    client: session.client,
    lists: () => lists.current(),
    announce(text) {
      byId("announce").textContent = text;
    },
    recordError(where, error) {
      const entry = errors.add(where, error, now());
      events.emit("counters", undefined);
      return entry.text;
    },
    errors: () => errors.list(),
    async insert(formula) {
      try {
        const address = await deps.workbook.insertFormula(formula);
        context.announce(`Inserted ${formula} at ${address}`);
        byId("auth-status").dataset["lastInsert"] = address;
      } catch (error) {
        context.announce(context.recordError("insert", error));
      }
    },
    selectTab: (panelId) => { selectTab(panelId); },
  };
  const reachLine = byId("service-reach");
  session.reach.subscribe((state) => {
    const line = unreachableLine(state);
    reachLine.textContent = line ?? "";
    reachLine.hidden = line === undefined;
  });
  const lists = trackInstrumentLists(context);
  for (const panel of PANELS) panel(context);
  selectTab = setUpTabs(byId("tabs"), (panel) => { events.emit("tab", panel); });

  return {
    get store() {
      return session.store();
    },
    client: () => session.client(),
    settings: () => session.settings(),
    persistence: () => session.persistence(),
    reach: session.reach,
  };
}
