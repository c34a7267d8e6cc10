/**
 * A refresh plan: what a refresh would ask of the service, found by running it through the client with a `fetch` that
 * records each request and sends nothing. The client plans, batches and answers from its cache exactly as in a real
 * refresh, so the requests recorded are the ones a refresh sends (a key whose arguments come from another PRICES
 * value cannot be known before that value is, and is not in the plan).
 */

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

/** `12 requests, 48,000 records, 9,500 of 10,000 values from the cache, about 2 s`. */
export function describePlan(plan: RefreshPlan): string {
  const seconds = plan.estimateMs < 1000 ? "under 1 s" : `about ${Math.round(plan.estimateMs / 1000)} s`;
  return `${plan.requests} ${plan.requests === 1 ? "request" : "requests"}, ${plan.records.toLocaleString("en-US")} records, ${plan.fromCache.toLocaleString("en-US")} of ${plan.keys.toLocaleString("en-US")} values from the cache, ${seconds}`;
}
