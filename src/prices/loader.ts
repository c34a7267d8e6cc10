/**
 * The loader (dataloader's `load`): an ask goes to the cache (cache-use.ts), then joins a pending ask for
 * the same key (in-flight.ts), then waits in the current window (window.ts) for the batch function
 * (batch-function.ts). It also settles keys as answers come: a value is kept and handed to its waiters; an
 * error falls back to a last known value, or is kept and handed on.
 */
import type { CacheUse } from "./cache-use";
import type { ClientCounters } from "./client-stats";
import { NotCachedError, PricesError } from "./errors";
import type { Governor } from "./governor";
import type { Ask, InFlight } from "./in-flight";
import type { NormKey } from "./keys";
import type { Waiter } from "./types";
import type { Lineage } from "./lineage";
import type { BatchScheduler } from "./scheduler";
import { withTimeout } from "./timeout";
import { BatchWindow } from "./window";

export interface LoaderParts {
  cache: CacheUse;
  inFlight: InFlight;
  lineage: Lineage;
  counters: ClientCounters;
  governor: Governor;
  scheduler: BatchScheduler;
  /** The batch function: takes a closed window's asks. */
  dispatch: (closed: Ask[]) => void;
  now: () => number;
  /** A key's own time from its ask, when the caller gives no earlier deadline. */
  budgetMs: number;
}

/** How the batch function hands keys back: one value or Error per key. */
export interface KeySettler {
  settleValue(item: Ask, value: unknown, at: number, today: string): void;
  settleError(item: Ask, error: Error, at: number): void;
  failAll(asks: readonly Ask[], error: unknown): void;
}

export interface Loader extends KeySettler {
  /** `deadline`: the caller's (a cell's), or the whole key's for a part of its answer; never later than the budget from now. */
  ask<T>(key: NormKey, cachedOnly: boolean, deadline?: number, fresh?: boolean): Promise<T>;
  /** `ask`, the answer handed to `waiter`: a key opened here waits with no promise (a joined or cached one is followed). */
  askInto(key: NormKey, cachedOnly: boolean, deadline: number | undefined, fresh: boolean, waiter: Waiter<unknown>): void;
  /** A key that could not be asked (it did not normalise), counted as asked and failed. */
  refuse<T>(error: unknown): Promise<T>;
}

export function createLoader(parts: LoaderParts): Loader {
  const { cache, inFlight, lineage, counters, governor, now, budgetMs } = parts;
  const batchWindow = new BatchWindow<Ask>(parts.scheduler, parts.dispatch, failAll);

  function refuse<T>(error: unknown): Promise<T> {
    counters.keysAsked += 1;
    counters.errors += 1;
    return Promise.reject(error instanceof Error ? error : new PricesError(String(error)));
  }

  function ask<T>(key: NormKey, cachedOnly: boolean, deadline?: number, fresh = false): Promise<T> {
    return start(key, cachedOnly, deadline, fresh, undefined) as Promise<T>;
  }

  function askInto(key: NormKey, cachedOnly: boolean, deadline: number | undefined, fresh: boolean, waiter: Waiter<unknown>): void {
    start(key, cachedOnly, deadline, fresh, waiter)?.then(
      (value) => { waiter.answered(value); },
      (error: unknown) => { waiter.failed(error); },
    );
  }

  /** An ask's answer, or undefined when `waiter` waits on the key opened here. */
  function start(key: NormKey, cachedOnly: boolean, deadline: number | undefined, fresh: boolean, waiter: Waiter<unknown> | undefined): Promise<unknown> | undefined {
    counters.keysAsked += 1;
    const askedAt = now();
    // a live poll asks the service what it publishes now: the kept answer is what it compares against
    const stored = fresh ? undefined : cache.read(key.id, askedAt);
    if (stored) {
      counters.cacheHits += 1;
      if (stored.error) counters.errors += 1;
      lineage.cacheHit(key, stored.requestId, askedAt);
      return cache.answer(stored);
    }
    const own = Math.min(askedAt + budgetMs, deadline ?? Number.POSITIVE_INFINITY);
    const pending = inFlight.get(key.id);
    if (pending) {
      counters.joined += 1;
      pending.fromCache = true;
      pending.askedAt = askedAt;
      // Not sent yet: the request may use the later of the two deadlines.
      if (pending.requestId === undefined && own > pending.deadline) pending.deadline = own;
      const answer = inFlight.promiseOf(pending);
      if (own >= pending.deadline) return answer;
      // A joiner keeps its own, earlier deadline, and says why it ran out.
      const seconds = Math.round((own - askedAt) / 1000);
      return withTimeout(own - askedAt, () => answer, () => new PricesError(`no answer within this key's ${seconds} s: it joined a request for the same key, still waiting for the service`));
    }
    if (cachedOnly) {
      counters.errors += 1;
      return Promise.reject(new NotCachedError());
    }
    // Nothing was waiting: a new refresh begins for the session's request governor.
    if (inFlight.size === 0) governor.idle();
    const opened = inFlight.open(key, askedAt, own, waiter);
    // Taken before the window: a scheduler that throws settles the ask at once, which drops its promise.
    const answer = waiter === undefined ? inFlight.promiseOf(opened) : undefined;
    batchWindow.add(opened);
    return answer;
  }

  function settleValue(item: Ask, value: unknown, at: number, today: string): void {
    // The answer is right even if it cannot be kept: a storage failure costs the cache, not the key.
    if (item.waiting && !item.stale) cache.keepValue(item.key, value, at, today, item.requestId);
    inFlight.resolve(item, value);
  }

  function settleError(item: Ask, error: Error, at: number): void {
    if (!item.waiting) return;
    const lastKnown = cache.fallback(item.key.id, error);
    if (lastKnown) return void inFlight.resolve(item, lastKnown.value);
    counters.errors += 1;
    if (!item.stale) cache.keepError(item.key, error, at, item.requestId);
    inFlight.reject(item, error);
  }

  function failAll(asks: readonly Ask[], error: unknown): void {
    const failure = error instanceof Error ? error : new PricesError(String(error));
    const at = now();
    for (const item of asks) settleError(item, failure, at);
  }

  return { ask, askInto, refuse, settleValue, settleError, failAll };
}
