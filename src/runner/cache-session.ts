/**
 * The runner's `--cache DIR`, `--plan` and `--changes FILE.csv`, as functions the runner calls around its refresh
 * (Node only): open the partition's file before, hand the page its lines, and afterwards save them, print the plan or
 * write the change report. The page's half is src/sessions/page-session.ts.
 */
import { writeFile } from "node:fs/promises";
import { dispatcherFetch } from "../prices/dispatcher-fetch";
import type { Trust } from "./trust";
import type { HostStats } from "../host/page-api";
import type { ProvenanceRow } from "../prices/provenance";
import { FileCacheBackend } from "../prices/persistent/file-backend";
import { ADDIN_VERSION } from "../prices/persistent";
import { type Partition, partitionFor, subjectOfToken } from "../prices/persistent/partition";
import { idSymbol, readHead } from "../prices/persistent/stored-line";
import type { CacheSnapshot, SessionState } from "../sessions/page-session";
import { type RefreshPlan, summarizePlan } from "../sessions/refresh-plan";
import { type CellChange, cellChanges, changesCsv } from "../sessions/cell-changes";
import { summarizeChanges } from "../sessions/change-log";

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
  /** After the refresh: saves the cache, writes the change report; returns the plan or the changes' one line. */
  finish(host: { session(): Promise<SessionState | undefined> }, result: RunnerResultParts, saved: SavedValue | undefined): Promise<{ plan?: RefreshPlan; changes?: string }>;
}

export async function openRunnerSession(
  options: RunnerSessionOptions,
  service: { apiUrl: string; token: string; today?: string; environment?: string; trust?: Trust },
  log: (message: string) => void,
): Promise<RunnerSession> {
  let partition: Partition | undefined;
  let backend: FileCacheBackend | undefined;
  let snapshot: CacheSnapshot | undefined;
  let withdrawn: readonly string[] = [];
  if (options.cache !== undefined) {
    // A plan too asks the service which instruments the caller may see (one `/Instruments`): it plans what the refresh will ask.
    const opened = await openEntitledPartition(options.cache, service, log);
    if (opened) ({ partition, backend, snapshot, withdrawn } = opened);
  }
  const configuration = { ...(snapshot ? { persistentCache: snapshot } : {}), ...(options.plan ? { planOnly: true } : {}) };
  return {
    configuration,
    async finish(host, result, saved) {
      const state = await host.session();
      if (options.plan) {
        const counters = clientCounters(result.stats.client);
        return { plan: summarizePlan(state?.planned ?? [], counters) };
      }
      if ((state?.rejected ?? 0) > 0) log(`workbook: persistent cache: ${state?.rejected ?? 0} cached values failed the response checks; dropped and asked again`);
      // Merged with what another runner or pane saved meanwhile; what this session dropped on purpose stays out.
      if (partition && backend && state?.text !== undefined) {
        const lines = state.text === "" ? [] : state.text.split("\n");
        if (state.text.length > BIG_BYTES) log(`workbook: persistent cache: saving ${lines.length} entries to ${options.cache ?? ""}`);
        await backend.save(partition, lines, { dropped: new Set([...withdrawn, ...(state.dropped ?? [])]) });
      }
      if (options.changes === undefined) return {};
      const changed: CellChange[] = cellChanges(result, state ?? emptyState, saved ?? (() => undefined));
      await writeFile(options.changes, changesCsv(changed));
      const line = summarizeChanges(changed.map((change) => change.reason));
      log(`workbook: ${line} (${options.changes})`);
      return { changes: line };
    },
  };
}

/**
 * The partition this session may read, and of it only what the service says the caller may see: the token's signature
 * verified against its issuer's keys names the subject, and the service's `/Instruments` list (one request) names the
 * instruments. A token the service refuses, or whose signature does not verify, reads nothing; a service that cannot
 * be reached leaves every loaded value unconfirmed (served only as a last known value where that is chosen).
 */
async function openEntitledPartition(
  dir: string,
  service: { apiUrl: string; token: string; today?: string; environment?: string; trust?: Trust },
  log: (message: string) => void,
): Promise<{ partition: Partition; backend: FileCacheBackend; snapshot: CacheSnapshot; withdrawn: readonly string[] } | undefined> {
  const claimed = subjectOfToken(service.token);
  if (claimed === undefined) {
    log("workbook: --cache needs a token that names its subject (a JWT with sub); running without the persistent cache");
    return undefined;
  }
  const fetcher = trustingFetch(service.trust);
  // loaded only by a run with --cache: its token library (jose) is 60-85 ms of the main thread before an evaluation
  const { entitledSymbols, verifiedSubject } = await import("../prices/persistent/entitlement");
  const signature = await verifiedSubject(service.token, service.apiUrl, fetcher);
  if (signature.kind === "invalid") {
    log(`workbook: --cache: ${signature.reason}; running without the persistent cache`);
    return undefined;
  }
  const entitlement = await entitledSymbols(service.apiUrl, service.token, fetcher);
  if (entitlement.kind === "refused") {
    log(`workbook: --cache: the service refused the token (${entitlement.status}); running without the persistent cache`);
    return undefined;
  }
  const subject = signature.kind === "verified" ? signature.subject : claimed;
  // The runner's own sandbox listens on another port each run: it is one environment all the same.
  const partition = await partitionFor(service.environment ?? service.apiUrl, subject, ADDIN_VERSION);
  const backend = new FileCacheBackend(dir, { log });
  const loaded = await backend.load(partition);
  const today = service.today === undefined ? {} : { today: service.today };
  if (entitlement.kind === "unreachable") {
    log(`workbook: persistent cache ${dir}: ${loaded.lines.length} entries, unconfirmed (the service could not be asked about this session's entitlement: ${entitlement.reason}); none is served`);
    return { partition, backend, snapshot: { partition, text: loaded.lines.join("\n"), intact: loaded.intact, ascii: loaded.ascii === true, unconfirmed: true, ...today }, withdrawn: [] };
  }
  // A value of an instrument the service no longer lists is never served, and leaves the partition when it is saved.
  const lines: string[] = [];
  const withdrawn: string[] = [];
  for (const line of loaded.lines) {
    const head = readHead(line);
    const symbol = head === undefined ? undefined : idSymbol(head.id);
    if (symbol === null || (symbol !== undefined && entitlement.symbols.has(symbol))) lines.push(line);
    else if (head !== undefined) withdrawn.push(head.id);
  }
  const dropped = loaded.lines.length - lines.length;
  const text = lines.join("\n");
  // Handing a large partition to the page takes a while: said, so that the runner is not silent (344,000 entries: 3-20 s).
  const handing = text.length > BIG_BYTES ? `; handing ${(text.length / 1024 / 1024).toFixed(1)} MB to the host page` : "";
  log(`workbook: persistent cache ${dir}: ${lines.length} entries for this service and subject${dropped > 0 ? ` (${dropped} dropped: instruments the service no longer lists for this caller)` : ""}${handing}`);
  return { partition, backend, snapshot: { partition, text, intact: loaded.intact, ascii: loaded.ascii === true, ...today }, withdrawn };
}

/** Node's `fetch`, trusting the service's CA when one is given (the sandbox's own). */
function trustingFetch(trust: Trust | undefined): (input: string, init?: { headers?: Record<string, string> }) => Promise<Response> {
  if (trust === undefined) return (input, init) => fetch(input, init);
  return async (input, init) => dispatcherFetch(await trust.dispatcher())(input, init);
}

const emptyState: SessionState = { text: undefined, changes: [], planned: undefined };

/** A partition this large is said to be saved (its save takes a moment). */
const BIG_BYTES = 16 * 1024 * 1024;

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
