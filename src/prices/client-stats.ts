/** The client's counters: what was asked, answered from cache, joined, sent and received. */
import type { ClientStats } from "./types";

export type ClientCounters = Omit<ClientStats, "inFlight" | "cacheEntries" | "cacheBytes">;

export function createCounters(): ClientCounters {
  return {
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
    replanned: 0,
  };
}
