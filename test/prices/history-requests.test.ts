/**
 * Long histories are sized by each instrument's own calendar (frequency and launch date, from its record)
 * against the real sandbox: no history takes more than 1.2 times the fewest requests its records need,
 * counted as the requests the sandbox really received.
 */
import { addDays } from "../../src/api/dates";
import { createPricesClient, type HistoryKey, type SymbolHistory } from "../../src/prices";
import { estimateHistoryRecords } from "../../src/prices/history-estimate";
import { historyParts } from "../../src/prices/history-parts";
import { normHistoryKey } from "../../src/prices/keys";
import { startHarness, type Harness } from "./sandbox-helpers";

jest.setTimeout(180_000);

const MAX_RECORDS = 100;

describe("a long history asked by the instrument's own calendar", () => {
  let harness: Harness;
  let today: string;
  /** Requests the sandbox received, by path. */
  let paths: string[] = [];
  let countingFetch: typeof fetch;

  beforeAll(async () => {
    harness = await startHarness();
    today = harness.sandbox.data.today;
    countingFetch = (input, init) => {
      const url = String(input);
      if (url.startsWith(harness.sandbox.apiUrl)) paths.push(new URL(url).pathname.toLowerCase());
      return harness.fetch(input, init);
    };
  });
  afterAll(() => harness.close());

  /** An active instrument of the frequency launched at least `years` ago, or the most recent launch after it. */
  function instrumentOf(frequency: string, launchedBefore: string): { symbol: string; launchDate: string } {
    const candidates = harness.sandbox.data.instruments.map((item) => item.record).filter((record) => record.frequency === frequency && record.status === "Active");
    const found = candidates.find((record) => record.launchDate <= launchedBefore) ?? candidates[0];
    if (!found) throw new Error(`the sandbox has no active ${frequency} instrument`);
    return found;
  }

  /** The history through a fresh client (nothing cached) at MAX_RECORDS, with the requests it took. */
  async function asked(key: HistoryKey, maxRecords = MAX_RECORDS): Promise<{ history: SymbolHistory; histories: number; instruments: number }> {
    const client = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: harness.tokens(), fetch: countingFetch, limits: { maxRecords } });
    paths = [];
    const history = await client.history(key);
    return { history, histories: paths.filter((path) => path.endsWith("/prices/history")).length, instruments: paths.filter((path) => path.endsWith("/instruments")).length };
  }

  const frequencies = ["Daily", "Twice weekly", "Weekly", "Monthly"];

  it.each(frequencies)("a %s history of ten years takes at most 1.2 times its fewest requests", async (frequency) => {
    const from = addDays(today, -3652);
    const { symbol } = instrumentOf(frequency, from);
    const { history, histories, instruments } = await asked({ symbol, fromDate: from, toDate: today });
    const fewest = Math.ceil(history.prices.length / MAX_RECORDS);
    expect(histories).toBeGreaterThanOrEqual(fewest);
    expect(histories).toBeLessThanOrEqual(Math.max(1, Math.floor(1.2 * fewest)));
    // The instrument's record is one request, shared by every history of the window and cached a day.
    expect(instruments).toBeLessThanOrEqual(1);
  });

  it.each(frequencies)("a %s history starting ten years before the launch is asked from the launch on", async (frequency) => {
    const { symbol, launchDate } = instrumentOf(frequency, addDays(today, -2000));
    const key = { symbol, fromDate: addDays(launchDate, -3652), toDate: today };
    const { history, histories } = await asked(key);
    const fewest = Math.ceil(history.prices.length / MAX_RECORDS);
    expect(histories).toBeLessThanOrEqual(Math.max(1, Math.floor(1.2 * fewest)));
    // The same records as one request of the whole range.
    const whole = await asked(key, 100_000);
    expect(whole.histories).toBe(1);
    expect(history.prices).toEqual(whole.history.prices);
  });

  it("a carried-forward calendar-day history is sized by calendar days from the launch", async () => {
    const { symbol, launchDate } = instrumentOf("Weekly", addDays(today, -1000));
    const key: HistoryKey = { symbol, fromDate: addDays(launchDate, -2000), toDate: addDays(today, -1), calendarType: "CalendarDays", carryForward: true };
    const { history, histories } = await asked(key);
    const fewest = Math.ceil(history.prices.length / MAX_RECORDS);
    expect(histories).toBeLessThanOrEqual(Math.max(1, Math.floor(1.2 * fewest)));
  });

  it("histories of many weekly and monthly symbols in one window share requests by their own calendars", async () => {
    const symbols = harness.sandbox.data.instruments
      .map((item) => item.record)
      .filter((record) => (record.frequency === "Weekly" || record.frequency === "Monthly") && record.status === "Active")
      .slice(0, 20)
      .map((record) => record.symbol);
    const client = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: harness.tokens(), fetch: countingFetch, limits: { maxRecords: 2_000 } });
    paths = [];
    const from = addDays(today, -3652);
    const histories = await Promise.all(symbols.map((symbol) => client.history({ symbol, fromDate: from, toDate: today })));
    const records = histories.reduce((sum, history) => sum + history.prices.length, 0);
    const requests = paths.filter((path) => path.endsWith("/prices/history")).length;
    // By calendar days, each ten-year history would fill a request of 2,000 records alone: 20 requests.
    expect(requests).toBeLessThanOrEqual(Math.max(1, Math.floor(1.2 * Math.ceil(records / 2_000))));
    expect(paths.filter((path) => path.endsWith("/instruments"))).toHaveLength(1);
  });
});

describe("the parts of a long history", () => {
  it("are as few as the estimate allows and about equal, so none is filled to the limit", () => {
    const key = normHistoryKey({ symbol: "SYM", fromDate: "2014-06-30", toDate: "2024-06-28" });
    const calendar = { frequency: "Daily", launchDate: "2010-01-01" };
    const total = estimateHistoryRecords(key, calendar);
    // A limit just under the whole (learned from a refusal saying "limit of (asked - 1)"): two halves, not the limit and a day.
    const parts = historyParts(key, total - 1, "2024-06-28", calendar) ?? [];
    expect(parts).toHaveLength(2);
    const sizes = parts.map((part) => estimateHistoryRecords(part, calendar));
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(total);
    for (const size of sizes) expect(Math.abs(size - total / 2)).toBeLessThanOrEqual(1);
  });
});
