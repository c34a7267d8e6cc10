/**
 * The runner's own sandbox, started on a worker thread (src/runner/sandbox-worker.ts) before the book is read: its
 * start (fastify loaded: it listens ~0.65 s after the process starts; then oidc-provider loaded and the prices
 * generated, about 1.5 s of CPU in all) runs on the second core while this thread reads the package. Asked with a
 * `client`, it also asks its token service for the runner's token there, and says it with its readiness.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { ClientCredentials } from "./client-credentials";

/** What the runner asks of its sandbox (the rest is fixed: any free port, quiet). */
export interface SandboxThreadOptions {
  readonly today?: string;
  readonly corsOrigins: readonly string[];
  readonly correctionRate?: number;
  readonly withdrawn?: Readonly<Record<string, readonly string[]>>;
  /**
   * The client the runner signs in as: the worker asks its own token service for the runner's token (client
   * credentials, over HTTPS as any client asks) as soon as it listens, on its own core, while the runner still reads.
   */
  readonly client?: Omit<ClientCredentials, "apiUrl">;
  /**
   * The strings the book holds (its shared strings): the instruments among them are the only series the sandbox builds
   * ahead of the run's request (~200 of 320 for the model); any other one asked for is built when asked. Without them, all.
   */
  readonly symbols?: readonly string[];
}

/** Where the sandbox listens, and the runner's token when one was asked for and given. */
export interface SandboxReady {
  readonly apiUrl: string;
  readonly issuer: string;
  readonly token?: string;
}

/** What the worker says, in order: its CA, then that it listens (or why it failed), and last that it closed. */
export type SandboxThreadMessage =
  | { readonly kind: "ca"; readonly ca: string }
  | ({ readonly kind: "ready" } & SandboxReady)
  | { readonly kind: "failed"; readonly message: string }
  | { readonly kind: "closed" };

export interface SandboxThread {
  /** The sandbox's CA (PEM), known before it listens. */
  readonly ca: Promise<string>;
  readonly ready: Promise<SandboxReady>;
  /** Stops the sandbox and ends the thread (also while it is starting). */
  close(): Promise<void>;
}

/**
 * The worker's file: beside the built runner, its bundled sandbox-worker.js (scripts/run-workbook.cjs builds both); from
 * source, the .ts file with tsx's loader (under Jest, or `tsx scripts/workbook.ts`, whose loader a worker would inherit).
 */
function workerFile(): { file: string; eval?: true; execArgv?: string[] } {
  const built = join(__dirname, "sandbox-worker.js");
  // the bundle is loaded with V8's compile cache already on: a worker's loader is its own, and the bundle's 2 MB were
  // compiled anew on every start (~60 ms of the thread's way to listening) when it turned the cache on itself
  if (existsSync(built)) return { file: `require("node:module").enableCompileCache?.(); require(${JSON.stringify(built)});`, eval: true };
  return { file: join(__dirname, "sandbox-worker.ts"), execArgv: ["--import", pathToFileURL(require.resolve("tsx")).href] };
}

/** A prestarted thread's workerData: its options come in its first message. */
export const PRESTARTED = "prestarted";

/** The thread prestartSandboxThread started, until a run takes it (or it ends). */
let prestarted: Worker | undefined;

/**
 * Starts the sandbox's thread before the runner's own modules load (scripts/workbook.ts, first thing): it loads its
 * modules meanwhile, on the other core, and does nothing else until startSandboxThread gives it its options; a run
 * that never does (`--api`, bad input) leaves it to end with the process, which it does not keep alive. The built
 * runner only (from source, a thread's tsx loader would cost more than it saves).
 */
export function prestartSandboxThread(): void {
  const { file, eval: code } = workerFile();
  if (code === undefined || prestarted !== undefined) return;
  const worker = new Worker(file, { workerData: PRESTARTED, eval: code });
  worker.unref();
  // a thread that failed before it was taken is not taken: startSandboxThread starts another, which says why
  worker.on("error", () => undefined);
  worker.once("exit", () => {
    if (prestarted === worker) prestarted = undefined;
  });
  prestarted = worker;
}

/** The prestarted thread given `options`, or a new one started with them. */
function sandboxWorker(options: SandboxThreadOptions): Worker {
  const taken = prestarted;
  prestarted = undefined;
  if (taken !== undefined) {
    taken.ref();
    taken.postMessage({ options });
    return taken;
  }
  const { file, execArgv, eval: code } = workerFile();
  return new Worker(file, { workerData: options, ...(code === undefined ? {} : { eval: code }), ...(execArgv === undefined ? {} : { execArgv }) });
}

/** A book's strings worth handing to the thread: the short ones (a symbol is), none when there are too many to copy cheaply. */
export function symbolHint(strings: readonly string[] | undefined): string[] | undefined {
  if (strings === undefined || strings.length > MAX_HINTED_STRINGS) return undefined;
  return strings.filter((text) => text.length <= MAX_SYMBOL_LENGTH);
}

/** Beyond this many strings in a book the sandbox builds every series ahead, as without a hint. */
const MAX_HINTED_STRINGS = 20_000;
const MAX_SYMBOL_LENGTH = 64;

export function startSandboxThread(options: SandboxThreadOptions): SandboxThread {
  const symbols = symbolHint(options.symbols);
  const { symbols: _all, ...rest } = options;
  const worker = sandboxWorker(symbols === undefined ? rest : { ...rest, symbols });
  let gotCa: (ca: string) => void = () => undefined;
  let gotReady: (ready: SandboxReady) => void = () => undefined;
  let failed: (error: Error) => void = () => undefined;
  const ca = new Promise<string>((resolve, reject) => {
    gotCa = resolve;
    failed = reject;
  });
  const ready = new Promise<SandboxReady>((resolve, reject) => {
    gotReady = resolve;
    const earlier = failed;
    failed = (error) => {
      earlier(error);
      reject(error);
    };
  });
  // a caller that never awaits one of them (a run refused after the start) leaves no unhandled rejection
  ca.catch(() => undefined);
  ready.catch(() => undefined);
  let started = false;
  let closed: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    closed = resolve;
    worker.once("exit", () => { resolve(); });
  });
  worker.on("message", (message: SandboxThreadMessage) => {
    if (message.kind === "ca") gotCa(message.ca);
    else if (message.kind === "ready") {
      started = true;
      const { kind: _kind, ...where } = message;
      gotReady(where);
    } else if (message.kind === "failed") failed(new Error(`the runner's own sandbox did not start: ${message.message}`));
    else closed();
  });
  worker.on("error", (error: Error) => { failed(new Error(`the runner's own sandbox did not start: ${error.message}`)); });
  worker.once("exit", () => { failed(new Error("the runner's own sandbox stopped")); });
  return {
    ca,
    ready,
    async close() {
      // a listening sandbox closes its server (its connections included) first; one still starting is just ended
      if (started) {
        worker.postMessage("close");
        await stopped;
      }
      await worker.terminate();
    },
  };
}
