/**
 * The asks waiting for an answer, by key id, so that equal keys share one promise until it settles.
 * An ask invalidated while in flight leaves the registry (no new ask joins it) and is marked stale: its
 * answer is still delivered but not kept.
 */
import type { LineageRecord } from "./lineage";
import type { NormKey } from "./keys";

export interface Ask extends LineageRecord {
  /** The answer for every caller of the key while it waits; dropped once settled, so that lineage (which keeps the ask) does not keep the value alive beside the cache. */
  promise: Promise<unknown> | undefined;
  /** Dropped once settled, so a settled ask kept by lineage holds no closures. */
  resolve: ((value: unknown) => void) | undefined;
  reject: ((error: Error) => void) | undefined;
  stale: boolean;
  /** When the key's time is up (epoch ms): every request that carries it gives up by then, with its own cause. */
  deadline: number;
}

export class InFlight {
  private readonly asks = new Map<string, Ask>();

  /** Keys waiting (invalidated ones left out). */
  get size(): number {
    return this.asks.size;
  }

  get(id: string): Ask | undefined {
    return this.asks.get(id);
  }

  open(key: NormKey, askedAt: number, deadline: number): Ask & { promise: Promise<unknown> } {
    let resolve: ((value: unknown) => void) | undefined;
    let reject: ((error: Error) => void) | undefined;
    const promise = new Promise<unknown>((settle, fail) => {
      resolve = settle;
      reject = fail;
    });
    const ask: Ask & { promise: Promise<unknown> } = { key, kind: key.kind, fromCache: false, requestId: undefined, askedAt, waiting: true, promise, resolve, reject, stale: false, deadline };
    this.asks.set(key.id, ask);
    return ask;
  }

  /** Settles an ask once; false when it had settled already. */
  resolve(ask: Ask, value: unknown): boolean {
    const resolve = ask.resolve;
    if (!this.close(ask) || !resolve) return false;
    resolve(value);
    return true;
  }

  reject(ask: Ask, error: Error): boolean {
    const reject = ask.reject;
    if (!this.close(ask) || !reject) return false;
    reject(error);
    return true;
  }

  /** Marks the matching asks stale and lets later asks of their keys start afresh. */
  markStale(matches: (id: string) => boolean): void {
    for (const [id, ask] of this.asks) {
      if (!matches(id)) continue;
      ask.stale = true;
      this.asks.delete(id);
    }
  }

  private close(ask: Ask): boolean {
    if (!ask.waiting) return false;
    ask.waiting = false;
    ask.resolve = ask.reject = undefined;
    ask.promise = undefined;
    if (this.asks.get(ask.key.id) === ask) this.asks.delete(ask.key.id);
    return true;
  }
}
