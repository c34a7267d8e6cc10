/**
 * The client: an ask goes to the cache (cache-use.ts), then joins a pending ask for the same key
 * (in-flight.ts), then waits in the current window (window.ts); a window is planned into requests whose
 * answers settle every key they carry. Lineage (lineage.ts) and counters (client-stats.ts) record it all.
 */
import { todayIso } from "../api/dates";
import { DEFAULT_LIMITS, type Limits } from "../api/vocabulary";
import { type PlannedRequest, checkBatch, planRequests } from "./batches";
import { MemoryCacheStorage } from "./cache";
import { CacheUse, DEFAULT_CACHE_POLICY, keyMatcher } from "./cache-use";
import { createCounters } from "./client-stats";
import { HTTPError, NotCachedError, PricesError, RequestLimitError } from "./errors";
import { DEFAULT_GOVERNOR_POLICY, createGovernor } from "./governor";
import { type Ask, InFlight } from "./in-flight";
import { type NormHistoryKey, type NormKey, normHistoryKey, normInstrumentKey, normInstrumentsKey, normLineageKey, normPriceKey, normReferenceKey } from "./keys";
import { Lineage } from "./lineage";
import { DEFAULT_RETRY_POLICY } from "./retry";
import { timerScheduler } from "./scheduler";
import { DEFAULT_REQUEST_BUDGET_MS, createTransport, defaultSleep, requestTarget } from "./transport";
import type { AskOptions, CacheFilter, CachePolicy, ClientStats, KeyLineage, LineageKey, PricesClient, PricesClientOptions } from "./types";
import { estimateHistoryRecords, type InstrumentCalendar } from "./history-estimate";
import { forecastProbe, historyParts, joinHistories } from "./history-parts";
import { DEFAULT_LIMIT_FLOORS, type RequestSize, largest, learnLimits } from "./learned-limits";
import { withTimeout } from "./timeout";
import type { InstrumentRecord, SymbolHistory } from "./types";
import { BatchWindow } from "./window";

export { DEFAULT_CACHE_POLICY } from "./cache-use";

const MAX_LINEAGE_KEYS = 100_000;

export function createPricesClient(options: PricesClientOptions): PricesClient {
  // Lowered for the session by a refusal that names a limit (learned-limits.ts).
  const settings: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  let limits: Limits = settings;
  const policy: CachePolicy = { ...DEFAULT_CACHE_POLICY, ...options.cache };
  const now = options.now ?? Date.now;
  const cache = new CacheUse(options.storage ?? new MemoryCacheStorage({ maxEntries: policy.maxEntries, maxBytes: policy.maxBytes }), policy);
  const maxOverfetch = options.maxOverfetch ?? 4;
  const maxQueryLength = options.maxQueryLength;
  // Per key, from its ask: the parts of a long history, its forecast probe and a request planned again
  // after a refusal all spend the one budget, so a key settles with its cause before a cell's deadline.
  const budgetMs = options.budgetMs ?? DEFAULT_REQUEST_BUDGET_MS;
  const floors: Limits = { ...DEFAULT_LIMIT_FLOORS, ...options.limitFloors };
  // The largest request the service accepted in this session: no refusal teaches a limit below it.
  let accepted: RequestSize = { symbols: 0, dates: 0, records: 0 };
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
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
    ...(maxQueryLength !== undefined ? { maxQueryLength } : {}),
    governor,
  });
  const counters = createCounters();
  const lineage = new Lineage({ maxKeys: options.maxLineageKeys ?? MAX_LINEAGE_KEYS, maxRequests: options.maxLineageRequests ?? 1_000 });
  const inFlight = new InFlight(lineage);
  const batchWindow = new BatchWindow<Ask>(options.scheduler ?? timerScheduler(2), dispatch, failAll);
  // Instruments' calendars (frequency, launch) the client has read, by symbol, which long histories are
  // sized by; and the symbols whose record was asked for that, so that a failed lookup is not repeated.
  const calendars = new Map<string, InstrumentCalendar>();
  const calendarsAsked = new Set<string>();
  const calendarOf = (symbol: string): InstrumentCalendar | undefined => calendars.get(symbol);

  function today(): string {
    return todayIso(new Date(now()));
  }

  function refuse<T>(error: unknown): Promise<T> {
    counters.keysAsked += 1;
    counters.errors += 1;
    return Promise.reject(error instanceof Error ? error : new PricesError(String(error)));
  }

  /** `deadline`: the caller's (a cell's), or the whole key's for a part of its answer; never later than the budget from now. */
  function ask<T>(key: NormKey, cachedOnly: boolean, deadline?: number, fresh = false): Promise<T> {
    counters.keysAsked += 1;
    const askedAt = now();
    // a live poll asks the service what it publishes now: the kept answer is what it compares against
    const stored = fresh ? undefined : cache.read(key.id, askedAt);
    if (stored) {
      counters.cacheHits += 1;
      if (stored.error) counters.errors += 1;
      lineage.cacheHit(key, stored.requestId, askedAt);
      return cache.answer(stored) as Promise<T>;
    }
    const own = Math.min(askedAt + budgetMs, deadline ?? Number.POSITIVE_INFINITY);
    const pending = inFlight.get(key.id);
    if (pending?.promise) {
      counters.joined += 1;
      pending.fromCache = true;
      pending.askedAt = askedAt;
      // Not sent yet: the request may use the later of the two deadlines.
      if (pending.requestId === undefined && own > pending.deadline) pending.deadline = own;
      const answer = pending.promise;
      if (own >= pending.deadline) return answer as Promise<T>;
      // A joiner keeps its own, earlier deadline, and says why it ran out.
      const seconds = Math.round((own - askedAt) / 1000);
      return withTimeout(own - askedAt, () => answer as Promise<T>, () => new PricesError(`no answer within this key's ${seconds} s: it joined a request for the same key, still waiting for the service`));
    }
    if (cachedOnly) {
      counters.errors += 1;
      return Promise.reject(new NotCachedError());
    }
    // Nothing was waiting: a new refresh begins for the session's request governor.
    if (inFlight.size === 0) governor.idle();
    const opened = inFlight.open(key, askedAt, own);
    const answer = opened.promise;
    // Taken before the window: a scheduler that throws settles the ask at once, which drops its promise.
    batchWindow.add(opened);
    return answer as Promise<T>;
  }

  function dispatch(closed: Ask[]): void {
    const asked = splitLongHistories(awaitCalendars(closed));
    if (asked.length === 0) return;
    // The planner hands back the very asks it was given, grouped into requests.
    let requests: PlannedRequest<Ask>[];
    try {
      requests = planRequests(asked, { limits, maxOverfetch, calendarOf });
    } catch (error) {
      failAll(asked, error);
      return;
    }
    let carried = 0;
    for (const request of requests) carried += request.items.length;
    // Nothing may wait forever, not even a key a planner forgot.
    if (carried !== asked.length) {
      const sent = new Set<Ask>();
      for (const request of requests) for (const item of request.items) sent.add(item);
      const forgotten = asked.filter((item) => !sent.has(item));
      if (forgotten.length > 0) failAll(forgotten, new PricesError(`${forgotten.length} keys were left out of every request`));
    }
    const plannedWith = limits;
    for (const request of requests) {
      // The catch-all of the batch contract: whatever escapes `send` fails the keys still waiting.
      send(request, plannedWith).catch((error: unknown) => failAll(request.items, error));
    }
  }

  async function send(request: PlannedRequest<Ask>, plannedWith: Limits): Promise<void> {
    const asks = request.items;
    const target = requestTarget(options.baseUrl, request.endpoint, request.params.toString(), maxQueryLength);
    const log = lineage.openRequest({
      endpoint: request.endpoint,
      method: target.method,
      params: Object.fromEntries(request.params),
      sentAt: now(),
      attempts: 0,
      retryDelaysMs: [],
      keys: asks.length,
    });
    counters.requestsSent += 1;
    counters.keysRequested += asks.length;
    counters.recordsRequested += request.recordsRequested;
    let until = Number.POSITIVE_INFINITY;
    // forEach, not for...of: once per window, a for...of stays unoptimised and allocates a step per key (80 B/key in the 10,000-key window).
    asks.forEach((item) => {
      item.requestId = log.id;
      if (item.deadline < until) until = item.deadline;
    });
    let results: (unknown | Error)[];
    try {
      const body = await transport.getJson(request.endpoint, request.params, log, until);
      const answer = request.answer(body, { method: log.method, url: target.url });
      log.records = answer.records;
      counters.recordsReceived += answer.records;
      results = checkBatch(answer.results, asks.length);
      // A history's records are estimated: what it returned is what the service is known to accept.
      accepted = largest(accepted, request.recordsEstimated ? { ...request.size, records: Math.min(request.size.records, answer.records) } : request.size);
    } catch (error) {
      counters.failedRequests += 1;
      log.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      // Compared with the limits this request was planned with: another request may have taught them already.
      const lesson = learnLimits(error, { plannedWith, settings, size: request.size, accepted, floors });
      if (lesson?.kind === "below-floor") {
        const refusal = request.refine?.(error) ?? error;
        const said = refusal instanceof Error ? refusal.message : String(refusal);
        failAll(asks, new RequestLimitError(`the service refused the request naming a limit of ${lesson.value} (${lesson.name}), below the lowest the client accepts (${lesson.floor}): ${said}`, { cause: refusal }));
        return;
      }
      if (lesson) {
        // The service's limits are smaller than the settings: plan the same keys again within them.
        limits = lowest(limits, lesson.limits);
        counters.replanned += 1;
        // A key whose time is up keeps the refusal as its cause rather than a request that never starts.
        const at = now();
        failAll(
          asks.filter((item) => item.deadline <= at),
          request.refine?.(error) ?? error,
        );
        replan(asks.filter((item) => item.waiting));
        return;
      }
      // A refused history sized by an instrument's calendar (its stated frequency may not be what it serves, or
      // the service counts calendar days) is planned once more by calendar days; forgetting the calendars makes
      // it once. Every refused part is: the first refusal to come back has forgotten the calendar for all of them.
      if (request.sizedByCalendar === true && error instanceof HTTPError && error.status === 400) {
        forgetCalendars(asks);
        counters.replanned += 1;
        replan(asks.filter((item) => item.waiting));
        return;
      }
      failAll(asks, request.refine?.(error) ?? error);
      return;
    } finally {
      counters.attempts += log.attempts;
      counters.retries += Math.max(0, log.attempts - 1);
      log.durationMs = now() - log.sentAt;
    }
    const settledAt = now();
    const today = todayIso(new Date(settledAt));
    asks.forEach((item, index) => {
      const result = results[index];
      // One key's trouble (a throwing storage, say) must not leave the keys after it waiting.
      try {
        if (result instanceof Error) settleError(item, result, settledAt);
        else settleValue(item, result, settledAt, today);
      } catch (error) {
        settleError(item, error instanceof Error ? error : new PricesError(String(error)), settledAt);
      }
    });
  }

  /**
   * Keys of refused requests are planned again together when their refusals come back in one turn of the
   * event loop: planned one refused request at a time, they would fill more, smaller requests.
   */
  let replanning: Ask[] | undefined;
  function replan(asks: Ask[]): void {
    if (replanning) {
      replanning.push(...asks);
      return;
    }
    replanning = asks;
    setTimeout(() => {
      const due = replanning ?? [];
      replanning = undefined;
      dispatch(due.filter((item) => item.waiting));
    }, 0);
  }

  function forgetCalendars(asks: readonly Ask[]): void {
    for (const { key } of asks) if (key.kind === "history") calendars.delete(key.symbol);
  }

  function learnCalendar(record: InstrumentRecord): void {
    if (calendars.size >= MAX_LINEAGE_KEYS) calendars.clear();
    calendars.set(record.symbol.toUpperCase(), { frequency: record.frequency, launchDate: record.launchDate });
  }

  /**
   * Histories that would take more than one request by calendar days wait for their instruments' records
   * (one /Instruments request for the window, cached a day; the wait counts against each key's budget),
   * so that they are sized by each instrument's own calendar and launch. The others go on now.
   */
  function awaitCalendars(asked: Ask[]): Ask[] {
    const unknown = asked.filter((item): item is Ask & { key: NormHistoryKey } => item.key.kind === "history" && !calendars.has(item.key.symbol) && !calendarsAsked.has(item.key.symbol));
    if (unknown.length === 0) return asked;
    const plainRecords = new Map<string, number>();
    for (const { key } of unknown) plainRecords.set(key.options, (plainRecords.get(key.options) ?? 0) + estimateHistoryRecords(key));
    const waits = unknown.filter((item) => (plainRecords.get(item.key.options) ?? 0) > limits.maxRecords);
    if (waits.length === 0) return asked;
    const deadlines = new Map<string, number>();
    for (const item of waits) deadlines.set(item.key.symbol, Math.max(deadlines.get(item.key.symbol) ?? 0, item.deadline));
    const lookups = [...deadlines].map(([symbol, deadline]) => {
      calendarsAsked.add(symbol);
      return ask<InstrumentRecord>(normInstrumentKey(symbol, undefined), false, deadline).then(learnCalendar);
    });
    // A failed lookup leaves the history sized by calendar days.
    void Promise.allSettled(lookups).then(() => dispatch(waits.filter((item) => item.waiting)));
    const waiting = new Set<Ask>(waits);
    return asked.filter((item) => !waiting.has(item));
  }

  /** Histories over `maxRecords` are asked in date-range parts (each an ask of its own) and joined. */
  function splitLongHistories(asked: Ask[]): Ask[] {
    let whole: Ask[] | undefined;
    asked.forEach((item, index) => {
      const key = item.key;
      const parts = key.kind === "history" ? historyParts(key, limits.maxRecords, today(), calendars.get(key.symbol)) : undefined;
      if (key.kind !== "history" || !parts) {
        whole?.push(item);
        return;
      }
      whole ??= asked.slice(0, index);
      askParts(item, key, parts);
    });
    return whole ?? asked;
  }

  function askParts(item: Ask, key: NormHistoryKey, parts: NormHistoryKey[]): void {
    const answers = parts.map((part) =>
      ask<SymbolHistory>(part, false, item.deadline).then(
        (value): SymbolHistory | Error => value,
        (error: unknown): Error => (error instanceof Error ? error : new PricesError(String(error))),
      ),
    );
    Promise.all(answers)
      .then(async (results) => {
        let joined = joinHistories(key, results);
        const probe = joined instanceof Error ? undefined : forecastProbe(key, joined);
        if (probe && !(joined instanceof Error)) {
          const probed = await ask<SymbolHistory>(probe, false, item.deadline).catch(() => undefined);
          if (probed?.forecast) joined = { ...joined, forecast: probed.forecast };
        }
        const at = now();
        if (joined instanceof Error) settleError(item, joined, at);
        else settleValue(item, joined, at, todayIso(new Date(at)));
      })
      .catch((error: unknown) => failAll([item], error));
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
      return refuse(error);
    }
    const timeLeft = options?.timeLeftMs;
    return ask<T>(norm, options?.cachedOnly === true, timeLeft === undefined ? undefined : now() + timeLeft, options?.fresh === true);
  }

  return {
    price: (key, askOptions) => asked(normPriceKey, key, askOptions),
    history: (key, askOptions) => asked(normHistoryKey, key, askOptions),
    instrument: (symbol, fields, askOptions) => asked((asking: string) => normInstrumentKey(asking, fields), symbol, askOptions),
    instruments: (fields, askOptions) => asked(normInstrumentsKey, fields, askOptions),
    references: (type, askOptions) => asked(normReferenceKey, type, askOptions),
    invalidate,
    stats,
    lineage: lineageOf,
  };
}

function lowest(a: Limits, b: Limits): Limits {
  return { maxSymbols: Math.min(a.maxSymbols, b.maxSymbols), maxDates: Math.min(a.maxDates, b.maxDates), maxRecords: Math.min(a.maxRecords, b.maxRecords) };
}
