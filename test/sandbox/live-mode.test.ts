/**
 * The sandbox's live mode (issue 31) without HTTP: its command line, the clock a test sets or runs faster, and
 * corrections published at chosen instants over the published view; and the pieces the surfaces add around it.
 */
import { parseCommandLine, UsageError } from "../../src/sandbox/cli";
import { liveClock, LiveCorrections } from "../../src/sandbox/data/live";
import { generateDataSet } from "../../src/sandbox/data/generator";
import { PublishedInstruments } from "../../src/sandbox/data/published";
import { fromEpochDay } from "../../src/api/dates";
import { parseStartArguments, UsageError as StartUsageError } from "../../scripts/start";
import { priceCallKeys, isPriceCall, datesArgument } from "../../src/functions/call-keys";
import { liveSummary } from "../../src/taskpane/panels/live";

describe("the sandbox publishing while you watch", () => {
  it("reads --clock-speed, and refuses it with --today", () => {
    expect(parseCommandLine(["--clock-speed", "60", "--now", "2025-06-30T14:30:00Z"]).options).toMatchObject({ live: { speed: 60 }, now: "2025-06-30T14:30:00Z" });
    expect(() => parseCommandLine(["--clock-speed", "60", "--today", "2025-06-30"])).toThrow(UsageError);
    expect(() => parseCommandLine(["--clock-speed", "0"])).toThrow(UsageError);
  });

  it("runs a clock that a test sets, or faster than the real one", () => {
    let real = 1_000;
    const still = liveClock(5_000, 0, () => real);
    real += 10_000;
    expect(still.now()).toBe(5_000);
    still.set(9_000);
    expect(still.now()).toBe(9_000);
    still.advance(500);
    expect(still.now()).toBe(9_500);
    const fast = liveClock(5_000, 60, () => real);
    real += 1_000;
    expect(fast.now()).toBe(65_000);
    expect(fast.setting()).toEqual({ origin: 5_000, since: real - 1_000, speed: 60 });
  });

  it("publishes a correction of a day at its instant: before it the first value, after it a new revision", () => {
    const data = generateDataSet({ today: "2025-06-30", now: Date.parse("2025-06-30T23:59:59Z") });
    const instrument = data.instruments.find((i) => i.record.status === "Active");
    if (!instrument) throw new Error("no instrument");
    const last = instrument.series.length - 1;
    const date = fromEpochDay(instrument.series.days[last] ?? 0);
    const corrections = new LiveCorrections();
    const published = new PublishedInstruments(corrections);
    const at = Date.parse("2025-07-02T10:15:00Z");
    const before = published.of(instrument, at - 1).series;
    corrections.add({ symbol: instrument.record.symbol, date, at, shift: 2 });
    const stillBefore = published.of(instrument, at - 1).series;
    const after = published.of(instrument, at).series;
    expect(stillBefore.mid[last]).toBe(before.mid[last]);
    expect(stillBefore.revision[last]).toBe(before.revision[last]);
    expect(after.mid[last]).toBeCloseTo((before.mid[last] ?? 0) + 2, 9);
    expect(after.revision[last]).toBe((before.revision[last] ?? 0) + 1);
    expect(after.assessmentDate(last)).toBe("2025-07-02T10:15:00+00:00");
    expect(after.publishedAt(last)).toBe(at);
    // the data set itself is untouched
    expect(instrument.series.mid[last]).toBe(before.mid[last]);
  });
});

describe("around PRICES.LIVE", () => {
  it("npm start takes --live-demo, not with --today", () => {
    expect(parseStartArguments(["--live-demo"])).toEqual({ port: 3000, apiPort: 4000, liveDemo: true });
    expect(() => parseStartArguments(["--live-demo", "--today", "2025-06-30"])).toThrow(StartUsageError);
  });

  it("traces a LIVE cell to the key it holds (the latest, its field and conversion), for Freeze and the runner's provenance", () => {
    expect(isPriceCall("LIVE")).toBe(true);
    expect(datesArgument("LIVE")).toBe(-1);
    const args = ["MB-AL-0004", "pricingRationale", "eur", null];
    expect(priceCallKeys("LIVE", (i) => args[i])("MB-AL-0004", undefined)).toEqual({ symbol: "MB-AL-0004", fields: ["pricingRationale"], currency: "EUR" });
  });

  it("says in the pane how many cells are live, and that nothing is asked when the setting is off", () => {
    const state = { cells: 3, instruments: [], pollsToday: 4, requestsToday: 4, paused: ["hidden"] };
    expect(liveSummary(state, true)).toBe("3 live cells over 0 instruments; 4 requests for live updates today (4 polls). Paused (hidden): catches up in one request when back.");
    expect(liveSummary(state, false)).toMatch(/off: live cells keep their value and nothing is asked/);
    expect(liveSummary(undefined, true)).toMatch(/^No live cells/);
  });
});
