/**
 * The client: asks go through the cache, then join a pending ask for the same key, then wait in the
 * current window; a window is planned into requests whose answers settle every key they carry.
 */
import { todayIso } from "../api/dates";
import { DEFAULT_LIMITS, type Limits } from "../api/vocabulary";
import { type PlannedRequest, checkBatch, planRequests } from "./batches";
import { type CacheStorage, MemoryCacheStorage, type StoredEntry, type StoredError, approximateBytes, priceRecordBytes } from "./cache";
import { InvalidInstrumentError, NoDataError, PricesError } from "./errors";
import {
  type NormKey,
  normHistoryKey,
  normInstrumentKey,
  normInstrumentsKey,
  normLineageKey,
  normPriceKey,
  normReferenceKey,
} from "./keys";
import { DEFAULT_RETRY_POLICY } from "./retry";
import { timerScheduler } from "./scheduler";
import { createTransport, defaultSleep, requestTarget } from "./transport";
import type {
  CacheFilter,
  CachePolicy,
  ClientStats,
  KeyKind,
  KeyLineage,
  LineageKey,
  PricesClient,
  PricesClientOptions,
  RequestLog,
  SymbolHistory,
} from "./types";
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

const MAX_LINEAGE_KEYS = 100_000;
const KIND_BY_PREFIX: Record<string, KeyKind> = { p: "price", h: "history", i: "instrument", l: "instruments", r: "reference" };

/**
 * One per key: the ask waiting for its answer, and afterwards the key's lineage record (the last ask's
 * source). A later ask updates it in place, so that lineage costs no object per cache hit or join.
 */
interface Entry {
  key: NormKey;
  kind: KeyKind;
  /** The last ask was answered from the cache or joined a pending ask. */
  fromCache: boolean;
  requestId: number | undefined;
  askedAt: number;
  /** Until settled; dropped then so that a settled entry holds no promise or closures. */
  promise: Promise<unknown> | undefined;
  resolve: ((value: unknown) => void) | undefined;
  reject: ((error: Error) => void) | undefined;
  /** Waiting for its answer (false for records made by cache hits). */
  pending: boolean;
  /** Invalidated while in flight: its answer is delivered but not stored, and no new ask joins it. */
  stale: boolean;
}

/** Where `capture` leaves a new promise's settlers: one shared executor, so a key costs no closure for it. */
const captured: { resolve: ((value: unknown) => void) | undefined; reject: ((error: Error) => void) | undefined } = { resolve: undefined, reject: undefined };

function capture(resolve: (value: unknown) => void, reject: (error: Error) => void): void {
  captured.resolve = resolve;
  captured.reject = reject;
}

export function createPricesClient(options: PricesClientOptions): PricesClient {
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const policy: CachePolicy = { ...DEFAULT_CACHE_POLICY, ...options.cache };
  const now = options.now ?? Date.now;
  const storage: CacheStorage = options.storage ?? new MemoryCacheStorage({ maxEntries: policy.maxEntries, maxBytes: policy.maxBytes });
  const scheduler = options.scheduler ?? timerScheduler(2);
  const maxOverfetch = options.maxOverfetch ?? 4;
  const maxLogs = options.maxLineageRequests ?? 1_000;
  const maxLineageKeys = options.maxLineageKeys ?? MAX_LINEAGE_KEYS;
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const maxQueryLength = options.maxQueryLength;
  const transport = createTransport({
    baseUrl: options.baseUrl,
    tokenProvider: options.tokenProvider,
    fetch: fetchImpl,
    maxInFlight: options.maxInFlight ?? 4,
    timeoutMs: options.timeoutMs ?? 20_000,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    now,
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
    ...(maxQueryLength !== undefined ? { maxQueryLength } : {}),
  });

  const counters = {
    keysAsked: 0,
    cacheHits: 0,
    joined: 0,
    keysRequested: 0,
    requestsSent: 0,
    attempts: 0,
    retries: 0,
    recordsReceived: 0,
    recordsRequested: 0,
    errors: 0,
    failedRequests: 0,
  };
  // Pending asks and lineage in one map: a key's entry is joined while pending and read by `lineage` after.
  const entries = new Map<string, Entry>();
  const logs = new Map<number, RequestLog>();
  const decoded = new WeakMap<StoredEntry, unknown>();
  let window: Entry[] = [];
  let scheduled = false;
  let requestSeq = 0;

  function refuse<T>(error: unknown): Promise<T> {
    counters.keysAsked += 1;
    counters.errors += 1;
    return Promise.reject(error instanceof Error ? error : new PricesError(String(error)));
  }

  function ask<T>(key: NormKey): Promise<T> {
    counters.keysAsked += 1;
    const askedAt = now();
    const id = key.id;
    const stored = readStored(id);
    const known = entries.get(id);
    if (stored) {
      if (stored.expiresAt > askedAt) {
        counters.cacheHits += 1;
        if (known && !known.stale) {
          known.fromCache = true;
          known.askedAt = askedAt;
          if (!known.pending) known.requestId = stored.requestId;
        } else {
          // A stale entry still in flight keeps its own request; this ask gets a record of its own.
          remember(id, { key, kind: key.kind, fromCache: true, requestId: stored.requestId, askedAt, promise: undefined, resolve: undefined, reject: undefined, pending: false, stale: false });
        }
        if (stored.error) counters.errors += 1;
        return fromStored(stored) as Promise<T>;
      }
      dropStored(id);
    }
    if (known && known.pending && !known.stale) {
      counters.joined += 1;
      known.fromCache = true;
      known.askedAt = askedAt;
      return known.promise as Promise<T>;
    }
    const entry: Entry = { key, kind: key.kind, fromCache: false, requestId: undefined, askedAt, promise: undefined, resolve: undefined, reject: undefined, pending: true, stale: false };
    const promise = new Promise<unknown>(capture);
    entry.promise = promise;
    entry.resolve = captured.resolve;
    entry.reject = captured.reject;
    remember(id, entry);
    window.push(entry);
    if (!scheduled) {
      scheduled = true;
      try {
        scheduler(dispatch);
      } catch (error) {
        scheduled = false;
        failAll(window.splice(0, window.length), error);
      }
    }
    return promise as Promise<T>;
  }

  /**
   * Bounded by insertion order (a key asked again keeps its place, good enough for a log). A pending
   * entry is never dropped, since joins and `invalidate` find it here: it moves to the back instead.
   */
  function remember(id: string, entry: Entry): void {
    entries.set(id, entry);
    for (let tries = 0; entries.size > maxLineageKeys && tries < 4; tries += 1) {
      const oldest = entries.entries().next();
      if (oldest.done) break;
      const [oldestId, candidate] = oldest.value;
      entries.delete(oldestId);
      if (candidate.pending && !candidate.stale) entries.set(oldestId, candidate);
    }
  }

  function dispatch(): void {
    scheduled = false;
    const asked = window;
    window = [];
    if (asked.length === 0) return;
    // The planner hands back the very entries it was given, grouped into requests.
    let requests: PlannedRequest<Entry>[];
    try {
      requests = planRequests(asked, { limits, maxOverfetch });
    } catch (error) {
      failAll(asked, error);
      return;
    }
    let carried = 0;
    for (const request of requests) carried += request.items.length;
    // Nothing may wait forever, not even a key a planner forgot.
    if (carried !== asked.length) {
      const sent = new Set<Entry>();
      for (const request of requests) for (const entry of request.items) sent.add(entry);
      const forgotten = asked.filter((entry) => !sent.has(entry));
      if (forgotten.length > 0) failAll(forgotten, new PricesError(`${forgotten.length} keys were left out of every request`));
    }
    for (const request of requests) {
      // The catch-all of the batch contract: whatever escapes `send` fails the keys still waiting.
      send(request, request.items).catch((error: unknown) => failAll(request.items, error));
    }
  }

  async function send(request: PlannedRequest<Entry>, entries: Entry[]): Promise<void> {
    requestSeq += 1;
    const query = request.params.toString();
    const target = requestTarget(options.baseUrl, request.endpoint, query, maxQueryLength);
    const log: RequestLog = {
      id: requestSeq,
      endpoint: request.endpoint,
      method: target.method,
      params: Object.fromEntries(request.params),
      sentAt: now(),
      attempts: 0,
      retryDelaysMs: [],
      keys: entries.length,
    };
    logs.set(log.id, log);
    if (logs.size > maxLogs) {
      const oldest = logs.keys().next();
      if (!oldest.done) logs.delete(oldest.value);
    }
    for (let index = 0; index < entries.length; index += 1) (entries[index] as Entry).requestId = log.id;
    counters.requestsSent += 1;
    counters.keysRequested += entries.length;
    counters.recordsRequested += request.recordsRequested;
    let results: (unknown | Error)[];
    try {
      const body = await transport.getJson(request.endpoint, request.params, log);
      const answer = request.answer(body, { method: log.method, url: target.url });
      log.records = answer.records;
      counters.recordsReceived += answer.records;
      results = checkBatch(answer.results, entries.length);
    } catch (error) {
      counters.failedRequests += 1;
      log.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      failAll(entries, error);
      return;
    } finally {
      counters.attempts += log.attempts;
      counters.retries += Math.max(0, log.attempts - 1);
      log.durationMs = now() - log.sentAt;
    }
    const settledAt = now();
    const today = todayIso(new Date(settledAt));
    for (let index = 0; index < entries.length; index += 1) {
      const entry = entries[index] as Entry;
      const result = results[index];
      // One key's trouble (a throwing storage, say) must not leave the keys after it waiting.
      try {
        if (result instanceof Error) settleError(entry, result, settledAt);
        else settleValue(entry, result, settledAt, today);
      } catch (error) {
        settleError(entry, error instanceof Error ? error : new PricesError(String(error)), settledAt);
      }
    }
  }

  function settleValue(entry: Entry, value: unknown, at: number, today: string): void {
    const resolve = entry.resolve;
    if (!entry.pending || !resolve) return;
    entry.pending = false;
    entry.promise = entry.resolve = entry.reject = undefined;
    if (!entry.stale) {
      // The answer is right even if it cannot be kept: a storage failure costs the cache, not the key.
      try {
        storage.set(entry.key.id, storedValue(entry, value, at, today));
      } catch {
        // Not cached; the next ask sends a request.
      }
    }
    resolve(value);
  }

  /** The cache entry of an answer; a price's is built in one literal, so that all have one shape. */
  function storedValue(entry: Entry, value: unknown, at: number, today: string): StoredEntry {
    const key = entry.key;
    if (key.kind === "price") {
      const bytes = priceRecordBytes(value as PriceRecord) + 64 + key.id.length * 2;
      const expiresAt = at + (key.date !== undefined && key.date < today ? policy.pastTtlMs : policy.recentTtlMs);
      return { kind: "price", symbol: key.symbol, value, storedAt: at, expiresAt, bytes, requestId: entry.requestId };
    }
    const encoded = encode(key, value);
    const bytes = valueBytes(key, value, encoded) + 64 + key.id.length * 2;
    const stored: StoredEntry = { kind: key.kind, storedAt: at, expiresAt: at + ttl(key, today), bytes, value: encoded };
    const symbol = symbolOf(key);
    if (symbol !== undefined) stored.symbol = symbol;
    if (entry.requestId !== undefined) stored.requestId = entry.requestId;
    if (key.kind === "history") decoded.set(stored, value);
    return stored;
  }

  function settleError(entry: Entry, error: Error, at: number): void {
    const reject = entry.reject;
    if (!entry.pending || !reject) return;
    entry.pending = false;
    entry.promise = entry.resolve = entry.reject = undefined;
    counters.errors += 1;
    const cacheable = error instanceof InvalidInstrumentError || error instanceof NoDataError;
    if (cacheable && !entry.stale && policy.errorTtlMs > 0) {
      try {
        const stored: StoredEntry = { kind: entry.key.kind, storedAt: at, expiresAt: at + policy.errorTtlMs, bytes: 128 + error.message.length * 2, error: storeError(error) };
        const symbol = symbolOf(entry.key);
        if (symbol !== undefined) stored.symbol = symbol;
        if (entry.requestId !== undefined) stored.requestId = entry.requestId;
        storage.set(entry.key.id, stored);
      } catch {
        // Not cached; the next ask sends a request.
      }
    }
    reject(error);
  }

  /** A storage that throws on a read is treated as a miss, so the ask still gets a promise that settles. */
  function readStored(id: string): StoredEntry | undefined {
    try {
      // An empty store (a first sheet) answers without a lookup.
      return storage.size === 0 ? undefined : storage.get(id);
    } catch {
      return undefined;
    }
  }

  function dropStored(id: string): void {
    try {
      storage.delete(id);
    } catch {
      // Left to expire; it is not read past its age.
    }
  }

  function failAll(entries: readonly Entry[], error: unknown): void {
    const failure = error instanceof Error ? error : new PricesError(String(error));
    const at = now();
    for (const entry of entries) settleError(entry, failure, at);
  }

  function ttl(key: NormKey, today: string): number {
    switch (key.kind) {
      case "price":
        return key.date !== undefined && key.date < today ? policy.pastTtlMs : policy.recentTtlMs;
      case "history":
        return key.toDate < today ? policy.pastTtlMs : policy.recentTtlMs;
      default:
        return policy.referenceTtlMs;
    }
  }

  function fromStored(stored: StoredEntry): Promise<unknown> {
    if (stored.error) return Promise.reject(restoreError(stored.error));
    if (stored.kind !== "history") return Promise.resolve(stored.value);
    let value = decoded.get(stored);
    if (value === undefined) {
      value = decode(stored);
      decoded.set(stored, value);
    }
    return Promise.resolve(value);
  }

  function invalidate(filter?: CacheFilter): number {
    const kinds = filter?.kinds && filter.kinds.length > 0 ? new Set(filter.kinds) : undefined;
    const symbols = filter?.symbols && filter.symbols.length > 0 ? new Set(filter.symbols.map((symbol) => symbol.trim().toUpperCase())) : undefined;
    const matches = (id: string): boolean => {
      const kind = KIND_BY_PREFIX[id.slice(0, 1)];
      if (kinds && (kind === undefined || !kinds.has(kind))) return false;
      if (symbols) {
        const symbol = id.split("|")[1];
        if (kind === "instruments" || kind === "reference" || symbol === undefined || !symbols.has(symbol)) return false;
      }
      return true;
    };
    let removed = 0;
    for (const id of [...storage.keys()]) if (matches(id) && storage.delete(id)) removed += 1;
    for (const [id, entry] of entries) if (entry.pending && matches(id)) entry.stale = true;
    return removed;
  }

  function stats(): ClientStats {
    return { ...counters, inFlight: transport.inFlight, cacheEntries: storage.size, cacheBytes: storage.bytes };
  }

  function lineage(key: LineageKey): KeyLineage | undefined {
    let norm: NormKey;
    try {
      norm = normLineageKey(key);
    } catch {
      return undefined;
    }
    const record = entries.get(norm.id);
    if (record) {
      const requestId = record.requestId;
      return { key: norm.id, kind: record.kind, fromCache: record.fromCache, requestId, request: requestId === undefined ? undefined : logs.get(requestId), askedAt: record.askedAt };
    }
    const stored = storage.peek ? storage.peek(norm.id) : undefined;
    if (!stored) return undefined;
    return { key: norm.id, kind: norm.kind, fromCache: true, requestId: stored.requestId, request: stored.requestId === undefined ? undefined : logs.get(stored.requestId), askedAt: stored.storedAt };
  }

  return {
    price(key) {
      let norm: NormKey;
      try {
        norm = normPriceKey(key);
      } catch (error) {
        return refuse(error);
      }
      return ask(norm);
    },
    history(key) {
      let norm: NormKey;
      try {
        norm = normHistoryKey(key);
      } catch (error) {
        return refuse(error);
      }
      return ask(norm);
    },
    instrument(symbol, fields) {
      let norm: NormKey;
      try {
        norm = normInstrumentKey(symbol, fields);
      } catch (error) {
        return refuse(error);
      }
      return ask(norm);
    },
    instruments(fields) {
      let norm: NormKey;
      try {
        norm = normInstrumentsKey(fields);
      } catch (error) {
        return refuse(error);
      }
      return ask(norm);
    },
    references(type) {
      let norm: NormKey;
      try {
        norm = normReferenceKey(type);
      } catch (error) {
        return refuse(error);
      }
      return ask(norm);
    },
    invalidate,
    stats,
    lineage,
  };
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
  if (stored.name === "NoDataError") return new NoDataError(stored.symbol ?? "", stored.date, stored.message);
  return new PricesError(stored.message);
}

