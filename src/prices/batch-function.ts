/**
 * The batch function (dataloader's `batchLoadFn`): a closed window's asks are planned into requests
 * (plan-requests.ts), long histories asked in parts (history-asks.ts), each request sent through the
 * transport and its answer settled key by key through the loader; a refusal that names a smaller limit
 * teaches it for the session (learned-limits.ts) and the refused keys are planned again.
 */
import { todayIso } from "../api/dates";
import type { Limits } from "../api/vocabulary";
import type { ClientCounters } from "./client-stats";
import { HTTPError, PricesError, RequestLimitError } from "./errors";
import type { HistoryAsks } from "./history-asks";
import type { Ask } from "./in-flight";
import { type RequestSize, largest, learnLimits } from "./learned-limits";
import type { Lineage } from "./lineage";
import type { KeySettler } from "./loader";
import { type PlannedRequest, checkBatch, planRequests } from "./plan-requests";
import { type Transport, requestTarget } from "./transport";

export interface BatchParts {
  baseUrl: string;
  maxQueryLength: number | undefined;
  transport: Transport;
  keys: KeySettler;
  histories: HistoryAsks;
  lineage: Lineage;
  counters: ClientCounters;
  now: () => number;
  /** The client's limit settings; the service may teach smaller ones, never below `floors`. */
  settings: Limits;
  floors: Limits;
  maxOverfetch: number;
}

export function createBatchFunction(parts: BatchParts): (closed: Ask[]) => void {
  const { transport, keys, histories, lineage, counters, now, settings, floors, maxOverfetch } = parts;
  // Lowered for the session by a refusal that names a limit (learned-limits.ts).
  let limits: Limits = settings;
  // The largest request the service accepted in this session: no refusal teaches a limit below it.
  let accepted: RequestSize = { symbols: 0, dates: 0, records: 0 };

  function dispatch(closed: Ask[]): void {
    const asked = histories.splitLongHistories(histories.awaitCalendars(closed, limits.maxRecords, dispatch), limits.maxRecords);
    if (asked.length === 0) return;
    // The planner hands back the very asks it was given, grouped into requests.
    let requests: PlannedRequest<Ask>[];
    try {
      requests = planRequests(asked, { limits, maxOverfetch, calendarOf: histories.calendarOf });
    } catch (error) {
      keys.failAll(asked, error);
      return;
    }
    let carried = 0;
    for (const request of requests) carried += request.items.length;
    // Nothing may wait forever, not even a key a planner forgot.
    if (carried !== asked.length) {
      const sent = new Set<Ask>();
      for (const request of requests) for (const item of request.items) sent.add(item);
      const forgotten = asked.filter((item) => !sent.has(item));
      if (forgotten.length > 0) keys.failAll(forgotten, new PricesError(`${forgotten.length} keys were left out of every request`));
    }
    const plannedWith = limits;
    for (const request of requests) {
      // The catch-all of the batch contract: whatever escapes `send` fails the keys still waiting.
      send(request, plannedWith).catch((error: unknown) => { keys.failAll(request.items, error); });
    }
  }

  async function send(request: PlannedRequest<Ask>, plannedWith: Limits): Promise<void> {
    const asks = request.items;
    const target = requestTarget(parts.baseUrl, request.endpoint, request.params.toString(), parts.maxQueryLength);
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
    let results: unknown[];
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
      refused(request, error, plannedWith);
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
        if (result instanceof Error) keys.settleError(item, result, settledAt);
        else keys.settleValue(item, result, settledAt, today);
      } catch (error) {
        keys.settleError(item, error instanceof Error ? error : new PricesError(String(error)), settledAt);
      }
    });
  }

  /** A failed request: its keys planned again when the refusal teaches a limit or a calendar was wrong, else failed with it. */
  function refused(request: PlannedRequest<Ask>, error: unknown, plannedWith: Limits): void {
    const asks = request.items;
    // Compared with the limits this request was planned with: another request may have taught them already.
    const lesson = learnLimits(error, { plannedWith, settings, size: request.size, accepted, floors });
    if (lesson?.kind === "below-floor") {
      const refusal = request.refine?.(error) ?? error;
      const said = refusal instanceof Error ? refusal.message : String(refusal);
      keys.failAll(asks, new RequestLimitError(`the service refused the request naming a limit of ${lesson.value} (${lesson.name}), below the lowest the client accepts (${lesson.floor}): ${said}`, { cause: refusal }));
      return;
    }
    if (lesson) {
      // The service's limits are smaller than the settings: plan the same keys again within them.
      limits = lowest(limits, lesson.limits);
      counters.replanned += 1;
      // A key whose time is up keeps the refusal as its cause rather than a request that never starts.
      const at = now();
      keys.failAll(
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
      histories.forgetCalendars(asks);
      counters.replanned += 1;
      replan(asks.filter((item) => item.waiting));
      return;
    }
    keys.failAll(asks, request.refine?.(error) ?? error);
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

  return dispatch;
}

function lowest(a: Limits, b: Limits): Limits {
  return { maxSymbols: Math.min(a.maxSymbols, b.maxSymbols), maxDates: Math.min(a.maxDates, b.maxDates), maxRecords: Math.min(a.maxRecords, b.maxRecords) };
}
