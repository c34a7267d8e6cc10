/**
 * HTTP for the client: GET with query, a bearer token, a timeout on every attempt, a cap on requests in
 * flight, retries by the policy, and one forced token refresh after a 401. Every call settles.
 */
import type { Problem } from "../api/schemas";
import { AuthError, HTTPError, NetworkError, PricesError, TimeoutError, isAuthError, isHTTPError } from "./errors";
import { type RetryPolicy, isRetryableStatus, parseRetryAfter, retryDelay } from "./retry";
import type { TokenProvider } from "./types";

export interface TransportOptions {
  baseUrl: string;
  tokenProvider: TokenProvider;
  fetch: typeof fetch;
  maxInFlight: number;
  timeoutMs: number;
  retry: RetryPolicy;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

/** Filled in as the exchange goes, for lineage and statistics. */
export interface ExchangeLog {
  attempts: number;
  retryDelaysMs: number[];
  status?: number;
}

export interface Transport {
  getJson(path: string, params: URLSearchParams, log: ExchangeLog): Promise<unknown>;
  readonly inFlight: number;
}

export function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function createTransport(options: TransportOptions): Transport {
  const base = options.baseUrl.replace(/\/+$/, "");
  const slots = createSemaphore(Math.max(1, options.maxInFlight));
  const policy = options.retry;

  async function token(forceRefresh: boolean): Promise<string> {
    try {
      return await options.tokenProvider.getToken(forceRefresh ? { forceRefresh: true } : undefined);
    } catch (error) {
      if (isAuthError(error) || isHTTPError(error)) throw error;
      throw new AuthError({ reason: "not-signed-in", cause: error });
    }
  }

  async function getJson(path: string, params: URLSearchParams, log: ExchangeLog): Promise<unknown> {
    const query = params.toString();
    const url = `${base}${path}${query ? `?${query}` : ""}`;
    let refreshed = false;
    let forceRefresh = false;
    for (let attempt = 1; ; ) {
      let failure: PricesError;
      let retryAfterMs: number | undefined;
      try {
        const bearer = await token(forceRefresh);
        forceRefresh = false;
        log.attempts += 1;
        const { status, statusText, headers, text } = await slots.run(() => exchange(url, bearer));
        log.status = status;
        if (status >= 200 && status < 300) {
          try {
            return JSON.parse(text) as unknown;
          } catch (cause) {
            throw new NetworkError({ method: "GET", url, cause, reason: "truncated or invalid JSON body" });
          }
        }
        if (status === 401 && !refreshed) {
          refreshed = true;
          forceRefresh = true;
          continue;
        }
        const problem = readProblem(text);
        if (status === 401) throw new AuthError({ reason: "rejected", status, method: "GET", url, cause: problem });
        if (status === 403) throw new AuthError({ reason: "forbidden", status, method: "GET", url, cause: problem });
        failure = new HTTPError({ status, statusText, method: "GET", url, ...(problem ? { problem } : {}) });
        retryAfterMs = parseRetryAfter(headers.get("retry-after"), options.now());
      } catch (error) {
        failure = error instanceof PricesError ? error : new NetworkError({ method: "GET", url, cause: error });
      }
      if (attempt >= policy.limit || !isRetryable(failure)) throw failure;
      const delay = retryDelay(policy, attempt, retryAfterMs, options.random);
      log.retryDelaysMs.push(delay);
      attempt += 1;
      if (delay > 0) await options.sleep(delay);
    }
  }

  function isRetryable(error: PricesError): boolean {
    if (error instanceof TimeoutError) return policy.retryTimeouts;
    if (error instanceof NetworkError) return policy.retryNetworkErrors;
    if (error instanceof HTTPError) return isRetryableStatus(policy, error.status);
    return false;
  }

  async function exchange(url: string, bearer: string): Promise<{ status: number; statusText: string; headers: Headers; text: string }> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A race as well as an abort, so a fetch that ignores its signal still settles.
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new TimeoutError({ method: "GET", url, timeoutMs: options.timeoutMs }));
      }, options.timeoutMs);
    });
    expired.catch(() => undefined);
    try {
      const response = await Promise.race([
        options.fetch(url, {
          method: "GET",
          headers: { authorization: `Bearer ${bearer}`, accept: "application/json" },
          signal: controller.signal,
        }),
        expired,
      ]);
      const text = await Promise.race([response.text(), expired]);
      return { status: response.status, statusText: response.statusText, headers: response.headers, text };
    } catch (error) {
      if (error instanceof TimeoutError) throw error;
      if (controller.signal.aborted) throw new TimeoutError({ method: "GET", url, timeoutMs: options.timeoutMs });
      throw new NetworkError({ method: "GET", url, cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    getJson,
    get inFlight() {
      return slots.active;
    },
  };
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
        .map((item) => ({ parameter: String(item.parameter ?? ""), message: String(item.message ?? "") }));
    }
    return problem;
  } catch {
    return undefined;
  }
}

interface Semaphore {
  run<T>(task: () => Promise<T>): Promise<T>;
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
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < capacity) active += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
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
