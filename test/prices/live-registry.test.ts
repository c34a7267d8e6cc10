/**
 * The live registry against a simulated service that publishes on a clock the test moves by hand: no timers are
 * waited for; every step is the clock's next wake-up, and the registry says when its poll is done.
 */
import { createPricesClient, staticTokenProvider } from "../../src/prices";
import { manualLiveClock, type ManualLiveClock } from "../../src/prices/live-clock";
import { LiveRegistry } from "../../src/prices/live-registry";
import { DEFAULT_LIVE_POLICY, nextAsk, type LivePolicy } from "../../src/prices/live-schedule";
import type { PriceKey } from "../../src/prices/types";
import { livePublisher, type PublishedInstrument } from "./live-publisher";

// Monday 2025-06-30, 10:00 UTC
const MONDAY = "2025-06-30";
const START = Date.parse(`${MONDAY}T10:00:00Z`);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function setup(instruments: PublishedInstrument[], skipped: ReadonlySet<string> = new Set(), policy: Partial<LivePolicy> = {}) {
  const clock = manualLiveClock(START);
  const publisher = livePublisher(instruments, clock.now, skipped);
  const client = createPricesClient({
    baseUrl: "https://example.test/physical/v2",
    tokenProvider: staticTokenProvider("token"),
    fetch: publisher.fetch,
    now: clock.now,
    // one window per tick: every key asked in one synchronous pass is one batch, with no timer
    scheduler: (dispatch) => queueMicrotask(dispatch),
  });
  const registry = new LiveRegistry({ client, clock, policy });
  const changes: { symbol: string; at: number }[] = [];
  const live = async (symbol: string, key: PriceKey = { symbol }): Promise<{ cancel(): void; value(): Promise<number> }> => {
    await client.price(key);
    const subscription = registry.subscribe([key], () => changes.push({ symbol, at: clock.now() }));
    await registry.whenIdle();
    return { cancel: () => subscription.cancel(), value: async () => (await client.price(key)).mid };
  };
  return { clock, publisher, client, registry, changes, live };
}

/** Steps the clock from wake-up to wake-up up to `until`, letting each poll finish. */
async function runUntil(clock: ManualLiveClock, registry: LiveRegistry, until: number): Promise<number[]> {
  const wakes: number[] = [];
  for (;;) {
    const next = clock.waiting[0];
    if (next === undefined || next > until) break;
    clock.advanceTo(next);
    wakes.push(next);
    await registry.whenIdle();
  }
  clock.advanceTo(until);
  return wakes;
}

describe("live registry", () => {
  it("asks nothing until the due window opens, then updates the cell at the first poll after publication", async () => {
    // no correction checks of Friday's record: only publication decides here
    const { clock, publisher, registry, changes, live } = setup([{ symbol: "D1", frequency: "Daily", minuteUtc: 16 * 60 }], new Set(), { correctionWindowDays: 0, correctionCheckMs: 24 * HOUR });
    const cell = await live("D1");
    const before = await cell.value();
    const asked = publisher.calls.length;
    const published = publisher.publishedAt({ symbol: "D1", frequency: "Daily", minuteUtc: 16 * 60 }, MONDAY);
    const wakes = await runUntil(clock, registry, published - DEFAULT_LIVE_POLICY.leadMs - 1);
    expect(wakes).toEqual([]);
    expect(publisher.calls.length).toBe(asked);
    await runUntil(clock, registry, published + DEFAULT_LIVE_POLICY.pollMs);
    expect(changes).toHaveLength(1);
    const change = changes[0];
    expect(change?.at).toBeGreaterThanOrEqual(published);
    expect((change?.at ?? Infinity) - published).toBeLessThanOrEqual(DEFAULT_LIVE_POLICY.pollMs);
    expect(await cell.value()).not.toBe(before);
    // once today's is shown, nothing more is asked today
    const polls = publisher.calls.length;
    await runUntil(clock, registry, Date.parse(`${MONDAY}T23:59:00Z`));
    expect(publisher.calls.length).toBe(polls);
  });

  it("checks the shown record for corrections at most once per correction interval while nothing is due", async () => {
    const { clock, publisher, registry, live } = setup([{ symbol: "D1", frequency: "Daily", minuteUtc: 16 * 60 }]);
    await live("D1");
    const from = publisher.calls.length;
    const opens = Date.parse(`${MONDAY}T16:00:00Z`) - DEFAULT_LIVE_POLICY.leadMs;
    await runUntil(clock, registry, opens - 1);
    const checks = publisher.calls.slice(from);
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.length).toBeLessThanOrEqual(Math.ceil((opens - START) / DEFAULT_LIVE_POLICY.correctionCheckMs));
  });

  it("asks every instrument due in one request per poll", async () => {
    const instruments: PublishedInstrument[] = Array.from({ length: 12 }, (_, i) => ({ symbol: `S${i}`, frequency: "Daily", minuteUtc: 16 * 60 }));
    const { clock, publisher, registry, changes, live } = setup(instruments);
    for (const instrument of instruments) await live(instrument.symbol);
    const from = publisher.calls.length;
    await runUntil(clock, registry, Date.parse(`${MONDAY}T17:00:00Z`));
    const polls = publisher.calls.slice(from);
    expect(polls.length).toBeGreaterThan(0);
    // every poll of the wave carried every instrument still awaited, in one request
    for (const poll of polls) expect(poll.symbols.length).toBeGreaterThan(0);
    const perInstant = new Map<number, number>();
    for (const poll of polls) perInstant.set(poll.at, (perInstant.get(poll.at) ?? 0) + 1);
    expect(Math.max(...perInstant.values())).toBe(1);
    expect(new Set(changes.map((c) => c.symbol)).size).toBe(instruments.length);
  });

  it("polls a late assessment with growing waits, gives the day up at the bound and waits for the next day", async () => {
    const instrument: PublishedInstrument = { symbol: "LATE", frequency: "Daily", minuteUtc: 16 * 60 };
    // corrections aside (their checks would interleave with the late polls)
    const { clock, publisher, registry, changes, live } = setup([instrument], new Set([MONDAY]), { correctionWindowDays: 0, correctionCheckMs: 24 * HOUR });
    await live("LATE");
    const from = publisher.calls.length;
    const due = Date.parse(`${MONDAY}T16:00:00Z`);
    await runUntil(clock, registry, due + DEFAULT_LIVE_POLICY.lateBoundMs + HOUR);
    expect(changes).toHaveLength(0);
    const late = publisher.calls.slice(from).map((c) => c.at).filter((at) => at > due + DEFAULT_LIVE_POLICY.onTimeMs);
    const gaps = late.slice(1).map((at, i) => at - (late[i] ?? 0));
    expect(gaps.length).toBeGreaterThan(2);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i] ?? 0).toBeGreaterThanOrEqual(gaps[i - 1] ?? 0);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(DEFAULT_LIVE_POLICY.maxBackoffMs + DEFAULT_LIVE_POLICY.pollMs);
    expect(Math.max(...late)).toBeLessThan(due + DEFAULT_LIVE_POLICY.lateBoundMs);
    // the next wake-up is Tuesday's window
    expect(clock.waiting[0]).toBeGreaterThanOrEqual(Date.parse("2025-07-01T00:00:00Z"));
    await runUntil(clock, registry, Date.parse("2025-07-01T17:00:00Z"));
    expect(changes.map((c) => c.symbol)).toEqual(["LATE"]);
  });

  it("updates the cell when the shown assessment is corrected, checking at the correction rate", async () => {
    const instrument: PublishedInstrument = { symbol: "W1", frequency: "Weekly", minuteUtc: 15 * 60, weekday: 0 };
    const { clock, publisher, registry, changes, live } = setup([instrument]);
    await runUntil(clock, registry, Date.parse(`${MONDAY}T18:00:00Z`));
    const cell = await live("W1");
    const shown = await cell.value();
    const correctedAt = Date.parse("2025-07-02T10:20:00Z");
    publisher.correct("W1", MONDAY, correctedAt);
    const from = publisher.calls.length;
    await runUntil(clock, registry, correctedAt + DEFAULT_LIVE_POLICY.correctionCheckMs);
    expect(changes).toHaveLength(1);
    expect((changes[0]?.at ?? Infinity) - correctedAt).toBeLessThanOrEqual(DEFAULT_LIVE_POLICY.correctionCheckMs);
    expect(await cell.value()).toBe(shown + 0.25);
    // a low rate: at most one check per correction interval
    const checks = publisher.calls.slice(from);
    const hours = (correctedAt + DEFAULT_LIVE_POLICY.correctionCheckMs - Date.parse(`${MONDAY}T18:00:00Z`)) / DEFAULT_LIVE_POLICY.correctionCheckMs;
    expect(checks.length).toBeLessThanOrEqual(Math.ceil(hours) + 1);
  });

  it("stops asking once the last cell of an instrument is cancelled", async () => {
    const { clock, publisher, registry, live } = setup([{ symbol: "D1", frequency: "Daily", minuteUtc: 16 * 60 }]);
    const cell = await live("D1");
    expect(clock.waiting.length).toBe(1);
    cell.cancel();
    expect(clock.waiting).toEqual([]);
    const from = publisher.calls.length;
    await runUntil(clock, registry, START + 3 * 24 * HOUR);
    expect(publisher.calls.length).toBe(from);
    expect(registry.state().cells).toBe(0);
  });

  it("asks nothing while paused and catches up in one request when resumed", async () => {
    const instruments: PublishedInstrument[] = [
      { symbol: "A", frequency: "Daily", minuteUtc: 15 * 60 },
      { symbol: "B", frequency: "Daily", minuteUtc: 16 * 60 },
    ];
    const { clock, publisher, registry, changes, live } = setup(instruments);
    await live("A");
    await live("B");
    registry.setPaused("hidden", true);
    expect(clock.waiting).toEqual([]);
    const from = publisher.calls.length;
    clock.advanceTo(Date.parse(`${MONDAY}T18:00:00Z`));
    await registry.whenIdle();
    expect(publisher.calls.length).toBe(from);
    registry.setPaused("hidden", false);
    await runUntil(clock, registry, clock.now());
    expect(publisher.calls.slice(from)).toHaveLength(1);
    expect(publisher.calls[from]?.symbols.sort()).toEqual(["A", "B"]);
    expect(changes.map((c) => c.symbol).sort()).toEqual(["A", "B"]);
  });

  it("schedules from the frequency: a twice-weekly instrument is not due on Monday", () => {
    const state = { frequency: "Twice weekly", shown: { date: "2025-06-26", assessmentDate: "2025-06-26T16:05:00+01:00", revision: 0 }, usualMinutes: [16 * 60 + 5], offsetMinutes: 60, lastAskedAt: START };
    const next = nextAsk(state, START, { ...DEFAULT_LIVE_POLICY, correctionWindowDays: 0 });
    expect(next.day).toBe("2025-07-01");
    expect(next.at).toBe(Date.parse("2025-07-01T14:50:00Z"));
  });
});
