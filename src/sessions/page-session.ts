/**
 * The runner's persistent cache inside its page: Node reads the partition's file and hands its lines over with the
 * configuration (a page cannot read files), the page's client uses them through a `PersistentCache`, and Node takes
 * the lines back after the refresh and writes the file. Also the page's half of `--plan` and `--changes`.
 */
import { ChangeLog, type KeyChange } from "./change-log";
import { type PlannedRequest, planRecorder } from "./refresh-plan";
import type { Partition } from "../prices/persistent/partition";
import { PersistentCache } from "../prices/persistent/persistent-cache";

/** Plain data, as `page.evaluate` carries it. */
export interface CacheSnapshot {
  readonly partition: Partition;
  /** The partition's lines, apart by newlines: one string crosses into the page several times faster than an array of 344,000 (measured, docs/persistent-cache.md). */
  readonly text: string;
  /** The service's today (the runner's frozen sandbox day), else the machine's. */
  readonly today?: string;
  readonly correctionWindowDays?: number;
  readonly maxBytes?: number;
  /** The file's digest over every line held when Node read it (filtering by entitlement drops lines, never edits one). */
  readonly intact?: boolean;
  /** Every line is ASCII (the file backend checked the bytes once), so a line's size is its length. */
  readonly ascii?: boolean;
  /** The service could not confirm this session's entitlement (unreachable): nothing loaded is served (entitlement.ts). */
  readonly unconfirmed?: boolean;
}

/** What the page hands back after a refresh. */
export interface SessionState {
  /** The lines to save, apart by newlines (one string, as `CacheSnapshot.text`). */
  readonly text: string | undefined;
  readonly changes: readonly KeyChange[];
  readonly planned: readonly PlannedRequest[] | undefined;
  /** Loaded lines dropped because their value failed the response checks (each asked again). */
  readonly rejected?: number;
  /** Keys dropped on purpose (failed the checks): the save does not take another writer's copy of them back. */
  readonly dropped?: readonly string[];
}

export interface PageSession {
  /** Options added to the client's configuration (`storage`, and for a plan `fetch` and one attempt per request). */
  readonly clientOptions: Record<string, unknown>;
  state(): SessionState;
}

/** The page's side of `--cache`, `--plan` and `--changes`. */
export async function openPageSession(baseUrl: string, snapshot: CacheSnapshot | undefined, planOnly: boolean): Promise<PageSession> {
  const changes = new ChangeLog();
  const clientOptions: Record<string, unknown> = {};
  let cache: PersistentCache | undefined;
  if (snapshot) {
    const lines = snapshot.text === "" ? [] : snapshot.text.split("\n");
    const today = snapshot.today;
    cache = await PersistentCache.open({
      partition: snapshot.partition,
      backend: { load: () => Promise.resolve({ lines, intact: snapshot.intact === true, ascii: snapshot.ascii === true }), save: () => Promise.resolve(), clear: () => Promise.resolve() },
      scheduleFlush: () => undefined,
      observer: changes,
      ...(today === undefined ? {} : { today: () => today }),
      ...(snapshot.correctionWindowDays === undefined ? {} : { correctionWindowDays: snapshot.correctionWindowDays }),
      ...(snapshot.maxBytes === undefined ? {} : { maxBytes: snapshot.maxBytes }),
      ...(snapshot.unconfirmed === true ? { unconfirmed: true } : {}),
    });
    clientOptions.storage = cache;
  }
  const recorder = planOnly ? planRecorder(baseUrl) : undefined;
  if (recorder) {
    clientOptions.fetch = recorder.fetch;
    clientOptions.retry = { limit: 1 };
  }
  return {
    clientOptions,
    state: () => ({ text: cache?.lines().join("\n"), changes: changes.list(), planned: recorder?.requests, rejected: cache?.rejected ?? 0, dropped: cache?.droppedIds() ?? [] }),
  };
}
