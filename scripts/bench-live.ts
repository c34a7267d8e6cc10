/**
 * `npm run bench:live`: 1,000 live cells over 100 instruments of mixed frequencies through two simulated days
 * (Monday 2025-06-30, the last weekday of June, and Tuesday) on a clock the script moves from wake-up to wake-up,
 * against a service that publishes on that clock (test/prices/live-publisher.ts) through the real client. Side by
 * side in the same run, a timer refresh of every cell every 5 minutes (what Platts' add-in and Excel's Stocks data
 * type do). Prints JSON lines and writes the "Live prices" section of docs/benchmarks.md.
 *   npm run bench:live            report and update docs/benchmarks.md
 *   npm run bench:live -- --no-docs
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createPricesClient, staticTokenProvider } from "../src/prices";
import { manualLiveClock } from "../src/prices/live-clock";
import { LiveRegistry } from "../src/prices/live-registry";
import { DEFAULT_LIVE_POLICY } from "../src/prices/live-schedule";
import type { PriceKey } from "../src/prices/types";
import { livePublisher, type PublishedInstrument } from "../test/prices/live-publisher";
import { reportCase, targetTable, writeSection, type TargetRow } from "./bench-section";

const START = Date.parse("2025-06-30T00:00:00Z");
const END = Date.parse("2025-07-02T00:00:00Z");
const MINUTE = 60_000;
const TIMER_MS = 5 * MINUTE;
const FIELDS: readonly (readonly string[] | undefined)[] = [undefined, ["pricingRationale"], ["appraisalPrice"]];

/** 60 daily, 20 twice weekly, 12 weekly (Monday or Tuesday), 8 monthly; usual times spread from 08:00 to 18:00 UTC. */
function instruments(): PublishedInstrument[] {
  return Array.from({ length: 100 }, (_, i): PublishedInstrument => {
    const frequency = i < 60 ? "Daily" : i < 80 ? "Twice weekly" : i < 92 ? "Weekly" : "Monthly";
    const minuteUtc = 8 * 60 + ((i * 37) % 600);
    return { symbol: `LIVE-${String(i).padStart(3, "0")}`, frequency, minuteUtc, ...(frequency === "Weekly" ? { weekday: i % 2 } : {}) };
  });
}

/** Ten cells per instrument: fields and the same key twice, as a sheet has them (several cells of one price). */
function cellKeys(symbols: readonly string[]): PriceKey[] {
  return symbols.flatMap((symbol) => Array.from({ length: 10 }, (_, j) => {
    const fields = FIELDS[j % FIELDS.length];
    return fields ? { symbol, fields } : { symbol };
  }));
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

interface Run {
  requests: number;
  /** Symbols named in all requests (what the service answered). */
  symbolsAsked: number;
  maxPerInstant: number;
  /** Requests at instants no publication was due (outside [publication - lead, publication + poll]), correction checks apart. */
  idleRequests: number;
  correctionChecks: number;
  delays: number[];
  wallMs: number;
}

/**
 * Requests whose instant lies in no due window of any publication: from the lead before the instrument's usual time
 * to one poll after it was published.
 */
function classify(calls: readonly { at: number }[], publications: readonly { at: number; usualAt: number }[], correctionGrid: number | undefined): { idle: number; corrections: number; maxPerInstant: number } {
  const perInstant = new Map<number, number>();
  let idle = 0;
  let corrections = 0;
  for (const call of calls) {
    perInstant.set(call.at, (perInstant.get(call.at) ?? 0) + 1);
    const due = publications.some((p) => call.at >= Math.min(p.at, p.usualAt) - DEFAULT_LIVE_POLICY.leadMs && call.at <= p.at + DEFAULT_LIVE_POLICY.pollMs);
    if (due) continue;
    if (correctionGrid !== undefined && call.at % correctionGrid === 0) corrections += 1;
    else idle += 1;
  }
  return { idle, corrections, maxPerInstant: Math.max(0, ...perInstant.values()) };
}

/** The delay of each publication until the first change of one of its instrument's cells after it. */
function delaysOf(publications: readonly { symbol: string; at: number }[], changes: ReadonlyMap<string, number[]>): number[] {
  return publications.flatMap((p) => {
    const first = (changes.get(p.symbol) ?? []).find((at) => at >= p.at);
    return first === undefined ? [] : [first - p.at];
  });
}

async function liveRun(list: PublishedInstrument[]): Promise<Run> {
  const clock = manualLiveClock(START - 3 * 86_400_000);
  const publisher = livePublisher(list, clock.now);
  const client = createPricesClient({ baseUrl: "https://bench.test/physical/v2", tokenProvider: staticTokenProvider("t"), fetch: publisher.fetch, now: clock.now, scheduler: (dispatch) => queueMicrotask(dispatch) });
  const registry = new LiveRegistry({ client, clock });
  const changes = new Map<string, number[]>();
  // the sheet opens on Friday evening: each cell's first value, then it is held live
  clock.advanceTo(START - 2 * 86_400_000 - 6 * 3_600_000);
  const keys = cellKeys(list.map((i) => i.symbol));
  await Promise.all(keys.map((key) => client.price(key)));
  for (const key of keys) registry.subscribe([key], () => changes.set(key.symbol, [...(changes.get(key.symbol) ?? []), clock.now()]));
  await registry.whenIdle();
  const started = performance.now();
  for (;;) {
    const next = clock.waiting[0];
    if (next === undefined || next >= END) break;
    clock.advanceTo(next);
    await registry.whenIdle();
  }
  const wallMs = performance.now() - started;
  const calls = publisher.calls.filter((c) => c.at >= START && c.at < END);
  const publications = publisher.publicationsBetween(START, END);
  const kinds = classify(calls, publications, DEFAULT_LIVE_POLICY.correctionCheckMs);
  return { requests: calls.length, symbolsAsked: calls.reduce((sum, c) => sum + c.symbols.length, 0), maxPerInstant: kinds.maxPerInstant, idleRequests: kinds.idle, correctionChecks: kinds.corrections, delays: delaysOf(publications, changes), wallMs };
}

/** Every cell asked again every 5 minutes, whatever is due (the client batches them: one request per refresh). */
async function timerRun(list: PublishedInstrument[]): Promise<Run> {
  const clock = manualLiveClock(START);
  const publisher = livePublisher(list, clock.now);
  const client = createPricesClient({ baseUrl: "https://bench.test/physical/v2", tokenProvider: staticTokenProvider("t"), fetch: publisher.fetch, now: clock.now, scheduler: (dispatch) => queueMicrotask(dispatch) });
  const keys = cellKeys(list.map((i) => i.symbol));
  const seen = new Map<string, string>();
  const changes = new Map<string, number[]>();
  const started = performance.now();
  for (let at = START; at < END; at += TIMER_MS) {
    clock.advanceTo(at);
    const records = await Promise.all(keys.map((key) => client.price(key, { fresh: true })));
    records.forEach((record, i) => {
      const symbol = keys[i]?.symbol ?? "";
      const identity = `${record.date}|${record.revision}`;
      if (seen.get(symbol) !== identity) {
        if (seen.has(symbol)) changes.set(symbol, [...(changes.get(symbol) ?? []), at]);
        seen.set(symbol, identity);
      }
    });
  }
  const wallMs = performance.now() - started;
  const publications = publisher.publicationsBetween(START, END);
  const kinds = classify(publisher.calls, publications, undefined);
  return { requests: publisher.calls.length, symbolsAsked: publisher.calls.reduce((sum, c) => sum + c.symbols.length, 0), maxPerInstant: kinds.maxPerInstant, idleRequests: kinds.idle, correctionChecks: 0, delays: delaysOf(publications, changes), wallMs };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { "no-docs": { type: "boolean" } } });
  const load = loadavg().map((n) => n.toFixed(2)).join(" ");
  const list = instruments();
  const live = await liveRun(list);
  const timer = await timerRun(list);
  const rows: TargetRow[] = [];
  const waves = new Set(livePublisher(list, () => END).publicationsBetween(START, END).map((p) => Math.floor(p.at / MINUTE))).size;
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(0)} s`;
  reportCase(rows, "live: requests per poll (all instruments due in one)", { maxPerInstant: live.maxPerInstant, requests: live.requests, symbolsAsked: live.symbolsAsked }, `${live.maxPerInstant} (${live.requests} requests naming ${live.symbolsAsked} symbols in 2 days)`, "<= 1", live.maxPerInstant <= 1);
  reportCase(rows, "live: requests while nothing is due", { idle: live.idleRequests, correctionChecks: live.correctionChecks }, `${live.idleRequests} (and ${live.correctionChecks} correction checks on the 2 h grid)`, "0", live.idleRequests === 0);
  const p50 = percentile(live.delays, 50);
  const p95 = percentile(live.delays, 95);
  reportCase(rows, "live: publication to cell p50 / p95", { p50Ms: p50, p95Ms: p95, publications: live.delays.length }, `${seconds(p50)} / ${seconds(p95)} over ${live.delays.length} publications`, "<= poll interval (60 s) + one request", p95 <= DEFAULT_LIVE_POLICY.pollMs);
  reportCase(rows, "timer every 5 min: requests", { requests: timer.requests, idle: timer.idleRequests, symbolsAsked: timer.symbolsAsked }, `${timer.requests} naming ${timer.symbolsAsked} symbols (${timer.idleRequests} while nothing was due)`, "(baseline)", true);
  reportCase(rows, "timer every 5 min: publication to cell p50 / p95", { p50Ms: percentile(timer.delays, 50), p95Ms: percentile(timer.delays, 95), publications: timer.delays.length }, `${seconds(percentile(timer.delays, 50))} / ${seconds(percentile(timer.delays, 95))}`, "(baseline)", true);
  process.stdout.write(`${JSON.stringify({ case: "setting", cells: 1000, instruments: list.length, publications: live.delays.length, minutesWithPublications: waves, liveWallMs: Math.round(live.wallMs), timerWallMs: Math.round(timer.wallMs), loadavg: load })}\n`);
  if (values["no-docs"] === true) return;
  await writeSection(
    "Live prices",
    [
      `\`npm run bench:live\` (${new Date().toISOString().slice(0, 10)}, load average ${load}): 1,000 PRICES.LIVE cells (ten per instrument, three field sets) over 100 instruments (60 daily, 20 twice weekly, 12 weekly, 8 monthly, usual times 08:00-18:00 UTC, each day's time 0-14 min later), through Monday 2025-06-30 (the last weekday of June: the monthly ones publish) and Tuesday, on a clock the script moves from wake-up to wake-up, against a simulated service that publishes on it, through the real client; delays are on that clock (the simulated service answers at once, so "one request" adds nothing here: against the sandbox a latest-price request takes milliseconds). The timer refresh asks every cell every 5 minutes on the same data in the same run.`,
      "",
      targetTable(rows),
      "",
      `Live updates make ${live.requests > timer.requests ? "more" : "fewer"} requests than the 5-minute timer (${live.requests} against ${timer.requests}): a poll a minute while any instrument is in its window, and with 100 instruments' windows spread over 08:00-18:30 UTC some instrument is due most of the working day. Each poll names only the instruments due, so the service answers ${(timer.symbolsAsked / Math.max(1, live.symbolsAsked)).toFixed(1)} times fewer symbols (${live.symbolsAsked} against ${timer.symbolsAsked}); overnight only the correction checks ask (${live.correctionChecks} in two days, on the 2-hour grid), where the timer asked ${timer.idleRequests} times with nothing due. A longer \`pollMs\` trades requests for delay in proportion.`,
      "",
      `Both runs took ${Math.round(live.wallMs)} ms (live) and ${Math.round(timer.wallMs)} ms (timer) of this machine's time for the two simulated days.`,
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
