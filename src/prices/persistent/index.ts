/**
 * The persistent cache: open the partition of an environment and subject, hand it to `createPricesClient` as its
 * `storage`. The pane uses the IndexedDB backend, the runner the file backend.
 */
import { version as ADDIN_VERSION } from "../../../package.json";
import { type CacheBackend, PersistentCache, type PersistentCacheOptions } from "./persistent-cache";
import { partitionFor } from "./partition";

export { ADDIN_VERSION };
export { DEFAULT_CORRECTION_WINDOW_DAYS, finalSince, isFinal, periodEnd } from "./finality";
export { CACHE_FORMAT, normalBaseUrl, partitionFor, subjectOfToken, type Partition } from "./partition";
export { DEFAULT_PERSISTENT_MAX_BYTES, PersistentCache, isUnreachable, type CacheBackend, type LoadedLines, type CacheObserver, type OfflineSummary, type PersistentCacheOptions } from "./persistent-cache";

export interface OpenOptions extends Omit<PersistentCacheOptions, "partition" | "backend"> {
  readonly baseUrl: string;
  /** The signed-in subject (a user's `sub`, a client's id): never the token. */
  readonly subject: string;
  readonly backend: CacheBackend;
  /** Defaults to this add-in's version: another version's entries are never read. */
  readonly addinVersion?: string;
}

export async function openPersistentCache(options: OpenOptions): Promise<PersistentCache> {
  const { baseUrl, subject, backend, addinVersion, ...rest } = options;
  const partition = await partitionFor(baseUrl, subject, addinVersion ?? ADDIN_VERSION);
  return PersistentCache.open({ ...rest, partition, backend });
}
