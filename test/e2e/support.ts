/**
 * Shared set-up of the end-to-end files: one sandbox, one page server and one Chromium per file, books evaluated
 * through the runner's own helpers, and the service asked directly over HTTP for the expected values.
 * Expectations are computed here from the raw JSON, never with the client or the functions under test.
 */
import { createServer } from "node:net";
import { fromEpochDay } from "../../src/api/dates";
import type { EvaluationResult } from "../../src/host/page-api";
import type { PrintedValue } from "../../src/host/values";
import type { RunningSandbox } from "../../src/sandbox/server";
import { DIST, ensureBuilt, evaluateInPage, openHostPage, servePages, type HostBrowser, type PageServer } from "../../src/runner/host-page";
import { sandboxGet, sandboxToken } from "../support/service";

/** Active metals instruments whose series starts before `before` (YYYY-MM-DD): prices on any date after it, in the sandbox's order. */
export function activeMetals(sandbox: RunningSandbox, before: string): string[] {
  return sandbox.data.instruments
    .filter((instrument) => instrument.record.symbol.startsWith("MB-") && instrument.record.status === "Active" && fromEpochDay(instrument.series.days[0] ?? 0) < before)
    .map((instrument) => instrument.record.symbol);
}

/** An active metal priced on `date` (launched before 2025), its mid there as the service answers it over HTTP, and the full-scope token asked. */
export async function pricedMetal(sandbox: RunningSandbox, date: string): Promise<{ symbol: string; mid: number; token: string }> {
  const symbol = activeMetals(sandbox, "2025-01-01")[0] ?? "";
  const token = await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret");
  const response = await sandboxGet(sandbox, "/Prices", { Symbols: symbol, Dates: date }, token);
  expect(response.status).toBe(200);
  const mid = Number(prices(JSON.parse(response.text) as JsonObject, symbol)[0]?.mid);
  expect(Number.isFinite(mid)).toBe(true);
  return { symbol, mid, token };
}

/** A frozen "today" so the sandbox's data, and so every expectation, is the same on every run. */
export const TODAY = "2025-06-30";

export type Cells = Record<string, unknown>;
export type JsonObject = Record<string, unknown>;

export interface EvaluateOptions {
  /** Another token (e.g. the trial client's); default the full client's. */
  readonly token?: string;
  /** Another API base URL (e.g. a closed port); default the sandbox's. */
  readonly apiUrl?: string;
}

export interface E2E {
  readonly sandbox: RunningSandbox;
  readonly pages: PageServer;
  readonly browser: HostBrowser;
  /** A client-credentials token of `sandbox-full`. */
  readonly token: string;
  /** Configures the functions in the page (a new client each time, so no cache carries over) and evaluates. */
  evaluate(cells: Cells, options?: EvaluateOptions): Promise<EvaluationResult>;
  /** GET `path` of the API with `query`; fails the test unless the status is 200. */
  service(path: string, query: Readonly<Record<string, string>>, token?: string): Promise<JsonObject>;
  /** A client-credentials token for another confidential client of the sandbox. */
  clientToken(clientId: string, clientSecret: string): Promise<string>;
  close(): Promise<void>;
}

export async function startE2E(today = TODAY): Promise<E2E> {
  ensureBuilt(() => undefined);
  const pages = await servePages(DIST);
  const closers: (() => Promise<void>)[] = [() => pages.close()];
  const close = async (): Promise<void> => {
    for (const closer of closers.splice(0).reverse()) await closer().catch(() => undefined);
  };
  try {
    const { startSandbox } = await import("../../src/sandbox/server");
    const sandbox = await startSandbox({ port: 0, today, quiet: true, corsOrigins: [pages.origin] });
    closers.push(() => sandbox.close());
    const clientToken = (clientId: string, clientSecret: string): Promise<string> => sandboxToken(sandbox, clientId, clientSecret);
    const token = await clientToken("sandbox-full", "sandbox-full-secret");
    const browser = await openHostPage(`${pages.origin}/host.html`, () => undefined);
    closers.push(() => browser.close());
    return {
      sandbox,
      pages,
      browser,
      token,
      clientToken,
      close,
      // TODAY() in formulas is the sandbox's frozen day, as with the runner's --today
      evaluate: (cells, options = {}) => evaluateInPage(browser.page, { cells }, options.apiUrl ?? sandbox.apiUrl, options.token ?? token, today),
      async service(path, query, callerToken = token) {
        const { status, text } = await sandboxGet(sandbox, path, query, callerToken);
        if (status !== 200) throw new Error(`GET ${path} answered ${status}: ${text}`);
        return JSON.parse(text) as JsonObject;
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

// ---- reading the raw JSON (narrowing without the project's schemas, so a wrong schema cannot hide a bug) ----

export function objects(value: unknown, what: string): JsonObject[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not an array`);
  return value.map((item, index) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) throw new Error(`${what}[${index}] is not an object`);
    return item as JsonObject;
  });
}

export function text(value: unknown, what: string): string {
  if (typeof value !== "string") throw new Error(`${what} is not text`);
  return value;
}

/** The instrument block of `symbol` in a /Prices or /Prices/History answer. */
export function block(json: JsonObject, symbol: string): JsonObject {
  const found = objects(json.instruments, "instruments").find((item) => item.symbol === symbol);
  if (!found) throw new Error(`the service returned no block for ${symbol}: ${JSON.stringify(json).slice(0, 300)}`);
  return found;
}

export function prices(json: JsonObject, symbol: string): JsonObject[] {
  return objects(block(json, symbol).prices, `${symbol}.prices`);
}

/** Every instrument record the token may see, with the optional fields named. */
export async function instrumentRecords(e2e: E2E, fields: readonly string[] = []): Promise<JsonObject[]> {
  const json = await e2e.service("/Instruments", fields.length > 0 ? { Fields: fields.join(",") } : {});
  return objects(json.instruments, "instruments");
}

// ---- Excel's view of values, computed independently of src/formula/excel-dates.ts ----

const MS_PER_DAY = 86_400_000;
/** Excel serial 0 is 1899-12-30 for every date from 1900-03-01 on (the only ones the sandbox holds). */
const SERIAL_ZERO = Date.UTC(1899, 11, 30);

export function serialOf(isoDate: string): number {
  const [year, month, day] = isoDate.split("-").map(Number);
  return (Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1) - SERIAL_ZERO) / MS_PER_DAY;
}

/** A date-time with offset as a serial whose fraction is the UTC time of day. */
export function serialOfDateTime(dateTime: string): number {
  return (Date.parse(dateTime) - SERIAL_ZERO) / MS_PER_DAY;
}

export function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * MS_PER_DAY).toISOString().slice(0, 10);
}

// ---- sheet addresses ----

export function columnName(index: number): string {
  let name = "";
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  return name;
}

/** `A1`-style address of a zero-based column and a one-based row. */
export function address(column: number, row: number): string {
  return `${columnName(column)}${row}`;
}

/** The rectangle of printed cells at (column, row), blanks as null. */
export function region(cells: Record<string, PrintedValue>, column: number, row: number, rows: number, columns: number): PrintedValue[][] {
  return Array.from({ length: rows }, (_, r) => Array.from({ length: columns }, (_, c) => cells[address(column + c, row + r)] ?? null));
}

/** Numbers within 1e-9 (date-time fractions), everything else exactly; shows the cell on failure. */
export function expectCell(cells: Record<string, PrintedValue>, at: string, expected: unknown): void {
  const actual = cells[at];
  if (typeof expected === "number" && typeof actual === "number" && !Number.isInteger(expected)) {
    expect([at, Math.abs(actual - expected) < 1e-9 ? expected : actual]).toEqual([at, expected]);
  } else {
    expect([at, actual]).toEqual([at, expected]);
  }
}

/** A port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
  const bound = server.address();
  const port = typeof bound === "object" && bound !== null ? bound.port : 0;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}
