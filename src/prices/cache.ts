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
}

/** In-memory storage bounded by entries and approximate bytes; the least recently used go first. */
export class MemoryCacheStorage implements CacheStorage {
  private readonly entries = new Map<string, StoredEntry>();
  private total = 0;
  constructor(private readonly bounds: { maxEntries: number; maxBytes: number }) {}

  get(key: string): StoredEntry | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  peek(key: string): StoredEntry | undefined {
    return this.entries.get(key);
  }

  set(key: string, entry: StoredEntry): void {
    this.delete(key);
    if (entry.bytes > this.bounds.maxBytes || this.bounds.maxEntries < 1) return;
    this.entries.set(key, entry);
    this.total += entry.bytes;
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= this.bounds.maxEntries && this.total <= this.bounds.maxBytes) break;
      this.entries.delete(oldest);
      this.total -= old.bytes;
    }
  }

  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.total -= entry.bytes;
    return true;
  }

  keys(): Iterable<string> {
    return [...this.entries.keys()];
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.total;
  }
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
