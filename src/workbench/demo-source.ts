/** The functions on the sandbox's demo service key: no account needed until someone signs in through the pane. */
import { ALL_DATA_TYPES } from "../functions/data-types";
import type { PricesAddin } from "../functions/hook";
import { serviceKeyTokenProvider } from "../prices/tokens";
import type { TokenProvider } from "../prices/types";
import { workbenchValueMode } from "./card-view";
import { DEMO_SERVICE, type WorkbenchConfig } from "./config";
import { demoTokenProvider } from "./demo-tokens";
import type { SourceLine } from "./source-line";

export interface DemoSource {
  readonly tokens: TokenProvider;
  /** Configures the functions with the demo key (again, after a sign-out). */
  readonly use: () => Promise<void>;
}

export function demoSource(addin: PricesAddin, config: WorkbenchConfig, line: SourceLine): DemoSource {
  const tokens = demoTokenProvider({
    fetch: (input, init) => fetch(input, init),
    fallback: () => serviceKeyTokenProvider({ tokenUrl: `${config.issuer}/token`, serviceName: DEMO_SERVICE.name, serviceKey: DEMO_SERVICE.key }),
    onWait: (reason) => { line.tokenWaiting(reason); },
  });
  const use = async (): Promise<void> => {
    line.source = "demo";
    await addin.configure({
      baseUrl: config.apiUrl,
      tokenProvider: tokens,
      fetch: line.demoReach.wrap((input, init) => fetch(input, init), config.apiUrl),
      recalculate: false,
      dataTypes: ALL_DATA_TYPES,
      valueMode: workbenchValueMode(location.search),
      // live cells on the sandbox's fast clock (npm start -- --live-demo)
      ...(config.liveClock ? { live: { clock: config.liveClock } } : {}),
    });
    line.demo();
  };
  return { tokens, use };
}
