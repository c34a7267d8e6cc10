/** A small hand-made data set and a stand-in verifier for tests that do not need the generator or real tokens. */
import { fromEpochDay, isoWeekday, toEpochDay, type InstrumentRecord } from "../../../src/api";
import type { DataSet, ForecastData, InstrumentData } from "../../../src/sandbox/data/model";
import type { AssessmentPoint } from "../../../src/sandbox/data/assessment-point";
import { createSeries } from "../../../src/sandbox/data/series";
import type { ApiCaller } from "../../../src/sandbox/service/catalogue";

function record(symbol: string, overrides: Partial<Required<InstrumentRecord>> = {}): Required<InstrumentRecord> {
  return {
    symbol,
    productId: `P-${symbol}`,
    description: `Description of ${symbol}`,
    descriptionShort: `Short ${symbol}`,
    commodityId: "AL",
    priceType: "Price",
    locationId: "RTD",
    currencyId: "USD",
    unitOfMeasureId: "T",
    incotermId: "FOB",
    launchDate: "2024-01-02",
    frequency: "Daily",
    sourceId: "S1",
    status: "Active",
    priceCalculationTypeIds: ["WeeklyAverage", "MonthlyAverage", "QuarterlyAverage", "YearlyAverage"],
    commodity: "Aluminium",
    location: "Rotterdam",
    currency: "US Dollar",
    unitOfMeasure: "Tonne",
    incoterm: "Free On Board",
    source: "Sandbox desk",
    forecastTypeIds: [],
    hasForwardCurves: false,
    ...overrides,
  };
}

/** Weekday points from `from` to `to`, values rising by `step` a day (mid = base + k * step). */
export function weekdayPoints(from: string, to: string, base: number, step: number, curves = false): AssessmentPoint[] {
  const points: AssessmentPoint[] = [];
  let k = 0;
  for (let day = toEpochDay(from); day <= toEpochDay(to); day++) {
    if (isoWeekday(day) > 4) continue;
    const date = fromEpochDay(day);
    const mid = Math.round((base + k * step) * 100) / 100;
    const point: AssessmentPoint = {
      date,
      assessmentDate: `${date}T16:30:00+00:00`,
      revision: k % 7 === 3 ? 1 : 0,
      low: Math.round((mid - 1) * 100) / 100,
      mid,
      high: Math.round((mid + 1) * 100) / 100,
      appraisalPrice: k % 5 === 0,
      pricingRationale: `Rationale ${date}`,
    };
    if (curves) {
      point.forwardCurves = [
        { forwardCode: "M1", forwardMonth: "FEB", low: mid, mid: mid + 1, high: mid + 2 },
      ];
    }
    points.push(point);
    k++;
  }
  return points;
}

function instrument(rec: Required<InstrumentRecord>, points: AssessmentPoint[], forecasts: ForecastData[] = []): InstrumentData {
  return { record: rec, series: createSeries(points), forecasts };
}

export function fixtureDataSet(): DataSet {
  const forecast: ForecastData = {
    type: "F24M",
    version: 2,
    publicationDate: "2024-03-01T00:00:00.000Z",
    prices: Array.from({ length: 24 }, (_, n) => {
      const month = n + 3;
      const year = 2024 + Math.floor((month - 1) / 12);
      const m = ((month - 1) % 12) + 1;
      return { date: `${year}-${String(m).padStart(2, "0")}-01T00:00:00.000Z`, low: 90 + n, mid: 100 + n, high: 110 + n };
    }),
  };
  return {
    today: "2024-06-28",
    instruments: [
      instrument(record("AG-WHE-0001", { commodityId: "WHE", commodity: "Wheat", description: "Wheat secret description", hasForwardCurves: true }), weekdayPoints("2024-01-02", "2024-06-28", 200, 0.5, true)),
      instrument(record("FP-PLP-0002", { commodityId: "PLP", commodity: "Pulp", forecastTypeIds: ["F24M"], priceCalculationTypeIds: ["MonthlyAverage"] }), weekdayPoints("2024-01-02", "2024-06-28", 600, -0.25), [forecast]),
      instrument(record("MB-AL-0001"), weekdayPoints("2024-01-02", "2024-06-28", 2200, 1.5)),
      instrument(
        record("MB-CU-0002", { status: "Discontinued", frequency: "Weekly", priceCalculationTypeIds: ["WeeklyAverage"] }),
        weekdayPoints("2024-01-02", "2024-03-29", 8000, 3).filter((p) => isoWeekday(toEpochDay(p.date)) === 2),
      ),
    ],
    references: [
      { type: "Currency", items: [{ id: "USD", description: "US Dollar", sign: "$", availableConversionIds: ["EUR"] }] },
      { type: "UnitOfMeasure", items: [{ id: "T", description: "Tonne", sign: "t", availableConversionIds: [] }] },
      { type: "PriceCalculationType", items: [{ id: "MonthlyAverage", description: "Monthly average", sign: "", availableConversionIds: [] }] },
      { type: "Incoterm", items: [{ id: "FOB", description: "Free On Board", sign: "", availableConversionIds: [] }] },
      { type: "Commodity", items: [{ id: "AL", description: "Aluminium", sign: "", availableConversionIds: [] }] },
      { type: "Source", items: [{ id: "S1", description: "Sandbox desk", sign: "", availableConversionIds: [] }] },
    ],
  };
}

/** Bearer `full` sees everything, `trial` only `MB-`; anything else is refused like a bad token. */
export const stubTokenService = {
  scope: "sandbox.physicalprices.api",
  async verify(authorization: string | undefined): Promise<ApiCaller> {
    const token = authorization?.replace(/^Bearer\s+/i, "");
    if (token === "full") return { id: "full", canSee: () => true };
    if (token === "trial") return { id: "trial", canSee: (symbol) => symbol.startsWith("MB-") };
    if (token === "noscope") throw Object.assign(new Error("The access token lacks the scope"), { name: "AuthFailure", status: 403, code: "insufficient_scope" });
    throw Object.assign(new Error("The access token is missing or invalid"), { name: "AuthFailure", status: 401, code: "invalid_token" });
  },
};
