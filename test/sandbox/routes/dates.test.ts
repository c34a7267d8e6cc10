/**
 * Dates of every year (convention 4): 0050-01-01 is the year 50, not 1950 (Date.UTC's reading), and dates before
 * 0001-01-01 are a 400 naming the parameter.
 */
import type { FastifyInstance } from "fastify";
import type { HistoryResponse, PricesResponse } from "../../../src/api";
import { buildApp } from "../../../src/sandbox/app";
import type { DataSet } from "../../../src/sandbox/data/model";
import { createSeries } from "../../../src/sandbox/data/series";
import { fixtureDataSet, stubTokenService, weekdayPoints } from "../service/fixtures";
import { get, must } from "./setup";

let app: FastifyInstance;
const ancientPoints = weekdayPoints("0050-03-01", "0050-04-30", 10, 1);
const modernPoints = weekdayPoints("1950-03-01", "1950-04-30", 500, 1);

beforeAll(async () => {
  const data = fixtureDataSet();
  const template = must(data.instruments[2]);
  const withOld: DataSet = {
    ...data,
    instruments: [
      ...data.instruments,
      { record: { ...template.record, symbol: "OLD-0050" }, series: createSeries(ancientPoints), forecasts: [] },
      { record: { ...template.record, symbol: "OLD-1950" }, series: createSeries(modernPoints), forecasts: [] },
    ],
  };
  app = await buildApp({ data: withOld, tokenService: stubTokenService });
});
afterAll(async () => {
  await app.close();
});

function pricesOf(body: unknown, symbol: string) {
  return must((body as PricesResponse | HistoryResponse).instruments.find((block) => block.symbol === symbol), symbol).prices;
}

describe("dates of the years 0001 to 0099", () => {
  it("reads a history range in the year 50 as that year, not 1950", async () => {
    const answer = await get(app, "/Prices/History?Symbols=OLD-0050,OLD-1950&FromDate=0050-01-01&ToDate=0050-12-31");
    expect(answer.status).toBe(200);
    expect(pricesOf(answer.body, "OLD-0050").map((p) => p.date)).toEqual(ancientPoints.map((p) => p.date).reverse());
    expect(pricesOf(answer.body, "OLD-1950")).toEqual([]);
    expect((answer.body as HistoryResponse).calendar.dates).toEqual(ancientPoints.map((p) => p.date).reverse());
  });

  it("finds the latest assessment on or before a date in the year 50, and none of 1950", async () => {
    const answer = await get(app, "/Prices?Symbols=OLD-0050,OLD-1950&Dates=0050-03-05,0050-06-30");
    expect(answer.status).toBe(200);
    const ancient = pricesOf(answer.body, "OLD-0050");
    const onOrBefore = (date: string) => must(ancientPoints.filter((p) => p.date <= date).pop(), date).assessmentDate;
    // 0050-03-05 was a Saturday (proleptic Gregorian), so the Friday's assessment stands for it.
    expect(onOrBefore("0050-03-05").slice(0, 10)).toBe("0050-03-04");
    expect(ancient.map((p) => [p.date, p.assessmentDate])).toEqual([
      ["0050-03-05", onOrBefore("0050-03-05")],
      ["0050-06-30", onOrBefore("0050-06-30")],
    ]);
    expect(pricesOf(answer.body, "OLD-1950")).toEqual([]);
  });

  it("averages over the month of the year 50, its period written as that month", async () => {
    const answer = await get(app, "/Prices/MonthlyAverage?Symbols=OLD-0050&Dates=0050-03-31&Fields=assessmentPeriod");
    expect(answer.status).toBe(200);
    const [record] = pricesOf(answer.body, "OLD-0050");
    const march = ancientPoints.filter((p) => p.date.startsWith("0050-03"));
    expect(record).toMatchObject({ date: "0050-03-31", assessmentPeriod: "0050-03-01/0050-03-31" });
    expect(record?.mid).toBeCloseTo(march.reduce((sum, p) => sum + p.mid, 0) / march.length, 4);
  });

  it("carries forward day by day across a month end of the year 50 when asked for calendar days", async () => {
    const answer = await get(app, "/Prices/History?Symbols=OLD-0050&FromDate=0050-04-29&ToDate=0050-05-02&calendarType=CalendarDays&carryForward=true");
    expect(answer.status).toBe(200);
    expect(pricesOf(answer.body, "OLD-0050").map((p) => p.date)).toEqual(["0050-05-02", "0050-05-01", "0050-04-30", "0050-04-29"]);
  });
});

describe("dates before 0001-01-01", () => {
  it.each([
    ["/Prices?Symbols=OLD-0050&Dates=0000-12-31", "Dates"],
    ["/Prices/History?Symbols=OLD-0050&FromDate=0000-01-01&ToDate=0050-12-31", "FromDate"],
    ["/Prices/History?Symbols=OLD-0050&FromDate=0000-01-01&ToDate=0000-02-29", "ToDate"],
  ])("are a 400 naming the parameter: %s", async (path, parameter) => {
    const answer = await get(app, path);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      status: 400,
      errors: expect.arrayContaining([{ parameter, message: expect.stringContaining("0001-01-01") }]),
    });
  });

  it("serves 0001-01-01 itself", async () => {
    const answer = await get(app, "/Prices/History?Symbols=OLD-0050&FromDate=0001-01-01&ToDate=0050-03-01");
    expect(answer.status).toBe(200);
    expect(pricesOf(answer.body, "OLD-0050").map((p) => p.date)).toEqual(["0050-03-01"]);
  });
});
