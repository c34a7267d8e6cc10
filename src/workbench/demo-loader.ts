/** The demo sheet: symbols picked from the instruments the demo account may see, once its token has come. */
import { todayIso } from "../api/dates";
import type { PricesAddin } from "../functions/hook";
import { sleep } from "../prices/timeout";
import type { TokenProvider } from "../prices/types";
import type { ServiceReach } from "../taskpane/service-reach";
import type { WorkbenchConfig } from "./config";
import { buildDemoSheet, DEMO_INSTRUMENT_FIELDS, type DemoInstrument, type DemoSheet } from "./demo";
import { firstToken } from "./demo-tokens";

export interface DemoLoadParts {
  readonly addin: PricesAddin;
  readonly config: WorkbenchConfig;
  readonly tokens: TokenProvider;
  readonly demoReach: ServiceReach;
  /** Where the page says why the sheet could not load. */
  readonly message: HTMLElement;
  /** Takes the sheet built (loads its cells). */
  readonly loaded: (demo: DemoSheet) => void;
}

/** Builds and hands over the demo sheet; false (the reason shown) when it could not. */
export async function loadDemoSheet(parts: DemoLoadParts): Promise<boolean> {
  try {
    await firstToken(parts.tokens, sleep);
    const client = parts.addin.client;
    if (!client) throw new Error("the functions have no client");
    const instruments = (await client.instruments([...DEMO_INSTRUMENT_FIELDS])) as unknown as DemoInstrument[];
    parts.loaded(buildDemoSheet(instruments, parts.config.today ?? todayIso()));
    parts.message.textContent = "";
    return true;
  } catch (error) {
    const offline = !parts.demoReach.state().reachable;
    parts.message.textContent = `The demo sheet could not load: ${error instanceof Error ? error.message : String(error)}. ${offline ? "The service cannot be reached: the sheet fills when it answers again (tried every 10 s)." : "Is the sandbox running (npm start)?"}`;
    return false;
  }
}
