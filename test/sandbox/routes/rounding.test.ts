/** Convention 10: every mid is the midpoint of low and high rounded to 2 decimals, and so is every average. */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { HistoryResponse, PricesResponse } from "../../../src/api";
import { buildApp } from "../../../src/sandbox/app";
import { generateDataSet } from "../../../src/sandbox/data/generator";
import { exportDataSet, FORECASTS_FILE, loadDataSet } from "../../../src/sandbox/data/files";
import { midOf } from "../../../src/sandbox/data/mids";
import { createSeries } from "../../../src/sandbox/data/series";
import { stubTokenService } from "../service/fixtures";

const TODAY = "2025-06-30";
const data = generateDataSet({ today: TODAY });
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp({ data, tokenService: stubTokenService, limits: { maxSymbols: 1000, maxRecords: 1_000_000 } });
});
afterAll(async () => {
  await app.close();
});

const hundredths = (value: number): boolean => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
// Half away from zero, as the vendor's figures round (-0.305 is -0.31).
const midpoint = (low: number, high: number): number => {
  const half = (low + high) / 2;
  return (Math.sign(half) * Math.round(Math.abs(half) * 100 + 1e-9)) / 100 || 0;
};

async function post<T>(path: string, form: string): Promise<T> {
  const answer = await app.inject({ method: "POST", url: `/physical/v2${path}`, headers: { authorization: "Bearer full", "content-type": "application/x-www-form-urlencoded" }, payload: form });
  expect(answer.statusCode).toBe(200);
  return JSON.parse(answer.body) as T;
}

describe("rounding to 2 decimals", () => {
  const symbols = data.instruments.map((i) => i.record.symbol).join(",");

  it("makes every generated mid the midpoint of low and high rounded to 2 decimals, forward curves and forecasts included", async () => {
    const body = await post<HistoryResponse>("/Prices/History", `Symbols=${symbols}&FromDate=2025-06-01&ToDate=${TODAY}`);
    const withForecast = await post<HistoryResponse>("/Prices/History", `Symbols=${data.instruments.filter((i) => i.forecasts.length > 0).map((i) => i.record.symbol).join(",")}&FromDate=2025-06-01&ToDate=2027-06-30&forecastType=F24M`);
    let checked = 0;
    for (const block of [...body.instruments, ...withForecast.instruments]) {
      const points = [...block.prices, ...block.prices.flatMap((p) => p.forwardCurves ?? []), ...(block.forecast?.forecastPrices ?? [])];
      for (const point of points) {
        if (point.low === point.high) expect(point.mid).toBe(point.low);
        else expect(point.mid).toBe(midpoint(point.low, point.high));
        expect(hundredths(point.low) || Number.isInteger(point.low)).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5000);
  });

  it("rounds every average to 2 decimals, on /Prices and on history", async () => {
    const averaged = data.instruments.filter((i) => i.record.priceCalculationTypeIds.includes("MonthlyAverage")).map((i) => i.record.symbol).join(",");
    const dated = await post<PricesResponse>("/Prices/MonthlyAverage", `Symbols=${averaged}&Dates=2025-06-17,2024-02-29`);
    const history = await post<HistoryResponse>("/Prices/History", `Symbols=${averaged}&FromDate=2024-01-01&ToDate=${TODAY}&priceCalculationType=MonthlyAverage`);
    const values = [...dated.instruments, ...history.instruments].flatMap((block) => block.prices.flatMap((p) => [p.low, p.mid, p.high]));
    expect(values.length).toBeGreaterThan(1000);
    expect(values.filter((value) => !hundredths(value))).toEqual([]);
  });

  it("replaces a loaded mid by the rounded midpoint of its low and high", () => {
    const series = createSeries([
      { date: "2025-01-02", assessmentDate: "2025-01-02T16:30:00+00:00", revision: 0, low: 100, mid: 100.1234, high: 100.25, appraisalPrice: false, pricingRationale: "" },
      { date: "2025-01-03", assessmentDate: "2025-01-03T16:30:00+00:00", revision: 0, low: 0.3771, mid: 0.3772, high: 0.3773, appraisalPrice: false, pricingRationale: "" },
    ]);
    expect(series.mid[0]).toBe(100.13);
    // Within one cent no 2-decimal value lies between low and high: the mid stays inside them (convention 15).
    expect(series.mid[1]).toBe(0.3773);
    expect(midOf(10, 10.01)).toBe(10.01);
  });

  it("replaces a loaded forecast's mid by the rounded midpoint of its low and high", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "sandbox-rounding-"));
    try {
      // A data set frozen in 2008 holds forecasts too and exports in a fraction of the time (the full one took 40-60 s under load).
      await exportDataSet(generateDataSet({ today: "2008-12-31" }), dir);
      const file = path.join(dir, FORECASTS_FILE);
      const forecasts = JSON.parse(await readFile(file, "utf8")) as Record<string, { prices: { low: number; mid: number; high: number }[] }[]>;
      const [symbol, list] = Object.entries(forecasts)[0] ?? [];
      const price = list?.[0]?.prices[0];
      if (symbol === undefined || price === undefined) throw new Error("the generated data has no forecast");
      Object.assign(price, { low: 100, mid: 100.1234, high: 100.25 });
      await writeFile(file, JSON.stringify(forecasts));
      const loaded = await loadDataSet(dir);
      const forecast = loaded.instruments.find((i) => i.record.symbol === symbol)?.forecasts[0];
      expect(forecast?.prices[0]).toMatchObject({ low: 100, mid: 100.13, high: 100.25 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
