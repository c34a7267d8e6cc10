/**
 * The client, wired along dataloader's seams: the loader (loader.ts: cache, in flight, window) hands each
 * closed window to the batch function (batch-function.ts: plan, send, re-plan; history-asks.ts: long
 * histories in parts), which settles every key through the loader. Lineage (lineage.ts) and counters
 * (client-stats.ts) record it all; this factory builds the parts and answers the public calls.
 */
import { DEFAULT_LIMITS, type Limits } from "../api/vocabulary";
import { createBatchFunction } from "./batch-function";
import { MemoryCacheStorage } from "./cache";
import { CacheUse, DEFAULT_CACHE_POLICY, keyMatcher } from "./cache-use";
import { createCounters } from "./client-stats";
import { DEFAULT_GOVERNOR_POLICY, createGovernor } from "./governor";
import { createHistoryAsks } from "./history-asks";
import { type Ask, InFlight } from "./in-flight";
import { type NormKey, normHistoryKey, normInstrumentKey, normInstrumentsKey, normLineageKey, normPriceKey, normReferenceKey } from "./keys";
import { DEFAULT_LIMIT_FLOORS } from "./learned-limits";
import { Lineage } from "./lineage";
import { createLoader } from "./loader";
import { DEFAULT_RETRY_POLICY } from "./retry";
import { timerScheduler } from "./scheduler";
import { DEFAULT_REQUEST_BUDGET_MS, createTransport } from "./transport";
import { sleep } from "./timeout";
import type { AskOptions, CacheFilter, CachePolicy, ClientStats, KeyLineage, LineageKey, PricesClient, PricesClientOptions, Waiter } from "./types";

export { DEFAULT_CACHE_POLICY } from "./cache-use";

const MAX_LINEAGE_KEYS = 100_000;

export function createPricesClient(options: PricesClientOptions): PricesClient {
  const policy: CachePolicy = { ...DEFAULT_CACHE_POLICY, ...options.cache };
  const now = options.now ?? Date.now;
  const cache = new CacheUse(options.storage ?? new MemoryCacheStorage({ maxEntries: policy.maxEntries, maxBytes: policy.maxBytes }), policy);
  const maxQueryLength = options.maxQueryLength;
  // Per key, from its ask: the parts of a long history, its forecast probe and a request planned again
  // after a refusal all spend the one budget, so a key settles with its cause before a cell's deadline.
  const budgetMs = options.budgetMs ?? DEFAULT_REQUEST_BUDGET_MS;
  const governor = createGovernor({ ...DEFAULT_GOVERNOR_POLICY, ...options.governor });
  const transport = createTransport({
    baseUrl: options.baseUrl,
    tokenProvider: options.tokenProvider,
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    maxInFlight: options.maxInFlight ?? 4,
    timeoutMs: options.timeoutMs ?? 20_000,
    budgetMs,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    now,
    sleep: options.sleep ?? sleep,
    random: options.random ?? Math.random,
    ...(maxQueryLength !== undefined ? { maxQueryLength } : {}),
    governor,
  });
  const counters = createCounters();
  const lineage = new Lineage({ maxKeys: options.maxLineageKeys ?? MAX_LINEAGE_KEYS, maxRequests: options.maxLineageRequests ?? 1_000 });
  const inFlight = new InFlight(lineage);
  // The loader and the batch function each need the other: the window closes into `batch` once it is built.
  let batch: (closed: Ask[]) => void = () => undefined;
  const loader = createLoader({ cache, inFlight, lineage, counters, governor, now, budgetMs, scheduler: options.scheduler ?? timerScheduler(2), dispatch: (closed) => { batch(closed); } });
  batch = createBatchFunction({
    baseUrl: options.baseUrl,
    maxQueryLength,
    transport,
    keys: loader,
    histories: createHistoryAsks(loader, now),
    lineage,
    counters,
    now,
    settings: { ...DEFAULT_LIMITS, ...options.limits } satisfies Limits,
    floors: { ...DEFAULT_LIMIT_FLOORS, ...options.limitFloors },
    maxOverfetch: options.maxOverfetch ?? 4,
  });

  function invalidate(filter?: CacheFilter): number {
    const byKind = keyMatcher(filter?.kinds, filter?.symbols);
    const ids = filter?.keys === undefined ? undefined : new Set(filter.keys.flatMap(normalisedId));
    const matches = ids === undefined ? byKind : (id: string) => ids.has(id) && byKind(id);
    const removed = cache.drop(matches);
    inFlight.markStale(matches);
    return removed;
  }

  /** A key's cache id, or none for a key that cannot be normalised (nothing of it is cached). */
  function normalisedId(key: LineageKey): string[] {
    try {
      return [normLineageKey(key).id];
    } catch {
      return [];
    }
  }

  function stats(): ClientStats {
    return { ...counters, inFlight: transport.inFlight, cacheEntries: cache.size, cacheBytes: cache.bytes };
  }

  function lineageOf(key: LineageKey): KeyLineage | undefined {
    let norm: NormKey;
    try {
      norm = normLineageKey(key);
    } catch {
      return undefined;
    }
    const found = lineage.lookup(norm, cache.peek(norm.id));
    const note = cache.describe(norm.id);
    return found && note !== undefined ? { ...found, cacheNote: note } : found;
  }

  /**
   * Normalises a key and asks for it; a key that cannot be normalised is refused with its reason. The key
   * comes as an argument, not in a closure: no closure per cell (64 B per key of a cold 10,000-key sheet).
   */
  function asked<A, T>(normalise: (argument: A) => NormKey, argument: A, options: AskOptions | undefined): Promise<T> {
    let norm: NormKey;
    try {
      norm = normalise(argument);
    } catch (error) {
      return loader.refuse(error);
    }
    return loader.ask<T>(norm, options?.cachedOnly === true, deadlineOf(options), options?.fresh === true);
  }

  /** When an ask with these options runs out (epoch ms), or undefined for the loader's own budget. */
  function deadlineOf(options: AskOptions | undefined): number | undefined {
    const timeLeft = options?.timeLeftMs;
    return timeLeft === undefined ? undefined : now() + timeLeft;
  }

  /** `asked`, its answer handed to `waiter`. */
  function askedInto<A>(normalise: (argument: A) => NormKey, argument: A, options: AskOptions | undefined, waiter: Waiter<never>): void {
    let norm: NormKey;
    try {
      norm = normalise(argument);
    } catch (error) {
      loader.refuse(error).catch((refusal: unknown) => { waiter.failed(refusal); });
      return;
    }
    loader.askInto(norm, options?.cachedOnly === true, deadlineOf(options), options?.fresh === true, waiter);
  }

  return {
    price: (key, askOptions) => asked(normPriceKey, key, askOptions),
    priceInto: (key, askOptions, waiter) => { askedInto(normPriceKey, key, askOptions, waiter); },
    history: (key, askOptions) => asked(normHistoryKey, key, askOptions),
    instrument: (symbol, fields, askOptions) => asked((asking: string) => normInstrumentKey(asking, fields), symbol, askOptions),
    instruments: (fields, askOptions) => asked(normInstrumentsKey, fields, askOptions),
    references: (type, askOptions) => asked(normReferenceKey, type, askOptions),
    invalidate,
    stats,
    lineage: lineageOf,
  };
}

