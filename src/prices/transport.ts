/**
 * HTTP for the client: GET with query (POST with a form body when the query is long), a bearer token
 * taken inside the connection slot (so a refreshed token is used by every request still waiting), a
 * timeout on every attempt and on every token wait, a cap on requests in flight, retries by the policy,
 * and after a 401 one more attempt with the provider's token (it refreshes only if it still holds the one
 * rejected). All of it within one total budget per request, below a cell's deadline, so a failure is
 * reported with its own cause. Every call settles.
 */
import type { Problem } from "../api/schemas";
import { AuthError, HTTPError, NetworkError, PricesError, TimeoutError, isAuthError, isHTTPError, isNetworkError, isPricesError, isTimeoutError } from "./errors";
import { type RetryPolicy, isRetryableStatus, parseRetryAfter, retryAfterTooLong, retryDelay } from "./retry";
import type { Governor } from "./governor";
import { withTimeout } from "./timeout";
import type { TokenProvider } from "./types";

/** Total time one request may take, token waits, attempts, backoff and `Retry-After` included (the cell deadline is 120 s). */
export const DEFAULT_REQUEST_BUDGET_MS = 90_000;

/** Longest query sent with GET: beyond it the URL (with the token header) nears servers' 8-16 KB header limits. */
export const DEFAULT_MAX_QUERY_LENGTH = 4_096;

export interface TransportOptions {
  baseUrl: string;
  tokenProvider: TokenProvider;
  fetch: typeof fetch;
  maxInFlight: number;
  timeoutMs: number;
  /** Total time of one request, every attempt and wait included (default DEFAULT_REQUEST_BUDGET_MS). */
  budgetMs?: number;
  retry: RetryPolicy;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** Queries longer than this go as POST with an `application/x-www-form-urlencoded` body (convention 2). */
  maxQueryLength?: number;
  /** The session's bound on requests per second and per refresh. */
  governor?: Governor;
}

/** Filled in as the exchange goes, for lineage and statistics. */
export interface ExchangeLog {
  attempts: number;
  retryDelaysMs: number[];
  status?: number;
  method?: "GET" | "POST";
}

export interface Transport {
  /** `until` (epoch ms, by `now`) ends the request's budget earlier than `budgetMs` would: its keys' own deadline. */
  getJson(path: string, params: URLSearchParams, log: ExchangeLog, until?: number): Promise<unknown>;
  readonly inFlight: number;
}

/** The method and URL a request goes with: GET with its query, or POST to the bare path when the query is long. */
export function requestTarget(baseUrl: string, path: string, query: string, maxQueryLength = DEFAULT_MAX_QUERY_LENGTH): { method: "GET" | "POST"; url: string } {
  const base = baseUrl.replace(/\/+$/, "");
  if (query.length > maxQueryLength) return { method: "POST", url: `${base}${path}` };
  return { method: "GET", url: `${base}${path}${query ? `?${query}` : ""}` };
}

interface Exchanged {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
}

export function createTransport(options: TransportOptions): Transport {
  const slots = createSemaphore(Math.max(1, options.maxInFlight));
  const policy = options.retry;
  const maxQueryLength = options.maxQueryLength ?? DEFAULT_MAX_QUERY_LENGTH;
  const budgetMs = options.budgetMs ?? DEFAULT_REQUEST_BUDGET_MS;
  const governor = options.governor;
  // Tokens the service refused (401): never sent again, by this request or any queued with it.
  const refused = new Set<string>();

  /** The provider's token, raced against the time left: a provider that never answers must not hold a cell. */
  async function token(rejected: string | undefined, method: string, url: string, waitMs: number): Promise<string> {
    try {
      const bearer = await withTimeout(
        waitMs,
        () => options.tokenProvider.getToken(rejected !== undefined ? { rejected } : undefined),
        () => new TimeoutError({ method, url, timeoutMs: waitMs, reason: `no token from the token provider within ${waitMs} ms` }),
      );
      if (refused.has(bearer)) throw new AuthError({ reason: "rejected", status: 401, method, url, message: "the service rejected the token and the token provider has no other" });
      return bearer;
    } catch (error) {
      if (isAuthError(error) || isHTTPError(error)) throw error;
      throw new AuthError({ reason: "not-signed-in", cause: error });
    }
  }

  /** The first 401 on a token tells the provider at once, so requests queued with it take its successor. */
  function reject(bearer: string): void {
    if (refused.has(bearer)) return;
    refused.add(bearer);
    options.tokenProvider.getToken({ rejected: bearer }).catch(() => undefined);
  }

  /** Waits for the session's request governor within the key's time; the wait is named when it does not fit. */
  async function governed(method: string, url: string, deadline: number): Promise<void> {
    if (!governor) return;
    // Time waited counts even on a clock that did not move (a test's, or a suspended machine's).
    let at = options.now();
    for (;;) {
      const wait = governor.reserve(at);
      if (wait === 0) return;
      if (at + wait >= deadline) {
        throw new TimeoutError({ method, url, timeoutMs: 0, reason: "the key's time ran out while the client held back its requests (the session's request rate limit)" });
      }
      await options.sleep(wait);
      at = Math.max(options.now(), at + wait);
    }
  }

  async function getJson(path: string, params: URLSearchParams, log: ExchangeLog, until?: number): Promise<unknown> {
    const query = params.toString();
    const { method, url } = requestTarget(options.baseUrl, path, query, maxQueryLength);
    const body = method === "POST" ? query : undefined;
    log.method = method;
    const deadline = Math.min(options.now() + budgetMs, until ?? Number.POSITIVE_INFINITY);
    let rejected: string | undefined;
    let lastFailure: PricesError | undefined;
    // A 401's retry is one of the policy's attempts, so no request makes more than `limit`.
    for (let attempt = 1; ; attempt += 1) {
      let failure: PricesError;
      let retryAfterMs: number | undefined;
      try {
        const answer = await slots.run(deadline - options.now(), () => overBudget(method, url, lastFailure), async () => {
          const left = deadline - options.now();
          if (left <= 0) throw overBudget(method, url, lastFailure);
          const bearer = await token(rejected, method, url, Math.min(options.timeoutMs, left));
          await governed(method, url, deadline);
          log.attempts += 1;
          return { bearer, ...(await exchange(method, url, body, bearer, Math.min(options.timeoutMs, Math.max(1, deadline - options.now())))) };
        });
        const { status, statusText, headers, text } = answer;
        log.status = status;
        if (status >= 200 && status < 300) {
          try {
            return JSON.parse(text) as unknown;
          } catch (cause) {
            throw new NetworkError({ method, url, cause, reason: "truncated or invalid JSON body" });
          }
        }
        const problem = readProblem(text);
        if (status === 401) reject(answer.bearer);
        if (status === 401 && rejected === undefined && attempt < policy.limit) {
          rejected = answer.bearer;
          lastFailure = new AuthError({ reason: "rejected", status, method, url, cause: problem });
          continue;
        }
        if (status === 401) throw new AuthError({ reason: "rejected", status, method, url, cause: problem });
        if (status === 403) throw new AuthError({ reason: "forbidden", status, method, url, cause: problem });
        // An HTTP date is read against the server's own clock (its `Date`), so a skewed local clock cannot stretch the wait.
        retryAfterMs = parseRetryAfter(headers.get("retry-after"), options.now(), headers.get("date"));
        failure = new HTTPError({ status, statusText, method, url, ...(problem ? { problem } : {}), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
      } catch (error) {
        // By name, not class: a token provider from another bundle (the pane's store) throws its own copies.
        failure = isPricesError(error) ? error : new NetworkError({ method, url, cause: error });
        if (isAuthError(error) && typeof error.retryAt === "number") retryAfterMs = Math.max(0, error.retryAt - options.now());
      }
      lastFailure = failure;
      const left = deadline - options.now();
      // A longer wait than the policy (or the budget) allows is not shortened: retrying early would only be refused again.
      // Waiting for the token provider's retry is bounded by the budget, not by the attempts: no request was sent.
      const tokenWait = isAuthError(failure) && isRetryable(failure);
      if ((!tokenWait && attempt >= policy.limit) || !isRetryable(failure) || left <= 0) throw failure;
      if (!tokenWait && retryAfterTooLong(policy, retryAfterMs)) throw failure;
      const delay = tokenWait ? (retryAfterMs ?? 0) : retryDelay(policy, attempt, retryAfterMs, options.random);
      if (delay >= left) throw failure;
      if (tokenWait) attempt -= 1;
      log.retryDelaysMs.push(delay);
      if (delay > 0) await options.sleep(delay);
    }
  }

  function isRetryable(error: PricesError): boolean {
    // The token provider keeps its session through a transient failure and says when it tries again.
    if (isAuthError(error)) return error.reason === "renewal-failing" || error.reason === "token-service-busy";
    if (isTimeoutError(error)) return policy.retryTimeouts;
    if (isNetworkError(error)) return policy.retryNetworkErrors;
    if (isHTTPError(error)) return isRetryableStatus(policy, error.status);
    return false;
  }

  async function exchange(method: "GET" | "POST", url: string, body: string | undefined, bearer: string, timeoutMs: number): Promise<Exchanged> {
    const headers: Record<string, string> = { authorization: `Bearer ${bearer}`, accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
    try {
      return await withTimeout(
        timeoutMs,
        async (signal) => {
          const response = await options.fetch(url, { method, headers, signal, ...(body !== undefined ? { body } : {}) });
          const text = await response.text();
          return { status: response.status, statusText: response.statusText, headers: response.headers, text };
        },
        () => new TimeoutError({ method, url, timeoutMs }),
      );
    } catch (error) {
      if (error instanceof TimeoutError) throw error;
      throw new NetworkError({ method, url, cause: error });
    }
  }

  return {
    getJson,
    get inFlight() {
      return slots.active;
    },
  };
}

/** The request's budget ran out before another attempt: the last failure is the cause. */
function overBudget(method: string, url: string, last: PricesError | undefined): PricesError {
  return last ?? new TimeoutError({ method, url, timeoutMs: 0, reason: "the key's time ran out while its request waited for a connection slot (other requests held them all)" });
}

function readProblem(text: string): Problem | undefined {
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body !== "object" || body === null) return undefined;
    const record = body as Record<string, unknown>;
    if (typeof record.status !== "number" && typeof record.title !== "string") return undefined;
    const problem: Problem = {
      type: typeof record.type === "string" ? record.type : "about:blank",
      title: typeof record.title === "string" ? record.title : "",
      status: typeof record.status === "number" ? record.status : 0,
      detail: typeof record.detail === "string" ? record.detail : "",
    };
    if (Array.isArray(record.errors)) {
      problem.errors = record.errors
        .filter((item): item is Record<string, unknown> => typeof item === "object" && item !== null)
        .map((item) => ({ parameter: typeof item.parameter === "string" ? item.parameter : "", message: typeof item.message === "string" ? item.message : "" }));
    }
    return problem;
  } catch {
    return undefined;
  }
}

interface Semaphore {
  /** Runs `task` in a slot; a wait for the slot longer than `waitMs` fails with `onTimeout()` (the key's time counts it). */
  run<T>(waitMs: number, onTimeout: () => Error, task: () => Promise<T>): Promise<T>;
  readonly active: number;
}

function createSemaphore(capacity: number): Semaphore {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  };
  return {
    async run<T>(waitMs: number, onTimeout: () => Error, task: () => Promise<T>): Promise<T> {
      if (active < capacity) active += 1;
      else {
        let granted: () => void = () => undefined;
        const turn = new Promise<void>((resolve) => {
          granted = resolve;
          waiting.push(resolve);
        });
        try {
          await withTimeout(waitMs, () => turn, onTimeout);
        } catch (error) {
          const index = waiting.indexOf(granted);
          // Given up before its turn: leave the queue. Granted in the same moment: hand the slot on.
          if (index >= 0) waiting.splice(index, 1);
          else release();
          throw error;
        }
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
  };
}
