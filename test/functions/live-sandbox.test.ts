/**
 * PRICES.LIVE end to end in Node: the real functions under the host engine, the real client with client-credentials
 * tokens, the real sandbox in live mode with its clock set by the test, and the registry on a clock the test moves
 * to the same instants. Every step waits for the registry's poll to end or the engine's change event; no timing.
 */
import { join, resolve } from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { fromEpochDay } from "../../src/api/dates";
import * as F from "../../src/functions/functions";
import { readBook } from "../../src/host/book";
import { WorkbookEngine } from "../../src/host/engine";
import { parseFunctionsMetadata, type FunctionMetadata } from "../../src/host/metadata";
import { createCustomFunctionsRuntime } from "../../src/host/runtime";
import { manualLiveClock, type ManualLiveClock } from "../../src/prices/live-clock";
import { startHarness, type Harness } from "../prices/sandbox-helpers";

const START = "2025-06-30T10:00:00Z";
let harness: Harness;
let metadata: FunctionMetadata[];

beforeAll(async () => {
  const [started, generated] = await Promise.all([startHarness({ live: { speed: 0 }, now: START }), generateCustomFunctionsMetadata(join(resolve(__dirname, "../.."), "src/functions/functions.ts"))]);
  harness = started;
  expect(generated.errors).toEqual([]);
  metadata = parseFunctionsMetadata(JSON.parse(generated.metadataJson));
}, 180_000);

afterAll(async () => {
  await globalThis.PricesAddin?.reset({ recalculate: false });
  await harness?.close();
});

/** An active daily instrument of the data set, and its latest record by the start. */
function dailySymbol(): string {
  const found = harness.sandbox.data.instruments.find((i) => i.record.frequency === "Daily" && i.record.status === "Active" && i.record.symbol.startsWith("MB-"));
  if (!found) throw new Error("no daily instrument");
  return found.record.symbol;
}

/** Mid of the record of a day, as the data set holds it (before any live correction). */
function midOn(symbol: string, date: string): number {
  const series = harness.sandbox.data.instruments.find((i) => i.record.symbol === symbol)?.series;
  if (!series) throw new Error(symbol);
  for (let i = series.length - 1; i >= 0; i--) if (fromEpochDay(series.days[i] ?? 0) === date) return series.mid[i] ?? NaN;
  throw new Error(`${symbol} has no ${date}`);
}

interface Sheet {
  engine: WorkbookEngine;
  clock: ManualLiveClock;
  /** Resolves at the engine's next streamed change. */
  nextChange(): Promise<void>;
  /** Resolves once a placed result makes `ready` true (a dependent recalculated). */
  placedUntil(ready: () => boolean): Promise<void>;
  /** Moves both clocks to the registry's next wake-up and waits for that poll to end; returns the instant. */
  step(): Promise<number>;
}

async function liveSheet(cells: Record<string, unknown>): Promise<Sheet> {
  const live = harness.sandbox.live;
  if (!live) throw new Error("the sandbox is not live");
  live.clock.set(Date.parse(START));
  const clock = manualLiveClock(Date.parse(START));
  const runtime = createCustomFunctionsRuntime();
  (globalThis as Record<string, unknown>).CustomFunctions = runtime.global;
  runtime.global.associate({ LIVE: F.live, MID: F.mid });
  const addin = globalThis.PricesAddin;
  if (!addin) throw new Error("functions.ts set no PricesAddin");
  await addin.configure({ baseUrl: harness.sandbox.apiUrl, tokenProvider: harness.tokens(), fetch: harness.fetch, recalculate: false, live: { clock } });
  let changed: (() => void) | undefined;
  const placed = new Set<() => void>();
  const engine = new WorkbookEngine({ runtime, metadata, namespace: "PRICES", onChange: () => changed?.(), onPlaced: () => [...placed].forEach((check) => check()) });
  engine.load(readBook({ cells }));
  await engine.evaluate();
  // the registry learns each instrument (its frequency, one batched request) after the first value
  if (clock.waiting.length === 0) await new Promise<void>((done) => { const stop = addin.onLiveState(() => { if (clock.waiting.length > 0) { stop(); done(); } }); });
  return {
    engine,
    clock,
    nextChange: () => new Promise<void>((done) => (changed = done)),
    placedUntil: (ready) =>
      new Promise<void>((done) => {
        const check = (): void => {
          if (!ready()) return;
          placed.delete(check);
          done();
        };
        placed.add(check);
        check();
      }),
    async step() {
      const next = clock.waiting[0];
      if (next === undefined) throw new Error("nothing is scheduled");
      live.clock.set(next);
      const ended = new Promise<void>((done) => {
        const stop = addin.onLiveState(() => {
          stop();
          done();
        });
      });
      clock.advanceTo(next);
      await ended;
      return next;
    },
  };
}

describe("PRICES.LIVE against the sandbox publishing on a clock", () => {
  it("asks nothing before the window, then shows the new assessment and recalculates what depends on it; a correction updates it; cancelled, it asks nothing", async () => {
    const symbol = dailySymbol();
    const live = harness.sandbox.live!;
    const publication = live.nextPublication([symbol]);
    if (!publication) throw new Error("nothing to publish");
    const sheet = await liveSheet({ A1: `=PRICES.LIVE("${symbol}")`, B1: "=A1*2" });
    const before = sheet.engine.value(0, 0);
    expect(typeof before).toBe("number");
    expect(before).not.toBe(midOn(symbol, publication.date));

    // until the window of the next publication opens only the low-rate correction checks of the shown record may ask
    const asked = harness.counts.api;
    const steps: number[] = [];
    while ((sheet.clock.waiting[0] ?? Infinity) < publication.at - 15 * 60_000) steps.push(await sheet.step());
    expect(harness.counts.api - asked).toBe(steps.length);
    expect(steps.every((at) => at % (2 * 3_600_000) === 0)).toBe(true);
    expect(sheet.engine.value(0, 0)).toBe(before);

    // through the window: the registry sees it at the first poll after publication, the cell changes, and B1 follows
    const shown = (): { shownDate: string; revision: number } | undefined => globalThis.PricesAddin?.liveState()?.instruments.find((i) => i.symbol === symbol);
    const change = sheet.nextChange();
    let seenAt = 0;
    while (shown()?.shownDate !== publication.date && seenAt <= publication.at + 3_600_000) seenAt = await sheet.step();
    await change;
    // B1 read the new A1: it ran again
    await sheet.placedUntil(() => typeof sheet.engine.value(0, 1) === "number" && sheet.engine.value(0, 1) !== (before as number) * 2);
    expect(seenAt).toBeGreaterThanOrEqual(publication.at);
    expect(seenAt - publication.at).toBeLessThanOrEqual(60_000);
    const mid = midOn(symbol, publication.date);
    expect(sheet.engine.value(0, 0)).toBe(mid);
    expect(sheet.engine.value(0, 1)).toBe(mid * 2);

    // a correction of the shown assessment, published an hour later: the next correction check shows it
    const correctedAt = publication.at + 3_600_000;
    live.correct(symbol, publication.date, { at: correctedAt, shift: 1 });
    const corrected = sheet.nextChange();
    let checkedAt = 0;
    while ((shown()?.revision ?? 0) === 0 && checkedAt <= correctedAt + 3 * 3_600_000) checkedAt = await sheet.step();
    await corrected;
    await sheet.placedUntil(() => typeof sheet.engine.value(0, 1) === "number" && sheet.engine.value(0, 1) !== mid * 2);
    expect(checkedAt - correctedAt).toBeLessThanOrEqual(2 * 3_600_000);
    expect(sheet.engine.value(0, 0)).toBeCloseTo(mid + 1, 6);
    expect(sheet.engine.value(0, 1)).toBeCloseTo((mid + 1) * 2, 6);

    // clearing the sheet cancels the cell: nothing is scheduled and nothing asked
    sheet.engine.load(readBook({ cells: {} }));
    expect(sheet.clock.waiting).toEqual([]);
    const after = harness.counts.api;
    live.clock.set(publication.at + 2 * 86_400_000);
    sheet.clock.advanceTo(publication.at + 2 * 86_400_000);
    expect(harness.counts.api).toBe(after);
    expect(globalThis.PricesAddin?.liveState()?.cells).toBe(0);
  });
});
