/**
 * The runner's host without a browser: the add-in's real functions bundle (dist/functions.js, dist/functions.json) in
 * a Node `vm` context of its own, given only the globals a page gives it (fetch, timers, URL, AbortSignal, and the
 * host's `CustomFunctions`/`Office` stand-ins), and the host's engine in the runner's own process. No string is ever
 * compiled as code in the context (no eval, as under a strict CSP); it has no `process`, `require` or file system.
 * Its fetch sends real HTTP(S) requests as the page's did, with what a page on an https origin is refused refused
 * (any scheme but https, plain http except to this machine), and fails as Chromium's does (`TypeError: Failed to
 * fetch`). `close()` aborts its requests and clears its timers, so nothing it started outlives the run.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { format } from "node:util";
import { constants, createContext, runInContext } from "node:vm";
import { Headers, Request, Response, fetch as undiciFetch } from "undici";
import type { PricesHostApi } from "../host/page-api";
import { type HostGlobals, startHost } from "../host/page";
import type { Trust } from "./trust";
import { runWithCodeCache } from "./bundle-code-cache";

export interface NodeHostOptions {
  /** Folder holding functions.js and functions.json (dist/, or test fixtures). */
  readonly dist: string;
  readonly functionsFile?: string;
  readonly metadataFile?: string;
  /** What its HTTPS requests trust (src/runner/trust.ts): the system's CAs, with the runner's own sandbox's or `--ca`. */
  readonly trust: Trust;
  /** The per-call limit (host.html's `?timeout=`). */
  readonly timeoutMs?: number;
  readonly log: (message: string) => void;
}

export interface NodeHost {
  readonly api: PricesHostApi;
  /** The context's global object, for tests that check what the bundle can reach. */
  readonly globals: HostGlobals;
  /** Timers the bundle started that have not yet run or been cleared. */
  readonly liveTimers: () => number;
  close(): Promise<void>;
}

/** What a page on an https origin may fetch: https anywhere, plain http only on this machine (mixed content otherwise). */
export function fetchRefusal(url: URL): string | undefined {
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)) return undefined;
  return `${url.protocol} ${url.hostname} is not reachable from the host (a page on an https origin is refused it)`;
}

/** The timers the bundle starts, tracked so `close()` can clear every one of them. */
/** A timer's callback from the bundle: any function, called with the arguments the bundle gave. */
function isCallable(value: unknown): value is (...args: unknown[]) => unknown {
  return typeof value === "function";
}

function trackedTimers(): { globals: Record<string, unknown>; live: () => number; clearAll: () => void } {
  const timers = new Set<NodeJS.Timeout>();
  const clear = (timer: unknown): void => {
    if (!timers.has(timer as NodeJS.Timeout)) return;
    timers.delete(timer as NodeJS.Timeout);
    clearTimeout(timer as NodeJS.Timeout);
  };
  return {
    globals: {
      setTimeout: (callback: unknown, ms?: number, ...args: unknown[]) => {
        if (!isCallable(callback)) throw new TypeError("setTimeout needs a function (no code in strings)");
        const timer: NodeJS.Timeout = setTimeout(() => {
          timers.delete(timer);
          callback(...args);
        }, ms);
        timers.add(timer);
        return timer;
      },
      setInterval: (callback: unknown, ms?: number, ...args: unknown[]) => {
        if (!isCallable(callback)) throw new TypeError("setInterval needs a function (no code in strings)");
        const timer = setInterval(() => {
          callback(...args);
        }, ms);
        timers.add(timer);
        return timer;
      },
      clearTimeout: clear,
      clearInterval: clear,
    },
    live: () => timers.size,
    clearAll: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** `console` in the context: every line to the runner's log, as the page's console reached it. */
function contextConsole(log: (message: string) => void): Record<string, (...args: unknown[]) => void> {
  const line = (kind: string) => (...args: unknown[]) => { log(`functions ${kind}: ${format(...args)}`); };
  return { log: line("log"), info: line("info"), warn: line("warning"), error: line("error"), debug: line("debug") };
}

/** Opens the connection to a service the functions may fetch from and will (a plan-only run sends nothing). */
function warm(trust: Trust, baseUrl: string, planOnly: boolean): void {
  if (planOnly || !URL.canParse(baseUrl) || fetchRefusal(new URL(baseUrl)) !== undefined) return;
  trust.preconnect(baseUrl);
}

/**
 * What a failed request met, in the words of the connection's own error (`connect ECONNREFUSED 127.0.0.1:9`, a
 * certificate's), or undefined when the failure has no such cause: only the connection's words are said, never the
 * request's own error, whose words may quote a header (a token with a line break in it is refused with its value).
 */
export function transportCause(error: unknown): string | undefined {
  // read by shape: undici's errors may come from another realm (a test runner's), where instanceof Error fails
  const cause = (error as { cause?: { message?: unknown; code?: unknown } } | null | undefined)?.cause;
  if (typeof cause?.message !== "string") return undefined;
  const { message, code } = cause;
  return typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
}

/** Loads the bundle into a fresh context and starts the host's API over it. */
export async function openNodeHost(options: NodeHostOptions): Promise<NodeHost> {
  const dispatcher = await options.trust.dispatcher();
  const closing = new AbortController();
  const timers = trackedTimers();
  /** The request itself, in this realm: the page's refusals, the run's certificates, aborted when the host closes. */
  const send = (input: unknown, init: (RequestInit & { signal?: AbortSignal | null }) | undefined): Promise<unknown> => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input instanceof Request ? input.url : String(input));
    const refusal = closing.signal.aborted ? "the host is closed" : fetchRefusal(url);
    if (refusal !== undefined) return Promise.reject(new Error(refusal));
    const signal = init?.signal ? AbortSignal.any([init.signal, closing.signal]) : closing.signal;
    const request = { ...(init as object), signal, dispatcher };
    const sent = undiciFetch(input instanceof Request ? input : url.href, request);
    sent.catch((error: unknown) => { if (!signal.aborted) sayTransportFailure(url, error); });
    return sent;
  };
  // the functions see "Failed to fetch", as in a browser: the run's log says once what the connection met
  let transportFailureSaid = false;
  const sayTransportFailure = (url: URL, error: unknown): void => {
    const cause = transportCause(error);
    if (transportFailureSaid || cause === undefined) return;
    transportFailureSaid = true;
    options.log(`workbook: a request to ${url.origin} failed: ${cause} (the functions see "Failed to fetch", as a browser's do)`);
  };
  const pageGlobals: Record<string, unknown> = {
    ...timers.globals,
    console: contextConsole(options.log),
    URL,
    URLSearchParams,
    AbortController,
    AbortSignal,
    Headers,
    Request,
    Response,
    TextEncoder,
    TextDecoder,
    atob,
    btoa,
    queueMicrotask,
    structuredClone,
  };
  // An ordinary global object, not a contextified one: every global the bundle reads (Map, Promise, its own names)
  // went through the contextified object's interceptors, 46x slower in a loop of global reads, most of why the 20,050-cell
  // model evaluated in 10.9 s here against Chromium's 3.4 s.
  const context = createContext(constants.DONT_CONTEXTIFY, { name: "functions", codeGeneration: { strings: false, wasm: false } });
  const sandbox = context as Record<string, unknown>;
  Object.assign(sandbox, pageGlobals);
  // The page's names for its global object, and a fetch whose failures are the context's own TypeError (the client
  // tells a network failure by `instanceof Error`, which an error of the runner's realm would not pass there).
  const pageFetch = runInContext(
    `globalThis.window = globalThis;
     globalThis.self = globalThis;
     (send) => function fetch(input, init) {
       return send(input, init).catch((error) => {
         if (init && init.signal && init.signal.aborted) throw init.signal.reason ?? error;
         throw new TypeError("Failed to fetch");
       });
     }`,
    context,
  ) as (sendRequest: typeof send) => typeof fetch;
  sandbox.fetch = pageFetch(send);
  const dist = options.dist;
  const functionsPath = join(dist, options.functionsFile ?? "functions.js");
  const metadata: unknown = JSON.parse(readFileSync(join(dist, options.metadataFile ?? "functions.json"), "utf8"));
  // the connections are the run's (its trust closes them); the host's own requests end with its signal
  const close = (): Promise<void> => {
    closing.abort(new Error("the host is closed"));
    timers.clearAll();
    return Promise.resolve();
  };
  try {
    const started = await startHost(
      {
        globals: sandbox as HostGlobals,
        loadBundle: () => {
          runWithCodeCache(functionsPath, context);
          return Promise.resolve();
        },
        log: options.log,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      },
      metadata,
    );
    // the service is known from here: its connection opens while the book evaluates, not after its calls
    const api: PricesHostApi = {
      ...started,
      configure: (configuration) => {
        warm(options.trust, configuration.baseUrl, configuration.planOnly === true);
        return started.configure(configuration);
      },
    };
    return {
      api,
      globals: sandbox as HostGlobals,
      liveTimers: timers.live,
      close: async () => {
        api.cancelAll();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
