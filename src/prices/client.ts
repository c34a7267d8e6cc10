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

interface LineageRecord {
  kind: KeyKind;
  fromCache: boolean;
  requestId: number | undefined;
  askedAt: number;
  entry?: Entry;
}

/** A key waiting for its answer; it is its own lineage record (one object less per key). */
interface Entry extends LineageRecord {
  key: NormKey;
  resolve(value: unknown): void;
  reject(error: Error): void;
  promise: Promise<unknown>;
  /** Invalidated while in flight: its answer is delivered but not stored. */
  stale: boolean;
  /** Resolved or rejected already: a second settlement (a late catch-all) must not count twice. */
  settled: boolean;
}

export function createPricesClient(options: PricesClientOptions): PricesClient {
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const policy: CachePolicy = { ...DEFAULT_CACHE_POLICY, ...options.cache };
  const now = options.now ?? Date.now;
  const storage: CacheStorage = options.storage ?? new MemoryCacheStorage({ maxEntries: policy.maxEntries, maxBytes: policy.maxBytes });
  const scheduler = options.scheduler ?? timerScheduler(2);
  const maxOverfetch = options.maxOverfetch ?? 4;
  const maxLogs = options.maxLineageRequests ?? 1_000;
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
  const pending = new Map<string, Entry>();
  const logs = new Map<number, RequestLog>();
  const lineages = new Map<string, LineageRecord>();
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
    const stored = readStored(key.id);
    if (stored) {
      if (stored.expiresAt > askedAt) {
        counters.cacheHits += 1;
        noteLineage(key, { kind: key.kind, fromCache: true, requestId: stored.requestId, askedAt });
        if (stored.error) counters.errors += 1;
        return fromStored(stored) as Promise<T>;
      }
      dropStored(key.id);
    }
    const joining = pending.get(key.id);
    if (joining) {
      counters.joined += 1;
      noteLineage(key, { kind: key.kind, fromCache: true, requestId: joining.requestId, askedAt, entry: joining });
      return joining.promise as Promise<T>;
    }
    let resolve!: (value: unknown) => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<unknown>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    const entry: Entry = { kind: key.kind, fromCache: false, requestId: undefined, askedAt, key, resolve, reject, promise, stale: false, settled: false };
    pending.set(key.id, entry);
    noteLineage(key, entry);
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

  function noteLineage(key: NormKey, record: LineageRecord): void {
    // Bounded by insertion order: a key asked again keeps its place, which is good enough for a log.
    lineages.set(key.id, record);
    if (lineages.size > MAX_LINEAGE_KEYS) {
      const oldest = lineages.keys().next();
      if (!oldest.done) lineages.delete(oldest.value);
    }
  }

  function dispatch(): void {
    scheduled = false;
    const entries = window;
    window = [];
    if (entries.length === 0) return;
    // The planner hands back the very key objects it was given: map them to entries by identity.
    const byKey = new Map<NormKey, Entry>();
    for (const entry of entries) byKey.set(entry.key, entry);
    let requests: PlannedRequest[];
    try {
      requests = planRequests(
        entries.map((entry) => entry.key),
        { limits, maxOverfetch },
      );
    } catch (error) {
      failAll(entries, error);
      return;
    }
    const batches: Entry[][] = [];
    let carried = 0;
    for (const request of requests) {
      const served: Entry[] = [];
      for (const key of request.keys) {
        const entry = byKey.get(key);
        if (entry) served.push(entry);
      }
      carried += served.length;
      batches.push(served);
    }
    // Nothing may wait forever, not even a key a planner forgot.
    if (carried !== entries.length) {
      const sent = new Set(batches.flat());
      const forgotten = entries.filter((entry) => !sent.has(entry));
      if (forgotten.length > 0) failAll(forgotten, new PricesError(`${forgotten.length} keys were left out of every request`));
    }
    requests.forEach((request, index) => {
      const served = batches[index] ?? [];
      // The catch-all of the batch contract: whatever escapes `send` fails the keys still waiting.
      send(request, served).catch((error: unknown) => failAll(served, error));
    });
  }

  async function send(request: PlannedRequest, entries: Entry[]): Promise<void> {
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
    for (const entry of entries) entry.requestId = log.id;
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
    entries.forEach((entry, index) => {
      const result = results[index];
      // One key's trouble (a throwing storage, say) must not leave the keys after it waiting.
      try {
        if (result instanceof Error) settleError(entry, result, settledAt);
        else settleValue(entry, result, settledAt, today);
      } catch (error) {
        settleError(entry, error instanceof Error ? error : new PricesError(String(error)), settledAt);
      }
    });
  }

  function release(entry: Entry): void {
    if (pending.get(entry.key.id) === entry) pending.delete(entry.key.id);
  }

  function settleValue(entry: Entry, value: unknown, at: number, today: string): void {
    if (entry.settled) return;
    entry.settled = true;
    release(entry);
    if (!entry.stale) {
      // The answer is right even if it cannot be kept: a storage failure costs the cache, not the key.
      try {
        const encoded = encode(entry.key, value);
        const bytes = valueBytes(entry.key, value, encoded) + 64 + entry.key.id.length * 2;
        const stored: StoredEntry = { kind: entry.key.kind, storedAt: at, expiresAt: at + ttl(entry.key, today), bytes, value: encoded };
        const symbol = symbolOf(entry.key);
        if (symbol !== undefined) stored.symbol = symbol;
        if (entry.requestId !== undefined) stored.requestId = entry.requestId;
        storage.set(entry.key.id, stored);
        if (entry.key.kind === "history") decoded.set(stored, value);
      } catch {
        // Not cached; the next ask sends a request.
      }
    }
    entry.resolve(value);
  }

  function settleError(entry: Entry, error: Error, at: number): void {
    if (entry.settled) return;
    entry.settled = true;
    release(entry);
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
    entry.reject(error);
  }

  /** A storage that throws on a read is treated as a miss, so the ask still gets a promise that settles. */
  function readStored(id: string): StoredEntry | undefined {
    try {
      return storage.get(id);
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
    for (const [id, entry] of [...pending]) {
      if (matches(id)) {
        entry.stale = true;
        pending.delete(id);
      }
    }
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
    const record = lineages.get(norm.id);
    if (record) {
      const requestId = record.requestId ?? record.entry?.requestId;
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

