/**
 * Benchmark of the prices client against the sandbox over HTTPS on loopback (`npm run bench:client`).
 * The sandbox runs in a child process so that the client's CPU is measured alone. A simulated sheet
 * asks for every cell in the same window. Prints one JSON line per case and rewrites the "Client"
 * section of docs/benchmarks.md (`--no-write` leaves it alone).
 *
 *   grid-cold / grid-warm   200 symbols x 50 dates (10,000 cells), then the same sheet again
 *   grid-naive              one request per cell, 6 in flight (what a browser allows per host)
 *   grid-two-currencies     the 200 x 50 grid in EUR and in CNY in one window (20,000 cells; convention 21)
 *   scatter                 10,000 random (symbol, date) pairs over 500 symbols x 2,000 dates
 *   history                 100 symbols x 10 years
 */
import { Random } from "../src/sandbox/data/random";
import { parseArgs } from "node:util";
import { loadavg } from "node:os";
import { fromEpochDay, toEpochDay } from "../src/api/dates";
import { rawLines, targetTable, writeSection } from "./bench-section";
import { cacheHeapCases, hostileCases } from "./bench-client-limits";
import { connectTo, serveSandbox, startSandboxChild } from "./bench-sandbox-child";
import { weekdays } from "../test/helpers/weekdays";
import { baselineRequests, createPricesClient, staticTokenProvider, type PricesClient } from "../src/prices";

/** `--serve` runs the sandbox child; `--no-write` leaves docs/benchmarks.md alone. */
const { values: args } = parseArgs({ options: { serve: { type: "boolean", default: false }, "no-write": { type: "boolean", default: false } } });

type Case = Record<string, string | number>;
type Phase = "asked" | "dispatched" | "sent" | "headers" | "body" | "settled";
const cases: Case[] = [];
const startLoad = loadavg().map((value) => value.toFixed(1)).join(" ");

function emit(record: Case): void {
  cases.push(record);
  process.stdout.write(`${JSON.stringify(record)}\n`);
}

/** Rewrites the "Client" section of docs/benchmarks.md (other sections belong to other scripts). */
async function writeClientSection(today: string): Promise<void> {
  const byName = new Map(cases.map((item) => [String(item.case), item]));
  const get = (name: string, field: string): number => Number(byName.get(name)?.[field] ?? NaN);
  const yes = (ok: boolean): string => (ok ? "yes" : "NO");
  const rows = [
    ["grid 200 x 50 cold (best of 5)", `${get("grid-cold", "requests")} request (minimal ${get("grid-cold", "minimalRequests")}), ${get("grid-cold", "records")} records, ${get("grid-cold", "wallMs")} ms (median ${get("grid-cold", "wallMsMedian")} ms)`, "<= 1,000 ms, minimal requests", yes(get("grid-cold", "wallMs") <= 1000 && get("grid-cold", "requests") === get("grid-cold", "minimalRequests"))],
    ["grid warm, all cached (best of 5)", `${get("grid-warm", "requests")} requests, ${get("grid-warm", "wallMs")} ms (median ${get("grid-warm", "wallMsMedian")} ms)`, "<= 50 ms, 0 requests", yes(get("grid-warm", "wallMs") <= 50 && get("grid-warm", "requests") === 0)],
    ["grid 200 x 50 in EUR and in CNY at once, cold (best of 3)", `${get("grid-two-currencies", "requests")} requests (minimal ${get("grid-two-currencies", "minimalRequests")}), ${get("grid-two-currencies", "failed")} failed, ${get("grid-two-currencies", "wallMs")} ms (median ${get("grid-two-currencies", "wallMsMedian")} ms)`, "minimal requests", yes(get("grid-two-currencies", "requests") === get("grid-two-currencies", "minimalRequests") && get("grid-two-currencies", "failed") === 0)],
    ["naive, one request per cell, 6 in flight", `${get("grid-naive", "wallMs")} ms; the client's best cold is ${get("grid-naive", "speedupOfClient")}x faster`, ">= 50x", yes(get("grid-naive", "speedupOfClient") >= 50)],
    [
      "grid cold, where the wall time goes (fastest run; medians of 5 in the raw line)",
      `asking ${get("grid-cold-phases", "askMs")} ms, until the window closes ${get("grid-cold-phases", "windowMs")} ms (Promise.allSettled over the cells included), to the request leaving ${get("grid-cold-phases", "toRequestMs")} ms (planning, token), service ${get("grid-cold-phases", "serverMs")} ms (to the headers), body ${get("grid-cold-phases", "bodyMs")} ms, parse and settle ${get("grid-cold-phases", "parseAndSettleMs")} ms (JSON.parse alone ${get("grid-cold-replay", "jsonParseMs")} ms), promise reactions ${get("grid-cold-phases", "reactionsMs")} ms`,
      "-",
      "-",
    ],
    ["client CPU per key, cold: the client alone (answer replayed in memory, JSON parsing included; best of 10)", `${get("grid-cold-replay", "cpuUsPerKey")} us (median ${get("grid-cold-replay", "cpuUsPerKeyMedian")} us), of which JSON.parse of the body alone ${round((get("grid-cold-replay", "jsonParseMs") * 1000) / get("grid-cold-replay", "cells"))} us`, "<= 5 us", yes(get("grid-cold-replay", "cpuUsPerKey") <= 5)],
    ["process CPU per key, cold, over HTTPS (TLS, sockets, GC threads and all)", `${get("grid-cold", "cpuUsPerKey")} us`, "-", "-"],
    ["client CPU per key, warm", `${get("grid-warm", "cpuUsPerKey")} us`, "<= 5 us", yes(get("grid-warm", "cpuUsPerKey") <= 5)],
    ["scatter 10,000 pairs, 500 symbols x 2,000 days", `${get("scatter", "requests")} requests (bound ${get("scatter", "boundRequests")}: per date ${get("scatter", "perDateRequests")}, per symbol ${get("scatter", "perSymbolRequests")}), over-fetch ${get("scatter", "overfetch")}, ${get("scatter", "wallMs")} ms`, "requests <= bound, over-fetch <= 4", yes(get("scatter", "requests") <= get("scatter", "boundRequests") && get("scatter", "overfetch") <= 4)],
    ["history 100 symbols x 10 years (best of 3)", `${get("history", "requests")} requests, ${get("history", "records")} records, ${get("history", "wallMs")} ms`, "-", "-"],
    [
      "history 100 symbols x 10 years against its floor (the same requests fetched directly, 4 in flight, bodies read and JSON.parse'd; best of 3)",
      `client ${get("history-floor", "clientWallMs")} ms, floor ${get("history-floor", "floorMs")} ms: ${get("history-floor", "ratio")}x`,
      "<= 2x the floor",
      yes(get("history-floor", "ratio") <= 2),
    ],
    ...cases
      .filter((item) => item.case === "hostile-400")
      .map((item) => {
        const n = (field: string): number => Number(item[field]);
        const stopped = n("gridFailedCells") > 0 && n("gridRequests") === 1;
        const ok = (stopped || n("gridRequests") <= 2 * n("gridMinimal")) && (n("historyFailed") > 0 ? n("historyRequests") === 1 : n("historyRequests") <= 2 * n("historyMinimal"));
        return [
          `after the 400 ${String(item.answer)} (service's real limit 2,000 records)`,
          `grid 100 x 50: ${n("gridRequests")} requests (${n("gridRefused")} refused; minimum ${n("gridMinimal")}), ${n("gridFailedCells")} cells failed; 10-year history: ${n("historyRequests")} requests (minimum ${n("historyMinimal")})${stopped ? `; cells say "${String(item.cellsSay)}"` : ""}`,
          "<= 2x the minimum, or one request and the cells name the answer",
          yes(ok),
        ];
      }),
    ...cases
      .filter((item) => item.case === "cache-heap")
      .map((item) => [
        `cache, real heap per key against the estimate: ${String(item.entries)}`,
        `${String(item.realBytesPerKey)} B real, ${String(item.estimateBytesPerKey)} B estimated (${String(item.realOverEstimate)}x), ${String(item.keys)} keys`,
        "within 25 %",
        yes(Math.abs(Number(item.realOverEstimate) - 1) <= 0.25),
      ]),
  ];
  const body = [
    `Written by \`npm run bench:client\` (scripts/bench-client.ts) on ${today}, Node ${process.version}, load average ${startLoad} at the start and ${loadavg().map((value) => value.toFixed(1)).join(" ")} at the end (1, 5 and 15 minutes; other work on the machine inflates wall times). The sandbox runs in a child process over HTTPS on loopback; every cell of a simulated sheet asks the client in one window. Scatter uses 500 symbol names of which ${get("scatter", "symbolsInData")} are in the data set.`,
    "",
    targetTable(rows),
    "",
    rawLines(cases),
  ].join("\n");
  await writeSection("Client", body);
}

async function measure<T>(run: () => Promise<T>): Promise<{ result: T; wallMs: number; cpuUs: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await run();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { result, wallMs, cpuUs: used.user + used.system };
}

const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

/** Runs `work` over `items`, at most `limit` at once. */
async function inFlight<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let item = items[next++]; item !== undefined; item = items[next++]) await work(item);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

/** The requests a client sent for a history, as URL and form body, from its lineage. */
function historyRequests(apiUrl: string, client: PricesClient, symbols: readonly string[], fromDate: string, toDate: string): { url: string; body?: string }[] {
  const seen = new Map<number, { url: string; body?: string }>();
  for (const symbol of symbols) {
    const request = client.lineage({ symbol, fromDate, toDate })?.request;
    if (!request || seen.has(request.id)) continue;
    const query = new URLSearchParams(request.params).toString();
    const base = `${apiUrl}${request.endpoint}`;
    seen.set(request.id, request.method === "POST" ? { url: base, body: query } : { url: `${base}?${query}` });
  }
  return [...seen.values()];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

async function main(): Promise<void> {
  const { child, ready } = await startSandboxChild(__filename);
  const { agent, fetch: fetchImpl, tokens } = connectTo(ready);
  const token = await tokens.getToken();
  const newClient = (): PricesClient => createPricesClient({ baseUrl: ready.apiUrl, tokenProvider: tokens, fetch: fetchImpl });
  const end = weekdays(ready.today, 2)[0] as string;

  // Grid 200 x 50, cold then warm. A throwaway client first runs a sheet of the same shape on other
  // dates, so that "cold" means an empty cache, not code that the JIT has not compiled yet.
  const gridSymbols = ready.symbols.slice(0, 200);
  const gridDates = weekdays(end, 50);
  const warmupDates = weekdays(fromEpochDay(toEpochDay(end) - 120), 50);
  for (let round = 0; round < 2; round += 1) {
    const warmup = newClient();
    await Promise.allSettled(gridSymbols.flatMap((symbol) => warmupDates.map((date) => warmup.price({ symbol, date }))));
    await Promise.allSettled(gridSymbols.flatMap((symbol) => warmupDates.map((date) => warmup.price({ symbol, date }))));
  }
  const cells = gridSymbols.flatMap((symbol) => gridDates.map((date) => ({ symbol, date })));
  // Cold: five fresh clients (empty caches) on the same sheet; warm: five passes over the last one.
  // Wall times are reported as best and median: other work on a shared 2-core machine only adds to them.
  // The cold runs also note where their wall time goes: a fetch wrapper marks the request leaving, the
  // headers and the whole body; a reaction on the first cell marks the end of settling (all cells settle
  // in one loop), and the last mark is Promise.allSettled's. A few closures per run: nothing measurable.
  let phases: Partial<Record<Phase, number>> = {};
  let phaseStart = 0;
  const mark = (name: Phase): void => {
    phases[name] ??= performance.now() - phaseStart;
  };
  const timedFetch = (async (input: string, init?: RequestInit) => {
    mark("sent");
    const response = await fetchImpl(input, init);
    mark("headers");
    return {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      text: async () => {
        const text = await response.text();
        mark("body");
        return text;
      },
    };
  }) as unknown as typeof fetch;
  const runs: { wallMs: number; cpuUs: number; failed: number; stats: ReturnType<PricesClient["stats"]>; phases: Partial<Record<Phase, number>> }[] = [];
  let client = newClient();
  for (let run = 0; run < 5; run += 1) {
    // The default window (timerScheduler(2)), marking when it closes.
    const scheduler = (dispatch: () => void): void => {
      setTimeout(() => {
        mark("dispatched");
        dispatch();
      }, 2);
    };
    client = createPricesClient({ baseUrl: ready.apiUrl, tokenProvider: tokens, fetch: timedFetch, scheduler });
    phases = {};
    const cold = await measure(() => {
      phaseStart = performance.now();
      const asked = cells.map((cell) => client.price(cell));
      mark("asked");
      void asked[0]?.then(
        () => mark("settled"),
        () => mark("settled"),
      );
      return Promise.allSettled(asked);
    });
    runs.push({ wallMs: cold.wallMs, cpuUs: cold.cpuUs, failed: cold.result.filter((result) => result.status === "rejected").length, stats: client.stats(), phases });
  }
  const coldStats = client.stats();
  const minimal = Math.ceil(gridSymbols.length / 500) * Math.ceil(gridDates.length / 250);
  const coldBest = Math.min(...runs.map((run) => run.wallMs));
  emit({
    case: "grid-cold",
    cells: cells.length,
    requests: Math.max(...runs.map((run) => run.stats.requestsSent)),
    minimalRequests: minimal,
    attempts: coldStats.attempts,
    records: coldStats.recordsReceived,
    failed: Math.max(...runs.map((run) => run.failed)),
    wallMs: round(coldBest),
    wallMsMedian: round(median(runs.map((run) => run.wallMs))),
    cpuUsPerKey: round(Math.min(...runs.map((run) => run.cpuUs)) / cells.length),
  });
  // Where the cold wall time goes, in the fastest run and as medians over the five.
  const spans = (run: (typeof runs)[number]): Record<string, number> => {
    const at = (name: Phase): number => run.phases[name] ?? NaN;
    return {
      askMs: at("asked"),
      windowMs: at("dispatched") - at("asked"),
      toRequestMs: at("sent") - at("dispatched"),
      serverMs: at("headers") - at("sent"),
      bodyMs: at("body") - at("headers"),
      parseAndSettleMs: at("settled") - at("body"),
      reactionsMs: run.wallMs - at("settled"),
    };
  };
  const fastest = runs.reduce((best, run) => (run.wallMs < best.wallMs ? run : best));
  const phaseLine: Case = { case: "grid-cold-phases", wallMs: round(fastest.wallMs) };
  for (const [name, value] of Object.entries(spans(fastest))) phaseLine[name] = round(value);
  for (const name of Object.keys(spans(fastest))) phaseLine[`${name.replace(/Ms$/, "")}MsMedian`] = round(median(runs.map((run) => spans(run)[name] ?? NaN)));
  emit(phaseLine);
  const warmRuns: { wallMs: number; cpuUs: number }[] = [];
  for (let run = 0; run < 5; run += 1) warmRuns.push(await measure(() => Promise.allSettled(cells.map((cell) => client.price(cell)))));
  emit({
    case: "grid-warm",
    cells: cells.length,
    passes: warmRuns.length,
    requests: client.stats().requestsSent - coldStats.requestsSent,
    cacheHits: client.stats().cacheHits - coldStats.cacheHits,
    wallMs: round(Math.min(...warmRuns.map((run) => run.wallMs))),
    wallMsMedian: round(median(warmRuns.map((run) => run.wallMs))),
    cpuUsPerKey: round(Math.min(...warmRuns.map((run) => run.cpuUs)) / cells.length),
  });

  // The client's own cost: the same answer replayed through an in-memory fetch (no TLS, no socket),
  // so that planning, parsing, caching and settling are measured without the transport.
  const params = client.lineage(cells[0] as { symbol: string; date: string })?.request?.params ?? {};
  const body = await (await fetchImpl(`${ready.apiUrl}/Prices?${new URLSearchParams(params).toString()}`, { headers: { authorization: `Bearer ${token}` } })).text();
  // A bare response whose text is the string itself: a real Response would re-encode 2 MB of UTF-8.
  const headers = new Headers({ "content-type": "application/json" });
  const replay = (async () => ({ status: 200, statusText: "OK", headers, text: async () => body })) as unknown as typeof fetch;
  const replayRuns: number[] = [];
  for (let run = 0; run < 10; run += 1) {
    const replayClient = createPricesClient({ baseUrl: ready.apiUrl, tokenProvider: staticTokenProvider(token), fetch: replay });
    replayRuns.push((await measure(() => Promise.allSettled(cells.map((cell) => replayClient.price(cell))))).cpuUs);
  }
  // JSON.parse of that body alone: the part of "parse and settle" that no client code can remove.
  const parseRuns: number[] = [];
  for (let run = 0; run < 10; run += 1) {
    const start = performance.now();
    JSON.parse(body);
    parseRuns.push(performance.now() - start);
  }
  emit({
    case: "grid-cold-replay",
    cells: cells.length,
    bodyBytes: body.length,
    cpuUsPerKey: round(Math.min(...replayRuns) / cells.length),
    cpuUsPerKeyMedian: round(median(replayRuns) / cells.length),
    jsonParseMs: round(Math.min(...parseRuns)),
  });

  // Naive: one request per cell, 6 in flight.
  const naive = await measure(async () => {
    let next = 0;
    let failed = 0;
    const worker = async (): Promise<void> => {
      while (next < cells.length) {
        const cell = cells[next] as { symbol: string; date: string };
        next += 1;
        const response = await fetchImpl(`${ready.apiUrl}/Prices?Symbols=${encodeURIComponent(cell.symbol)}&Dates=${cell.date}`, { headers: { authorization: `Bearer ${token}` } });
        await response.json();
        if (!response.ok) failed += 1;
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    return failed;
  });
  emit({ case: "grid-naive", cells: cells.length, requests: cells.length, inFlight: 6, failed: naive.result, wallMs: round(naive.wallMs), speedupOfClient: round(naive.wallMs / coldBest, 1) });

  // The same grid in two currencies in one window: one request per conversion is the least the service allows
  // (it takes one target per request).
  const currencies = ["EUR", "CNY"];
  const converted = currencies.flatMap((currency) => cells.map((cell) => ({ ...cell, currency })));
  const twoRuns: { wallMs: number; requests: number; failed: number }[] = [];
  for (let run = 0; run < 3; run += 1) {
    const twoClient = newClient();
    const two = await measure(() => Promise.allSettled(converted.map((cell) => twoClient.price(cell))));
    twoRuns.push({ wallMs: two.wallMs, requests: twoClient.stats().requestsSent, failed: two.result.filter((result) => result.status === "rejected").length });
  }
  emit({
    case: "grid-two-currencies",
    cells: converted.length,
    requests: Math.max(...twoRuns.map((run) => run.requests)),
    minimalRequests: currencies.length * minimal,
    failed: Math.max(...twoRuns.map((run) => run.failed)),
    wallMs: round(Math.min(...twoRuns.map((run) => run.wallMs))),
    wallMsMedian: round(median(twoRuns.map((run) => run.wallMs))),
  });

  // Scatter: 10,000 random pairs over 500 symbols x 2,000 calendar days.
  const generator = new Random(20240628);
  const random = (): number => generator.next();
  const scatterSymbols = Array.from({ length: 500 }, (_, index) => ready.symbols[index] ?? `ZZ-NONE-${String(index).padStart(4, "0")}`);
  const firstDay = toEpochDay(end) - 1999;
  const pairs = Array.from({ length: 10_000 }, () => ({
    symbol: scatterSymbols[Math.floor(random() * scatterSymbols.length)] as string,
    date: fromEpochDay(firstDay + Math.floor(random() * 2000)),
  }));
  const bySymbol = new Map<string, Set<string>>();
  for (const pair of pairs) bySymbol.set(pair.symbol, (bySymbol.get(pair.symbol) ?? new Set()).add(pair.date));
  const unique = [...bySymbol.values()].reduce((sum, dates) => sum + dates.size, 0);
  const baselines = baselineRequests(bySymbol, { maxSymbols: 500, maxDates: 250, maxRecords: 100_000 });
  const scatterClient = newClient();
  const scatter = await measure(() => Promise.allSettled(pairs.map((pair) => scatterClient.price(pair))));
  const scatterStats = scatterClient.stats();
  emit({
    case: "scatter",
    keys: pairs.length,
    uniqueKeys: unique,
    symbols: scatterSymbols.length,
    symbolsInData: Math.min(500, ready.symbols.length),
    requests: scatterStats.requestsSent,
    boundRequests: Math.min(baselines.perDate, baselines.perSymbol),
    perDateRequests: baselines.perDate,
    perSymbolRequests: baselines.perSymbol,
    recordsRequested: scatterStats.recordsRequested,
    overfetch: round(scatterStats.recordsRequested / unique),
    boundOverfetch: 4,
    wallMs: round(scatter.wallMs),
    cpuUsPerKey: round(scatter.cpuUs / pairs.length),
  });

  // History: 100 symbols x 10 years.
  // Best of 3, each with a new client, as the floor below is.
  const fromDate = fromEpochDay(toEpochDay(end) - 3652);
  const historySymbols = ready.symbols.slice(0, 100);
  let historyClient = newClient();
  let history = await measure(() => Promise.allSettled(historySymbols.map((symbol) => historyClient.history({ symbol, fromDate, toDate: end }))));
  const historyRuns = [history.wallMs];
  for (let run = 1; run < 3; run += 1) {
    const again = newClient();
    const measured = await measure(() => Promise.allSettled(historySymbols.map((symbol) => again.history({ symbol, fromDate, toDate: end }))));
    historyRuns.push(measured.wallMs);
    if (measured.wallMs < history.wallMs) {
      history = measured;
      historyClient = again;
    }
  }
  const historyStats = historyClient.stats();
  emit({
    case: "history",
    symbols: historySymbols.length,
    fromDate,
    toDate: end,
    requests: historyStats.requestsSent,
    records: historyStats.recordsReceived,
    failed: history.result.filter((result) => result.status === "rejected").length,
    wallMs: round(history.wallMs),
    wallMsRuns: historyRuns.map((ms) => round(ms)).join(" "),
    cpuUsPerKey: round(history.cpuUs / historySymbols.length),
  });

  // The floor of the same history: its requests as the client sent them, fetched directly (4 in flight, as the client's
  // default), each body read and parsed with JSON.parse, nothing else.
  const sent = historyRequests(ready.apiUrl, historyClient, historySymbols, fromDate, end);
  const floorRuns: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    const started = performance.now();
    await inFlight(sent, 4, async ({ url, body }) => {
      const response = await fetchImpl(url, { method: body === undefined ? "GET" : "POST", headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }) }, ...(body === undefined ? {} : { body }) });
      JSON.parse(await response.text());
    });
    floorRuns.push(performance.now() - started);
  }
  const floorMs = Math.min(...floorRuns);
  emit({ case: "history-floor", requests: sent.length, floorMs: round(floorMs), floorMsRuns: floorRuns.map((ms) => round(ms)).join(" "), clientWallMs: round(history.wallMs), ratio: round(history.wallMs / floorMs) });

  for (const record of await hostileCases()) emit(record);
  for (const record of await cacheHeapCases()) emit(record);

  if (!args["no-write"]) await writeClientSection(new Date().toISOString().slice(0, 10));
  child.send("stop");
  await new Promise((resolve) => child.once("exit", resolve));
  await agent.close();
}

if (args.serve) {
  serveSandbox().catch((error: unknown) => {
    process.stderr.write(`bench-client sandbox: ${String(error)}\n`);
    process.exit(1);
  });
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`bench-client: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
