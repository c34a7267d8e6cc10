/** The contract of where a partition's lines are kept between sessions: IndexedDB in the pane, a file for the runner. */
import type { Partition } from "./partition";

/** What a save merges with (merge.ts): the keys this session dropped on purpose, so another writer's copy is not brought back, and the bound. */
export interface SaveOptions {
  readonly dropped?: ReadonlySet<string>;
  readonly maxBytes?: number;
}

/** A partition's lines as loaded. */
export interface LoadedLines {
  readonly lines: readonly string[];
  /**
   * A digest over every line together held (the file backend's): each is as the cache wrote it, so its own digest is not
   * checked again when its value is first read (its value still passes the response checks).
   */
  readonly intact: boolean;
  /** Every line is ASCII, so its UTF-8 size is its length (the file backend's, checked once over the whole file). */
  readonly ascii?: boolean;
}

/**
 * Where a partition's lines are kept between sessions. A stored version other than the partition's is never returned.
 * `save` merges with what another session saved meanwhile (a second runner, a pane): nobody's entry is lost.
 */
export interface CacheBackend {
  load(partition: Partition): Promise<LoadedLines>;
  save(partition: Partition, lines: readonly string[], options?: SaveOptions): Promise<void>;
  clear(partition: Partition): Promise<void>;
}
