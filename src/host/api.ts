/** The page API (`window.PricesHost`): load a book, evaluate it, read the grid and the request statistics. */
import { readBook } from "./book";
import { WorkbookEngine } from "./engine";
import type { FunctionMetadata } from "./metadata";
import type { CustomFunctionsRuntime } from "./runtime";
import type { PrintedValue } from "./values";

export interface TokenProviderLike {
  getToken(options?: { forceRefresh?: boolean }): Promise<string>;
}

/** `token` is for headless runs (page.evaluate cannot pass functions); pages pass a `tokenProvider`. */
export interface HostConfiguration {
  readonly baseUrl: string;
  readonly token?: string;
  readonly tokenProvider?: TokenProviderLike;
  readonly [option: string]: unknown;
}

export interface RequestCounter {
  readonly total: number;
  readonly byPath: Readonly<Record<string, number>>;
}

export interface HostStats {
  /** Requests the page sent to the configured service, counted at `fetch`. */
  readonly requests: number;
  readonly requestsByPath: Readonly<Record<string, number>>;
  /** `PricesAddin.stats()` when the functions bundle offers it (cache hits and the rest). */
  readonly client: unknown;
}

export interface EvaluationResult {
  readonly cells: Record<string, PrintedValue>;
  readonly stats: HostStats;
}

export interface PricesHostApi {
  readonly functions: readonly string[];
  configure(configuration: HostConfiguration): Promise<void>;
  loadBook(book: unknown): void;
  /** Loads `book` when given, recalculates everything, returns the grid and statistics. */
  evaluate(book?: unknown): Promise<EvaluationResult>;
  cells(): Record<string, PrintedValue>;
  stats(): HostStats;
  cancelAll(): void;
}

interface PricesAddinHook {
  configure(options: Record<string, unknown>): Promise<void> | void;
  stats?: () => unknown;
}

export interface HostDependencies {
  readonly runtime: CustomFunctionsRuntime;
  readonly metadata: readonly FunctionMetadata[];
  readonly requests: () => RequestCounter;
  /** Where the functions bundle put its hook (globalThis in a page). */
  readonly addin: () => PricesAddinHook | undefined;
  /** The service origin whose requests are counted. */
  readonly setCountedBase: (baseUrl: string) => void;
  readonly timeoutMs?: number;
  readonly log?: (message: string) => void;
  readonly onChange?: () => void;
}

export function createHostApi(dependencies: HostDependencies): PricesHostApi {
  const engine = new WorkbookEngine({
    runtime: dependencies.runtime,
    metadata: dependencies.metadata,
    ...(dependencies.timeoutMs === undefined ? {} : { timeoutMs: dependencies.timeoutMs }),
    ...(dependencies.log ? { log: dependencies.log } : {}),
    ...(dependencies.onChange ? { onChange: dependencies.onChange } : {}),
  });
  const stats = (): HostStats => {
    const counter = dependencies.requests();
    const hook = dependencies.addin();
    return { requests: counter.total, requestsByPath: counter.byPath, client: hook?.stats ? hook.stats() : null };
  };
  const api: PricesHostApi = {
    functions: dependencies.metadata.map((fn) => fn.name),
    async configure(configuration) {
      const hook = dependencies.addin();
      if (!hook) throw new Error("functions.js did not define globalThis.PricesAddin.configure");
      const { token, tokenProvider, ...rest } = configuration;
      const provider: TokenProviderLike | undefined =
        tokenProvider ?? (token === undefined ? undefined : { getToken: () => Promise.resolve(token) });
      if (!provider) throw new Error("configure needs a token or a tokenProvider");
      dependencies.setCountedBase(configuration.baseUrl);
      // No recalculation request: the host evaluates when asked.
      await hook.configure({ recalculate: false, ...rest, tokenProvider: provider });
    },
    loadBook(book) {
      engine.load(readBook(book));
    },
    async evaluate(book) {
      if (book !== undefined) api.loadBook(book);
      await engine.evaluate();
      return { cells: engine.cells(), stats: stats() };
    },
    cells: () => engine.cells(),
    stats,
    cancelAll: () => engine.cancelAll(),
  };
  return api;
}
