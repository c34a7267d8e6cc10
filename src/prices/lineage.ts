/**
 * The client's record of where each key's value came from: the bounded log of requests sent, and per
 * key the last ask's source (a request, or the cache). Never a token: a log holds endpoint and parameters.
 */
import type { NormKey } from "./keys";
import type { KeyKind, KeyLineage, RequestLog } from "./types";

/** A key's last ask. An ask still waiting is its own record, so a cold key costs no second object. */
export interface LineageRecord {
  readonly key: NormKey;
  readonly kind: KeyKind;
  /** The last ask was answered from the cache or joined a pending ask. */
  fromCache: boolean;
  requestId: number | undefined;
  askedAt: number;
  /** True while the ask this record belongs to waits for its answer. */
  waiting: boolean;
  /** An ask invalidated while it waits: its answer is delivered but not kept, and no new ask joins it. */
  stale?: boolean;
}

export interface LineageBounds {
  maxKeys: number;
  maxRequests: number;
}

export class Lineage {
  private readonly records = new Map<string, LineageRecord>();
  private readonly logs = new Map<number, RequestLog>();
  private sequence = 0;

  constructor(private readonly bounds: LineageBounds) {}

  /**
   * Records a key's ask. Beyond the bound the oldest keys are forgotten (insertion order, good enough for a
   * log), up to two per ask so that the map shrinks back; an ask still waiting is the in-flight registry's
   * (in-flight.ts) and moves to the back instead.
   */
  remember(record: LineageRecord): void {
    const id = record.key.id;
    this.records.set(id, record);
    for (let looked = 0; looked < 2 && this.records.size > this.bounds.maxKeys; looked += 1) {
      const oldest = this.records.entries().next();
      if (oldest.done) return;
      const [oldestId, kept] = oldest.value;
      this.records.delete(oldestId);
      if (kept.waiting) this.records.set(oldestId, kept);
    }
  }

  /** A key's last ask, which is the ask itself while it waits. */
  record(id: string): LineageRecord | undefined {
    return this.records.get(id);
  }

  /** Every key's last ask, oldest first. */
  all(): IterableIterator<LineageRecord> {
    return this.records.values();
  }

  /** An ask answered by the cache: updates the key's record in place unless that one still waits. */
  cacheHit(key: NormKey, requestId: number | undefined, askedAt: number): void {
    const known = this.records.get(key.id);
    if (known && !known.waiting) {
      known.fromCache = true;
      known.askedAt = askedAt;
      known.requestId = requestId;
      return;
    }
    this.remember({ key, kind: key.kind, fromCache: true, requestId, askedAt, waiting: false });
  }

  /** Starts the log of a request and gives it an id. */
  openRequest(log: Omit<RequestLog, "id">): RequestLog {
    this.sequence += 1;
    const opened: RequestLog = { id: this.sequence, ...log };
    this.logs.set(opened.id, opened);
    if (this.logs.size > this.bounds.maxRequests) {
      const oldest = this.logs.keys().next();
      if (!oldest.done) this.logs.delete(oldest.value);
    }
    return opened;
  }

  /** The lineage of a key: its last ask, else what the cache holds (`kept`). */
  lookup(norm: NormKey, kept: { requestId?: number; storedAt: number } | undefined): KeyLineage | undefined {
    const record = this.records.get(norm.id);
    if (record) {
      const requestId = record.requestId;
      return { key: norm.id, kind: record.kind, fromCache: record.fromCache, requestId, request: this.request(requestId), askedAt: record.askedAt };
    }
    if (!kept) return undefined;
    return { key: norm.id, kind: norm.kind, fromCache: true, requestId: kept.requestId, request: this.request(kept.requestId), askedAt: kept.storedAt };
  }

  private request(id: number | undefined): RequestLog | undefined {
    return id === undefined ? undefined : this.logs.get(id);
  }
}
