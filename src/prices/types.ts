/** Public types of the prices client (the contract others import through src/prices/index.ts). */
import type { Forecast, InstrumentRecord, PriceRecord, ReferenceGroup } from "../api/schemas";
import type { CalculationType, CalendarType, Limits, ReferenceType } from "../api/vocabulary";
import type { CacheStorage } from "./cache";
import type { GovernorPolicy } from "./governor";
import type { RetryPolicy } from "./retry";
import type { BatchScheduler } from "./scheduler";

export type { Forecast, InstrumentRecord, PriceRecord, ReferenceGroup, CalculationType, CalendarType, Limits, ReferenceType };

export interface TokenRequestOptions {
  /** The token the service just rejected (401): a new one is fetched only if the provider still holds it. */
  rejected?: string;
  /** A new token whatever is held (without `rejected`). */
  forceRefresh?: boolean;
}

export interface TokenProvider {
  /** Resolves to a bearer token. Rejects with AuthError: signed out, or renewal failing (with when it retries). */
  getToken(options?: TokenRequestOptions): Promise<string>;
}

export interface PriceKey {
  symbol: string;
  /** `YYYY-MM-DD` (non-padded accepted); absent = the latest assessment. */
  date?: string;
  calculationType?: CalculationType;
  /** Optional price fields of spec 2.5, any letter case. */
  fields?: readonly string[];
  /** Currency id to convert into (convention 21), any letter case; absent or blank = the instrument's own. */
  currency?: string;
  /** Unit of measure id to convert into, any letter case; absent or blank = the instrument's own. */
  unit?: string;
}

export interface HistoryKey {
  symbol: string;
  fromDate: string;
  toDate: string;
  calendarType?: CalendarType;
  carryForward?: boolean;
  forecastType?: string;
  calculationType?: CalculationType;
  fields?: readonly string[];
  currency?: string;
  unit?: string;
}

export interface SymbolHistory {
  symbol: string;
  firstDate: string;
  lastDate: string;
  /** Descending by date, as served. */
  prices: PriceRecord[];
  /** Days in range on which this instrument's returned values were assessed: `assessedDates.has(p.date)` tells an assessed value from a carried-forward one. */
  assessedDates: ReadonlySet<string>;
  forecast?: Forecast;
  /** The currency and unit the values are in, when a conversion was asked. */
  currencyId?: string;
  unitOfMeasureId?: string;
}

/** Settings of the response cache; ages in milliseconds. */
export interface CachePolicy {
  /** Bounds of the default in-memory storage (least recently used out first). */
  maxEntries: number;
  maxBytes: number;
  /** Dated prices and histories that end before today (UTC). */
  pastTtlMs: number;
  /** Latest prices, and dated prices or histories that reach today or later. */
  recentTtlMs: number;
  /** Instruments and references. */
  referenceTtlMs: number;
  /** Per-key answers that are errors but not failures (unknown instrument, no data, 4xx): kept briefly. 0 = never. */
  errorTtlMs: number;
}

export interface PricesClientOptions {
  /** API base URL, e.g. `https://localhost:4000/physical/v2`. */
  baseUrl: string;
  tokenProvider: TokenProvider;
  fetch?: typeof fetch;
  limits?: Partial<Limits>;
  /** Requests in flight at once (default 4). */
  maxInFlight?: number;
  /** Per attempt, covering headers and body (default 20,000). */
  timeoutMs?: number;
  /** Total time of one request: token waits, attempts, backoff and `Retry-After` (default 90,000, below a cell's 120 s deadline). */
  budgetMs?: number;
  retry?: Partial<RetryPolicy>;
  cache?: Partial<CachePolicy>;
  storage?: CacheStorage;
  /** When a window of keys is sent (default: a 2 ms timer). Tests pass a manual scheduler. */
  scheduler?: BatchScheduler;
  /** Clock in epoch milliseconds (cache ages, `Retry-After` dates, lineage). */
  now?: () => number;
  /** Records fetched per record asked that a merged price request may reach (default 4; 1 = never over-fetch). */
  maxOverfetch?: number;
  /** Request descriptions kept for `lineage` (default 1,000). */
  maxLineageRequests?: number;
  /** Keys whose lineage is kept (default 100,000); keys still waiting for their answer are always kept. */
  maxLineageKeys?: number;
  /** Waits between attempts; tests may replace it. */
  sleep?: (ms: number) => Promise<void>;
  /** Source of jitter in [0, 1). */
  random?: () => number;
  /** Longest query string sent with GET; a longer request goes as POST with a form body (default 4,096). */
  maxQueryLength?: number;
  /** The lowest limits a refusal may teach (default DEFAULT_LIMIT_FLOORS); below them the keys fail with the refusal. */
  limitFloors?: Partial<Limits>;
  /** The session's bound on requests per second and per refresh (default DEFAULT_GOVERNOR_POLICY). */
  governor?: Partial<GovernorPolicy>;
}

export type KeyKind = "price" | "history" | "instrument" | "instruments" | "reference";

export interface CacheFilter {
  kinds?: readonly KeyKind[];
  /** Any letter case. Keys without a symbol (instrument lists, references) are kept when symbols are given. */
  symbols?: readonly string[];
  /** Exactly these keys (a one-cell refresh drops only what that cell asked); with kinds or symbols, a key must match both. */
  keys?: readonly LineageKey[];
}

/** What `lineage` accepts: a key as passed to one of the calls. */
export type LineageKey =
  | PriceKey
  | HistoryKey
  | { instrument: string; fields?: readonly string[] }
  | { instruments: true; fields?: readonly string[] }
  | { reference: ReferenceType };

export interface RequestLog {
  id: number;
  endpoint: string;
  /** GET, or POST with a form body when the query would be longer than `maxQueryLength`. */
  method: "GET" | "POST";
  /** Parameters as sent (query or form body). */
  params: Record<string, string>;
  sentAt: number;
  /** HTTP attempts made (retries and the one after a 401 refresh included). */
  attempts: number;
  /** Delays waited before each retry, in ms. */
  retryDelaysMs: number[];
  keys: number;
  status?: number;
  records?: number;
  durationMs?: number;
  error?: string;
}

export interface KeyLineage {
  key: string;
  kind: KeyKind;
  /** True when the last ask was answered from the cache (or joined a request already in flight). */
  fromCache: boolean;
  requestId: number | undefined;
  /** The request that produced the value; undefined once it has left the bounded log. */
  request: RequestLog | undefined;
  askedAt: number;
  /** From the persistent cache: `from the cache, final since <date>`, `asked again: inside the correction window`, or a last known value. */
  cacheNote?: string;
}

export interface ClientStats {
  keysAsked: number;
  cacheHits: number;
  /** Keys that joined a request already in flight or queued for the same key. */
  joined: number;
  /** Distinct keys sent to the service. */
  keysRequested: number;
  /** Service requests planned (one per batch request, whatever its attempts). */
  requestsSent: number;
  /** HTTP attempts, retries included. */
  attempts: number;
  retries: number;
  /** Price records, instrument records and reference groups received. */
  recordsReceived: number;
  /** Price records asked of the service (symbols x dates per request), for the over-fetch ratio. */
  recordsRequested: number;
  /** Keys that settled with an error. */
  errors: number;
  /** Requests that failed as a whole. */
  failedRequests: number;
  /** Refused requests whose keys were planned again within a limit the service named (learned for the session). */
  replanned: number;
  inFlight: number;
  cacheEntries: number;
  cacheBytes: number;
}

/** How one ask may be answered. */
export interface AskOptions {
  /** Answer from the cache (or an ask already in flight) only; otherwise reject with NotCachedError, sending nothing. */
  cachedOnly?: boolean;
  /** Ask the service even when the cache holds an answer (a key already in flight is joined); the answer is kept as usual. Live polls use it. */
  fresh?: boolean;
  /**
   * Milliseconds from now within which the key settles, with its cause, when that is less than its own budget:
   * a cell's asks made one after another share the cell's time. Relative, so the caller's clock need not be the client's.
   */
  timeLeftMs?: number;
}

/** Who hears one answer without a promise of its own: its value, or its failure (one of the two, once). */
export interface Waiter<T> {
  answered(value: T): void;
  failed(error: unknown): void;
}

export interface PricesClient {
  price(key: PriceKey, options?: AskOptions): Promise<PriceRecord>;
  /** `price`, its answer handed to `waiter` rather than a promise (a cold model's 10,000 cells: no promise and handlers per key). */
  priceInto?(key: PriceKey, options: AskOptions | undefined, waiter: Waiter<PriceRecord>): void;
  history(key: HistoryKey, options?: AskOptions): Promise<SymbolHistory>;
  instrument(symbol: string, fields?: readonly string[], options?: AskOptions): Promise<InstrumentRecord>;
  /** All instruments the caller may see. */
  instruments(fields?: readonly string[], options?: AskOptions): Promise<InstrumentRecord[]>;
  references(type: ReferenceType, options?: AskOptions): Promise<ReferenceGroup>;
  /** Drops cached entries matching the filter (all when absent); returns how many. */
  invalidate(filter?: CacheFilter): number;
  stats(): ClientStats;
  lineage(key: LineageKey): KeyLineage | undefined;
}
