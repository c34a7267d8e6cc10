/**
 * The asks waiting for an answer, so that equal keys share one promise until it settles. A waiting ask is
 * its key's lineage record (lineage.ts), found by key id in lineage's map: one map entry per key, not a
 * second registry (two fewer map operations and no second growing table per cold key). An ask invalidated
 * while in flight is marked stale: no new ask joins it, and its answer is still delivered but not kept.
 */
import type { Lineage, LineageRecord } from "./lineage";
import type { NormKey } from "./keys";
import type { Waiter } from "./types";

export interface Ask extends LineageRecord {
  /** The answer for every caller of the key while it waits, made when one needs it; dropped once settled, so that lineage (which keeps the ask) does not keep the value alive beside the cache. */
  promise: Promise<unknown> | undefined;
  /** The caller that opened the key without a promise (a cell), told first; dropped once settled. */
  waiter: Waiter<unknown> | undefined;
  /** Dropped once settled, so a settled ask kept by lineage holds no closures. */
  resolve: ((value: unknown) => void) | undefined;
  reject: ((error: Error) => void) | undefined;
  stale: boolean;
  /** When the key's time is up (epoch ms): every request that carries it gives up by then, with its own cause. */
  deadline: number;
}

export class InFlight {
  /** Asks waiting and not stale. */
  private waiting = 0;

  constructor(private readonly lineage: Lineage) {}

  /** Keys waiting (invalidated ones left out). */
  get size(): number {
    return this.waiting;
  }

  /** The ask a new ask of the key joins: one still waiting and not invalidated. */
  get(id: string): Ask | undefined {
    const record = this.lineage.record(id);
    return record?.waiting === true && record.stale === false ? (record as Ask) : undefined;
  }

  open(key: NormKey, askedAt: number, deadline: number, waiter?: Waiter<unknown>): Ask {
    const ask: Ask = { key, kind: key.kind, fromCache: false, requestId: undefined, askedAt, waiting: true, promise: undefined, waiter, resolve: undefined, reject: undefined, stale: false, deadline };
    this.lineage.remember(ask);
    this.waiting += 1;
    return ask;
  }

  /** The promise of a waiting ask's answer, made on first need (a settled ask's answer went to its callers already). */
  promiseOf(ask: Ask): Promise<unknown> {
    if (ask.promise !== undefined) return ask.promise;
    const promise = new Promise<unknown>((settle, fail) => {
      ask.resolve = settle;
      ask.reject = fail;
    });
    if (ask.waiting) ask.promise = promise;
    return promise;
  }

  /** Settles an ask once; false when it had settled already. */
  resolve(ask: Ask, value: unknown): boolean {
    const { resolve, waiter } = ask;
    if (!this.close(ask)) return false;
    resolve?.(value);
    waiter?.answered(value);
    return true;
  }

  reject(ask: Ask, error: Error): boolean {
    const { reject, waiter } = ask;
    if (!this.close(ask)) return false;
    reject?.(error);
    waiter?.failed(error);
    return true;
  }

  /** Marks the matching asks stale, so that later asks of their keys start afresh. */
  markStale(matches: (id: string) => boolean): void {
    for (const record of this.lineage.all()) {
      if (!record.waiting || record.stale !== false || !matches(record.key.id)) continue;
      record.stale = true;
      this.waiting -= 1;
    }
  }

  private close(ask: Ask): boolean {
    if (!ask.waiting) return false;
    ask.waiting = false;
    ask.resolve = ask.reject = undefined;
    ask.promise = undefined;
    ask.waiter = undefined;
    if (!ask.stale) this.waiting -= 1;
    return true;
  }
}
