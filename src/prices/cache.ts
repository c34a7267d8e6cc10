/**
 * Where settled answers are kept. Entries are plain JSON so that a browser implementation can persist
 * them (IndexedDB) by keeping a synchronous in-memory mirror and writing behind; the interface stays
 * synchronous so that a warm sheet is answered without waiting for any I/O.
 */
import type { KeyKind } from "./types";

export interface StoredError {
  name: string;
  message: string;
  symbol?: string;
  date?: string;
  status?: number;
  /** The service's own message of an `InvalidInstrumentError` (e.g. a calculation type the instrument lacks). */
  detail?: string;
  /** The conversion a `ConversionError` names (`EUR/LB`). */
  target?: string;
}

export interface StoredEntry {
  kind: KeyKind;
  /** Upper-case symbol of the key, for `invalidate({ symbols })`. */
  symbol?: string;
  /** JSON-serialisable value (a history's `assessedDates` is stored as an array). */
  value?: unknown;
  error?: StoredError;
  storedAt: number;
  expiresAt: number;
  /** Approximate size in memory. */
  bytes: number;
  /** The request that produced it, for lineage. */
  requestId?: number;
}

export interface CacheStorage {
  get(key: string): StoredEntry | undefined;
  set(key: string, entry: StoredEntry): void;
  delete(key: string): boolean;
  keys(): Iterable<string>;
  /** Looks without counting as a use (no LRU promotion). */
  peek?(key: string): StoredEntry | undefined;
  readonly size: number;
  readonly bytes: number;
  /** A key failed: a storage may answer with a last known value instead (persistent/persistent-cache.ts). */
  failed?(key: string, error: Error): StoredEntry | undefined;
  /** Where a key's value comes from, in words for lineage (`from the cache, final since 2024-03-09`). */
  describe?(key: string): string | undefined;
}

/** Marks an entry read since it last reached the front; a symbol key, so JSON never sees it. */
const USED: unique symbol = Symbol("used");
type Slot = StoredEntry & { [USED]?: boolean };

/**
 * In-memory storage bounded by entries and approximate bytes. Eviction is least-recently-used by the
 * second-chance rule: a read only marks its entry, and the oldest entry is dropped unless it was read
 * since it last reached the front, in which case it moves to the back. Reads then cost one lookup, which
 * keeps a warm sheet of 10,000 cells fast.
 */
export class MemoryCacheStorage implements CacheStorage {
  private readonly slots = new Map<string, Slot>();
  private total = 0;
  constructor(private readonly bounds: { maxEntries: number; maxBytes: number }) {}

  get(key: string): StoredEntry | undefined {
    const slot = this.slots.get(key);
    if (slot) slot[USED] = true;
    return slot;
  }

  peek(key: string): StoredEntry | undefined {
    return this.slots.get(key);
  }

  set(key: string, entry: StoredEntry): void {
    if (entry.bytes > this.bounds.maxBytes || this.bounds.maxEntries < 1) {
      this.delete(key);
      return;
    }
    const slot: Slot = entry;
    // Absent means not read since it came: a new entry is not marked (adding the mark would cost an allocation).
    if (slot[USED]) slot[USED] = false;
    // A new key is the common case, so there is no lookup first (95 ns less per key of a cold sheet). A key kept again
    // (one storage shared by two clients) goes to the back, and its old entry is taken to be of the new one's size:
    // the total is an estimate already, and one key's two answers differ little.
    const entries = this.slots.size;
    this.slots.set(key, slot);
    if (this.slots.size === entries) {
      this.slots.delete(key);
      this.slots.set(key, slot);
    } else this.total += entry.bytes;
    while (this.slots.size > this.bounds.maxEntries || this.total > this.bounds.maxBytes) {
      const oldest = this.slots.entries().next();
      if (oldest.done) break;
      const [oldestKey, candidate] = oldest.value;
      this.slots.delete(oldestKey);
      if (candidate[USED] && oldestKey !== key) {
        candidate[USED] = false;
        this.slots.set(oldestKey, candidate);
      } else {
        this.total -= candidate.bytes;
      }
    }
  }

  delete(key: string): boolean {
    const slot = this.slots.get(key);
    if (!slot) return false;
    this.slots.delete(key);
    this.total -= slot.bytes;
    return true;
  }

  keys(): Iterable<string> {
    return [...this.slots.keys()];
  }

  get size(): number {
    return this.slots.size;
  }

  get bytes(): number {
    return this.total;
  }
}

/** Rough bytes of a price record without walking it: the fixed fields, strings, and forward-curve points. */
export function priceRecordBytes(record: { forwardCurves?: readonly unknown[]; pricingRationale?: string; assessmentPeriod?: string }): number {
  return 240 + (record.forwardCurves ? 32 + record.forwardCurves.length * 120 : 0) + (record.pricingRationale ? 16 + record.pricingRationale.length * 2 : 0) + (record.assessmentPeriod ? 56 : 0);
}

/** Rough bytes a JSON-like value holds in a JS heap (strings UTF-16, numbers 8, objects with per-property slots). */
export function approximateBytes(value: unknown, depth = 0): number {
  switch (typeof value) {
    case "string":
      return 16 + value.length * 2;
    case "number":
      return 8;
    case "boolean":
      return 4;
    case "object": {
      if (value === null || depth > 8) return 8;
      if (Array.isArray(value)) {
        let total = 32 + value.length * 8;
        for (const item of value) total += approximateBytes(item, depth + 1);
        return total;
      }
      let total = 32;
      for (const key in value) total += 8 + approximateBytes((value as Record<string, unknown>)[key], depth + 1);
      return total;
    }
    default:
      return 8;
  }
}
