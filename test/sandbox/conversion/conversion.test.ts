/**
 * Conversion on the sandbox (convention 21), checked against the exported files: each expected value is computed
 * here from fx-rates.json and the instrument's assessments file, as value x (rate of the day's target / rate of the
 * day's own currency) x unit factor, low and high to 8 significant digits and mid their midpoint (convention 22).
 */
import type { FastifyInstance } from "fastify";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { HistoryResponse, PricesResponse, ReferencesResponse } from "../../../src/api";
import { buildApp } from "../../../src/sandbox/app";
import { exportDataSet, loadDataSet } from "../../../src/sandbox/data/files";
import { generateDataSet } from "../../../src/sandbox/data/generator";
import type { AssessmentPoint } from "../../../src/sandbox/data/assessment-point";
import { addDays, datesBetween, isWeekday, mondayOf } from "../routes/expect";
import { get, must } from "../routes/setup";
import { stubTokenService } from "../service/fixtures";

const TODAY = "2008-12-31";
const POUND = 0.45359237;

let dir: string;
let app: FastifyInstance;
let rates: Map<string, Record<string, number>>;
let currenciesInFile: string[];
let instruments: { symbol: string; currencyId: string; unitOfMeasureId: string; commodityId: string; hasForwardCurves: boolean; forecastTypeIds: string[] }[];

async function pointsOf(symbol: string): Promise<AssessmentPoint[]> {
  return JSON.parse(await readFile(path.join(dir, "assessments", `${symbol}.json`), "utf8")) as AssessmentPoint[];
}

function instrument(test: (i: (typeof instruments)[number]) => boolean, what: string): (typeof instruments)[number] {
  return must(instruments.find(test), what);
}

/** The factor of a day from the exported table: target's units per dollar over the own currency's. */
function fx(date: string, from: string, to: string): number {
  const row = must(rates.get(date), `rates of ${date}`);
  return must(row[to], to) / must(row[from], from);
}

/** Convention 22: a converted value keeps its precision (8 significant digits here, at least 6 asked). */
function significant(value: number): number {
  return Number(value.toPrecision(8));
}

/** A record's low, mid and high converted at one factor: low and high each, mid their midpoint. */
function converted(point: { low: number; high: number }, factor: number): [number, number, number] {
  const low = significant(point.low * factor);
  const high = significant(point.high * factor);
  return [low, (low + high) / 2, high];
}

async function ok<T>(query: string, token = "full"): Promise<T> {
  const answer = await get(app, query, token);
  expect(answer.status).toBe(200);
  return answer.body as T;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sandbox-fx-"));
  await exportDataSet(generateDataSet({ today: TODAY }), dir);
  const file = JSON.parse(await readFile(path.join(dir, "fx-rates.json"), "utf8")) as { base: string; currencies: string[]; rates: (string | number)[][] };
  currenciesInFile = file.currencies;
  rates = new Map(file.rates.map(([date, ...values]) => [date as string, Object.fromEntries(file.currencies.map((id, c) => [id, values[c] as number]))]));
  instruments = JSON.parse(await readFile(path.join(dir, "instruments.json"), "utf8")) as typeof instruments;
  app = await buildApp({ data: await loadDataSet(dir), tokenService: stubTokenService });
}, 180_000);

afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the exported FX table", () => {
  it("holds a rate for every day from 2005-01-01 to today, weekends carrying Friday's", () => {
    const dates = [...rates.keys()];
    expect(dates[0]).toBe("2005-01-01");
    expect(dates[dates.length - 1]).toBe(TODAY);
    expect(dates).toEqual(datesBetween("2005-01-01", TODAY));
    for (const date of dates) {
      if (isWeekday(date) || date < "2005-01-03") continue;
      const friday = addDays(mondayOf(date), 4);
      expect(rates.get(date)).toEqual(rates.get(friday));
    }
  });

  it("moves at plausible levels for every currency of the references", async () => {
    const references = await ok<ReferencesResponse>("/References?Types=Currency");
    const ids = must(references.references[0]).items.map((item) => item.id);
    expect([...currenciesInFile].sort()).toEqual([...ids].sort());
    const eur = [...rates.values()].map((row) => must(row["EUR"]));
    expect(Math.min(...eur)).toBeGreaterThan(0.55);
    expect(Math.max(...eur)).toBeLessThan(1.0);
    expect(new Set(eur).size).toBeGreaterThan(500);
    for (const row of rates.values()) expect(row["USD"]).toBe(1);
  });
});

describe("availableConversionIds", () => {
  it("lists every other currency for a currency, and exactly the units with a factor for a unit", async () => {
    const references = await ok<ReferencesResponse>("/References?Types=Currency,UnitOfMeasure");
    const [currencies, units] = references.references.map((group) => new Map(group.items.map((item) => [item.id, item.availableConversionIds])));
    for (const [id, ids] of must(currencies)) expect([...ids, id].sort()).toEqual([...must(currencies).keys()].sort());
    const unitIds = must(units);
    expect([...must(unitIds.get("MT"))].sort()).toEqual(["BU", "KG", "LB", "ST"]);
    expect([...must(unitIds.get("BU"))].sort()).toEqual(["KG", "LB", "MT", "ST"]);
    expect(unitIds.get("M3")).toEqual(["MBF"]);
    for (const none of ["DMT", "ADMT", "DMTU", "MTU", "MSF"]) expect(unitIds.get(none)).toEqual([]);
  });
});

describe("/Prices with a target", () => {
  it("converts each record at its assessment day's rate and the exact pound factor, naming the block's currency and unit", async () => {
    const own = instrument((i) => i.currencyId === "USD" && i.unitOfMeasureId === "MT" && i.symbol.startsWith("MB-"), "a USD/MT metal");
    const points = await pointsOf(own.symbol);
    const middle = must(points[Math.floor(points.length / 2)]);
    const saturday = addDays(mondayOf(middle.date), 5);
    const asked = [middle.date, must(points[points.length - 1]).date, saturday];
    const response = await ok<PricesResponse>(`/Prices?Symbols=${own.symbol}&Dates=${asked.join(",")}&targetCurrency=eur&targetUnitOfMeasure=lb`);
    const block = must(response.instruments[0]);
    expect(block).toMatchObject({ symbol: own.symbol, currencyId: "EUR", unitOfMeasureId: "LB" });
    expect(block.prices.map((r) => r.date)).toEqual(asked);
    for (const record of block.prices) {
      const point = must([...points].reverse().find((p) => p.date <= record.date));
      const factor = fx(point.date, "USD", "EUR") * (POUND / 1000);
      expect([record.low, record.mid, record.high]).toEqual(converted(point, factor));
      expect(record.assessmentDate).toBe(point.assessmentDate);
    }
    const plain = await ok<PricesResponse>(`/Prices?Symbols=${own.symbol}&Dates=${asked.join(",")}`);
    expect(must(plain.instruments[0]).currencyId).toBeUndefined();
  });

  it("converts a non-dollar instrument through the cross rate, and bushels of wheat by their weight", async () => {
    const eurWheat = instrument((i) => i.commodityId === "WHEAT" && i.unitOfMeasureId === "MT", "wheat in MT");
    const points = await pointsOf(eurWheat.symbol);
    const last = must(points[points.length - 1]);
    const response = await ok<PricesResponse>(`/Prices?Symbols=${eurWheat.symbol}&targetCurrency=JPY&targetUnitOfMeasure=BU`);
    const record = must(must(response.instruments[0]).prices[0]);
    const factor = fx(last.date, eurWheat.currencyId, "JPY") * ((60 * POUND) / 1000);
    expect([record.low, record.mid, record.high]).toEqual(converted(last, factor));
  });

  it("averages the converted assessments of the period (each converted, then averaged, to significant digits)", async () => {
    const own = instrument((i) => i.currencyId === "USD" && i.unitOfMeasureId === "MT" && i.symbol.startsWith("AG-"), "a USD/MT crop");
    const points = await pointsOf(own.symbol);
    const date = "2008-10-15";
    const inPeriod = points.filter((p) => p.date >= "2008-10-01" && p.date <= date);
    expect(inPeriod.length).toBeGreaterThan(0);
    const response = await ok<PricesResponse>(`/Prices/MonthlyAverage?Symbols=${own.symbol}&Dates=${date}&targetCurrency=CNY`);
    const record = must(must(response.instruments[0]).prices[0]);
    const mean = (at: 0 | 2) => significant(inPeriod.reduce((sum, p) => sum + converted(p, fx(p.date, "USD", "CNY"))[at], 0) / inPeriod.length);
    expect([record.low, record.mid, record.high]).toEqual([mean(0), (mean(0) + mean(2)) / 2, mean(2)]);
  });

  it("recomputes change fields on converted values", async () => {
    const own = instrument((i) => i.currencyId === "USD" && i.unitOfMeasureId === "MT", "a USD/MT instrument");
    const points = await pointsOf(own.symbol);
    const [before, at] = [must(points[points.length - 2]), must(points[points.length - 1])];
    const response = await ok<PricesResponse>(`/Prices?Symbols=${own.symbol}&Fields=midChangeSincePrevious&targetCurrency=GBP`);
    const record = must(must(response.instruments[0]).prices[0]);
    const change = converted(at, fx(at.date, "USD", "GBP"))[1] - converted(before, fx(before.date, "USD", "GBP"))[1];
    expect(record.midChangeSincePrevious).toBe(significant(change));
  });

  it("converts forward curves at the assessment day's factor", async () => {
    const own = instrument((i) => i.hasForwardCurves && i.unitOfMeasureId === "MT", "an instrument with curves in MT");
    const points = await pointsOf(own.symbol);
    const last = must(points[points.length - 1]);
    const response = await ok<PricesResponse>(`/Prices?Symbols=${own.symbol}&targetCurrency=USD&targetUnitOfMeasure=KG`);
    const curves = must(must(must(response.instruments[0]).prices[0]).forwardCurves);
    const factor = fx(last.date, own.currencyId, "USD") * (1 / 1000);
    expect(curves).toEqual(must(last.forwardCurves).map((p) => {
      const [low, mid, high] = converted(p, factor);
      return { ...p, low, mid, high };
    }));
  });
});

describe("the precision of converted values (convention 22)", () => {
  it("keeps at least 6 significant digits, never 2 decimals: a metal in euros per pound", async () => {
    const metal = instrument((i) => i.currencyId === "USD" && i.unitOfMeasureId === "MT" && i.symbol.startsWith("MB-"), "a USD/MT metal");
    const points = await pointsOf(metal.symbol);
    const response = await ok<HistoryResponse>(`/Prices/History?Symbols=${metal.symbol}&FromDate=2008-01-01&ToDate=2008-12-31&targetCurrency=EUR&targetUnitOfMeasure=LB`);
    const records = must(response.instruments[0]).prices;
    expect(records.length).toBeGreaterThan(5);
    const byDate = new Map(points.map((p) => [p.date, p]));
    for (const record of records) {
      const point = must(byDate.get(record.date));
      const factor = fx(point.date, "USD", "EUR") * (POUND / 1000);
      // Each value within 1 part in 10^6 of the exact product; low and high at one rate; mid their midpoint.
      expect(Math.abs(record.low / (point.low * factor) - 1)).toBeLessThan(1e-6);
      expect(Math.abs(record.high / (point.high * factor) - 1)).toBeLessThan(1e-6);
      expect(Math.abs(record.low / record.high / (point.low / point.high) - 1)).toBeLessThan(1e-5);
      expect(record.mid).toBe((record.low + record.high) / 2);
    }
    // Values of a few tenths of a euro a pound: rounded to 2 decimals they would be off by several per cent.
    expect(records.some((r) => Math.abs(r.mid - Math.round(r.mid * 100) / 100) > 1e-4)).toBe(true);
  });
});

describe("unavailable and unknown targets", () => {
  it("puts an instrument without the conversion in invalidInstruments, naming the conversion, and serves the rest", async () => {
    const copper = instrument((i) => i.commodityId === "COPPER" && i.unitOfMeasureId === "MT", "copper in MT");
    const dry = instrument((i) => i.unitOfMeasureId === "DMT", "an instrument in DMT");
    const wheat = instrument((i) => i.commodityId === "WHEAT" && i.unitOfMeasureId === "MT", "wheat in MT");
    const response = await ok<PricesResponse>(`/Prices?Symbols=${copper.symbol},${dry.symbol},${wheat.symbol}&targetUnitOfMeasure=BU`);
    expect(response.instruments.map((block) => block.symbol)).toEqual([wheat.symbol]);
    expect(response.invalidInstruments).toEqual([
      { symbol: copper.symbol, message: "Conversion from MT to BU is not available for this instrument (no factor between MT and BU for Copper)" },
      { symbol: dry.symbol, message: "Conversion from DMT to BU is not available for this instrument" },
    ]);
  });

  it("answers 400 naming the parameter and the known ids for an id that is no currency or unit", async () => {
    const own = instrument((i) => i.unitOfMeasureId === "MT", "an instrument");
    const answer = await get(app, `/Prices?Symbols=${own.symbol}&targetCurrency=XYZ&targetUnitOfMeasure=furlong`);
    expect(answer.status).toBe(400);
    const errors = (answer.body as { errors: { parameter: string; message: string }[] }).errors;
    expect(errors.map((e) => e.parameter)).toEqual(["targetCurrency", "targetUnitOfMeasure"]);
    expect(errors[0]?.message).toMatch(/^"XYZ" is not a currency id; known: USD, EUR/);
  });

  it("never lets a trial caller see beyond its entitlement: a hidden instrument stays unknown, whatever the target", async () => {
    const hidden = instrument((i) => i.symbol.startsWith("AG-") && i.unitOfMeasureId === "MT", "a crop");
    const metal = instrument((i) => i.symbol.startsWith("MB-") && i.unitOfMeasureId === "MT" && i.commodityId !== "WHEAT", "a metal");
    const response = await ok<PricesResponse>(`/Prices?Symbols=${hidden.symbol},${metal.symbol}&targetUnitOfMeasure=BU&targetCurrency=EUR`, "trial");
    expect(response.instruments).toEqual([]);
    expect(response.invalidInstruments?.map((i) => i.symbol)).toEqual([hidden.symbol, metal.symbol]);
    expect(response.invalidInstruments?.[0]?.message).toBe("Unknown symbol, or not one you may view");
    const history = await ok<HistoryResponse>(`/Prices/History?Symbols=${hidden.symbol}&FromDate=2008-01-01&ToDate=2008-12-31&targetCurrency=EUR`, "trial");
    expect(history.instruments).toEqual([]);
  });
});

describe("/Prices/History with a target", () => {
  it("converts carried-forward days at the rate of the assessment they carry, in CNY", async () => {
    const own = instrument((i) => i.currencyId === "USD" && i.unitOfMeasureId === "MT" && i.symbol.startsWith("FP-"), "a weekly forest product");
    const points = await pointsOf(own.symbol);
    const response = await ok<HistoryResponse>(`/Prices/History?Symbols=${own.symbol}&FromDate=2008-11-01&ToDate=2008-12-31&calendarType=CalendarDays&carryForward=true&targetCurrency=CNY`);
    const block = must(response.instruments[0]);
    expect(block).toMatchObject({ currencyId: "CNY", unitOfMeasureId: "MT" });
    expect(block.prices.length).toBeGreaterThan(30);
    let carried = 0;
    for (const record of block.prices) {
      const point = must([...points].reverse().find((p) => p.date <= record.date));
      if (point.date !== record.date) carried++;
      expect(record.mid).toBe(converted(point, fx(point.date, "USD", "CNY"))[1]);
    }
    expect(carried).toBeGreaterThan(0);
  });

  it("converts a forecast at its publication day's rate", async () => {
    const own = instrument((i) => i.forecastTypeIds.includes("F24M") && i.currencyId !== "USD", "a forecast in another currency");
    const forecasts = JSON.parse(await readFile(path.join(dir, "forecasts.json"), "utf8")) as Record<string, { publicationDate: string; prices: { date: string; mid: number }[] }[]>;
    const forecast = must(must(forecasts[own.symbol])[0]);
    const query = `/Prices/History?Symbols=${own.symbol}&FromDate=2008-01-01&ToDate=2010-12-31&forecastType=F24M`;
    const plain = must((await ok<HistoryResponse>(query)).instruments[0]?.forecast);
    const usd = must((await ok<HistoryResponse>(`${query}&targetCurrency=USD`)).instruments[0]?.forecast);
    const factor = fx(forecast.publicationDate.slice(0, 10), own.currencyId, "USD");
    expect(usd.forecastPrices.length).toBe(plain.forecastPrices.length);
    usd.forecastPrices.forEach((price, n) => expect([price.low, price.mid, price.high]).toEqual(converted(must(plain.forecastPrices[n]), factor)));
  });
});
