/**
 * The real task pane in the workbench's iframe: signing in there hands the workbench's functions the pane's client
 * (the user's token) and its service reach; signing out goes back to the demo key.
 */
import type { PricesAddin } from "../functions/hook";
import type { ServiceReach } from "../taskpane/service-reach";
import type { WorkbenchConfig } from "./config";
import type { SourceLine } from "./source-line";

type PaneWindow = Window & { PricesAddin?: PricesAddin; PricesPane?: { store: { state(): { status: string; account?: string } }; reach: ServiceReach } };

export interface PaneFrameParts {
  readonly frame: HTMLIFrameElement;
  readonly addin: PricesAddin;
  readonly config: WorkbenchConfig;
  readonly line: SourceLine;
  /** The line and the grid again, when the pane's reach changes. */
  readonly onReach: () => void;
  readonly useDemo: () => Promise<void>;
  readonly recalculate: () => Promise<void>;
}

export function hostPane(parts: PaneFrameParts): void {
  const { frame, addin, config, line } = parts;
  frame.addEventListener("load", () => {
    const pane: PaneWindow | null = frame.contentWindow;

    pane?.PricesAddin?.onConfigured((client) => {
      if (client) {
        const reachOfPane = pane.PricesPane?.reach;
        if (reachOfPane) line.followPaneReach(reachOfPane, parts.onReach);
        line.source = "pane";
        const state = pane.PricesPane?.store.state();
        line.set(`Data: ${config.apiUrl}. The functions use the pane's sign-in${state?.account ? ` (${state.account})` : ""}.`);
        void addin.configure({ client, recalculate: false }).then(parts.recalculate);
      } else {
        void parts.useDemo().then(parts.recalculate);
      }
    });
  });
  frame.src = "workbench-pane.html";
}
