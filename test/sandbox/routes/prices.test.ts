import type { FastifyInstance } from "fastify";
import type { PricesResponse, PriceRecord } from "../../../src/api";
import type { AssessmentPoint } from "../../../src/sandbox/data/assessment-point";
import { seriesToPoints } from "../../../src/sandbox/data/series";
import { fixtureDataSet } from "../service/fixtures";
import { addDays, lastDayOfMonth, mean, mondayOf, onOrBefore, round } from "./expect";
import { fixtureApp, get, must } from "./setup";

const data = fixtureDataSet();
const pointsOf = (symbol: string): AssessmentPoint[] =>
  seriesToPoints(must(data.instruments.find((i) => i.record.symbol === symbol), symbol).series);
const AL = pointsOf("MB-AL-0001");
const WHEAT = pointsOf("AG-WHE-0001");

let app: FastifyInstance;
beforeAll(async () => {
  app = await fixtureApp();
});
afterAll(async () => {
  await app.close();
});

async function prices(path: string): Promise<PricesResponse> {
  const answer = await get(app, path);
  expect(answer.status).toBe(200);
  return answer.body as PricesResponse;
}

function recordsOf(response: PricesResponse, symbol: string): PriceRecord[] {
  return must(response.instruments.find((block) => block.symbol === symbol), symbol).prices;
}

describe("/Prices", () => {
  it("returns the latest assessment when no date is asked", async () => {
    const response = await prices("/Prices?Symbols=MB-AL-0001");
    const last = must(AL[AL.length - 1]);
    expect(response.priceCalculationType).toBe("None");
    expect(response.instruments).toHaveLength(1);
    const block = must(response.instruments[0]);
    expect(block.firstDate).toBe(must(AL[0]).assessmentDate);
    expect(block.lastDate).toBe(last.assessmentDate);
    expect(block.prices).toEqual([
      { date: last.date, assessmentDate: last.assessmentDate, revision: last.revision, low: last.low, mid: last.mid, high: last.high },
    ]);
  });

  it("returns the latest earlier assessment for a date with none, dated as asked", async () => {
    const saturday = "2024-03-02";
    const friday = must(onOrBefore(AL, saturday));
    expect(friday.date).toBe("2024-03-01");
    const [record] = recordsOf(await prices(`/Prices?Symbols=MB-AL-0001&Dates=${saturday}`), "MB-AL-0001");
    expect(record).toMatchObject({ date: saturday, assessmentDate: friday.assessmentDate, mid: friday.mid });
  });

  it("keeps one record per distinct date in the order asked, accepting non-padded dates", async () => {
    const records = recordsOf(await prices("/Prices?Symbols=MB-AL-0001&Dates=2024-3-5,2024-02-01&Dates=2024-03-05"), "MB-AL-0001");
    expect(records.map((r) => r.date)).toEqual(["2024-03-05", "2024-02-01"]);
    expect(records.map((r) => r.mid)).toEqual([must(onOrBefore(AL, "2024-03-05")).mid, must(onOrBefore(AL, "2024-02-01")).mid]);
  });

  it("leaves out a date before the first assessment", async () => {
    const records = recordsOf(await prices("/Prices?Symbols=MB-AL-0001&Dates=2023-12-31,2024-01-03"), "MB-AL-0001");
    expect(records.map((r) => r.date)).toEqual(["2024-01-03"]);
  });

  it("carries forward curves on instruments that have them, and only there", async () => {
    const response = await prices("/Prices?Symbols=AG-WHE-0001,MB-AL-0001&Dates=2024-03-01");
    const wheat = must(recordsOf(response, "AG-WHE-0001")[0]);
    expect(wheat.forwardCurves).toEqual(must(onOrBefore(WHEAT, "2024-03-01")).forwardCurves);
    expect(must(recordsOf(response, "MB-AL-0001")[0]).forwardCurves).toBeUndefined();
  });

  it("adds optional fields only when asked, names in any case", async () => {
    const plain = must(recordsOf(await prices("/Prices?Symbols=MB-AL-0001&Dates=2024-03-05"), "MB-AL-0001")[0]);
    expect(Object.keys(plain).sort()).toEqual(["assessmentDate", "date", "high", "low", "mid", "revision"]);
    const asked = must(
      recordsOf(
        await prices("/Prices?Symbols=MB-AL-0001&Dates=2024-03-05&Fields=APPRAISALPRICE,pricingrationale,lowChangeSincePrevious,midChangeSincePreviousProportion,highChangeSincePrevious"),
        "MB-AL-0001",
      )[0],
    );
    const index = AL.findIndex((p) => p.date === "2024-03-05");
    const now = must(AL[index]);
    const before = must(AL[index - 1]);
    expect(asked.appraisalPrice).toBe(now.appraisalPrice);
    expect(asked.pricingRationale).toBe(now.pricingRationale);
    expect(asked.lowChangeSincePrevious).toBe(round(now.low - before.low, 6));
    expect(asked.highChangeSincePrevious).toBe(round(now.high - before.high, 6));
    expect(asked.midChangeSincePreviousProportion).toBe(round((now.mid - before.mid) / before.mid, 6));
    expect(asked.midChangeSincePrevious).toBeUndefined();
    expect(asked.assessmentPeriod).toBeUndefined();
  });

  it("shows a rising price as a positive change", async () => {
    const record = must(recordsOf(await prices("/Prices?Symbols=MB-AL-0001&Dates=2024-03-05&Fields=midChangeSincePrevious,midChangeSincePreviousProportion"), "MB-AL-0001")[0]);
    expect(record.midChangeSincePrevious).toBeGreaterThan(0);
    expect(record.midChangeSincePreviousProportion).toBeGreaterThan(0);
  });

  it("gives the first assessment a change and proportion of 0", async () => {
    const first = must(AL[0]);
    const record = must(recordsOf(await prices(`/Prices?Symbols=MB-AL-0001&Dates=${first.date}&Fields=lowChangeSincePrevious,lowChangeSincePreviousProportion`), "MB-AL-0001")[0]);
    expect(record.lowChangeSincePrevious).toBe(0);
    expect(record.lowChangeSincePreviousProportion).toBe(0);
  });

  it("lists unknown symbols in invalidInstruments and answers the rest", async () => {
    const response = await prices("/Prices?Symbols=MB-AL-0001,NOPE-1&Dates=2024-03-01");
    expect(response.instruments.map((b) => b.symbol)).toEqual(["MB-AL-0001"]);
    expect(response.invalidInstruments).toEqual([{ symbol: "NOPE-1", message: expect.any(String) }]);
  });

  it("matches symbols without regard to case and answers each once", async () => {
    const response = await prices("/Prices?Symbols=mb-al-0001,MB-AL-0001");
    expect(response.instruments.map((b) => b.symbol)).toEqual(["MB-AL-0001"]);
  });
});

describe("average prices", () => {
  it("averages the month to date for a date inside the month", async () => {
    const date = "2024-03-13";
    const taken = AL.filter((p) => p.date >= "2024-03-01" && p.date <= date);
    const response = await prices(`/Prices/MonthlyAverage?Symbols=MB-AL-0001&Dates=${date}&Fields=assessmentPeriod`);
    expect(response.priceCalculationType).toBe("MonthlyAverage");
    expect(recordsOf(response, "MB-AL-0001")).toEqual([
      {
        date,
        assessmentDate: must(taken[taken.length - 1]).assessmentDate,
        revision: 1,
        low: mean(taken, "low"),
        mid: mean(taken, "mid"),
        high: mean(taken, "high"),
        assessmentPeriod: "2024-03-01/2024-03-31",
      },
    ]);
  });

  it("averages the whole ISO week (Monday to Sunday) once the date is past it, in the spelling asked", async () => {
    const date = "2024-03-10"; // a Sunday
    const monday = mondayOf(date);
    const week = AL.filter((p) => p.date >= monday && p.date <= date);
    expect(week).toHaveLength(5);
    const [record] = recordsOf(await prices(`/Prices?Symbols=MB-AL-0001&Dates=${date}&priceCalculationType=weeklyaverage&Fields=evaluationPeriod`), "MB-AL-0001");
    expect(record).toMatchObject({ date, revision: 1, mid: mean(week, "mid"), evaluationPeriod: `${monday}/${addDays(monday, 6)}` });
    expect(must(record).assessmentPeriod).toBeUndefined();
  });

  it("averages quarters and years to date", async () => {
    const date = "2024-05-15";
    const quarter = AL.filter((p) => p.date >= "2024-04-01" && p.date <= date);
    const year = AL.filter((p) => p.date >= "2024-01-01" && p.date <= date);
    const [q] = recordsOf(await prices(`/Prices/QuarterlyAverage?Symbols=MB-AL-0001&Dates=${date}`), "MB-AL-0001");
    const [y] = recordsOf(await prices(`/Prices/YearlyAverage?Symbols=MB-AL-0001&Dates=${date}`), "MB-AL-0001");
    expect(must(q).high).toBe(mean(quarter, "high"));
    expect(must(y).low).toBe(mean(year, "low"));
  });

  it("averages the latest period to date when no date is asked", async () => {
    const last = must(AL[AL.length - 1]);
    const month = AL.filter((p) => p.date >= `${last.date.slice(0, 7)}-01` && p.date <= last.date);
    const [record] = recordsOf(await prices("/Prices/MonthlyAverage?Symbols=MB-AL-0001"), "MB-AL-0001");
    expect(record).toMatchObject({ date: last.date, mid: mean(month, "mid") });
  });

  it("lets the latest earlier period stand for a date whose period has no assessment yet", async () => {
    const cu = pointsOf("MB-CU-0002"); // Tuesdays only
    const date = "2024-03-04"; // a Monday: its week has no assessment yet
    const lastWeek = cu.filter((p) => p.date >= mondayOf(addDays(date, -7)) && p.date < mondayOf(date));
    expect(lastWeek).toHaveLength(1);
    const [record] = recordsOf(await prices(`/Prices/WeeklyAverage?Symbols=MB-CU-0002&Dates=${date}&Fields=assessmentPeriod`), "MB-CU-0002");
    expect(record).toMatchObject({
      date,
      assessmentDate: must(lastWeek[0]).assessmentDate,
      mid: mean(lastWeek, "mid"),
      assessmentPeriod: `${mondayOf(addDays(date, -7))}/${addDays(mondayOf(addDays(date, -7)), 6)}`,
    });
  });

  it("lists an instrument without the calculation type in invalidInstruments", async () => {
    const response = await prices("/Prices/WeeklyAverage?Symbols=MB-AL-0001,FP-PLP-0002");
    expect(response.instruments.map((b) => b.symbol)).toEqual(["MB-AL-0001"]);
    expect(response.invalidInstruments).toEqual([{ symbol: "FP-PLP-0002", message: expect.stringContaining("WeeklyAverage") }]);
  });

  it("changes of an average compare with the previous period's full average", async () => {
    const date = "2024-04-10";
    const april = AL.filter((p) => p.date >= "2024-04-01" && p.date <= date);
    const march = AL.filter((p) => p.date >= "2024-03-01" && p.date <= lastDayOfMonth("2024-03-01"));
    const [record] = recordsOf(await prices(`/Prices/MonthlyAverage?Symbols=MB-AL-0001&Dates=${date}&Fields=midChangeSincePrevious`), "MB-AL-0001");
    expect(must(record).midChangeSincePrevious).toBe(round(mean(april, "mid") - mean(march, "mid"), 6));
  });

  it("refuses a calculation type that contradicts the path", async () => {
    const answer = await get(app, "/Prices/MonthlyAverage?Symbols=MB-AL-0001&priceCalculationType=WeeklyAverage");
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ errors: [{ parameter: "priceCalculationType" }] });
  });
});

describe("price bodies", () => {
  it("hold exactly what the response schemas declare (they are written with JSON.stringify for speed)", async () => {
    const { Value } = await import("@sinclair/typebox/value");
    const { PricesResponseSchema, HistoryResponseSchema } = await import("../../../src/api");
    const all = "Fields=appraisalPrice,pricingRationale,assessmentPeriod,evaluationPeriod,lowChangeSincePrevious,midChangeSincePreviousProportion";
    const cases: [unknown, Parameters<typeof Value.Check>[0]][] = [
      [(await get(app, `/Prices?Symbols=AG-WHE-0001,MB-AL-0001,NOPE&Dates=2024-03-01&${all}`)).body, PricesResponseSchema],
      [(await get(app, `/Prices/MonthlyAverage?Symbols=MB-AL-0001&${all}`)).body, PricesResponseSchema],
      [(await get(app, `/Prices/History?Symbols=AG-WHE-0001,FP-PLP-0002&FromDate=2024-03-01&ToDate=2024-04-01&forecastType=F24M&${all}`)).body, HistoryResponseSchema],
    ];
    for (const [body, schema] of cases) {
      expect(Value.Check(schema, body)).toBe(true);
      expect(Value.Clean(schema, structuredClone(body))).toEqual(body);
    }
  });
});
