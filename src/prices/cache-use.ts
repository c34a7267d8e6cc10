/**
 * How the client uses its cache storage: what an answer is kept as and for how long, which errors are
 * kept, how a kept entry becomes an answer again, and which entries an invalidation drops. A storage
 * that throws costs the cache, never the key: reads become misses and writes are skipped.
 */
import { addDays, isCarriedForward } from "../api/dates";
import { type CacheStorage, type StoredEntry, type StoredError, approximateBytes, priceRecordBytes } from "./cache";
import { ConversionError, InvalidInstrumentError, NoDataError, PricesError } from "./errors";
import type { NormKey } from "./keys";
import type { CachePolicy, KeyKind, SymbolHistory } from "./types";
import type { PriceRecord } from "../api/schemas";

const HOUR = 3_600_000;

export const DEFAULT_CACHE_POLICY: Readonly<CachePolicy> = Object.freeze({
  maxEntries: 200_000,
  maxBytes: 64 * 1024 * 1024,
  pastTtlMs: 24 * HOUR,
  recentTtlMs: 5 * 60_000,
  referenceTtlMs: 24 * HOUR,
  errorTtlMs: 60_000,
});

/** Days after which no assessment is published for a date any more: a value carried into an older date is final. */
const SETTLING_DAYS = 7;

const KIND_BY_PREFIX: Record<string, KeyKind> = { p: "price", h: "history", i: "instrument", l: "instruments", r: "reference" };

/** Which kept entries an invalidation drops, read from the key id alone. */
export type KeyMatcher = (id: string) => boolean;

export function keyMatcher(kindsAsked: readonly KeyKind[] | undefined, symbolsAsked: readonly string[] | undefined): KeyMatcher {
  const kinds = kindsAsked && kindsAsked.length > 0 ? new Set(kindsAsked) : undefined;
  const symbols = symbolsAsked && symbolsAsked.length > 0 ? new Set(symbolsAsked.map((symbol) => symbol.trim().toUpperCase())) : undefined;
  return (id) => {
    const kind = KIND_BY_PREFIX[id.slice(0, 1)];
    if (kinds && (kind === undefined || !kinds.has(kind))) return false;
    if (symbols) {
      const symbol = id.split("|")[1];
      if (kind === "instruments" || kind === "reference" || symbol === undefined || !symbols.has(symbol)) return false;
    }
    return true;
  };
}

export class CacheUse {
  /** A history's decoded value per kept entry, so a warm sheet does not rebuild its set of dates. */
  private readonly decoded = new WeakMap<StoredEntry, unknown>();

  constructor(
    private readonly storage: CacheStorage,
    private readonly policy: CachePolicy,
  ) {}

  get size(): number {
    return this.storage.size;
  }

  get bytes(): number {
    return this.storage.bytes;
  }

  /** The live entry of a key, or undefined; an expired one is dropped. */
  read(id: string, at: number): StoredEntry | undefined {
    let stored: StoredEntry | undefined;
    try {
      // An empty store (a first sheet) answers without a lookup.
      stored = this.storage.size === 0 ? undefined : this.storage.get(id);
    } catch {
      return undefined;
    }
    if (!stored || stored.expiresAt > at) return stored;
    try {
      this.storage.delete(id);
    } catch {
      // Left to expire; it is not read past its age.
    }
    return undefined;
  }

  /** Looks without counting as a use, for lineage. */
  peek(id: string): StoredEntry | undefined {
    return this.storage.peek ? this.storage.peek(id) : undefined;
  }

  /** A last known value the storage offers for a key that failed (the service unreachable), decoded. */
  fallback(id: string, error: Error): { value: unknown } | undefined {
    const stored = this.storage.failed?.(id, error);
    return stored && !stored.error ? { value: decode(stored) } : undefined;
  }

  describe(id: string): string | undefined {
    return this.storage.describe?.(id);
  }

  /** The kept entry as an answer: its value, or its error rebuilt. */
  answer(stored: StoredEntry): Promise<unknown> {
    if (stored.error) return Promise.reject(restoreError(stored.error));
    if (stored.kind !== "history") return Promise.resolve(stored.value);
    let value = this.decoded.get(stored);
    if (value === undefined) {
      value = decode(stored);
      this.decoded.set(stored, value);
    }
    return Promise.resolve(value);
  }

  /** Keeps an answer; a price's entry is built in one literal, so that all have one shape. */
  keepValue(key: NormKey, value: unknown, at: number, today: string, requestId: number | undefined): void {
    let stored: StoredEntry;
    if (key.kind === "price") {
      const bytes = priceRecordBytes(value as PriceRecord) + 64 + key.id.length * 2;
      stored = { kind: "price", symbol: key.symbol, value, storedAt: at, expiresAt: at + this.ttl(key, value, today), bytes, requestId };
    } else {
      const encoded = encode(key, value);
      const bytes = valueBytes(key, value, encoded) + 64 + key.id.length * 2;
      stored = { kind: key.kind, storedAt: at, expiresAt: at + this.ttl(key, value, today), bytes, value: encoded };
      const symbol = symbolOf(key);
      if (symbol !== undefined) stored.symbol = symbol;
      if (requestId !== undefined) stored.requestId = requestId;
      if (key.kind === "history") this.decoded.set(stored, value);
    }
    this.write(key.id, stored);
  }

  /**
   * Keeps an unknown symbol, an instrument's missing conversion (listed with the unknown ones, convention 21) or a
   * date without data for a short while; network and 5xx errors, and a service refusing conversion outright, never.
   */
  keepError(key: NormKey, error: Error, at: number, requestId: number | undefined): void {
    const cacheable = error instanceof InvalidInstrumentError || error instanceof NoDataError || (error instanceof ConversionError && error.symbol !== undefined);
    if (!cacheable || this.policy.errorTtlMs <= 0) return;
    const stored: StoredEntry = { kind: key.kind, storedAt: at, expiresAt: at + this.policy.errorTtlMs, bytes: 128 + error.message.length * 2, error: storeError(error) };
    const symbol = symbolOf(key);
    if (symbol !== undefined) stored.symbol = symbol;
    if (requestId !== undefined) stored.requestId = requestId;
    this.write(key.id, stored);
  }

  /** Drops the matching entries; returns how many. */
  drop(matches: KeyMatcher): number {
    let removed = 0;
    for (const id of [...this.storage.keys()]) if (matches(id) && this.storage.delete(id)) removed += 1;
    return removed;
  }

  private write(id: string, stored: StoredEntry): void {
    try {
      this.storage.set(id, stored);
    } catch {
      // Not cached; the next ask sends a request.
    }
  }

  /**
   * The first date that may still get its own assessment, once per day rather than once per key: per key, the
   * 200 x 50 grid's carried-forward values spent about 8 ms of its settling on this date arithmetic (profiled).
   */
  private settling: { today: string; from: string } | undefined;

  private settlingFrom(today: string): string {
    if (this.settling?.today !== today) this.settling = { today, from: addDays(today, -SETTLING_DAYS) };
    return this.settling.from;
  }

  /**
   * How long an answer is kept follows the record, not the calendar: an assessment of its own date (or a
   * correction of it) lives long; a value carried forward into a date from an earlier assessment, or one
   * within the last week, briefly (its own assessment may still be published); latest values briefly.
   */
  private ttl(key: NormKey, value: unknown, today: string): number {
    switch (key.kind) {
      case "price": {
        if (key.date === undefined || key.date >= today) return this.policy.recentTtlMs;
        return isCarriedForward(value as PriceRecord) && key.date >= this.settlingFrom(today) ? this.policy.recentTtlMs : this.policy.pastTtlMs;
      }
      case "history":
        return key.toDate < this.settlingFrom(today) ? this.policy.pastTtlMs : this.policy.recentTtlMs;
      default:
        return this.policy.referenceTtlMs;
    }
  }
}

/** Approximate size without walking price records one field at a time (histories hold thousands). */
function valueBytes(key: NormKey, value: unknown, encoded: unknown): number {
  if (key.kind === "price") return priceRecordBytes(value as PriceRecord);
  if (key.kind !== "history") return approximateBytes(encoded);
  const history = value as SymbolHistory;
  let total = 256 + history.assessedDates.size * 40 + (history.forecast ? approximateBytes(history.forecast) : 0);
  for (const record of history.prices) total += priceRecordBytes(record);
  return total;
}

function symbolOf(key: NormKey): string | undefined {
  return "symbol" in key ? key.symbol : undefined;
}

/** JSON form of a value: a history's set of assessed dates becomes an array. */
function encode(key: NormKey, value: unknown): unknown {
  if (key.kind !== "history") return value;
  const history = value as SymbolHistory;
  return { ...history, assessedDates: [...history.assessedDates] };
}

function decode(stored: StoredEntry): unknown {
  if (stored.kind !== "history") return stored.value;
  const history = stored.value as Omit<SymbolHistory, "assessedDates"> & { assessedDates: string[] };
  return { ...history, assessedDates: new Set(history.assessedDates) };
}

function storeError(error: Error): StoredError {
  const stored: StoredError = { name: error.name, message: error.message };
  if (error instanceof InvalidInstrumentError) {
    stored.symbol = error.symbol;
    if (error.detail !== undefined) stored.detail = error.detail;
  }
  if (error instanceof ConversionError) {
    stored.target = error.target;
    if (error.symbol !== undefined) stored.symbol = error.symbol;
    if (error.detail !== undefined) stored.detail = error.detail;
  }
  if (error instanceof NoDataError) {
    stored.symbol = error.symbol;
    if (error.date !== undefined) stored.date = error.date;
  }
  return stored;
}

function restoreError(stored: StoredError): Error {
  if (stored.name === "InvalidInstrumentError") {
    // The message is rebuilt from symbol and detail, as the functions read `detail` to say what is missing.
    const error = new InvalidInstrumentError(stored.symbol ?? "", stored.detail);
    if (stored.detail === undefined && stored.message !== error.message) error.message = stored.message;
    return error;
  }
  if (stored.name === "ConversionError") return new ConversionError(stored.target ?? "", stored.symbol, stored.detail);
  if (stored.name === "NoDataError") return new NoDataError(stored.symbol ?? "", stored.date, stored.message);
  return new PricesError(stored.message);
}
