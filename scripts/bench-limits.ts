/**
 * `npm run bench:limits`: the sandbox under maximal and hostile requests, and the relay's added latency (issue 10).
 * Starts the sandbox CLI as its own process (so its resident memory is its own), and writes the sections
 * "Sandbox under maximal and hostile requests" and "Relay" of docs/benchmarks.md.
 */
import type { ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { Agent, request } from "undici";
import { buildRelay } from "../src/relay/app";
import { DEFAULT_ANSWER_BUDGET } from "../src/sandbox/app";
import { type TargetRow, reportCase as report, targetTable, writeSection } from "./bench-section";
import { maximalSymbols } from "./bench-maximal";
import { startSandboxCli, stopSandboxCli } from "./sandbox-cli";

const TODAY = "2025-06-30";
const FROM = "2005-01-01";
const MAX_RECORDS = 100_000;
const CONCURRENT = 16;
const RELAY_RUNS = 400;

const rows: TargetRow[] = [];
const relayRows: TargetRow[] = [];

async function residentMb(pid: number | undefined): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? "0");
  return { rss: Math.round(kb("VmRSS") / 1024), peak: Math.round(kb("VmHWM") / 1024) };
}

/** Sends a request and reads its whole answer, counting bytes (nothing kept). */
async function fetchBytes(dispatcher: Agent, url: string, init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; bytes: number; ms: number }> {
  const started = performance.now();
  const response = await request(url, { dispatcher, method: init.method ?? "GET", headers: init.headers ?? {}, body: init.body ?? null });
  let bytes = 0;
  for await (const chunk of response.body) bytes += (chunk as Buffer).length;
  return { status: response.statusCode, bytes, ms: performance.now() - started };
}

async function sandboxCases(sandbox: { child: ChildProcess; apiUrl: string; origin: string }, dispatcher: Agent, token: string, otherToken: string): Promise<void> {
  const auth = { authorization: `Bearer ${token}` };
  const form = { ...auth, "content-type": "application/x-www-form-urlencoded" };
  const { symbols, records } = maximalSymbols(TODAY, FROM, MAX_RECORDS);
  const body = `Symbols=${symbols.join(",")}&FromDate=${FROM}&ToDate=${TODAY}`;
  const single = await fetchBytes(dispatcher, `${sandbox.apiUrl}/Prices/History`, { method: "POST", headers: form, body });
  if (single.status !== 200) throw new Error(`the maximal history answered ${single.status}`);
  const before = await residentMb(sandbox.child.pid);
  let peak = before.rss;
  const sampler = setInterval(() => {
    residentMb(sandbox.child.pid).then((m) => (peak = Math.max(peak, m.rss)), () => undefined);
  }, 20);
  // The sandbox lets a caller hold PER_CALLER large answers at once (issue 17): 16 come from two callers, 8 each.
  const otherForm = { authorization: `Bearer ${otherToken}`, "content-type": "application/x-www-form-urlencoded" };
  const otherSingle = await fetchBytes(dispatcher, `${sandbox.apiUrl}/Prices/History`, { method: "POST", headers: otherForm, body });
  if (otherSingle.status !== 200) throw new Error(`the other caller's maximal history answered ${otherSingle.status}`);
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: CONCURRENT }, async (_, index) => {
      const mine = index % 2 === 0;
      const answer = await fetchBytes(dispatcher, `${sandbox.apiUrl}/Prices/History`, { method: "POST", headers: mine ? form : otherForm, body });
      return { ...answer, expected: mine ? single.bytes : otherSingle.bytes };
    }),
  );
  const wall = performance.now() - started;
  clearInterval(sampler);
  const after = await residentMb(sandbox.child.pid);
  peak = Math.max(peak, after.rss);
  const ok = answers.every((a) => a.status === 200 && a.bytes === a.expected);
  report(
    rows,
    `${CONCURRENT} concurrent maximal /Prices/History answers from two callers, ${CONCURRENT / 2} each (${symbols.length} symbols, ${records.toLocaleString("en")} records each, ${(single.bytes / 1e6).toFixed(1)} MB each, over HTTPS)`,
    { peakRssMB: peak, beforeRssMB: before.rss, processPeakMB: after.peak, wallMs: Math.round(wall), bytesEach: single.bytes },
    `peak ${peak} MB resident (${before.rss} MB before; ${Math.round(wall)} ms for all ${CONCURRENT}; all complete: ${ok ? "yes" : "NO"})`,
    "< 600 MB",
    peak < 600 && ok,
  );
  // One caller past its budget: the answers past 8 are refused at once with Retry-After, the others complete.
  const oneCaller = await Promise.all(Array.from({ length: CONCURRENT }, () => fetchBytes(dispatcher, `${sandbox.apiUrl}/Prices/History`, { method: "POST", headers: form, body })));
  const complete = oneCaller.filter((a) => a.status === 200 && a.bytes === single.bytes).length;
  const refused = oneCaller.filter((a) => a.status === 429).length;
  report(
    rows,
    `${CONCURRENT} concurrent maximal answers from one caller (the sandbox's budget: ${DEFAULT_ANSWER_BUDGET.perCaller} large answers per caller)`,
    { complete, refused429: refused, others: CONCURRENT - complete - refused },
    `${complete} complete, ${refused} refused with 429`,
    `${DEFAULT_ANSWER_BUDGET.perCaller} complete, the rest 429`,
    complete >= DEFAULT_ANSWER_BUDGET.perCaller && complete + refused === CONCURRENT,
  );
  const all = (await visibleSymbols(dispatcher, sandbox.apiUrl, auth)).join(",");
  const hostile = `Symbols=${all}&FromDate=${FROM}&ToDate=${TODAY}&forecastType=${"x".repeat(1_000_000)}`;
  const answer = await fetchBytes(dispatcher, `${sandbox.apiUrl}/Prices/History`, { method: "POST", headers: form, body: hostile });
  report(
    rows,
    `answer to a 1 MB hostile request (forecastType of 1,000,000 characters, all ${all.split(",").length} symbols; ${(hostile.length / 1e6).toFixed(2)} MB sent)`,
    { status: answer.status, bytes: answer.bytes },
    `${answer.bytes.toLocaleString("en")} bytes (status ${answer.status})`,
    "< 100 KB",
    answer.bytes < 100_000,
  );
  const fields = `Symbols=MB-AL-0004&FromDate=${FROM}&ToDate=${TODAY}&Fields=${"x,".repeat(520_000)}`;
  const fieldsAnswer = await fetchBytes(dispatcher, `${sandbox.apiUrl}/Prices/History`, { method: "POST", headers: form, body: fields });
  report(rows, "answer to 520,000 Fields items (1 MB)", { status: fieldsAnswer.status, bytes: fieldsAnswer.bytes }, `${fieldsAnswer.bytes.toLocaleString("en")} bytes (status ${fieldsAnswer.status})`, "< 100 KB", fieldsAnswer.bytes < 100_000);
}

async function visibleSymbols(dispatcher: Agent, apiUrl: string, auth: Record<string, string>): Promise<string[]> {
  const response = await request(`${apiUrl}/Instruments`, { dispatcher, headers: auth });
  const body = (await response.body.json()) as { instruments: { symbol: string }[] };
  return body.instruments.map((i) => i.symbol);
}

function p50(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function relayCases(sandbox: { apiUrl: string; origin: string; ca: string }, token: string): Promise<void> {
  const relay = await buildRelay({ apiUrl: sandbox.apiUrl, tokenUrl: `${sandbox.origin}/connect/token`, ca: sandbox.ca });
  await relay.listen({ port: 0, host: "127.0.0.1" });
  const address = relay.server.address();
  const relayOrigin = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  const direct = new Agent({ connect: { ca: sandbox.ca }, connections: 1 });
  const via = new Agent({ connections: 1 });
  const headers = { authorization: `Bearer ${token}` };
  const path = "/physical/v2/Prices?Symbols=MB-AL-0004";
  try {
    const directTimes: number[] = [];
    const relayTimes: number[] = [];
    // Interleaved, so that the shared machine's load falls on both alike; the first 50 of each warm up.
    for (let i = 0; i < RELAY_RUNS + 50; i++) {
      const a = await fetchBytes(direct, `${sandbox.origin}${path}`, { headers });
      const b = await fetchBytes(via, `${relayOrigin}${path}`, { headers });
      if (a.status !== 200 || b.status !== 200) throw new Error(`statuses ${a.status} and ${b.status}`);
      if (i >= 50) {
        directTimes.push(a.ms);
        relayTimes.push(b.ms);
      }
    }
    const added = p50(relayTimes) - p50(directTimes);
    report(
      relayRows,
      `added latency of the relay, /Prices one symbol (${RELAY_RUNS} requests each way, one keep-alive connection, loopback; the client speaks HTTP to the relay, which speaks HTTPS to the sandbox)`,
      { directP50Ms: Number(p50(directTimes).toFixed(3)), relayP50Ms: Number(p50(relayTimes).toFixed(3)), addedP50Ms: Number(added.toFixed(3)) },
      `p50 ${added.toFixed(2)} ms added (direct ${p50(directTimes).toFixed(2)} ms, through the relay ${p50(relayTimes).toFixed(2)} ms)`,
      "p50 < 2 ms",
      added < 2,
    );
  } finally {
    await direct.close();
    await via.close();
    await relay.close();
  }
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const sandbox = await startSandboxCli(TODAY);
  const dispatcher = new Agent({ connect: { ca: sandbox.ca }, connections: CONCURRENT });
  try {
    const tokenResponse = await request(`${sandbox.origin}/connect/token`, {
      dispatcher,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=servicekey&serviceName=sandbox-service&serviceKey=sandbox-service-key&client_id=service_client",
    });
    const token = ((await tokenResponse.body.json()) as { access_token: string }).access_token;
    const otherResponse = await request(`${sandbox.origin}/connect/token`, {
      dispatcher,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=client_credentials&client_id=sandbox-full&client_secret=sandbox-full-secret&scope=sandbox.physicalprices.api&resource=${encodeURIComponent(sandbox.apiUrl)}`,
    });
    const otherToken = ((await otherResponse.body.json()) as { access_token: string }).access_token;
    await sandboxCases(sandbox, dispatcher, token, otherToken);
    await relayCases(sandbox, token);
  } finally {
    await dispatcher.close();
    await stopSandboxCli(sandbox.child);
  }
  const when = `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, load average ${loadAtStart.map((l) => l.toFixed(1)).join(" ")} at the start and ${loadavg().map((l) => l.toFixed(1)).join(" ")} at the end`;
  await writeSection(
    "Sandbox under maximal and hostile requests",
    `Written by \`npm run bench:limits\` (scripts/bench-limits.ts) on ${when}. The sandbox CLI runs as its own process with data to ${TODAY}; resident memory is sampled from /proc every 20 ms while the answers are read. Answers over 2 MB are streamed in 64 KB pieces (service/answer.ts); oversized parameters are refused before any work (convention 8a).\n\n${targetTable(rows)}\n`,
  );
  await writeSection("Relay", `Written by \`npm run bench:limits\` on ${when}: the relay (src/relay) in the benchmark's process, the sandbox CLI as upstream.\n\n${targetTable(relayRows)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
