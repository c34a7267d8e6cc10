/**
 * Soak of the functions under faults (`npm run bench:soak`): the real functions bundle (dist/functions.js, the
 * one the headless runner loads) in the host engine, in Node, against sandboxes in child processes over HTTPS.
 * Prints one JSON line per case and rewrites the "Soak" section of docs/benchmarks.md (`--no-write` leaves it).
 *
 *   soak          a sheet of > 20,000 PRICES cells (a grid of mids, histories, averages, instrument fields,
 *                 a reference list) refreshed pass after pass for `--seconds` (default 100) against a sandbox
 *                 with `--faults` and tokens that expire every 30 s; the token service is unreachable for 10 s
 *                 in the middle (a loopback TCP proxy in front of it is closed). Every pass is compared cell
 *                 by cell with one pass against a fault-free sandbox of the same data.
 *   soak-latency  80 ms added to every API request: the cold 200 x 50 grid through the functions, and the same
 *                 10,000 cells asked one request per cell (6 in flight, as a browser allows per host).
 */
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, connect, type Server, type Socket } from "node:net";
import { loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Agent } from "undici";
import { dispatcherFetch } from "../src/prices/dispatcher-fetch";
import { addDays } from "../src/api/dates";
import { columnName } from "../src/formula/a1";
import type { PricesAddin } from "../src/functions/hook";
import { readBook } from "../src/host/book";
import { WorkbookEngine } from "../src/host/engine";
import { parseFunctionsMetadata } from "../src/host/metadata";
import { createCustomFunctionsRuntime } from "../src/host/runtime";
import type { PrintedValue } from "../src/host/values";
import { renewLead } from "../src/prices/token-session";
import { clientCredentialsTokenProvider } from "../src/prices/tokens";
import { rawLines, targetTable, writeSection } from "./bench-section";
import { weekdays } from "../test/helpers/weekdays";
import { DIST, ensureBuilt } from "../src/runner/host-page";

const TODAY = "2025-06-30";
const SCOPE = "sandbox.physicalprices.api";
const FAULTS = "latency=300ms:0.1,500:0.03,503:0.03,429=1:0.03,drop:0.02,truncate:0.02";
const TOKEN_TTL_S = 30;
const OUTAGE_MS = 10_000;

interface ServeOptions {
  faults?: string;
  tokenTtl?: number;
}

interface Ready {
  apiUrl: string;
  issuer: string;
  ca: string;
  symbols: { symbol: string; daily: boolean; launchDate: string; status: string }[];
}

// ---- the sandboxes, each in a child process so that its CPU is not the functions' ----

async function serve(options: ServeOptions): Promise<void> {
  const { startSandbox } = await import("../src/sandbox/server");
  const sandbox = await startSandbox({ port: 0, quiet: true, today: TODAY, rateLimit: 0, ...options });
  const ready: Ready = {
    apiUrl: sandbox.apiUrl,
    issuer: sandbox.issuer,
    ca: sandbox.ca,
    symbols: sandbox.data.instruments.map((item) => ({ symbol: item.record.symbol, daily: item.record.frequency === "Daily", launchDate: item.record.launchDate, status: item.record.status })),
  };
  process.send?.(ready);
  process.on("message", () => {
    void sandbox.close().then(() => process.exit(0));
  });
}

function startChild(options: ServeOptions): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(__filename, ["--serve", JSON.stringify(options)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("message", (message) => resolve({ child, ready: message as Ready }));
    child.once("exit", (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.send("stop");
  });
}

// ---- a loopback TCP proxy in front of the token service, closed for the outage ----

interface Proxy {
  readonly port: number;
  /** Refuses connections (and cuts those open) for `ms`. */
  outage(ms: number): Promise<void>;
  close(): Promise<void>;
}

async function tcpProxy(targetPort: number): Promise<Proxy> {
  const sockets = new Set<Socket>();
  const handle = (client: Socket): void => {
    const upstream = connect(targetPort, "127.0.0.1");
    sockets.add(client).add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream).pipe(client);
  };
  let server: Server = createServer(handle);
  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
    });
  const port = await listen(0);
  const shut = (): Promise<void> =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      server.close(() => resolve());
    });
  return {
    port,
    async outage(ms) {
      await shut();
      await new Promise((resolve) => setTimeout(resolve, ms));
      server = createServer(handle);
      await listen(port);
    },
    close: shut,
  };
}

// ---- the functions bundle in the host engine ----

interface Functions {
  addin: PricesAddin;
  engine: WorkbookEngine;
}

function loadFunctions(): Functions {
  const runtime = createCustomFunctionsRuntime();
  const scope = globalThis as unknown as Record<string, unknown>;
  scope.CustomFunctions = runtime.global;
  new Function(readFileSync(path.join(DIST, "functions.js"), "utf8"))();
  const addin = scope.PricesAddin as PricesAddin | undefined;
  if (!addin) throw new Error("dist/functions.js did not define PricesAddin");
  const metadata = parseFunctionsMetadata(JSON.parse(readFileSync(path.join(DIST, "functions.json"), "utf8")));
  // Beyond the functions' own 120 s deadline: a #BUSY! cell is one the functions never settled.
  const engine = new WorkbookEngine({ runtime, metadata, namespace: "PRICES", timeoutMs: 150_000 });
  return { addin, engine };
}

/** A column's letters, counting from 1 as the sheet's layout here does. */
const column = (index: number): string => columnName(index - 1);

/** The soak's sheet: inputs, and the PRICES formulas whose spilled cells are counted. */
function soakBook(symbols: string[]): { cells: Record<string, unknown>; inputs: Set<string> } {
  const cells: Record<string, unknown> = {};
  const dates = weekdays(addDays(TODAY, -3), 100);
  symbols.slice(0, 100).forEach((symbol, index) => (cells[`A${index + 2}`] = symbol));
  dates.forEach((date, index) => (cells[`${column(index + 2)}1`] = date));
  // 100 x 100 mids.
  cells.B2 = `=PRICES.MID(A2:A101, B1:${column(101)}1)`;
  // Instrument descriptions and currencies, and a reference list.
  cells.CY2 = `=PRICES.INSTRUMENT(A2:A101, "description")`;
  cells.CZ2 = `=PRICES.INSTRUMENT(A2:A101, "currencyId")`;
  cells.DA2 = `=PRICES.REFERENCE("Currency")`;
  // Monthly averages of 50 symbols at 12 month ends.
  const monthEnds = Array.from({ length: 12 }, (_, index) => {
    const [year, month] = [2024 + Math.floor((6 + index) / 12), ((6 + index) % 12) + 1];
    return addDays(`${year}-${String(month).padStart(2, "0")}-01`, 27);
  });
  monthEnds.forEach((date, index) => (cells[`${column(index + 2)}399`] = date));
  cells.B400 = `=PRICES.AVERAGE(A2:A51, "Monthly", B399:M399)`;
  // 12 one-year daily histories, four columns each.
  for (let index = 0; index < 12; index += 1) {
    cells[`${column(110 + index * 5)}1`] = `=PRICES.HISTORY(A${index + 2}, "${addDays(TODAY, -365)}", "${addDays(TODAY, -3)}", "date,low,mid,high", 0)`;
  }
  const inputs = new Set(Object.keys(cells).filter((address) => typeof cells[address] !== "string" || !String(cells[address]).startsWith("=")));
  return { cells, inputs };
}

function credentialsProvider(apiUrl: string, tokenUrl: string, fetchImpl: typeof fetch, policy: Record<string, number>) {
  return clientCredentialsTokenProvider({ tokenUrl, clientId: "sandbox-full", clientSecret: "sandbox-full-secret", scope: SCOPE, resource: apiUrl, fetch: fetchImpl, policy });
}

interface Counted {
  fetch: typeof fetch;
  counts: { tokenAnswered: number; tokenAttempts: number; api: number };
}

function countingFetch(ca: string, tokenUrl: string, connections = 16): Counted {
  const agent = new Agent({ connect: { ca }, connections });
  const counts = { tokenAnswered: 0, tokenAttempts: 0, api: 0 };
  const agentFetch = dispatcherFetch(agent);
  const fetchImpl: typeof fetch = async (input, init) => {
    const token = String(input).startsWith(tokenUrl);
    if (token) counts.tokenAttempts += 1;
    else counts.api += 1;
    const response = await agentFetch(input, init);
    if (token) counts.tokenAnswered += 1;
    return response;
  };
  return { fetch: fetchImpl, counts };
}

async function evaluate(functions: Functions, book: Record<string, unknown>): Promise<{ cells: Record<string, PrintedValue>; wallMs: number }> {
  const start = performance.now();
  functions.engine.load(readBook({ cells: book }));
  await functions.engine.evaluate();
  return { cells: functions.engine.cells(), wallMs: performance.now() - start };
}

const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

/** For each cell of a formula's spill in the fault-free pass, the formula's own cell. */
function spillAnchors(book: Record<string, unknown>, cells: Record<string, PrintedValue>, inputs: ReadonlySet<string>): Map<string, string> {
  const at = (address: string): [number, number] => {
    const match = /^([A-Z]+)(\d+)$/.exec(address) as RegExpExecArray;
    let col = 0;
    for (const char of match[1] as string) col = col * 26 + (char.charCodeAt(0) - 64);
    return [Number(match[2]), col];
  };
  const anchors = Object.keys(book).filter((address) => !inputs.has(address));
  const taken = new Set(anchors);
  const owner = new Map<string, string>();
  for (const anchor of anchors) {
    const [row, col] = at(anchor);
    let width = 1;
    while (cells[`${column(col + width)}${row}`] !== undefined && !taken.has(`${column(col + width)}${row}`) && !inputs.has(`${column(col + width)}${row}`)) width += 1;
    let height = 1;
    while (cells[`${column(col)}${row + height}`] !== undefined && !taken.has(`${column(col)}${row + height}`) && !inputs.has(`${column(col)}${row + height}`)) height += 1;
    for (let r = 0; r < height; r += 1) for (let c = 0; c < width; c += 1) owner.set(`${column(col + c)}${row + r}`, anchor);
  }
  return owner;
}
/** An error cell that says why: an error code followed by a message that is not the generic deadline. */
const NAMED = /^#(N\/A|VALUE!): (?!no answer from the service within)\S/;

const cases: Record<string, string | number>[] = [];
function emit(record: Record<string, string | number>): void {
  cases.push(record);
  process.stdout.write(`${JSON.stringify(record)}\n`);
}

async function soak(functions: Functions, seconds: number): Promise<void> {
  const clean = await startChild({});
  const faulty = await startChild({ faults: FAULTS, tokenTtl: TOKEN_TTL_S });
  const children = [clean.child, faulty.child];
  try {
    const symbols = clean.ready.symbols.filter((item) => item.daily && item.status === "Active" && item.launchDate < "2023-01-01").map((item) => item.symbol);
    const { cells: book, inputs } = soakBook(symbols);

    // The fault-free pass: what every cell must show.
    const cleanTokenUrl = `${clean.ready.issuer}/token`;
    const cleanFetch = countingFetch(clean.ready.ca, cleanTokenUrl);
    await functions.addin.configure({ baseUrl: clean.ready.apiUrl, tokenProvider: credentialsProvider(clean.ready.apiUrl, cleanTokenUrl, cleanFetch.fetch, {}), fetch: cleanFetch.fetch, recalculate: false });
    const expected = (await evaluate(functions, book)).cells;
    const counted = Object.keys(expected).filter((address) => !inputs.has(address));
    const anchorOf = spillAnchors(book, expected, inputs);
    const expectedErrors = counted.filter((address) => String(expected[address]).startsWith("#"));
    if (expectedErrors.length > 0) throw new Error(`the fault-free pass has ${expectedErrors.length} error cells, e.g. ${expectedErrors[0]}: ${String(expected[expectedErrors[0] as string])}`);

    // The faulty sandbox, its token service behind the proxy.
    const issuer = new URL(faulty.ready.issuer);
    const proxy = await tcpProxy(Number(issuer.port));
    const tokenUrl = `${issuer.protocol}//${issuer.hostname}:${proxy.port}${issuer.pathname}/token`;
    const faultyFetch = countingFetch(faulty.ready.ca, tokenUrl);
    const provider = credentialsProvider(faulty.ready.apiUrl, tokenUrl, faultyFetch.fetch, {});
    let signOuts = 0;
    let wasEnded = false;
    const watch = setInterval(() => {
      const ended = provider.state().status === "ended";
      if (ended && !wasEnded) signOuts += 1;
      wasEnded = ended;
    }, 200);
    await functions.addin.configure({ baseUrl: faulty.ready.apiUrl, tokenProvider: provider, fetch: faultyFetch.fetch, recalculate: false });

    const started = performance.now();
    // In the middle, over a renewal and the expiry after it: from 3 s before the second renewal is due.
    const renewEvery = TOKEN_TTL_S * 1000 - renewLead(TOKEN_TTL_S * 1000);
    const outageAt = Math.max(renewEvery * Math.max(1, Math.round(seconds * 500 / renewEvery)) - 3_000, 0);
    const outage = new Promise<void>((resolve) => setTimeout(resolve, outageAt)).then(() => proxy.outage(OUTAGE_MS));
    let passes = 0;
    let right = 0;
    let wrong = 0;
    let named = 0;
    let unnamed = 0;
    let unsettled = 0;
    let slowestPassMs = 0;
    const causes = new Map<string, number>();
    const wrongSamples: string[] = [];
    while (performance.now() - started < seconds * 1000) {
      // A refresh: the client's cache dropped, every formula evaluated again.
      (functions.addin.client as { invalidate?: () => number } | undefined)?.invalidate?.();
      const pass = await evaluate(functions, book);
      passes += 1;
      slowestPassMs = Math.max(slowestPassMs, pass.wallMs);
      for (const address of counted) {
        const value = pass.cells[address];
        const shown = String(value);
        // A formula that fails shows its error in its own cell and spills nothing: its other cells are that error's.
        const anchor = anchorOf.get(address);
        const failedSpill = value === undefined && anchor !== undefined && String(pass.cells[anchor]).startsWith("#");
        const shownOrAnchor = failedSpill ? String(pass.cells[anchor as string]) : shown;
        if (value === expected[address]) right += 1;
        else if (shownOrAnchor.startsWith("#BUSY!")) unsettled += 1;
        else if (failedSpill) {
          if (NAMED.test(shownOrAnchor)) named += 1;
          else unnamed += 1;
        } else if (shown.startsWith("#")) {
          if (NAMED.test(shown)) named += 1;
          else unnamed += 1;
          const cause = shown.replace(/\d+(\.\d+)?/g, "N").slice(0, 90);
          causes.set(cause, (causes.get(cause) ?? 0) + 1);
        } else {
          wrong += 1;
          if (wrongSamples.length < 3) wrongSamples.push(`${address}: ${shown} (expected ${String(expected[address])})`);
        }
      }
    }
    const durationMs = performance.now() - started;
    await outage;
    clearInterval(watch);
    await proxy.close();
    const expiries = Math.floor(durationMs / (TOKEN_TTL_S * 1000));
    const topCauses = [...causes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([cause, count]) => `${count}x ${cause}`).join(" | ");
    emit({
      case: "soak",
      faults: FAULTS,
      tokenTtlS: TOKEN_TTL_S,
      outageMs: OUTAGE_MS,
      outageAtMs: round(outageAt),
      cellsPerPass: counted.length,
      passes,
      cells: passes * counted.length,
      right,
      wrong,
      namedErrors: named,
      unnamedErrors: unnamed,
      unsettled,
      tokenRequests: faultyFetch.counts.tokenAnswered,
      tokenAttempts: faultyFetch.counts.tokenAttempts,
      tokenRequestsAllowed: 1 + expiries + 1,
      signOuts,
      apiRequests: faultyFetch.counts.api,
      slowestPassMs: round(slowestPassMs),
      durationMs: round(durationMs),
      ...(topCauses ? { errorCauses: topCauses } : {}),
      ...(wrongSamples.length > 0 ? { wrongSamples: wrongSamples.join(" | ") } : {}),
    });
  } finally {
    for (const child of children) await stopChild(child);
  }
}

async function latency(functions: Functions): Promise<void> {
  const slow = await startChild({ faults: "latency=80ms:1" });
  try {
    const symbols = slow.ready.symbols.filter((item) => item.status === "Active" && item.launchDate < "2023-01-01").map((item) => item.symbol).slice(0, 200);
    if (symbols.length < 200) throw new Error(`the sandbox has ${symbols.length} active instruments launched before 2023, not 200`);
    const dates = weekdays(addDays(TODAY, -3), 50);
    const book: Record<string, unknown> = {};
    symbols.forEach((symbol, index) => (book[`A${index + 2}`] = symbol));
    dates.forEach((date, index) => (book[`${column(index + 2)}1`] = date));
    book.B2 = `=PRICES.MID(A2:A${symbols.length + 1}, B1:${column(dates.length + 1)}1)`;
    const tokenUrl = `${slow.ready.issuer}/token`;
    const counted = countingFetch(slow.ready.ca, tokenUrl, 6);
    const provider = credentialsProvider(slow.ready.apiUrl, tokenUrl, counted.fetch, {});
    const token = await provider.getToken();
    // Cold: a new client (empty cache) each run; best of 3.
    const grid: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      await functions.addin.configure({ baseUrl: slow.ready.apiUrl, tokenProvider: provider, fetch: counted.fetch, recalculate: false });
      const before = counted.counts.api;
      const pass = await evaluate(functions, book);
      const numbers = Object.values(pass.cells).filter((value) => typeof value === "number").length;
      if (numbers < symbols.length * dates.length) throw new Error(`the grid filled ${numbers} of ${symbols.length * dates.length} cells`);
      if (counted.counts.api - before !== 1) throw new Error(`the grid took ${counted.counts.api - before} requests`);
      grid.push(pass.wallMs);
    }
    // One request per cell, 6 in flight.
    const pairs = symbols.flatMap((symbol) => dates.map((date) => [symbol, date] as const));
    const perCellStart = performance.now();
    let next = 0;
    let failed = 0;
    const worker = async (): Promise<void> => {
      for (let index = next++; index < pairs.length; index = next++) {
        const [symbol, date] = pairs[index] as readonly [string, string];
        const response = await counted.fetch(`${slow.ready.apiUrl}/Prices?Symbols=${encodeURIComponent(symbol)}&Dates=${date}`, { headers: { authorization: `Bearer ${token}` } });
        if (!response.ok) failed += 1;
        await response.text();
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    const perCellMs = performance.now() - perCellStart;
    const best = Math.min(...grid);
    emit({ case: "soak-latency", addedLatencyMs: 80, cells: pairs.length, gridRequests: 1, gridWallMs: round(best), gridWallMsRuns: grid.map((ms) => round(ms)).join(" "), perCellRequests: pairs.length, perCellInFlight: 6, perCellFailed: failed, perCellWallMs: round(perCellMs), ratio: round(perCellMs / best) });
  } finally {
    await stopChild(slow.child);
  }
}

/** The "Soak" section of docs/benchmarks.md, written by the benchmarks' one section writer. */
async function writeSoakSection(date: string, startLoad: string): Promise<void> {
  const soakCase = cases.find((item) => item.case === "soak");
  const lat = cases.find((item) => item.case === "soak-latency");
  const n = (record: Record<string, string | number> | undefined, field: string): number => Number(record?.[field] ?? NaN);
  const yes = (ok: boolean): string => (ok ? "yes" : "NO");
  const rows: string[][] = [];
  if (soakCase) {
    rows.push(
      ["cells", `${n(soakCase, "cells").toLocaleString("en-US")} (${n(soakCase, "passes")} refreshes of ${n(soakCase, "cellsPerPass").toLocaleString("en-US")} PRICES cells)`, ">= 20,000 per sheet", yes(n(soakCase, "cellsPerPass") >= 20_000)],
      ["cells right (equal to the fault-free run)", String(n(soakCase, "right")), "-", "-"],
      ["cells wrong", String(n(soakCase, "wrong")), "0", yes(n(soakCase, "wrong") === 0)],
      ["cells with a named error (a failed formula's spill counts as its error)", `${n(soakCase, "namedErrors")}${soakCase.errorCauses ? ` (${String(soakCase.errorCauses).replace(/\|/g, "/")})` : ""}`, "every error names its cause", yes(n(soakCase, "unnamedErrors") === 0)],
      ["cells with an error naming no cause", String(n(soakCase, "unnamedErrors")), "0", yes(n(soakCase, "unnamedErrors") === 0)],
      ["cells never settled", String(n(soakCase, "unsettled")), "0", yes(n(soakCase, "unsettled") === 0)],
      ["token requests (answered by the token service; attempts in all)", `${n(soakCase, "tokenRequests")} (${n(soakCase, "tokenAttempts")})`, `<= ${n(soakCase, "tokenRequestsAllowed")} (1 + one per expiry + one per outage)`, yes(n(soakCase, "tokenRequests") <= n(soakCase, "tokenRequestsAllowed"))],
      ["sign-outs", String(n(soakCase, "signOuts")), "0", yes(n(soakCase, "signOuts") === 0)],
      ["time to the last cell (slowest refresh)", `${n(soakCase, "slowestPassMs")} ms`, "-", "-"],
    );
  }
  if (lat) {
    rows.push(
      ["80 ms latency: cold 200 x 50 grid through the functions (best of 3)", `${n(lat, "gridWallMs")} ms, 1 request`, "<= 400 ms", yes(n(lat, "gridWallMs") <= 400)],
      ["80 ms latency: one request per cell, 6 in flight", `${n(lat, "perCellWallMs")} ms, ${n(lat, "perCellRequests")} requests`, "-", "-"],
      ["80 ms latency: ratio", `${n(lat, "ratio")}x`, ">= 300x", yes(n(lat, "ratio") >= 300)],
    );
  }
  const body = [
    `Written by \`npm run bench:soak\` (scripts/bench-soak.ts) on ${date}, Node ${process.version}, load average ${startLoad} at the start and ${loadavg().map((value) => value.toFixed(1)).join(" ")} at the end. The real functions bundle (dist/functions.js, as the headless runner loads it) runs in the host engine in Node; the sandboxes run in child processes over HTTPS on loopback, with data to ${TODAY}. Faults: \`${FAULTS}\`, tokens of ${TOKEN_TTL_S} s (client credentials, the default token policy), and the token service unreachable for ${OUTAGE_MS / 1000} s in the middle, from 3 s before a renewal is due until after that token's expiry (a TCP proxy in front of it closed). Each refresh drops the client's cache and evaluates the whole sheet again; every cell is compared with one fault-free pass. An error cell "names its cause" when its message is not the cell deadline's generic one.`,
    "",
    targetTable(rows),
    "",
    rawLines(cases),
  ].join("\n");
  await writeSection("Soak", body);
}

/** The command line: `--serve OPTIONS` runs the sandbox child; otherwise the benchmark. */
const { values } = parseArgs({ options: { seconds: { type: "string", default: "100" }, "no-write": { type: "boolean", default: false }, only: { type: "string" }, serve: { type: "string" } } });

async function main(): Promise<void> {
  const seconds = Number(values.seconds);
  if (!Number.isFinite(seconds) || seconds < 40) throw new Error("--seconds must be at least 40 (two token lifetimes and the outage)");
  const startLoad = loadavg().map((value) => value.toFixed(1)).join(" ");
  ensureBuilt((message) => process.stderr.write(`${message}\n`));
  const functions = loadFunctions();
  if (values.only !== "latency") await soak(functions, seconds);
  if (values.only !== "soak") await latency(functions);
  if (!values["no-write"]) await writeSoakSection(new Date().toISOString().slice(0, 10), startLoad);
}

if (values.serve !== undefined) {
  void serve(JSON.parse(values.serve) as ServeOptions);
} else {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
