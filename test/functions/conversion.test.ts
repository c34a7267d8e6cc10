/** The functions' currency and unit arguments and PRICES.CONVERSIONS, through functions.ts and a real client against the sandbox. */
import * as F from "../../src/functions/functions";
import { createPricesClient } from "../../src/prices";
import type { InstrumentData } from "../../src/sandbox/data/model";
import { startHarness, weekdaysBefore, type Harness } from "../prices/sandbox-helpers";
import { FakeFunctionError, installCustomFunctionsGlobal } from "./support";

jest.setTimeout(180_000);

const OMITTED = null as never;
type Json = Record<string, unknown>;
type Block = Json & { prices: (Json & { mid: number; date: string; forwardCurves?: Json[] })[]; forecast?: { forecastPrices: Json[] } };

let harness: Harness;
let token: () => Promise<string>;
let today: string;

beforeAll(async () => {
  installCustomFunctionsGlobal();
  harness = await startHarness();
  const tokens = harness.tokens();
  token = () => tokens.getToken();
  today = harness.sandbox.data.today;
  const client = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: tokens, fetch: harness.fetch });
  await globalThis.PricesAddin!.configure({ client, recalculate: false, deadlineMs: 30_000 });
});
afterAll(() => harness.close());

async function blocks(path: string, params: Record<string, string>): Promise<Block[]> {
  return ((await harness.get(path, params, await token())) as { instruments: Block[] }).instruments;
}

function find(test: (item: InstrumentData) => boolean, what: string): string {
  const found = harness.sandbox.data.instruments.find((item) => item.record.status === "Active" && test(item));
  if (found === undefined) throw new Error(`no ${what} in the sandbox`);
  return found.record.symbol;
}

async function rejection(promise: Promise<unknown>): Promise<FakeFunctionError> {
  const outcome = await promise.then((value) => ({ value }), (error: unknown) => ({ error }));
  if (!("error" in outcome)) throw new Error(`expected an error, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(FakeFunctionError);
  return outcome.error as FakeFunctionError;
}

const usdTonne = (item: InstrumentData) => item.record.currencyId === "USD" && item.record.unitOfMeasureId === "MT";

describe("currency and unit arguments", () => {
  it("gives MID a grid in EUR/LB (any letter case) equal to the service's converted answer, and blank arguments the instrument's own", async () => {
    const symbols = harness.sandbox.data.instruments.filter((item) => item.record.status === "Active" && usdTonne(item)).slice(0, 3).map((item) => item.record.symbol);
    const dates = weekdaysBefore(today, 2);
    const converted = await F.mid(symbols.map((s) => [s]), [dates], "eur", "Lb");
    const plain = await F.mid(symbols.map((s) => [s]), [dates], "", OMITTED);
    const [served, own] = await Promise.all([
      blocks("/Prices", { Symbols: symbols.join(","), Dates: dates.join(","), targetCurrency: "EUR", targetUnitOfMeasure: "LB" }),
      blocks("/Prices", { Symbols: symbols.join(","), Dates: dates.join(",") }),
    ]);
    const grid = (list: Block[]) => symbols.map((symbol) => dates.map((date) => list.find((b) => b.symbol === symbol)?.prices.find((p) => p.date === date)?.mid));
    expect(converted).toEqual(grid(served));
    expect(plain).toEqual(grid(own));
    expect(converted).not.toEqual(plain);
  });

  it("converts AVERAGE, HISTORY, CURVE and FORECAST as the service does", async () => {
    const symbol = find(usdTonne, "USD/MT instrument");
    const average = await F.average([[symbol]], F.AveragePeriod.Monthly, [["2025-03-14"]], OMITTED, "GBP");
    const [avg] = await blocks("/Prices/MonthlyAverage", { Symbols: symbol, Dates: "2025-03-14", targetCurrency: "GBP" });
    expect(average).toEqual([[avg?.prices[0]?.mid]]);

    const history = await F.history(symbol, "2025-05-01", "2025-05-31", [["date", "mid"]], 0, OMITTED, OMITTED, F.SortOrder.Descending, F.DateFormat.Text, "CNY");
    const [hist] = await blocks("/Prices/History", { Symbols: symbol, FromDate: "2025-05-01", ToDate: "2025-05-31", targetCurrency: "CNY" });
    expect(history).toEqual(hist?.prices.map((p) => [p.date, p.mid]));

    const curved = find((item) => item.record.hasForwardCurves && ["MT", "LB", "KG"].includes(item.record.unitOfMeasureId), "instrument with curves");
    const curve = await F.curve(curved, OMITTED, 0, "JPY", "KG");
    const [withCurve] = await blocks("/Prices", { Symbols: curved, targetCurrency: "JPY", targetUnitOfMeasure: "KG" });
    expect(curve).toEqual(withCurve?.prices[0]?.forwardCurves?.map((p) => [p.forwardCode, p.forwardMonth, p.low, p.mid, p.high]));

    const forecasted = find((item) => item.forecasts.length > 0 && item.record.currencyId !== "AUD", "instrument with a forecast");
    const forecast = await F.forecast(forecasted, OMITTED, 0, F.DateFormat.Text, "AUD");
    const [latest] = await blocks("/Prices", { Symbols: forecasted });
    const from = latest?.prices[0]?.date as string;
    const [withForecast] = await blocks("/Prices/History", { Symbols: forecasted, FromDate: from, ToDate: `${Number(from.slice(0, 4)) + 10}${from.slice(4)}`, forecastType: "F24M", targetCurrency: "AUD" });
    expect(forecast.map((row) => row[2])).toEqual(withForecast?.forecast?.forecastPrices.map((p) => p.mid));
  });

  it("answers #VALUE! naming the argument and the valid ids for an id the service does not list", async () => {
    const symbol = find(usdTonne, "USD/MT instrument");
    const currency = await rejection(F.mid([[symbol]], OMITTED, "XYZ"));
    expect(currency.code).toBe("#VALUE!");
    expect(currency.message).toMatch(/^currency 'XYZ' is not a currency id; valid: USD, EUR, CNY/);
    const unit = await rejection(F.history(symbol, "2025-01-01", OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, "furlong"));
    expect(unit.code).toBe("#VALUE!");
    expect(unit.message).toMatch(/^unit 'furlong' is not a unit of measure id; valid: MT, KG, LB/);
  });

  it("answers #N/A naming a conversion the instrument lacks", async () => {
    const dry = find((item) => item.record.unitOfMeasureId === "DMT", "instrument in DMT");
    const error = await rejection(F.low([[dry]], OMITTED, OMITTED, "LB"));
    expect(error.code).toBe("#N/A");
    expect(error.message).toBe(`'${dry}': Conversion from DMT to LB is not available for this instrument`);
  });
});

describe("PRICES.CONVERSIONS and PRICES.INSTRUMENT", () => {
  it("spills the currencies and units an instrument converts to, bushels only for a commodity with a bushel weight", async () => {
    const aluminium = find((item) => usdTonne(item) && item.record.commodityId === "ALUMINIUM", "aluminium in USD/MT");
    const wheat = find((item) => item.record.unitOfMeasureId === "MT" && item.record.commodityId === "WHEAT", "wheat in MT");
    const table = await F.conversions(aluminium);
    expect(table[0]).toEqual(["kind", "id", "description"]);
    const rows = table.slice(1);
    expect(rows.filter((row) => row[0] === "currency").map((row) => row[1])).toEqual(["EUR", "CNY", "GBP", "JPY", "INR", "BRL", "CAD", "AUD"]);
    expect(rows.filter((row) => row[0] === "unit").map((row) => row[1])).toEqual(["KG", "LB", "ST"]);
    const wheatUnits = (await F.conversions(wheat, 0)).filter((row) => row[0] === "unit").map((row) => row[1]);
    expect(wheatUnits).toEqual(["KG", "LB", "ST", "BU"]);
  });

  it("reports the currency and unit the values are in when given the same arguments", async () => {
    const symbol = find(usdTonne, "USD/MT instrument");
    expect(await F.instrument([[symbol]], F.InstrumentField.currencyId, OMITTED, "eur")).toEqual([["EUR"]]);
    expect(await F.instrument([[symbol]], F.InstrumentField.unitOfMeasure, OMITTED, OMITTED, "LB")).toEqual([["Pound"]]);
    expect(await F.instrument([[symbol]], F.InstrumentField.currencyId)).toEqual([["USD"]]);
    const error = await rejection(F.instrument([[symbol]], F.InstrumentField.unitOfMeasureId, OMITTED, OMITTED, "M3"));
    expect([error.code, error.message]).toEqual(["#N/A", `'${symbol}': no conversion from MT to M3`]);
  });
});
