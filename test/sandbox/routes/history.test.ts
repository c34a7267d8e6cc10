import type { FastifyInstance } from "fastify";
import type { HistoryResponse, PriceRecord } from "../../../src/api";
import type { AssessmentPoint } from "../../../src/sandbox/data/assessment-point";
import { seriesToPoints } from "../../../src/sandbox/data/series";
import { fixtureDataSet } from "../service/fixtures";
import { addDays, datesBetween, isWeekday, lastDayOfMonth, mean, onOrBefore } from "./expect";
import { fixtureApp, get, must } from "./setup";

const data = fixtureDataSet();
const instrumentOf = (symbol: string) => must(data.instruments.find((i) => i.record.symbol === symbol), symbol);
const pointsOf = (symbol: string): AssessmentPoint[] => seriesToPoints(instrumentOf(symbol).series);
const AL = pointsOf("MB-AL-0001");
const CU = pointsOf("MB-CU-0002");
const PULP = pointsOf("FP-PLP-0002");

let app: FastifyInstance;
beforeAll(async () => {
  app = await fixtureApp();
});
afterAll(async () => {
  await app.close();
});

async function history(query: string): Promise<HistoryResponse> {
  const answer = await get(app, `/Prices/History?${query}`);
  expect(answer.status).toBe(200);
  return answer.body as HistoryResponse;
}

const recordsOf = (response: HistoryResponse, symbol: string): PriceRecord[] =>
  must(response.instruments.find((block) => block.symbol === symbol), symbol).prices;

describe("/Prices/History", () => {
  it("returns each assessment in range, descending, by default", async () => {
    const response = await history("Symbols=MB-AL-0001&FromDate=2024-03-01&ToDate=2024-03-31");
    const expected = AL.filter((p) => p.date >= "2024-03-01" && p.date <= "2024-03-31").reverse();
    const records = recordsOf(response, "MB-AL-0001");
    expect(records.map((r) => r.date)).toEqual(expected.map((p) => p.date));
    expect(records.map((r) => r.mid)).toEqual(expected.map((p) => p.mid));
    expect(response.calendar).toEqual({ type: "AssessmentDays", dates: expected.map((p) => p.date) });
    expect(response.priceCalculationType).toBe("None");
  });

  it("fills every calendar day with the latest earlier assessment when carrying forward", async () => {
    const from = "2024-03-01";
    const to = "2024-03-17";
    const response = await history(`Symbols=MB-AL-0001&FromDate=${from}&ToDate=${to}&calendarType=CalendarDays&carryForward=true`);
    const expected = datesBetween(from, to).reverse().map((date) => ({ date, assessmentDate: must(onOrBefore(AL, date)).assessmentDate }));
    expect(recordsOf(response, "MB-AL-0001").map((r) => ({ date: r.date, assessmentDate: r.assessmentDate }))).toEqual(expected);
    expect(response.calendar.dates).toEqual(AL.filter((p) => p.date >= from && p.date <= to).map((p) => p.date).reverse());
  });

  it("fills weekdays only with calendarType Weekdays", async () => {
    const from = "2024-02-05";
    const to = "2024-02-25";
    const response = await history(`Symbols=MB-CU-0002&FromDate=${from}&ToDate=${to}&calendarType=weekdays&carryForward=TRUE`);
    const expected = datesBetween(from, to).filter(isWeekday).reverse().filter((d) => onOrBefore(CU, d) !== undefined);
    const records = recordsOf(response, "MB-CU-0002");
    expect(records.map((r) => r.date)).toEqual(expected);
    expect(records.map((r) => r.mid)).toEqual(expected.map((d) => must(onOrBefore(CU, d)).mid));
  });

  it("leaves out days without an assessment when not carrying forward", async () => {
    const response = await history("Symbols=MB-CU-0002&FromDate=2024-02-01&ToDate=2024-02-29&calendarType=CalendarDays&carryForward=false");
    expect(recordsOf(response, "MB-CU-0002").map((r) => r.date)).toEqual(CU.filter((p) => p.date >= "2024-02-01" && p.date <= "2024-02-29").map((p) => p.date).reverse());
  });

  it("stops carrying a discontinued instrument forward at its last assessment", async () => {
    const last = must(CU[CU.length - 1]);
    const response = await history(`Symbols=MB-CU-0002&FromDate=${addDays(last.date, -2)}&ToDate=${addDays(last.date, 20)}&calendarType=CalendarDays&carryForward=true`);
    expect(must(recordsOf(response, "MB-CU-0002")[0]).date).toBe(last.date);
  });

  it("averages per period meeting the range, dated at the period's end or ToDate", async () => {
    const from = "2024-02-20";
    const to = "2024-04-10";
    const response = await history(`Symbols=FP-PLP-0002&FromDate=${from}&ToDate=${to}&priceCalculationType=MonthlyAverage&Fields=assessmentPeriod`);
    const months = ["2024-04", "2024-03", "2024-02"];
    const expected = months.map((month) => {
      const taken = PULP.filter((p) => p.date.startsWith(month) && p.date <= to);
      const end = lastDayOfMonth(`${month}-01`);
      return {
        date: end < to ? end : to,
        assessmentDate: must(taken[taken.length - 1]).assessmentDate,
        revision: 1,
        low: mean(taken, "low"),
        mid: mean(taken, "mid"),
        high: mean(taken, "high"),
        assessmentPeriod: `${month}-01/${end}`,
      };
    });
    expect(response.priceCalculationType).toBe("MonthlyAverage");
    expect(recordsOf(response, "FP-PLP-0002")).toEqual(expected);
  });

  it("returns the forecast when the range holds actual and forecast prices, with forecast prices in range", async () => {
    const response = await history("Symbols=FP-PLP-0002&FromDate=2024-05-01&ToDate=2024-08-15&forecastType=f24m");
    const forecast = must(response.instruments[0]?.forecast);
    const source = must(instrumentOf("FP-PLP-0002").forecasts[0]);
    expect(forecast.symbol).toBe("FP-PLP-0002.F24M");
    expect(forecast.version).toBe(source.version);
    expect(forecast.publicationDate).toBe(source.publicationDate);
    expect(forecast.forecastPrices).toEqual(source.prices.filter((p) => p.date.slice(0, 10) >= "2024-05-01" && p.date.slice(0, 10) <= "2024-08-15"));
  });

  it("leaves the forecast out when the range holds no actual price", async () => {
    const response = await history("Symbols=FP-PLP-0002&FromDate=2024-07-01&ToDate=2024-12-31&forecastType=F24M");
    expect(response.instruments[0]?.forecast).toBeUndefined();
  });

  it("lists an instrument without the forecast type in invalidInstruments", async () => {
    const response = await history("Symbols=MB-AL-0001,FP-PLP-0002&FromDate=2024-05-01&ToDate=2024-06-01&forecastType=F24M");
    expect(response.instruments.map((b) => b.symbol)).toEqual(["FP-PLP-0002"]);
    expect(response.invalidInstruments).toEqual([{ symbol: "MB-AL-0001", message: expect.stringContaining("F24M") }]);
  });

  it("builds the calendar from every returned instrument", async () => {
    const response = await history("Symbols=MB-CU-0002,MB-AL-0001&FromDate=2024-03-09&ToDate=2024-03-12");
    expect(response.calendar.dates).toEqual(["2024-03-12", "2024-03-11"]);
  });

  it.each([
    ["FromDate is missing", "Symbols=MB-AL-0001&ToDate=2024-01-01", "FromDate"],
    ["ToDate is malformed", "Symbols=MB-AL-0001&FromDate=2024-01-01&ToDate=2024-02-30", "ToDate"],
    ["FromDate is after ToDate", "Symbols=MB-AL-0001&FromDate=2024-02-01&ToDate=2024-01-01", "FromDate"],
    ["calendarType is unknown", "Symbols=MB-AL-0001&FromDate=2024-01-01&ToDate=2024-01-02&calendarType=Moons", "calendarType"],
    ["carryForward is not a boolean", "Symbols=MB-AL-0001&FromDate=2024-01-01&ToDate=2024-01-02&carryForward=yes", "carryForward"],
    ["the calculation type is unknown", "Symbols=MB-AL-0001&FromDate=2024-01-01&ToDate=2024-01-02&priceCalculationType=Daily", "priceCalculationType"],
  ])("answers 400 naming the parameter when %s", async (_what, query, parameter) => {
    const answer = await get(app, `/Prices/History?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ status: 400, errors: [expect.objectContaining({ parameter })] });
  });
});

describe("the record limit", () => {
  it("counts history records before answering and names the limit", async () => {
    const small = await fixtureApp({ limits: { maxRecords: 10 } });
    const answer = await get(small, "/Prices/History?Symbols=MB-AL-0001&FromDate=2024-03-01&ToDate=2024-03-31");
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ detail: expect.stringContaining("maxRecords") });
    const fits = await get(small, "/Prices/History?Symbols=MB-AL-0001&FromDate=2024-03-01&ToDate=2024-03-14");
    expect(fits.status).toBe(200);
    await small.close();
  });
});
