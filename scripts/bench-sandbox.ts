/**
 * Sandbox figures (`npm run bench:sandbox`): in-process p50/p99 through `inject`, requests/s over HTTPS on
 * loopback with autocannon, start time and resident memory of the real CLI. Prints one JSON line per case and
 * writes the table into docs/benchmarks.md's "Sandbox" section.
 */
import { readFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { Readable } from "node:stream";
import autocannon from "autocannon";
import Fastify, { type FastifyInstance } from "fastify";
import { DEFAULT_LIMITS, INSTRUMENT_FIELD_NAMES, fromEpochDay, toEpochDay } from "../src/api";
import { buildApp } from "../src/sandbox/app";
import { createTokenService } from "../src/sandbox/auth";
import { generateDataSet } from "../src/sandbox/data/generator";
import { Catalogue } from "../src/sandbox/service/catalogue";
import { historyQuery } from "../src/sandbox/service/history";
import { collectParams } from "../src/sandbox/service/params";
import { parseHistoryRequest } from "../src/sandbox/service/requests";
import { caFetch, clientCredentialsToken } from "../test/helpers/sandbox";
import { type TargetRow, reportCase, targetTable, writeSection } from "./bench-section";
import { startSandboxCli, stopSandboxCli } from "./sandbox-cli";

const TODAY = "2025-06-30";
const HISTORY_RECORD_LIMIT = 1_000_000;
const START_RUNS = 3;
const loadAtStart = loadavg();

const rows: TargetRow[] = [];

function report(name: string, result: Record<string, number | string>, figure: string, target: string, met: boolean): void {
  reportCase(rows, name, result, figure, target, met);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const ms2 = (value: number): number => Number(value.toFixed(2));

interface Timed {
  /** The first request (nothing kept from earlier requests). */
  first: number;
  p50: number;
  p99: number;
  /** Process CPU time (user + system) per request, after the warm-up: steadier than wall time on a shared machine. */
  cpuMs: number;
  bytes: number;
}

/**
 * `runs` timed requests after 5 warm-up ones; `url` may vary by run. The body is read as a stream of bytes, as an
 * HTTP client reads it; with `asString`, as inject's default does (one more copy and a UTF-8 decode of the whole).
 */
async function timeInject(app: FastifyInstance, url: string | ((run: number) => string), token: string | undefined, runs: number, asString = false): Promise<Timed> {
  const times: number[] = [];
  let bytes = 0;
  let first = 0;
  let cpu = process.cpuUsage();
  for (let i = 0; i < runs + 5; i++) {
    if (i === 5) cpu = process.cpuUsage();
    const target = typeof url === "string" ? url : url(i);
    const started = process.hrtime.bigint();
    const response = await app.inject({ method: "GET", url: target, headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, payloadAsStream: !asString });
    let length = 0;
    if (asString) length = Buffer.byteLength(response.body);
    else for await (const chunk of response.stream()) length += (chunk as Buffer).length;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (response.statusCode !== 200) throw new Error(`${target.slice(0, 80)} answered ${response.statusCode}`);
    bytes = length;
    if (i === 0) first = ms;
    if (i >= 5) times.push(ms);
  }
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  return { first: ms2(first), p50: ms2(percentile(times, 50)), p99: ms2(percentile(times, 99)), cpuMs: ms2((used.user + used.system) / 1000 / runs), bytes };
}

/** The time `inject` itself takes to hand over a body of `bytes` (a route answering prebuilt bytes). */
async function injectFloor(bytes: number, runs: number, asString: boolean): Promise<Timed> {
  const body = Buffer.alloc(bytes, 0x20);
  const app = Fastify();
  app.get("/body", async (_request, reply) => {
    void reply.type("application/json; charset=utf-8");
    return body;
  });
  await app.ready();
  try {
    return await timeInject(app, "/body", undefined, runs, asString);
  } finally {
    await app.close();
  }
}

async function inProcess(): Promise<void> {
  const data = generateDataSet({ today: TODAY });
  const daily50 = data.instruments.filter((i) => i.record.frequency === "Daily" && i.record.launchDate <= "2015-06-30").slice(0, 50).map((i) => i.record.symbol);
  if (daily50.length < 50) throw new Error(`only ${daily50.length} daily instruments with 10 years of data`);
  // The service alone first, on a catalogue of its own that is dropped before the app holds the data.
  const built = await buildHistoryBody(data, daily50, 20);
  const origin = "https://localhost:4999";
  const tokenService = await createTokenService({ origin, apiUrl: `${origin}/physical/v2` });
  const app = await buildApp({ data, tokenService, limits: { maxRecords: HISTORY_RECORD_LIMIT } });
  const tokenResponse = await app.inject({
    method: "POST",
    url: "/auth/token",
    payload: "grant_type=client_credentials&scope=sandbox.physicalprices.api",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("sandbox-full:sandbox-full-secret").toString("base64")}` },
  });
  const token = (JSON.parse(tokenResponse.body) as { access_token: string }).access_token;

  const symbols100 = data.instruments.slice(0, 100).map((i) => i.record.symbol);
  const dates20 = Array.from({ length: 20 }, (_, k) => fromEpochDay(toEpochDay("2024-01-15") + k * 25));
  const pricesUrl = `/physical/v2/Prices?Symbols=${symbols100.join(",")}&Dates=${dates20.join(",")}`;
  const prices = await timeInject(app, pricesUrl, token, 300);
  report("/Prices 100 symbols x 20 dates (in-process)", { ...prices }, `p50 ${prices.p50} ms, p99 ${prices.p99} ms, CPU ${prices.cpuMs} ms per request; first request ${prices.first} ms`, "p50 <= 5 ms", prices.p50 <= 5);
  // Other days each time, going back from 2025-06-29: nothing kept from earlier answers helps (20 new days per request).
  const freshUrl = (run: number): string =>
    `/physical/v2/Prices?Symbols=${symbols100.join(",")}&Dates=${Array.from({ length: 20 }, (_, k) => fromEpochDay(toEpochDay(TODAY) - 1 - run * 20 - k)).join(",")}`;
  const fresh = await timeInject(app, freshUrl, token, 100);
  report("- the same with 20 days not asked before in each request (2025 back to 2020)", { ...fresh }, `p50 ${fresh.p50} ms, p99 ${fresh.p99} ms, CPU ${fresh.cpuMs} ms per request`, "-", true);
  const pricesAsString = await timeInject(app, pricesUrl, token, 300, true);
  report("- the same read as a string (inject's default)", { ...pricesAsString }, `p50 ${pricesAsString.p50} ms, p99 ${pricesAsString.p99} ms`, "-", true);

  const curves = data.instruments.filter((i) => daily50.includes(i.record.symbol) && i.record.hasForwardCurves).length;
  const historyUrl = `/physical/v2/Prices/History?Symbols=${daily50.join(",")}&FromDate=2015-07-01&ToDate=${TODAY}`;
  const history = await timeInject(app, historyUrl, token, 20);
  report(
    `/Prices/History 50 daily symbols x 10 years (in-process, maxRecords ${HISTORY_RECORD_LIMIT}; ${curves} of the 50 carry forward curves)`,
    { ...history },
    `p50 ${history.p50} ms, p99 ${history.p99} ms, CPU ${history.cpuMs} ms per request; first request ${history.first} ms (${(history.bytes / 1e6).toFixed(1)} MB)`,
    "p50 <= 150 ms",
    history.p50 <= 150,
  );
  const historyAsString = await timeInject(app, historyUrl, token, 20, true);
  report("- the same read as a string (inject's default: one more copy and a decode of the whole body)", { ...historyAsString }, `p50 ${historyAsString.p50} ms, p99 ${historyAsString.p99} ms`, "-", true);
  const floor = await injectFloor(history.bytes, 20, false);
  const floorString = await injectFloor(history.bytes, 20, true);
  report(
    `- inject alone: a route answering ${(history.bytes / 1e6).toFixed(1)} MB of prebuilt bytes`,
    { p50: floor.p50, p50AsString: floorString.p50 },
    `p50 ${floor.p50} ms as a stream, ${floorString.p50} ms as a string`,
    "-",
    true,
  );
  report("- of which the service: the same body built by historyQuery, no HTTP (measured before the app was built)", built, `p50 ${built.p50} ms, first ${built.first} ms`, "-", true);

  const instruments = await timeInject(app, `/physical/v2/Instruments?Fields=${INSTRUMENT_FIELD_NAMES.join(",")}`, token, 200);
  report("/Instruments all, all fields (in-process)", { ...instruments }, `p50 ${instruments.p50} ms, p99 ${instruments.p99} ms`, "-", true);
  await app.close();
}

/** The history body built by the service alone (a fresh catalogue, so the first run keeps nothing from before). */
async function buildHistoryBody(data: ReturnType<typeof generateDataSet>, symbols: string[], runs: number): Promise<{ first: number; p50: number; p99: number }> {
  const catalogue = new Catalogue(data);
  const limits = { ...DEFAULT_LIMITS, maxRecords: HISTORY_RECORD_LIMIT };
  const request = parseHistoryRequest(collectParams({ Symbols: symbols.join(","), FromDate: "2015-07-01", ToDate: TODAY }), limits);
  const caller = { id: "bench", canSee: () => true };
  const times: number[] = [];
  let first = 0;
  for (let i = 0; i < runs + 1; i++) {
    const started = process.hrtime.bigint();
    const body = historyQuery(catalogue, caller, request, limits.maxRecords);
    // A large body is streamed: read to its end, as the response would be.
    if (body instanceof Readable) for await (const piece of body) void piece;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (i === 0) first = ms;
    else times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { first: ms2(first), p50: ms2(percentile(times, 50)), p99: ms2(percentile(times, 99)) };
}

/** user + system CPU milliseconds a process has used so far. */
async function cpuMsOf(pid: number | undefined): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function overHttps(): Promise<void> {
  const starts: number[] = [];
  for (let i = 0; i < START_RUNS - 1; i++) {
    const { child, ms } = await startSandboxCli(TODAY);
    starts.push(ms);
    await stopSandboxCli(child);
  }
  const { child, lines, ms: lastStart } = await startSandboxCli(TODAY);
  starts.push(lastStart);
  const startMs = [...starts].sort((a, b) => a - b)[Math.floor(starts.length / 2)] ?? lastStart;
  try {
    report("start (CLI to the three lines, tsx)", { ms: startMs, runs: starts.join(" ") }, `median ${(startMs / 1000).toFixed(2)} s of ${starts.map((ms) => (ms / 1000).toFixed(2)).join(", ")} s`, "<= 3 s", startMs <= 3000);
    const apiUrl = (lines[0] ?? "").slice(4);
    const issuer = (lines[1] ?? "").slice(7);
    const ca = await readFile((lines[2] ?? "").slice(3), "utf8");
    const token = await clientCredentialsToken(issuer, "sandbox-full", "sandbox-full-secret", ca);
    const url = `${apiUrl}/Prices?Symbols=MB-AL-0001`;
    const check = await caFetch(ca)(url, { headers: { authorization: `Bearer ${token}` } });
    if (check.status !== 200) throw new Error(`one-symbol /Prices answered ${check.status}`);
    const cpuBefore = await cpuMsOf(child.pid);
    const result = await autocannon({
      url,
      connections: 32,
      duration: 10,
      headers: { authorization: `Bearer ${token}` },
      tlsOptions: { ca },
    } as autocannon.Options);
    const rps = Math.round(result.requests.average);
    const non2xx = result.non2xx;
    const serverUs = Math.round(((await cpuMsOf(child.pid)) - cpuBefore) * 1000 / Math.max(1, result.requests.total));
    report(
      "/Prices one symbol over HTTPS (autocannon, 32 connections, 10 s; autocannon runs on the same 2 cores)",
      { requestsPerSecond: rps, p50ms: result.latency.p50, p99ms: result.latency.p99, non2xx, errors: result.errors, serverCpuUsPerRequest: serverUs },
      `${rps} req/s (p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${non2xx} non-2xx; server CPU ${serverUs} us per request)`,
      ">= 3,000 req/s",
      rps >= 3000 && non2xx === 0,
    );
    const status = await readFile(`/proc/${child.pid}/status`, "utf8");
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? "0");
    const hwmKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? "0");
    report("resident memory of the CLI after the load", { rssMB: Math.round(rssKb / 1024), peakMB: Math.round(hwmKb / 1024) }, `${Math.round(rssKb / 1024)} MB (peak ${Math.round(hwmKb / 1024)} MB)`, "<= 300 MB", hwmKb / 1024 <= 300);
  } finally {
    await stopSandboxCli(child);
  }
}

async function writeTable(): Promise<void> {
  const body = [
    `Written by \`npm run bench:sandbox\` (scripts/bench-sandbox.ts) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, data generated to ${TODAY}; load average ${loadAtStart.map((l) => l.toFixed(1)).join(" ")} at the start and ${loadavg().map((l) => l.toFixed(1)).join(" ")} at the end (the machine is shared: wall times move with the load, CPU times less; CPU counts every thread of the process, GC included). In-process cases go through \`inject\` with a real token and read the body as a stream of bytes, as an HTTP client would; p50/p99 after 5 warm-up requests. An assessment's JSON is written the first time an answer needs it and copied afterwards (service/record-bytes.ts, 64 MB at most), so repeated requests are faster than first ones: both are shown. The history case raises the record limit to ${HISTORY_RECORD_LIMIT.toLocaleString("en")} (the default of 100,000 would refuse it). On this shared machine the p50s of one run and the next differ by up to two times (history 139-175 ms, /Prices 4.0-7.2 ms, 6,500-11,800 req/s in three runs at load averages 4 to 9 on 2026-11-21), so a "met" is this run's.`,
    "",
    targetTable(rows),
  ].join("\n");
  await writeSection("Sandbox", body);
}

async function main(): Promise<void> {
  await inProcess();
  await overHttps();
  await writeTable();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench-sandbox: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  },
);
