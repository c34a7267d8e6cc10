/**
 * The session-wide bound on requests to the service, above every other policy (retries, learned limits,
 * history parts): no sequence of answers can make the client send more than `maxRequestsPerSecond`
 * (a token bucket holding one second's worth) or more than `maxRequestsPerRefresh` while keys are waiting
 * (a refresh: from the first ask after an idle moment until no key waits any more).
 */
import { RequestLimitError } from "./errors";

export interface GovernorPolicy {
  /** HTTP attempts per second, sustained; a burst of one second's worth is allowed. */
  maxRequestsPerSecond: number;
  /** HTTP attempts from the first ask after an idle moment until no key waits. */
  maxRequestsPerRefresh: number;
}

export const DEFAULT_GOVERNOR_POLICY: Readonly<GovernorPolicy> = Object.freeze({ maxRequestsPerSecond: 50, maxRequestsPerRefresh: 5_000 });

export interface Governor {
  /**
   * Milliseconds to wait before the next request may leave (0: now, and it is counted). Throws
   * RequestLimitError when the refresh has spent its requests.
   */
  reserve(at: number): number;
  /** The client has no key waiting: the next ask starts a new refresh. */
  idle(): void;
  readonly sentThisRefresh: number;
}

export function createGovernor(policy: GovernorPolicy): Governor {
  const rate = Math.max(0.001, policy.maxRequestsPerSecond);
  const capacity = Math.max(1, Math.floor(rate));
  let tokens = capacity;
  let filledAt: number | undefined;
  let sent = 0;
  return {
    reserve(at: number): number {
      if (sent >= policy.maxRequestsPerRefresh) {
        throw new RequestLimitError(`the client's limit of ${policy.maxRequestsPerRefresh} requests per refresh was reached; recalculate to ask again`);
      }
      // The clock never runs backwards for the bucket (a caller's own count of time waited may be ahead of it).
      if (filledAt !== undefined && at > filledAt) tokens = Math.min(capacity, tokens + ((at - filledAt) * rate) / 1000);
      if (filledAt === undefined || at > filledAt) filledAt = at;
      if (tokens >= 1) {
        tokens -= 1;
        sent += 1;
        return 0;
      }
      return Math.ceil(((1 - tokens) * 1000) / rate);
    },
    idle(): void {
      sent = 0;
    },
    get sentThisRefresh() {
      return sent;
    },
  };
}
