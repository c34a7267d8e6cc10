/**
 * Histories over `maxRecords` split by date range and joined, and limits learned from the service's 400s,
 * against the real sandbox: the joined answer equals the one-request answer, calendar, carry-forward,
 * averages and forecast included.
 */
import { addDays } from "../../src/api/dates";
import { createPricesClient, type HistoryKey, type PricesClient, type SymbolHistory } from "../../src/prices";
import { startHarness, weekdaysBefore, type Harness } from "./sandbox-helpers";

jest.setTimeout(120_000);

function comparable(history: SymbolHistory) {
  return { ...history, assessedDates: [...history.assessedDates].sort() };
}

describe("a history over maxRecords", () => {
  let harness: Harness;
  let whole: PricesClient;
  let split: PricesClient;
  let symbol: string;
  let forecastSymbol: string | undefined;
  let today: string;

  beforeAll(async () => {
    harness = await startHarness();
    const tokens = harness.tokens();
    whole = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: tokens, fetch: harness.fetch });
    split = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: tokens, fetch: harness.fetch, limits: { maxRecords: 20 } });
    symbol = harness.sandbox.data.instruments[0]?.record.symbol as string;
    forecastSymbol = harness.sandbox.data.instruments.find((item) => (item.record.forecastTypeIds ?? []).includes("F24M"))?.record.symbol;
    today = harness.sandbox.data.today;
  });
  afterAll(() => harness.close());

  const cases: [string, (from: string, to: string) => Omit<HistoryKey, "symbol">][] = [
    ["assessment days", (fromDate, toDate) => ({ fromDate, toDate })],
    ["calendar days carried forward", (fromDate, toDate) => ({ fromDate, toDate, calendarType: "CalendarDays", carryForward: true })],
    ["weekdays without carry-forward", (fromDate, toDate) => ({ fromDate, toDate, calendarType: "Weekdays" })],
    ["weekly averages", (fromDate, toDate) => ({ fromDate, toDate, calculationType: "WeeklyAverage" })],
    ["monthly averages", (fromDate, toDate) => ({ fromDate, toDate, calculationType: "MonthlyAverage", fields: ["assessmentPeriod"] })],
  ];

  it.each(cases)("is split by date range, never over the limit, and joined equal to one request (%s)", async (_, make) => {
    const key = { symbol, ...make(addDays(today, -800), addDays(today, -3)) };
    const before = split.stats().requestsSent;
    const [expected, joined] = await Promise.all([whole.history(key), split.history(key)]);
    expect(split.stats().requestsSent - before).toBeGreaterThan(1);
    expect(comparable(joined)).toEqual(comparable(expected));
  });

  it("keeps the forecast of a split history", async () => {
    if (forecastSymbol === undefined) throw new Error("the sandbox data has no instrument with an F24M forecast");
    const key = { symbol: forecastSymbol, fromDate: addDays(today, -400), toDate: addDays(today, 400), forecastType: "F24M" };
    const [expected, joined] = await Promise.all([whole.history(key), split.history(key)]);
    expect(joined.forecast).toBeDefined();
    expect(comparable(joined)).toEqual(comparable(expected));
  });
});

describe("limits the service names", () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({ limits: { maxSymbols: 500, maxDates: 250, maxRecords: 2000 } });
  });
  afterAll(() => harness.close());

  it("are learned from a 400, and the refused keys are planned again within them", async () => {
    // The client is not told: it believes the default 100,000 records.
    const client = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: harness.tokens(), fetch: harness.fetch });
    const today = harness.sandbox.data.today;
    const symbols = harness.sandbox.data.instruments.slice(0, 100).map((item) => item.record.symbol);
    const dates = weekdaysBefore(addDays(today, -1), 50);
    const grid = symbols.flatMap((symbol) => dates.map((date) => ({ symbol, date })));
    const history = { symbol: symbols[0] as string, fromDate: addDays(today, -3650), toDate: today, calendarType: "CalendarDays" as const, carryForward: true };
    const [prices, long] = await Promise.all([Promise.allSettled(grid.map((key) => client.price(key))), client.history(history)]);
    expect(prices.filter((result) => result.status === "rejected")).toEqual([]);
    expect(long.prices.length).toBeGreaterThan(2000);
    expect(client.stats().replanned).toBeGreaterThanOrEqual(2);
    // Every later request stays within the learned limit.
    const again = await client.history({ ...history, fromDate: addDays(today, -3000) });
    expect(again.prices.length).toBeGreaterThan(2000);
  });
});

describe("a service that counts a history's records by calendar day", () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({ limits: { maxSymbols: 500, maxDates: 250, maxRecords: 1000 }, countCalendarDays: true });
  });
  afterAll(() => harness.close());

  it("refuses every part sized by the instrument's calendar, and each refused part is planned again by calendar days", async () => {
    const today = harness.sandbox.data.today;
    const daily = harness.sandbox.data.instruments.find((item) => item.record.frequency.toLowerCase() === "daily" && item.record.launchDate < addDays(today, -3650));
    if (!daily) throw new Error("the sandbox data has no daily instrument with ten years of history");
    const key = { symbol: daily.record.symbol, fromDate: addDays(today, -3650), toDate: today };
    // Told the service's record limit, the client sizes the history by the instrument's weekdays: three parts, each over 1,000 calendar days.
    const told = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: harness.tokens(), fetch: harness.fetch, limits: { maxRecords: 1000 } });
    // Not told, the client learns the limit from the first refusal and never knows the calendar: parts by calendar days from the start.
    const learning = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: harness.tokens(), fetch: harness.fetch });
    const [joined, expected] = await Promise.all([told.history(key), learning.history(key)]);
    expect(told.stats().replanned).toBeGreaterThanOrEqual(3);
    expect(joined.prices.length).toBeGreaterThan(2000);
    expect(comparable(joined)).toEqual(comparable(expected));
  });
});
