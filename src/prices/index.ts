/**
 * The prices client: typed access to every endpoint of Physical Prices v2, with batching, caching,
 * retries and one error family. No Office, no DOM beyond fetch, AbortController and timers.
 */
export { createPricesClient, DEFAULT_CACHE_POLICY } from "./client";
export { clientCredentialsTokenProvider, serviceKeyTokenProvider, staticTokenProvider } from "./tokens";
export type { ClientCredentialsOptions, ServiceKeyOptions, TokenCacheOptions } from "./tokens";
export { MemoryCacheStorage, approximateBytes } from "./cache";
export type { CacheStorage, StoredEntry, StoredError } from "./cache";
export { DEFAULT_RETRY_POLICY, parseRetryAfter, retryAfterTooLong, retryDelay } from "./retry";
export type { RetryPolicy } from "./retry";
export { DEFAULT_GOVERNOR_POLICY } from "./governor";
export type { GovernorPolicy } from "./governor";
export { DEFAULT_LIMIT_FLOORS, statedLimits } from "./learned-limits";
export { manualScheduler, timerScheduler } from "./scheduler";
export type { BatchScheduler, ManualScheduler } from "./scheduler";
export { baselineRequests, planPairs } from "./plan";
export type { Tile } from "./plan";
export * from "./errors";
export type * from "./types";
