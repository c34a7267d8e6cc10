/** Browser side of the host: installs the Office globals, counts service requests, loads functions.json and functions.js. */
import { type PricesHostApi, type RequestCounter, createHostApi } from "./page-api";
import { parseFunctionsMetadata } from "./metadata";
import { createOfficeRuntimeShim, createOfficeShim } from "./office";
import { createCustomFunctionsRuntime } from "./runtime";
import { loadScript } from "./load-script";

export interface PageOptions {
  /** URL of functions.json, relative to the page. */
  readonly metadataUrl: string;
  /** URL of the functions bundle. */
  readonly scriptUrl: string;
  readonly timeoutMs?: number;
}

/** A scope's global object: `fetch` and whatever the bundle puts there (`PricesAddin`). */
export type HostGlobals = { fetch: typeof fetch } & Record<string, unknown>;

/** Wraps fetch so that every request to the configured service is counted, whoever sends it. */
function countRequests(scope: HostGlobals): { counter: () => RequestCounter; setBase: (base: string) => void } {
  let base: string | undefined;
  let total = 0;
  // a Map: a path such as "__proto__" must count like any other
  const byPath = new Map<string, number>();
  const original = scope.fetch.bind(scope);
  scope.fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (base !== undefined && url.startsWith(base)) {
      total += 1;
      const path = new URL(url).pathname.slice(new URL(base).pathname.length) || "/";
      byPath.set(path, (byPath.get(path) ?? 0) + 1);
    }
    return original(input, init);
  };
  return {
    counter: () => ({ total, byPath: Object.fromEntries(byPath) }),
    setBase: (value) => {
      base = value.replace(/\/+$/, "");
    },
  };
}

/** What a host needs of the scope the functions bundle runs in: its globals, and a way to run the bundle there. */
export interface HostScope {
  /** The bundle's global object (a page's `window`, or a Node `vm` context's sandbox object). */
  readonly globals: HostGlobals;
  /** Runs functions.js in that scope; resolves once it has run. */
  readonly loadBundle: () => Promise<void>;
  readonly log: (message: string) => void;
  readonly timeoutMs?: number;
}

/** Installs `CustomFunctions`, `Office` and `OfficeRuntime` in the scope, counts its requests, runs the bundle and returns the page API. */
export async function startHost(scope: HostScope, metadataJson: unknown): Promise<PricesHostApi> {
  const globals = scope.globals;
  const runtime = createCustomFunctionsRuntime();
  globals.CustomFunctions = runtime.global;
  globals.Office = createOfficeShim();
  globals.OfficeRuntime = createOfficeRuntimeShim();
  const requests = countRequests(globals);
  const metadata = parseFunctionsMetadata(metadataJson);
  await scope.loadBundle();
  return createHostApi({
    runtime,
    metadata,
    requests: requests.counter,
    setCountedBase: requests.setBase,
    addin: () => {
      const hook = globals.PricesAddin as { configure?: unknown; stats?: unknown } | undefined;
      if (!hook || typeof hook.configure !== "function") return undefined;
      return hook as { configure(options: Record<string, unknown>): Promise<void> | void; stats?: () => unknown };
    },
    ...(scope.timeoutMs === undefined ? {} : { timeoutMs: scope.timeoutMs }),
    log: scope.log,
  });
}

/** host.html's host: the page's own globals, functions.json fetched, functions.js loaded as a script. */
export async function startHostPage(options: PageOptions): Promise<PricesHostApi> {
  const response = await fetch(options.metadataUrl, { cache: "no-store" });
  if (!response.ok) throw new Error(`could not load ${options.metadataUrl}: ${response.status}`);
  const metadata: unknown = await response.json();
  return startHost(
    {
      globals: globalThis,
      loadBundle: () => loadScript(options.scriptUrl),
      log: (message) => { console.error(message); },
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    },
    metadata,
  );
}
