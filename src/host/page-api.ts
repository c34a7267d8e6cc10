/** The page API (`window.PricesHost`): load a book, evaluate it, read the grid and the request statistics. */
import { todayIso } from "../api/dates";
import { parseCellAddress } from "../formula/a1";
import { cellKey } from "./addresses";
import { type DateSystem, isoDateToSerial } from "../formula/excel-dates";
import { type ParsedFormula, readBook } from "./book";
import { throttled } from "./progress";
import { type ProofSummary, WorkbookEngine } from "./engine";
import type { FunctionMetadata } from "./metadata";
import type { ProvenanceClient, ProvenanceRow } from "../prices/provenance";
import { provenanceOf, withValues } from "./provenance";
import type { CustomFunctionsRuntime } from "./runtime";
import { type CacheSnapshot, type PageSession, type SessionState, openPageSession } from "../sessions/page-session";
import { type CellValue, type PrintedValue, type Unanswered, isCellError } from "./values";
import type { DefinedName, LeftForExcel, TableDefinition } from "./book-names";
import { BookScope } from "./book-scope";
import { dataTypeCells, isRichCell, plainOf, type DataTypeCell, type ResultCell } from "./rich-cells";

export interface TokenProviderLike {
  getToken(options?: { forceRefresh?: boolean }): Promise<string>;
}

/** `token` is for headless runs (page.evaluate cannot pass functions); pages pass a `tokenProvider`. */
export interface HostConfiguration {
  readonly baseUrl: string;
  readonly token?: string;
  /** The day TODAY() gives (YYYY-MM-DD), for a service whose data stops at a frozen day; else the machine's date. */
  readonly today?: string;
  /** The book's date system (default 1900): the functions read serials in it, TODAY() gives one in it. */
  readonly dateSystem?: DateSystem;
  readonly tokenProvider?: TokenProviderLike;
  /** The runner's `--cache` partition and `--plan` (src/sessions/page-session.ts). */
  readonly persistentCache?: CacheSnapshot;
  readonly planOnly?: boolean;
  readonly [option: string]: unknown;
}

export interface RequestCounter {
  readonly total: number;
  readonly byPath: Readonly<Record<string, number>>;
}

export interface HostStats {
  /** Requests the page sent to the configured service, counted at `fetch`. */
  readonly requests: number;
  readonly requestsByPath: Readonly<Record<string, number>>;
  /** `PricesAddin.stats()` when the functions bundle offers it (cache hits and the rest). */
  readonly client: unknown;
}

export interface EvaluationResult {
  readonly cells: Record<string, PrintedValue>;
  readonly stats: HostStats;
  /** Cells whose value is an error with no answer from the service about them (unreachable, 5xx, 429, auth, timeout), when any is. */
  readonly unanswered?: readonly UnansweredCell[];
}

/** A cell showing an error that is no answer from the service about it: which kind, and its message. */
export interface UnansweredCell {
  readonly cell: string;
  readonly kind: Unanswered;
  readonly why: string;
}

/** One sheet of a workbook, in the book format, named as the file names it. */
export interface SheetInput {
  readonly name: string;
  readonly book: unknown;
  /**
   * The reader's own tree of each formula, by address and with the text it parsed: an engine in the reader's process
   * takes it instead of parsing 20,000 formulas again; a page gets the JSON book alone.
   */
  readonly parsed?: ReadonlyMap<string, ParsedFormula>;
}

export interface SheetResult {
  readonly name: string;
  /** Every non-empty cell's value (errors as `{ kind: "error", code, message }`), spilled cells included. */
  readonly values: Record<string, CellValue>;
  /** Each formula's anchor and the area its result covers (`A1:C5`; the anchor alone for one value). */
  readonly spills: readonly { readonly anchor: string; readonly area: string }[];
  /** Every formula cell that must keep its cached value (not evaluated with Excel's semantics), its dependents included. */
  readonly leftForExcel?: readonly LeftForExcel[];
  /** Every formula anchor the engine evaluated (left for Excel or not): a formula of the file not listed keeps its cell as saved. */
  readonly evaluated?: readonly string[];
  /** The formulas evaluated and not left for Excel, by what the proof against the book's `saved` values said of them. */
  readonly proof?: ProofSummary;
  /** Cells holding a data type (`values` has their plain value): number format and card, by address. */
  readonly dataTypes: Readonly<Record<string, DataTypeCell>>;
}

export interface WorkbookResult {
  readonly sheets: readonly SheetResult[];
  /** With `provenance`: one row per price each PRICES formula showed (`"keys"`: without currency and unit, so no instrument is asked). */
  readonly provenance: readonly ProvenanceRow[];
  readonly stats: HostStats;
}

export interface PricesHostApi {
  readonly functions: readonly string[];
  configure(configuration: HostConfiguration): Promise<void>;
  loadBook(book: unknown): void;
  /** Loads `book` when given, recalculates everything, returns the grid and statistics. */
  evaluate(book?: unknown): Promise<EvaluationResult>;
  cells(): Record<string, PrintedValue>;
  /**
   * Evaluates every sheet of a workbook: sheets that read no other sheet at once (their PRICES calls batch together),
   * a sheet that reads others (`Inputs!A2`) after them. Progress goes to the log every few seconds. `beforeEvaluation`
   * runs once every sheet is loaded, before the first formula is evaluated: a caller configures the service there, its
   * sign-in meanwhile overlapping the loads.
   */
  evaluateWorkbook(
    sheets: readonly SheetInput[],
    options?: { provenance?: boolean | "keys"; names?: readonly DefinedName[]; tables?: readonly TableDefinition[]; beforeEvaluation?: () => Promise<void>; leaveUnanswered?: boolean },
  ): Promise<WorkbookResult>;
  stats(): HostStats;
  cancelAll(): void;
  /** The persistent cache's lines, the changes and the planned requests of the last configuration. */
  session(): SessionState | undefined;
}

interface PricesAddinHook {
  configure(options: Record<string, unknown>): Promise<void> | void;
  stats?: () => unknown;
  readonly client?: unknown;
}

export interface HostDependencies {
  readonly runtime: CustomFunctionsRuntime;
  readonly metadata: readonly FunctionMetadata[];
  readonly requests: () => RequestCounter;
  /** Where the functions bundle put its hook (globalThis in a page). */
  readonly addin: () => PricesAddinHook | undefined;
  /** The service origin whose requests are counted. */
  readonly setCountedBase: (baseUrl: string) => void;
  readonly timeoutMs?: number;
  readonly log?: (message: string) => void;
  readonly onChange?: () => void;
}

/** `12,000 of 19,800 formulas done` over every sheet loaded so far. */
function progressOf(engines: readonly WorkbookEngine[]): string {
  let done = 0;
  let formulas = 0;
  for (const engine of engines) {
    const sheet = engine.progress();
    done += sheet.done;
    formulas += sheet.formulas;
  }
  return `${grouped(done)} of ${grouped(formulas)} formulas done`;
}

/** `19,800`: thousands grouped by hand, since the first toLocaleString loads ICU's data (25 ms of the evaluation's main thread). */
function grouped(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * The cells of a sheet showing an error with no answer from the service about them, and the formulas whose calls had
 * none whatever they show (IFERROR's 0, ISNA's "n/a": not the price either), in cell order.
 */
function unansweredCells(engine: WorkbookEngine): UnansweredCell[] {
  const found = new Map<string, UnansweredCell>();
  for (const { address, cell } of engine.cellsInOrder()) {
    if (isCellError(cell) && cell.unanswered !== undefined) found.set(address, { cell: address, kind: cell.unanswered, why: cell.message ?? cell.code });
  }
  const calls = engine.unansweredCalls().filter((call) => !found.has(call.cell));
  if (calls.length === 0) return [...found.values()];
  return [...found.values(), ...calls].sort((a, b) => cellOrder(a.cell) - cellOrder(b.cell));
}

/** A cell's place in row-major order. */
function cellOrder(address: string): number {
  const position = parseCellAddress(address);
  return position === undefined ? 0 : cellKey(position.row, position.col);
}

export function createHostApi(dependencies: HostDependencies): PricesHostApi {
  let frozenToday: string | undefined;
  let system: DateSystem = "1900";
  const dateSystem = (): DateSystem => system;
  const today = (): number => isoDateToSerial(frozenToday ?? todayIso(), system);
  const engine = new WorkbookEngine({
    today,
    dateSystem,
    runtime: dependencies.runtime,
    metadata: dependencies.metadata,
    ...(dependencies.timeoutMs === undefined ? {} : { timeoutMs: dependencies.timeoutMs }),
    ...(dependencies.log ? { log: dependencies.log } : {}),
    ...(dependencies.onChange ? { onChange: dependencies.onChange } : {}),
  });
  const stats = (): HostStats => {
    const counter = dependencies.requests();
    const hook = dependencies.addin();
    return { requests: counter.total, requestsByPath: counter.byPath, client: hook?.stats ? hook.stats() : null };
  };
  let serviceUrl = "";
  let session: PageSession | undefined;
  const provenanceClient = (): ProvenanceClient | undefined => {
    const client = dependencies.addin()?.client;
    return typeof client === "object" && client !== null && typeof (client as { price?: unknown }).price === "function" ? (client as ProvenanceClient) : undefined;
  };
  const api: PricesHostApi = {
    functions: dependencies.metadata.map((fn) => fn.name),
    async configure(configuration) {
      const hook = dependencies.addin();
      if (!hook) throw new Error("functions.js did not define globalThis.PricesAddin.configure");
      const { token, tokenProvider, today: day, persistentCache, planOnly, ...rest } = configuration;
      frozenToday = day;
      system = configuration.dateSystem ?? "1900";
      const provider: TokenProviderLike | undefined =
        tokenProvider ?? (token === undefined ? undefined : { getToken: () => Promise.resolve(token) });
      if (!provider) throw new Error("configure needs a token or a tokenProvider");
      dependencies.setCountedBase(configuration.baseUrl);
      serviceUrl = configuration.baseUrl;
      // No recalculation request: the host evaluates when asked.
      session = await openPageSession(configuration.baseUrl, persistentCache, planOnly === true);
      await hook.configure({ recalculate: false, ...rest, ...session.clientOptions, tokenProvider: provider });
    },
    loadBook(book) {
      engine.load(readBook(book));
    },
    async evaluate(book) {
      if (book !== undefined) api.loadBook(book);
      await engine.evaluate();
      const unanswered = unansweredCells(engine);
      return { cells: engine.cells(), stats: stats(), ...(unanswered.length === 0 ? {} : { unanswered }) };
    },
    cells: () => engine.cells(),
    async evaluateWorkbook(sheets, options = {}) {
      const byName = new Map<string, WorkbookEngine>();
      /** Sheet -> the sheets it may read: those evaluated before it (a reference back along a cycle is refused). */
      const readable = new Map<WorkbookEngine, Set<WorkbookEngine>>();
      const scope = new BookScope(options.names ?? [], options.tables ?? []);
      const started = Date.now();
      const engines: WorkbookEngine[] = [];
      // a line at least every second, from inside the long synchronous stretches too (a 20,000-formula sheet's load,
      // the start of its 10,000 PRICES calls): every cell read and formula loaded, proven or started asks for one
      const line = throttled((message) => dependencies.log?.(message));
      const progressLine = (): string => `workbook: evaluating, ${progressOf(engines)} after ${Math.round((Date.now() - started) / 1000)} s`;
      // one closure for the line, not one per step (every cell read, formula loaded, proven, run and placed is a step)
      const step = (): void => {
        line(progressLine);
      };
      for (const sheet of sheets) {
        const sheetEngine: WorkbookEngine = new WorkbookEngine({
          runtime: dependencies.runtime,
          metadata: dependencies.metadata,
          sheetName: sheet.name,
          otherSheet: (name) => {
            const other = byName.get(name.toLowerCase());
            if (!other) return `the workbook has no sheet '${name}'`;
            return readable.get(sheetEngine)?.has(other) ? other : `'${name}' also reads this sheet: the host evaluates one sheet after another, so references between two sheets go one way only`;
          },
          today,
          dateSystem,
          scope,
          ...(options.leaveUnanswered === true ? { leaveUnanswered: true } : {}),
          ...(dependencies.timeoutMs === undefined ? {} : { timeoutMs: dependencies.timeoutMs }),
          ...(dependencies.log ? { log: dependencies.log, onStep: step } : {}),
        });
        sheetEngine.load(readBook(sheet.book, step, sheet.parsed));
        byName.set(sheet.name.toLowerCase(), sheetEngine);
        engines.push(sheetEngine);
      }
      await options.beforeEvaluation?.();
      // A sheet starts once the sheets it reads are done; sheets that read no other sheet run together (their PRICES calls batch).
      const finished = new Map<WorkbookEngine, Promise<void>>();
      const visiting = new Set<WorkbookEngine>();
      const evaluateAfterItsInputs = (sheetEngine: WorkbookEngine): Promise<void> => {
        const known = finished.get(sheetEngine);
        if (known) return known;
        visiting.add(sheetEngine);
        const inputs = [...sheetEngine.otherSheetsRead()]
          .map((name) => byName.get(name))
          .filter((other): other is WorkbookEngine => other !== undefined && other !== sheetEngine && !visiting.has(other));
        readable.set(sheetEngine, new Set(inputs));
        const done = Promise.all(inputs.map(evaluateAfterItsInputs)).then(() => sheetEngine.evaluate());
        visiting.delete(sheetEngine);
        finished.set(sheetEngine, done);
        return done;
      };
      // and while the service answers, when no step runs
      const progress = setInterval(step, 500);
      try {
        await Promise.all(engines.map(evaluateAfterItsInputs));
      } finally {
        clearInterval(progress);
      }
      const results = engines.map((sheetEngine, index): SheetResult => {
        const values: Record<string, CellValue> = {};
        const cells = sheetEngine.cellsInOrder();
        /** The cells holding a data type: few or none of a sheet's 20,000. */
        const rich = new Map<string, ResultCell>();
        for (const { address, cell } of cells) {
          values[address] = plainOf(cell);
          if (isRichCell(cell)) rich.set(address, cell);
        }
        const dataTypes = dataTypeCells([...rich.keys()], (address) => rich.get(address) ?? null);
        const spills = sheetEngine.spillAddresses();
        return { name: sheets[index]?.name ?? "", values, spills, dataTypes, leftForExcel: sheetEngine.leftForExcel(), proof: sheetEngine.proofs(), evaluated: spills.map((spill) => spill.anchor) };
      });
      const provenance = options.provenance
        ? (await Promise.all(engines.map((sheetEngine, index) => provenanceOf(sheets[index]?.name ?? "", withValues(sheetEngine.customCalls(), (row, col) => sheetEngine.value(row, col)), provenanceClient(), serviceUrl, system, options.provenance === true, frozenToday ?? todayIso())))).flat()
        : [];
      return { sheets: results, provenance, stats: stats() };
    },
    stats,
    cancelAll: () => { engine.cancelAll(); },
    session: () => session?.state(),
  };
  return api;
}
