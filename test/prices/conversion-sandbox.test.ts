/** Conversion through the client against the real sandbox: the same grid plain and converted, histories, and what cannot convert. */
import { ConversionError, createPricesClient, type PricesClient, type TokenProvider } from "../../src/prices";
import { startHarness, weekdaysBefore, type Harness } from "./sandbox-helpers";

jest.setTimeout(180_000);

type Json = Record<string, unknown>;

describe("conversion against the sandbox", () => {
  let harness: Harness;
  let client: PricesClient;
  let tokens: TokenProvider;
  let today: string;

  beforeAll(async () => {
    harness = await startHarness();
    tokens = harness.tokens();
    client = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: tokens, fetch: harness.fetch });
    today = harness.sandbox.data.today;
  });
  afterAll(() => harness.close());

  async function direct(path: string, params: Record<string, string>): Promise<Json> {
    return (await harness.get(path, params, await tokens.getToken())) as Json;
  }

  function massInstruments(count: number): string[] {
    return harness.sandbox.data.instruments
      .filter((item) => ["MT", "KG", "LB", "ST"].includes(item.record.unitOfMeasureId) && item.record.status === "Active")
      .slice(0, count)
      .map((item) => item.record.symbol);
  }

  it("answers the same grid plain, in EUR and in EUR/LB in one request each, equal to the service's own answers", async () => {
    const symbols = massInstruments(4);
    const dates = weekdaysBefore(today, 3);
    const grid = symbols.flatMap((symbol) => dates.map((date) => ({ symbol, date })));
    const conversions = [{}, { currency: "EUR" }, { currency: "eur", unit: "lb" }];
    const before = client.stats().requestsSent;
    const values = await Promise.all(conversions.map((conversion) => Promise.all(grid.map((key) => client.price({ ...key, ...conversion })))));
    expect(client.stats().requestsSent - before).toBe(3);
    const params: Record<string, string>[] = [{}, { targetCurrency: "EUR" }, { targetCurrency: "EUR", targetUnitOfMeasure: "LB" }];
    for (const [n, extra] of params.entries()) {
      const body = await direct("/Prices", { Symbols: symbols.join(","), Dates: dates.join(","), ...extra });
      const blocks = body.instruments as (Json & { prices: Json[] })[];
      grid.forEach((key, index) => {
        const block = blocks.find((item) => item.symbol === key.symbol);
        expect(values[n]?.[index]).toEqual(block?.prices.find((record) => record.date === key.date));
      });
    }
    // Cached apart: asking again sends nothing and gives each conversion its own values.
    const again = await Promise.all(conversions.map((conversion) => client.price({ ...(grid[0] as { symbol: string; date: string }), ...conversion })));
    expect(client.stats().requestsSent - before).toBe(3);
    expect(again.map((record) => record.mid)).toEqual(values.map((list) => list[0]?.mid));
    expect(new Set(again.map((record) => record.mid)).size).toBe(3);
  });

  it("answers a history in CNY as the service does, with the currency and unit it is in", async () => {
    const [symbol] = massInstruments(1) as [string];
    const fromDate = weekdaysBefore(today, 30)[29] as string;
    const history = await client.history({ symbol, fromDate, toDate: today, currency: "CNY" });
    const block = ((await direct("/Prices/History", { Symbols: symbol, FromDate: fromDate, ToDate: today, targetCurrency: "CNY" })).instruments as Json[])[0] as Json;
    expect(history.prices).toEqual(block.prices);
    expect([history.currencyId, history.unitOfMeasureId]).toEqual(["CNY", block.unitOfMeasureId]);
  });

  it("keeps the conversion in every part of a history split under a small maxRecords", async () => {
    const [symbol] = massInstruments(1) as [string];
    const fromDate = weekdaysBefore(today, 120)[119] as string;
    const small = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: tokens, fetch: harness.fetch, limits: { maxRecords: 40 } });
    const history = await small.history({ symbol, fromDate, toDate: today, currency: "GBP", unit: "KG" });
    expect(small.stats().requestsSent).toBeGreaterThan(2);
    const block = ((await direct("/Prices/History", { Symbols: symbol, FromDate: fromDate, ToDate: today, targetCurrency: "GBP", targetUnitOfMeasure: "KG" })).instruments as Json[])[0] as Json;
    expect(history.prices).toEqual(block.prices);
    expect([history.currencyId, history.unitOfMeasureId]).toEqual(["GBP", "KG"]);
  });

  it("rejects a conversion an instrument lacks with a ConversionError naming it", async () => {
    const dry = harness.sandbox.data.instruments.find((item) => item.record.unitOfMeasureId === "DMT");
    expect(dry).toBeDefined();
    const error = await client.price({ symbol: dry?.record.symbol ?? "", unit: "LB" }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ConversionError);
    expect((error as ConversionError).detail).toBe("Conversion from DMT to LB is not available for this instrument");
  });
});
