/**
 * The pane's persistent cache: IndexedDB through idb-keyval (one database, one object store; per partition a `meta:`
 * record naming version, environment and subject, and a `lines:` record holding its entries, oldest use first).
 * idb-keyval rather than idb or Dexie: about 600 bytes in the bundle, and whole-partition reads and writes are all
 * this cache does (docs/persistent-cache.md). A save reads, merges (merge.ts) and writes in one readwrite transaction, so
 * two panes of one user (two Excel windows) keep each other's entries.
 */
import { createStore, delMany, getMany, keys, promisifyRequest, type UseStore } from "idb-keyval";
import { mergeLines } from "./merge";
import { type CacheBackend, DEFAULT_PERSISTENT_MAX_BYTES, type LoadedLines, type SaveOptions } from "./persistent-cache";
import type { Partition } from "./partition";

export const CACHE_DATABASE = "physical-prices-cache";

interface Meta {
  version: string;
  baseUrl: string;
  subject: string;
}

function isMeta(value: unknown): value is Meta {
  if (typeof value !== "object" || value === null) return false;
  const { version, baseUrl, subject } = value as Record<string, unknown>;
  return typeof version === "string" && typeof baseUrl === "string" && typeof subject === "string";
}

export class IndexedDbCacheBackend implements CacheBackend {
  private opened: UseStore | undefined;

  constructor(private readonly database = CACHE_DATABASE) {}

  /** Opened on first use, so that a page without IndexedDB fails only when the cache is used (and then reads as empty). */
  private get store(): UseStore {
    this.opened ??= createStore(this.database, "partitions");
    return this.opened;
  }

  async load(partition: Partition): Promise<LoadedLines> {
    await this.sweep(partition.version);
    const [meta, lines] = await getMany<unknown>([`meta:${partition.id}`, `lines:${partition.id}`], this.store);
    if (!isMeta(meta) || meta.version !== partition.version || meta.baseUrl !== partition.baseUrl || meta.subject !== partition.subject) return { lines: [], intact: false };
    // No digest over the lines together here: each line's own is checked as its value is first read.
    return { lines: Array.isArray(lines) ? lines.filter((line): line is string => typeof line === "string") : [], intact: false };
  }

  async save(partition: Partition, lines: readonly string[], options: SaveOptions = {}): Promise<void> {
    const meta: Meta = { version: partition.version, baseUrl: partition.baseUrl, subject: partition.subject };
    const [metaKey, linesKey] = [`meta:${partition.id}`, `lines:${partition.id}`];
    await this.store("readwrite", (store) =>
      // Callbacks, not a promise chain, between the read and the write: the transaction must stay open across them.
      new Promise<void>((resolve, reject) => {
        const saved = store.get(metaKey);
        const held = store.get(linesKey);
        held.onsuccess = () => {
          try {
            const ours = isMeta(saved.result) && saved.result.version === meta.version && saved.result.baseUrl === meta.baseUrl && saved.result.subject === meta.subject;
            const stored: unknown = held.result;
            const theirs = ours && Array.isArray(stored) ? stored.filter((line): line is string => typeof line === "string") : [];
            store.put(meta, metaKey);
            store.put(mergeLines(lines, theirs, options.dropped ?? new Set(), options.maxBytes ?? DEFAULT_PERSISTENT_MAX_BYTES), linesKey);
            resolve(promisifyRequest(store.transaction));
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        };
        held.onerror = () => { reject(held.error ?? new Error("the cache store could not be read")); };
      }),
    );
  }

  async clear(partition: Partition): Promise<void> {
    await delMany([`meta:${partition.id}`, `lines:${partition.id}`], this.store);
  }

  /** Every partition of a subject, in any environment (sign-out with the setting on). */
  async forgetSubject(subject: string): Promise<number> {
    const ids = await this.partitions((meta) => meta.subject === subject);
    await delMany(ids.flatMap((id) => [`meta:${id}`, `lines:${id}`]), this.store);
    return ids.length;
  }

  /** A new add-in version empties the cache: partitions another version wrote go. */
  private async sweep(version: string): Promise<void> {
    const ids = await this.partitions((meta) => meta.version !== version);
    if (ids.length > 0) await delMany(ids.flatMap((id) => [`meta:${id}`, `lines:${id}`]), this.store);
  }

  private async partitions(matches: (meta: Meta) => boolean): Promise<string[]> {
    const metaKeys = (await keys(this.store)).filter((key): key is string => typeof key === "string" && key.startsWith("meta:"));
    const metas = await getMany<unknown>(metaKeys, this.store);
    return metaKeys.filter((_key, index) => {
      const meta = metas[index];
      return isMeta(meta) && matches(meta);
    }).map((key) => key.slice("meta:".length));
  }
}
