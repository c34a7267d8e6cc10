/**
 * A refresh plan: what a refresh would ask of the service, found by running it through the client with a `fetch` that
 * records each request and sends nothing. The client plans, batches and answers from its cache exactly as in a real
 * refresh, so the requests recorded are the ones a refresh sends (a key whose arguments come from another PRICES
 * value cannot be known before that value is, and is not in the plan).
 */
import type { CalculationType, CalendarType, HistoryKey, Limits, PriceKey, PricesClient, PricesClientOptions } from "../prices/types";

export interface PlannedRequest {
  readonly method: string;
  /** The path after the API base (`/Prices`). */
  readonly endpoint: string;
  /** Parameters as they would be sent (query or form body). */
  readonly params: Record<string, string>;
}

export interface RefreshPlan {
  readonly requests: number;
  /** Price records asked (symbols x dates, or a history's estimate), the service's metered unit. */
  readonly records: number;
  /** Keys the refresh asks (one per cell value). */
  readonly keys: number;
  /** Of those, answered from the cache with no request. */
  readonly fromCache: number;
  /** A rough wall time: rounds of `maxInFlight` requests at `latencyMs`, plus reading the records. */
  readonly estimateMs: number;
  readonly byEndpoint: Readonly<Record<string, number>>;
}

/** A settings threshold: above this many requests (or records), the pane asks before a refresh. */
export interface PlanThreshold {
  readonly requests: number;
  readonly records: number;
}

export const DEFAULT_PLAN_THRESHOLD: PlanThreshold = { requests: 50, records: 100_000 };

/** Round-trip time assumed per request, and per record read, for the estimate (the sandbox's figures in docs/benchmarks.md are lower). */
export const PLAN_LATENCY_MS = 400;
export const PLAN_MS_PER_RECORD = 0.01;

/** The error every recorded request fails with: nothing was sent. */
export class PlanOnlyError extends TypeError {
  override readonly name = "PlanOnlyError";
  constructor() {
    super("plan only: no request was sent");
  }
}

/** A `fetch` that records what would be sent and sends nothing. */
export function planRecorder(baseUrl: string): { fetch: typeof fetch; requests: PlannedRequest[] } {
  const requests: PlannedRequest[] = [];
  const base = baseUrl.replace(/\/+$/, "");
  const recording = (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]): Promise<Response> => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? init.body : init?.body instanceof URLSearchParams ? init.body.toString() : "";
    const params = Object.fromEntries(new URLSearchParams(method === "GET" ? url.search : body));
    const endpoint = url.href.startsWith(base) ? url.pathname.slice(new URL(base).pathname.length) : url.pathname;
    requests.push({ method, endpoint, params });
    return Promise.reject(new PlanOnlyError());
  };
  return { fetch: recording, requests };
}

/** The plan from what was recorded and the client's counters (taken before and after the dry run). */
export function summarizePlan(
  requests: readonly PlannedRequest[],
  counters: { keysAsked: number; cacheHits: number; recordsRequested: number },
  options: { maxInFlight?: number; latencyMs?: number; msPerRecord?: number } = {},
): RefreshPlan {
  const byEndpoint: Record<string, number> = {};
  for (const request of requests) byEndpoint[request.endpoint] = (byEndpoint[request.endpoint] ?? 0) + 1;
  const rounds = Math.ceil(requests.length / (options.maxInFlight ?? 4));
  const estimateMs = Math.round(rounds * (options.latencyMs ?? PLAN_LATENCY_MS) + counters.recordsRequested * (options.msPerRecord ?? PLAN_MS_PER_RECORD));
  return { requests: requests.length, records: counters.recordsRequested, keys: counters.keysAsked, fromCache: counters.cacheHits, estimateMs, byEndpoint };
}

export function needsConfirmation(plan: RefreshPlan, threshold: PlanThreshold = DEFAULT_PLAN_THRESHOLD): boolean {
  return plan.requests > threshold.requests || plan.records > threshold.records;
}

/** `50 requests or 100,000 records`: the threshold as the pane names it. */
export function describeThreshold(threshold: PlanThreshold): string {
  return `${threshold.requests} ${threshold.requests === 1 ? "request" : "requests"} or ${threshold.records.toLocaleString("en-US")} records`;
}

/** The pane's question before a refresh above the threshold, or undefined when it refreshes without asking. */
export function refreshQuestion(what: string, plan: RefreshPlan, threshold: PlanThreshold): string | undefined {
  if (!needsConfirmation(plan, threshold)) return undefined;
  return `Refreshing the ${what} would send ${describePlan(plan)}: above your limit of ${describeThreshold(threshold)}. Refresh anyway?`;
}

/** The cached keys a refresh of `symbols` drops (all of them when `symbols` is undefined: the workbook). */
export function idsOfSymbols(ids: readonly string[], symbols: readonly string[] | undefined): string[] {
  if (symbols === undefined) return [...ids];
  const wanted = new Set(symbols.map((symbol) => symbol.trim().toUpperCase()));
  return ids.filter((id) => {
    const key = keyOfId(id);
    const symbol = key === undefined ? undefined : "price" in key ? key.price.symbol : key.history.symbol;
    return symbol !== undefined && wanted.has(symbol.toUpperCase());
  });
}

/** `12 requests, 48,000 records, 9,500 of 10,000 values from the cache, about 2 s`. */
export function describePlan(plan: RefreshPlan): string {
  const seconds = plan.estimateMs < 1000 ? "under 1 s" : `about ${Math.round(plan.estimateMs / 1000)} s`;
  return `${plan.requests} ${plan.requests === 1 ? "request" : "requests"}, ${plan.records.toLocaleString("en-US")} records, ${plan.fromCache.toLocaleString("en-US")} of ${plan.keys.toLocaleString("en-US")} values from the cache, ${seconds}`;
}

/** A price or history key read back from its id (`p|SYM|DATE|TYPE|fields[|CUR/UNIT]`, `h|SYM|FROM|TO|CAL|CF|FC|TYPE[|CUR/UNIT]|fields`). */
export function keyOfId(id: string): { price: PriceKey } | { history: HistoryKey } | undefined {
  const parts = id.split("|");
  const conversion = (part: string | undefined): { currency?: string; unit?: string } => {
    const [currency = "", unit = ""] = (part ?? "").split("/");
    return { ...(currency === "" ? {} : { currency }), ...(unit === "" ? {} : { unit }) };
  };
  const fieldsOf = (part: string | undefined): { fields?: string[] } => (part ? { fields: part.split(",") } : {});
  if (parts[0] === "p" && (parts.length === 5 || parts.length === 6)) {
    const [, symbol = "", date = "", calculationType = "None", fields, target] = parts;
    return { price: { symbol, ...(date === "latest" ? {} : { date }), calculationType: calculationType as CalculationType, ...fieldsOf(fields), ...conversion(target) } };
  }
  if (parts[0] === "h" && (parts.length === 9 || parts.length === 10)) {
    const [, symbol = "", fromDate = "", toDate = "", calendarType = "AssessmentDays", carryForward, forecastType = "", calculationType = "None"] = parts;
    const target = parts.length === 10 ? parts[8] : undefined;
    return {
      history: {
        symbol,
        fromDate,
        toDate,
        calendarType: calendarType as CalendarType,
        carryForward: carryForward === "true",
        ...(forecastType === "" ? {} : { forecastType }),
        calculationType: calculationType as CalculationType,
        ...fieldsOf(parts.at(-1)),
        ...conversion(target),
      },
    };
  }
  return undefined;
}

/**
 * The plan of asking `ids` again with nothing cached (what Refresh does after dropping them): through a client of the
 * same limits whose fetch records and sends nothing, and whose token never leaves the page.
 */
export async function planKeys(ids: readonly string[], options: { baseUrl: string; createClient(options: PricesClientOptions): PricesClient; limits?: Partial<Limits>; maxInFlight?: number }): Promise<RefreshPlan> {
  const recorder = planRecorder(options.baseUrl);
  const client = options.createClient({
    baseUrl: options.baseUrl,
    tokenProvider: { getToken: () => Promise.resolve("plan-only") },
    fetch: recorder.fetch,
    retry: { limit: 1 },
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.maxInFlight === undefined ? {} : { maxInFlight: options.maxInFlight }),
  });
  const asks: Promise<unknown>[] = [];
  for (const id of ids) {
    const key = keyOfId(id);
    if (key && "price" in key) asks.push(client.price(key.price));
    else if (key) asks.push(client.history(key.history));
  }
  await Promise.allSettled(asks);
  return summarizePlan(recorder.requests, client.stats(), options.maxInFlight === undefined ? {} : { maxInFlight: options.maxInFlight });
}
