/** The client against the real sandbox (HTTPS on a random port, real client-credentials tokens). */
import { fromEpochDay } from "../../src/api/dates";
import { AuthError, InvalidInstrumentError, NoDataError, createPricesClient, serviceKeyTokenProvider, type PricesClient, type TokenProvider } from "../../src/prices";
import type { InstrumentData } from "../../src/sandbox/data/model";
import { expectedOn, startHarness, weekdaysBefore, type Harness } from "./sandbox-helpers";

jest.setTimeout(180_000);

type Json = Record<string, unknown>;

describe("client against the sandbox", () => {
  let harness: Harness;
  let client: PricesClient;
  let tokens: TokenProvider;
  let symbols: string[];
  let today: string;

  beforeAll(async () => {
    harness = await startHarness();
    tokens = harness.tokens();
    client = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: tokens, fetch: harness.fetch });
    symbols = harness.sandbox.data.instruments.slice(0, 6).map((item) => item.record.symbol);
    today = harness.sandbox.data.today;
  });
  afterAll(() => harness.close());

  async function direct(path: string, params: Record<string, string>): Promise<Json> {
    return (await harness.get(path, params, await tokens.getToken())) as Json;
  }
  function firstBlock(body: Json): Json {
    return ((body.instruments as Json[])[0] ?? {}) as Json;
  }

  it("answers a grid of dated prices in one request, equal to direct requests and to the data", async () => {
    const dates = weekdaysBefore(today, 4).slice(1);
    const keys = symbols.flatMap((symbol) => dates.map((date) => ({ symbol, date })));
    const before = client.stats().requestsSent;
    const values = await Promise.all(keys.map((key) => client.price(key)));
    expect(client.stats().requestsSent - before).toBe(1);
    for (const [index, key] of keys.entries()) {
      const record = (firstBlock(await direct("/Prices", { Symbols: key.symbol, Dates: key.date })).prices as Json[])[0];
      expect(values[index]).toEqual(record);
      expect(values[index]).toMatchObject(expectedOn(harness.sandbox.data, key.symbol, key.date) ?? {});
    }
  });

  it("answers latest prices and averages with optional fields as the service does", async () => {
    const symbol = symbols[0] as string;
    const latest = await client.price({ symbol, fields: ["pricingRationale", "midChangeSincePrevious"] });
    const latestDirect = (firstBlock(await direct("/Prices", { Symbols: symbol, Fields: "pricingRationale,midChangeSincePrevious" })).prices as Json[])[0];
    expect(latest).toEqual(latestDirect);
    const monthly = await client.price({ symbol, date: "2024-03-15", calculationType: "MonthlyAverage", fields: ["assessmentPeriod"] });
    const monthlyDirect = (firstBlock(await direct("/Prices/MonthlyAverage", { Symbols: symbol, Dates: "2024-03-15", Fields: "assessmentPeriod" })).prices as Json[])[0];
    expect(monthly).toEqual(monthlyDirect);
    expect(monthly.assessmentPeriod).toBe("2024-03-01/2024-03-31");
  });

  it("answers histories with calendar, carry-forward and forecast options", async () => {
    const forecasted = harness.sandbox.data.instruments.filter((item) => item.forecasts.length > 0);
    const withForecast = forecasted[0];
    const symbol = withForecast?.record.symbol ?? (symbols[0] as string);
    const forecastType = withForecast?.forecasts[0]?.type;
    const second = forecasted.find((item, index) => index > 0 && item.forecasts.some((forecast) => forecast.type === forecastType))?.record.symbol ?? (symbols[1] as string);
    const fromDate = weekdaysBefore(today, 60)[59] as string;
    const key = { symbol, fromDate, toDate: today, calendarType: "Weekdays" as const, carryForward: true, ...(forecastType ? { forecastType } : {}) };
    const [history, other] = await Promise.all([client.history(key), client.history({ ...key, symbol: second })]);
    const params: Record<string, string> = { Symbols: symbol, FromDate: fromDate, ToDate: today, calendarType: "Weekdays", carryForward: "true" };
    if (forecastType) params.forecastType = forecastType;
    const block = firstBlock(await direct("/Prices/History", params));
    expect(history.prices).toEqual(block.prices);
    expect(history.firstDate).toBe(block.firstDate);
    if (forecastType) expect(history.forecast).toEqual(block.forecast);
    expect(history.prices.length).toBe(60);
    expect(other.symbol).toBe(second);
    // Assessed dates are the days the data set holds an assessment on; the rest were carried forward.
    const assessed = assessmentDays(symbol);
    for (const record of history.prices) expect([record.date, history.assessedDates.has(record.date)]).toEqual([record.date, assessed.has(record.date)]);
  });

  function instrumentOf(symbol: string): InstrumentData {
    const found = harness.sandbox.data.instruments.find((item) => item.record.symbol === symbol);
    if (!found) throw new Error(`no ${symbol} in the data set`);
    return found;
  }

  /** Days on which the data set holds an assessment of the symbol published by now (the sandbox's clock, convention 20). */
  function assessmentDays(symbol: string): Set<string> {
    const series = instrumentOf(symbol).series;
    return new Set(Array.from(series.days.subarray(0, series.publishedCount(Date.now())), (day) => fromEpochDay(day)));
  }

  it("tells corrected assessments from carried-forward days for symbols batched in one history request", async () => {
    const fromDate = weekdaysBefore(today, 90)[89] as string;
    // Instruments assessed less often than daily, with a correction in range. Left out: those whose value
    // carried into the range comes from a correction published on or after fromDate (ambiguous in a batch).
    const candidates = harness.sandbox.data.instruments.filter(({ record, series }) => {
      if (record.frequency === "Daily") return false;
      let corrected = false;
      let before = -1;
      for (let index = 0; index < series.length; index += 1) {
        const day = fromEpochDay(series.days[index] as number);
        if (day < fromDate) before = index;
        else if (day <= today && (series.revision[index] ?? 0) > 0) corrected = true;
      }
      const carriedIn = before >= 0 && !assessmentDays(record.symbol).has(fromDate) ? series.assessmentDate(before).slice(0, 10) >= fromDate : false;
      return corrected && !carriedIn;
    });
    const daily = harness.sandbox.data.instruments.find(({ record }) => record.frequency === "Daily");
    const chosen = [...candidates.slice(0, 3).map((item) => item.record.symbol), ...(daily ? [daily.record.symbol] : [])];
    expect(candidates.length).toBeGreaterThanOrEqual(2);
    const options = { fromDate, toDate: today, calendarType: "Weekdays" as const, carryForward: true };
    const before = client.stats().requestsSent;
    const histories = await Promise.all(chosen.map((symbol) => client.history({ symbol, ...options })));
    expect(client.stats().requestsSent - before).toBe(1);
    let corrections = 0;
    let carried = 0;
    histories.forEach((history, index) => {
      const assessed = assessmentDays(chosen[index] as string);
      for (const record of history.prices) {
        expect([history.symbol, record.date, history.assessedDates.has(record.date)]).toEqual([history.symbol, record.date, assessed.has(record.date)]);
        if (record.revision > 0 && assessed.has(record.date)) corrections += 1;
        if (!assessed.has(record.date)) carried += 1;
      }
    });
    expect(corrections).toBeGreaterThan(0);
    expect(carried).toBeGreaterThan(0);
  });

  it("sends a request whose query would pass the server's header limit as POST with a form body", async () => {
    const known = harness.sandbox.data.instruments.map((item) => item.record.symbol);
    const unknown = Array.from({ length: 500 - known.length }, (_, index) => `NO-SUCH-INSTRUMENT-${"X".repeat(60)}-${String(index).padStart(4, "0")}`);
    // A day no other test asks, so that no key comes from the cache.
    const date = weekdaysBefore(today, 12)[11] as string;
    const all = [...known, ...unknown];
    // The same request as a GET is refused before it reaches the API (431, header fields too large).
    await expect(direct("/Prices", { Symbols: all.join(","), Dates: date })).rejects.toThrow("direct /Prices: 431");
    const before = client.stats().requestsSent;
    const results = await Promise.allSettled(all.map((symbol) => client.price({ symbol, date })));
    expect(client.stats().requestsSent - before).toBe(1);
    expect(client.lineage({ symbol: known[0] as string, date })).toMatchObject({ fromCache: false, request: { method: "POST", keys: 500 } });
    results.forEach((result, index) => {
      const symbol = all[index] as string;
      if (index < known.length) {
        expect(result.status).toBe("fulfilled");
        if (result.status === "fulfilled") expect(result.value).toMatchObject(expectedOn(harness.sandbox.data, symbol, date) ?? {});
      } else {
        expect(result.status === "rejected" && result.reason instanceof InvalidInstrumentError).toBe(true);
      }
    });
  });

  it("answers instruments, the instrument list and references as the service does", async () => {
    const symbol = symbols[2] as string;
    const [instrument, list, currencies] = await Promise.all([
      client.instrument(symbol, ["Currency", "forecastTypeIds", "hasForwardCurves"]),
      client.instruments(),
      client.references("Currency"),
    ]);
    expect(instrument).toEqual(firstBlock(await direct("/Instruments", { Symbols: symbol, Fields: "Currency,forecastTypeIds,hasForwardCurves" })));
    expect(list).toEqual((await direct("/Instruments", {})).instruments);
    expect(currencies).toEqual(((await direct("/References", { Types: "Currency" })).references as Json[])[0]);
  });

  it("fails only the unknown symbol's keys and a date before the first data", async () => {
    const symbol = symbols[0] as string;
    const launch = harness.sandbox.data.instruments[0]?.record.launchDate ?? "2005-01-01";
    const results = await Promise.allSettled([
      client.price({ symbol, date: "2024-03-01" }),
      client.price({ symbol: "NO-SUCH-1", date: "2024-03-01" }),
      client.price({ symbol, date: "1999-01-04" }),
    ]);
    expect(results[0]?.status).toBe("fulfilled");
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(InvalidInstrumentError);
    const noData = (results[2] as PromiseRejectedResult).reason as NoDataError;
    expect(noData).toBeInstanceOf(NoDataError);
    expect(noData.message).toBe(`${symbol}: no assessment on or before 1999-01-04`);
    expect(launch > "1999-01-04").toBe(true);
  });

  it("treats an instrument the caller may not see like an unknown one", async () => {
    const trial = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: harness.tokens("sandbox-trial"), fetch: harness.fetch });
    const hidden = symbols.find((symbol) => !symbol.startsWith("MB-")) as string;
    await expect(trial.price({ symbol: hidden, date: "2024-03-01" })).rejects.toBeInstanceOf(InvalidInstrumentError);
    const visible = await trial.instruments();
    expect(visible.length).toBeGreaterThan(0);
    expect(visible.every((record) => record.symbol.startsWith("MB-"))).toBe(true);
  });

  it("reads with a service key token", async () => {
    const tokenProvider = serviceKeyTokenProvider({ tokenUrl: `${harness.sandbox.issuer}/token`, serviceName: "sandbox-service", serviceKey: "sandbox-service-key", fetch: harness.fetch });
    const service = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider, fetch: harness.fetch });
    const key = { symbol: symbols[3] as string, date: "2024-03-01" };
    expect(await service.price(key)).toEqual(await client.price(key));
  });

  it("answers AuthError when the credentials are wrong", async () => {
    const wrong = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: harness.tokens("no-such-client"), fetch: harness.fetch });
    await expect(wrong.price({ symbol: symbols[0] as string })).rejects.toBeInstanceOf(AuthError);
  });
});

describe("a token that expires between calls (tokenTtl 2 s)", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ tokenTtl: 2 });
  });
  afterAll(() => harness.close());

  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("gets a new token before the old one expires", async () => {
    const client = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: harness.tokens(), fetch: harness.fetch });
    const symbol = harness.sandbox.data.instruments[0]?.record.symbol as string;
    const tokensBefore = harness.counts.token;
    await client.price({ symbol, date: "2024-03-01" });
    await wait(2_500);
    await client.price({ symbol, date: "2024-03-04" });
    expect(harness.counts.token - tokensBefore).toBe(2);
    expect(client.stats().retries).toBe(0);
  });

  it("refreshes once after a 401 when the provider hands out an expired token", async () => {
    const real = harness.tokens();
    let stale: string | undefined;
    const lazy: TokenProvider = {
      async getToken(options) {
        if (options?.rejected !== undefined || stale === undefined) stale = await real.getToken({ forceRefresh: true });
        return stale;
      },
    };
    const client = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: lazy, fetch: harness.fetch });
    const symbol = harness.sandbox.data.instruments[1]?.record.symbol as string;
    await client.price({ symbol, date: "2024-03-01" });
    // The sandbox accepts 5 s of clock skew past expiry.
    await wait(8_000);
    const key = { symbol, date: "2024-03-05" };
    await client.price(key);
    expect(client.lineage(key)?.request?.attempts).toBe(2);
  });
});
