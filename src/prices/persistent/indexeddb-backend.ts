/**
 * The pane's persistent cache: IndexedDB through idb-keyval (one database, one object store; per partition a `meta:`
 * record naming version, environment and subject, and a `lines:` record holding its entries, oldest use first).
 * idb-keyval rather than idb or Dexie: about 600 bytes in the bundle, and whole-partition reads and writes are all
 * this cache does (docs/persistent-cache.md).
 */
import { createStore, delMany, getMany, keys, setMany, type UseStore } from "idb-keyval";
import type { CacheBackend } from "./persistent-cache";
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

  async load(partition: Partition): Promise<readonly string[]> {
    await this.sweep(partition.version);
    const [meta, lines] = await getMany<unknown>([`meta:${partition.id}`, `lines:${partition.id}`], this.store);
    if (!isMeta(meta) || meta.version !== partition.version || meta.baseUrl !== partition.baseUrl || meta.subject !== partition.subject) return [];
    return Array.isArray(lines) ? lines.filter((line): line is string => typeof line === "string") : [];
  }

  async save(partition: Partition, lines: readonly string[]): Promise<void> {
    const meta: Meta = { version: partition.version, baseUrl: partition.baseUrl, subject: partition.subject };
    await setMany(
      [
        [`meta:${partition.id}`, meta],
        [`lines:${partition.id}`, [...lines]],
      ],
      this.store,
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
