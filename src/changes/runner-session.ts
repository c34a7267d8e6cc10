/**
 * The runner's `--cache DIR`, `--plan` and `--changes FILE.csv`, as functions the runner calls around its refresh
 * (Node only): open the partition's file before, hand the page its lines, and afterwards save them, print the plan or
 * write the change report. The page's half is src/prices/persistent/snapshot.ts.
 */
import { writeFile } from "node:fs/promises";
import type { HostStats } from "../host/api";
import type { ProvenanceRow } from "../prices/provenance";
import { FileCacheBackend } from "../prices/persistent/file-backend";
import { ADDIN_VERSION } from "../prices/persistent";
import { type Partition, partitionFor, subjectOfToken } from "../prices/persistent/partition";
import type { CacheSnapshot, SessionState } from "../prices/persistent/snapshot";
import { type RefreshPlan, summarizePlan } from "../refresh-plan/plan";
import { type CellChange, cellChanges, changesCsv } from "./cell-changes";
import { summarizeChanges } from "./change-log";

export interface RunnerSessionOptions {
  /** `--cache DIR`. */
  readonly cache?: string;
  /** `--plan`: print what a refresh would ask, send nothing. */
  readonly plan?: boolean;
  /** `--changes FILE.csv`: one row per changed PRICES cell. */
  readonly changes?: string;
}

/** The cell values a refresh replaces, by sheet and address (read from the file before the results go in). */
export type SavedValue = (sheet: string, address: string) => unknown;

export interface RunnerResultParts {
  readonly provenance: readonly ProvenanceRow[];
  readonly sheets: readonly { readonly name: string; readonly values: Readonly<Record<string, unknown>> }[];
  readonly stats: HostStats;
}

/** What `--plan` prints: the plan, and the page's statistics (no request sent). */
export interface PlanRunResult {
  readonly plan: RefreshPlan;
  readonly stats: HostStats;
}

export interface RunnerSession {
  /** Spread into the page's `PricesHost.configure`. */
  readonly configuration: { persistentCache?: CacheSnapshot; planOnly?: boolean };
  /** The refresh must describe its cells (provenance) for the change report. */
  readonly needsProvenance: boolean;
  /** After the refresh: saves the cache, writes the change report; returns the plan or the changes' one line. */
  finish(host: { session(): Promise<SessionState | undefined> }, result: RunnerResultParts, saved: SavedValue | undefined): Promise<{ plan?: RefreshPlan; changes?: string }>;
}

export async function openRunnerSession(
  options: RunnerSessionOptions,
  service: { apiUrl: string; token: string; today?: string; environment?: string },
  log: (message: string) => void,
): Promise<RunnerSession> {
  let partition: Partition | undefined;
  let backend: FileCacheBackend | undefined;
  let snapshot: CacheSnapshot | undefined;
  if (options.cache !== undefined) {
    const subject = subjectOfToken(service.token);
    if (subject === undefined) {
      log("workbook: --cache needs a token that names its subject (a JWT with sub); running without the persistent cache");
    } else {
      // The runner's own sandbox listens on another port each run: it is one environment all the same.
      partition = await partitionFor(service.environment ?? service.apiUrl, subject, ADDIN_VERSION);
      backend = new FileCacheBackend(options.cache);
      const lines = await backend.load(partition);
      log(`workbook: persistent cache ${options.cache}: ${lines.length} entries for this service and subject`);
      snapshot = { partition, lines, ...(service.today === undefined ? {} : { today: service.today }) };
    }
  }
  const configuration = { ...(snapshot ? { persistentCache: snapshot } : {}), ...(options.plan ? { planOnly: true } : {}) };
  return {
    configuration,
    needsProvenance: options.changes !== undefined,
    async finish(host, result, saved) {
      const state = await host.session();
      if (options.plan) {
        const counters = clientCounters(result.stats.client);
        return { plan: summarizePlan(state?.planned ?? [], counters) };
      }
      if (partition && backend && state?.lines) await backend.save(partition, state.lines);
      if (options.changes === undefined) return {};
      const changed: CellChange[] = cellChanges(result, state ?? emptyState, saved ?? (() => undefined));
      await writeFile(options.changes, changesCsv(changed));
      const line = summarizeChanges(changed.map((change) => change.reason));
      log(`workbook: ${line} (${options.changes})`);
      return { changes: line };
    },
  };
}

const emptyState: SessionState = { lines: undefined, changes: [], planned: undefined };

function clientCounters(stats: unknown): { keysAsked: number; cacheHits: number; recordsRequested: number } {
  const read = (name: string): number => {
    const value = typeof stats === "object" && stats !== null ? (stats as Record<string, unknown>)[name] : undefined;
    return typeof value === "number" ? value : 0;
  };
  return { keysAsked: read("keysAsked"), cacheHits: read("cacheHits"), recordsRequested: read("recordsRequested") };
}

/** The results a file holds (a formula's cached result, else what a spilled result left in a cell), read before a refresh replaces them. */
export function savedValues(workbook: {
  readonly formulas: ReadonlyMap<string, ReadonlyMap<string, { readonly saved?: unknown }>>;
  readonly spilled: ReadonlyMap<string, ReadonlyMap<string, unknown>>;
}): SavedValue {
  return (sheet, address) => workbook.formulas.get(sheet)?.get(address)?.saved ?? workbook.spilled.get(sheet)?.get(address);
}
