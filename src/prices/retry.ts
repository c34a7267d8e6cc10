/** Retry policy as data (ky): what is retried, how often, and how long to wait; the one backoff and the one list of transient statuses. */

/** Statuses worth another attempt. 501 and 505 are left out on purpose: they will not change. */
export const TRANSIENT_STATUSES: readonly number[] = Object.freeze([408, 429, 500, 502, 503, 504]);

/**
 * How a wait is drawn below its ceiling min(maxMs, baseMs x 2^(n-1)): "full" is random() x ceiling (requests spread
 * widest); "equal" is ceiling / 2 + random() x ceiling / 2 (never less than half: a rate-limited token service).
 */
export type Jitter = "full" | "equal";

export interface Backoff {
  backoffBaseMs: number;
  backoffMaxMs: number;
  jitter: Jitter;
}

/** Milliseconds to wait after failure n (1-based). */
export function backoffDelay(backoff: Backoff, failures: number, random: () => number): number {
  const ceiling = Math.min(backoff.backoffMaxMs, backoff.backoffBaseMs * 2 ** (failures - 1));
  return backoff.jitter === "full" ? Math.floor(random() * ceiling) : Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export interface RetryPolicy extends Backoff {
  /** Attempts in all, the first included (3: at most two retries). */
  limit: number;
  /** Statuses worth another attempt (default TRANSIENT_STATUSES). */
  statusCodes: readonly number[];
  /** Connection failures, dropped connections and truncated or invalid JSON bodies. */
  retryNetworkErrors: boolean;
  retryTimeouts: boolean;
  /** Longest `Retry-After` (seconds or an HTTP date) waited for, in ms; a longer one fails the request at once, saying when to retry. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  limit: 3,
  statusCodes: TRANSIENT_STATUSES,
  retryNetworkErrors: true,
  retryTimeouts: true,
  backoffBaseMs: 250,
  backoffMaxMs: 4_000,
  jitter: "full",
  maxRetryAfterMs: 10_000,
});

/**
 * Reads `Retry-After` as delta-seconds or an HTTP date; undefined when absent or unreadable. A date is
 * read against the answer's own `Date` when it has one (both are the server's clock), else against `now`:
 * a local clock minutes off must not turn a 2 s wait into 10 minutes.
 */
export function parseRetryAfter(header: string | null | undefined, now: number, serverDate?: string | null): number | undefined {
  if (header == null) return undefined;
  const text = header.trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  const served = serverDate ? Date.parse(serverDate) : NaN;
  return Math.max(0, at - (Number.isNaN(served) ? now : served));
}

/** True when the service asks for a longer wait than the policy allows: the caller fails rather than retries early. */
export function retryAfterTooLong(policy: RetryPolicy, retryAfterMs: number | undefined): boolean {
  return retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs;
}

/**
 * Milliseconds to wait before attempt `attempt + 1`, after attempt `attempt` (1-based) failed. A
 * `Retry-After` is taken as asked; the cap only guards callers that did not check `retryAfterTooLong`.
 */
export function retryDelay(policy: RetryPolicy, attempt: number, retryAfterMs: number | undefined, random: () => number): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), policy.maxRetryAfterMs);
  return backoffDelay(policy, attempt, random);
}

export function isRetryableStatus(policy: RetryPolicy, status: number): boolean {
  return policy.statusCodes.includes(status);
}
