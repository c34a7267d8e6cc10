/**
 * Where the runner evaluates a book: the functions bundle in a Node `vm` context in its own process (the default), or
 * host.html in headless Chromium (`PRICES_RUNNER_HOST=chromium`, the path the workbench takes). Both run the same
 * bundle and the same engine, and send the same requests; docs/benchmarks.md ("Workbook files") compares them.
 */
import type { EvaluationResult, HostConfiguration, PricesHostApi, SheetInput, WorkbookResult } from "../host/page-api";
import type { SessionState } from "../sessions/page-session";
import type { RunnerOptions } from "./arguments";
import { DIST, type WorkbookDefinitions, evaluateInPage, evaluateWorkbookInPage, openHostPage, servePages } from "./host-page";
import type { Trust } from "./trust";

export interface RunnerHost {
  /** What stderr calls it ("Chromium", "the functions' Node context"). */
  readonly name: string;
  /** The origin the service must allow for CORS (the page server's), when there is one. */
  readonly origin: string | undefined;
  /** Resolves once the functions are loaded, their requests trusting `trust` (Chromium keeps launching in its own processes meanwhile). */
  ready(trust: Trust): Promise<void>;
  evaluate(book: unknown, apiUrl: string, token: string, today?: string, dateSystem?: "1900" | "1904", extra?: Record<string, unknown>): Promise<EvaluationResult>;
  /**
   * Evaluates the sheets against the service `service` resolves to: the Node context loads them first, so its wait
   * for the service (the runner's own sandbox starting, the sign-in) overlaps the loads; Chromium waits, then loads.
   */
  evaluateWorkbook(
    sheets: readonly SheetInput[],
    definitions: WorkbookDefinitions,
    provenance: boolean | "keys",
    dateSystem: "1900" | "1904" | undefined,
    service: () => Promise<RunnerService>,
  ): Promise<WorkbookResult>;
  /** The page session's state (the persistent cache's lines, the changes, the planned requests). */
  session(): Promise<SessionState | undefined>;
  close(): Promise<void>;
}

/** The service a workbook is evaluated against, once it is ready. */
export interface RunnerService {
  readonly apiUrl: string;
  readonly token: string;
  readonly today?: string;
  /** The functions' other options (the persistent cache, data types, plan only). */
  readonly extra: Record<string, unknown>;
}

function configuration(apiUrl: string, token: string, today: string | undefined, dateSystem: "1900" | "1904", extra: Record<string, unknown>): HostConfiguration {
  return { ...extra, baseUrl: apiUrl, token, dateSystem, ...(today === undefined ? {} : { today }) };
}

function nodeRunnerHost(log: (message: string) => void): RunnerHost {
  let opened: Promise<{ api: PricesHostApi; close(): Promise<void> }> | undefined;
  let closed = false;
  const host = (): Promise<{ api: PricesHostApi; close(): Promise<void> }> => {
    if (closed) return Promise.reject(new Error("the host is closed"));
    return opened ?? Promise.reject(new Error("the functions' Node context is not ready"));
  };
  return {
    name: "the functions' Node context",
    origin: undefined,
    // opened once the service is known: the bundle compiles on this thread, after the read rather than in its way
    async ready(trust) {
      if (closed) throw new Error("the host is closed");
      // the host's engine and worksheet functions load here, after the read, not before the first line
      opened ??= import("./node-host").then(({ openNodeHost }) => openNodeHost({ dist: DIST, log, trust }));
      await opened;
    },
    async evaluate(book, apiUrl, token, today, dateSystem = "1900", extra = {}) {
      const { api } = await host();
      await api.configure(configuration(apiUrl, token, today, dateSystem, extra));
      return api.evaluate(book);
    },
    async evaluateWorkbook(sheets, definitions, provenance, dateSystem = "1900", service) {
      const { api } = await host();
      const beforeEvaluation = async (): Promise<void> => {
        const { apiUrl, token, today, extra } = await service();
        await api.configure(configuration(apiUrl, token, today, dateSystem, extra));
      };
      // a workbook file's price with no answer from the service keeps its saved value, left for Excel with why
      return api.evaluateWorkbook(sheets, { provenance, names: definitions.names, tables: definitions.tables, beforeEvaluation, leaveUnanswered: true });
    },
    session: async () => (await host()).api.session(),
    async close() {
      closed = true;
      await (await opened?.catch(() => undefined))?.close();
    },
  };
}

async function chromiumRunnerHost(options: RunnerOptions, log: (message: string) => void): Promise<RunnerHost> {
  const pages = await servePages(DIST);
  // Chromium starts in processes of its own while the runner reads the workbook and starts the service. The runner's
  // own sandbox allows the page's origin; any other service is reached without CORS checks.
  const opening = openHostPage(`${pages.origin}/host.html`, log, { allowCrossOrigin: options.service.kind !== "sandbox" });
  // a launch that fails while the workbook is read is reported when awaited, never as an unhandled rejection
  opening.catch(() => undefined);
  const page = async () => (await opening).page;
  return {
    name: "Chromium",
    origin: pages.origin,
    ready: async () => {
      await opening;
    },
    evaluate: async (book, apiUrl, token, today, dateSystem = "1900", extra = {}) => evaluateInPage(await page(), book, apiUrl, token, today, dateSystem, extra),
    evaluateWorkbook: async (sheets, definitions, provenance, dateSystem = "1900", service) => {
      const { apiUrl, token, today, extra } = await service();
      return evaluateWorkbookInPage(await page(), sheets, definitions, apiUrl, token, provenance, today, dateSystem, extra);
    },
    session: async () => (await page()).evaluate(() => window.PricesHost?.session()),
    async close() {
      await (await opening.catch(() => undefined))?.close();
      await pages.close();
    },
  };
}

/** The host the runner evaluates in, started: Chromium's launch is under way when this resolves, the Node context opens when first used. */
export async function openRunnerHost(options: RunnerOptions, log: (message: string) => void): Promise<RunnerHost> {
  return options.host === "chromium" ? chromiumRunnerHost(options, log) : nodeRunnerHost(log);
}
