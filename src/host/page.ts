/** Browser side of the host: installs the Office globals, counts service requests, loads functions.json and functions.js. */
import { type PricesHostApi, type RequestCounter, createHostApi } from "./api";
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

type HostGlobals = typeof globalThis & Record<string, unknown>;

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

export async function startHostPage(options: PageOptions): Promise<PricesHostApi> {
  const scope = globalThis as HostGlobals;
  const globals = globalThis as unknown as Record<string, unknown>;
  const runtime = createCustomFunctionsRuntime();
  globals.CustomFunctions = runtime.global;
  globals.Office = createOfficeShim();
  globals.OfficeRuntime = createOfficeRuntimeShim();
  const requests = countRequests(scope);
  const response = await fetch(options.metadataUrl, { cache: "no-store" });
  if (!response.ok) throw new Error(`could not load ${options.metadataUrl}: ${response.status}`);
  const metadata = parseFunctionsMetadata(await response.json());
  await loadScript(options.scriptUrl);
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
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    log: (message) => console.error(message),
  });
}
