/**
 * HISTORY, CURVE and FORECAST through the runner's page against the sandbox: each option of HISTORY, curves and
 * forecasts, every spilled cell compared with the service's own answer over HTTP.
 */
import {
  addDays,
  block,
  instrumentRecords,
  objects,
  prices,
  region,
  serialOf,
  serialOfDateTime,
  startE2E,
  text,
  TODAY,
  type E2E,
  type JsonObject,
} from "./support";

jest.setTimeout(120_000);

const FROM = "2025-04-01";
const TO = "2025-06-10";
const AVERAGES = ["WeeklyAverage", "MonthlyAverage", "QuarterlyAverage", "YearlyAverage"];

let e2e: E2E;
/** Assessed once a week, so Weekdays and CalendarDays carry values forward. */
let weekly: string;
/** Assessed every weekday, with every average type. */
let daily: string;
let withCurves: string;
let withForecast: string;

function pick(records: JsonObject[], what: string, test: (record: JsonObject) => boolean): string {
  const found = records.find((record) => record.status === "Active" && String(record.launchDate) < "2024-01-01" && test(record));
  if (!found) throw new Error(`the sandbox has no ${what}`);
  return String(found.symbol);
}

beforeAll(async () => {
  e2e = await startE2E();
  const records = await instrumentRecords(e2e, ["hasForwardCurves", "forecastTypeIds"]);
  const hasAll = (record: JsonObject): boolean => AVERAGES.every((type) => (record.priceCalculationTypeIds as unknown[]).includes(type));
  weekly = pick(records, "weekly instrument", (record) => record.frequency === "Weekly");
  daily = pick(records, "daily instrument with every average", (record) => record.frequency === "Daily" && hasAll(record));
  withCurves = pick(records, "instrument with forward curves", (record) => record.hasForwardCurves === true);
  withForecast = pick(records, "instrument with an F24M forecast", (record) => (record.forecastTypeIds as unknown[]).includes("F24M"));
});

afterAll(async () => {
  await e2e?.close();
});

async function history(symbol: string, query: Record<string, string> = {}): Promise<{ rows: JsonObject[]; assessed: Set<string> }> {
  const json = await e2e.service("/Prices/History", { Symbols: symbol, FromDate: FROM, ToDate: TO, ...query });
  const calendar = json.calendar as { dates?: unknown } | undefined;
  return { rows: prices(json, symbol), assessed: new Set((calendar?.dates as string[] | undefined) ?? []) };
}

/** The table as the function must spill it, from the service's rows (descending as served). */
function table(rows: readonly JsonObject[], columns: readonly string[], order: "ascending" | "descending", cell: (row: JsonObject, column: string) => unknown): unknown[][] {
  const ordered = order === "ascending" ? [...rows].reverse() : rows;
  return ordered.map((row) => columns.map((column) => cell(row, column)));
}

const serialCell = (row: JsonObject, column: string): unknown =>
  column === "date" ? serialOf(text(row.date, "date")) : column === "assessmentDate" ? serialOfDateTime(text(row.assessmentDate, "assessmentDate")) : row[column];

/** Fractional serials rounded so that float noise in the add-in's arithmetic cannot fail an honest match. */
function rounded(grid: readonly (readonly unknown[])[]): unknown[][] {
  return grid.map((row) => row.map((value) => (typeof value === "number" ? Math.round(value * 1e9) / 1e9 : value)));
}

describe("HISTORY", () => {
  it("lists dates and low/mid/high oldest first under a row of names by default, with nothing below", async () => {
    const result = await e2e.evaluate({ A1: `=PRICES.HISTORY("${daily}", "${FROM}", "${TO}")` });
    const { rows } = await history(daily);
    expect(rows.length).toBeGreaterThan(30);
    const expected = [["date", "low", "mid", "high"], ...table(rows, ["date", "low", "mid", "high"], "ascending", serialCell), [null, null, null, null]];
    expect(region(result.cells, 0, 1, rows.length + 2, 5)).toEqual(expected.map((row) => [...row, null]));
  });

  it("runs to the machine's UTC date when to is blank", async () => {
    const from = "2025-06-01";
    const result = await e2e.evaluate({ A1: `=PRICES.HISTORY("${daily}", "${from}", , "date,mid", 0, , , , "text")` });
    // The sandbox's data end on its frozen today, well before the machine's date, so a run across midnight agrees too.
    const json = await e2e.service("/Prices/History", { Symbols: daily, FromDate: from, ToDate: new Date().toISOString().slice(0, 10) });
    const rows = prices(json, daily);
    expect(rows[0]?.date).toBe(TODAY);
    expect(region(result.cells, 0, 1, rows.length + 1, 2)).toEqual([...table(rows, ["date", "mid"], "ascending", (row, column) => row[column]), [null, null]]);
  });

  it("shows no header, the names, or the symbol above the names for headers 0, 1 and 2", async () => {
    const result = await e2e.evaluate({
      A1: weekly,
      B1: serialOf(FROM),
      C1: serialOf(TO),
      A3: "=PRICES.HISTORY(A1, B1, C1, , 0)",
      F3: "=PRICES.HISTORY(A1, B1, C1, , 1)",
      K3: "=PRICES.HISTORY(A1, B1, C1, , 2)",
    });
    const { rows } = await history(weekly);
    const body = table(rows, ["date", "low", "mid", "high"], "ascending", serialCell);
    const names = ["date", "low", "mid", "high"];
    expect(region(result.cells, 0, 3, body.length + 1, 4)).toEqual([...body, [null, null, null, null]]);
    expect(region(result.cells, 5, 3, body.length + 2, 4)).toEqual([names, ...body, [null, null, null, null]]);
    expect(region(result.cells, 10, 3, body.length + 3, 4)).toEqual([[weekly, "", "", ""], names, ...body, [null, null, null, null]]);
  });

  it("lists newest first with order descending", async () => {
    const result = await e2e.evaluate({
      A1: `=PRICES.HISTORY("${daily}", "${FROM}", "${TO}", "date,mid", 0, , , "descending", "text")`,
      D1: `=PRICES.HISTORY("${daily}", "${FROM}", "${TO}", "date,mid", 0, , , "ascending", "text")`,
    });
    const { rows } = await history(daily);
    const cell = (row: JsonObject, column: string): unknown => row[column];
    expect(region(result.cells, 0, 1, rows.length, 2)).toEqual(table(rows, ["date", "mid"], "descending", cell));
    expect(region(result.cells, 3, 1, rows.length, 2)).toEqual(table(rows, ["date", "mid"], "ascending", cell));
  });

  it.each(["Weekdays", "CalendarDays"])("fills %s without assessment with the latest earlier one, flagged by assessed", async (calendar) => {
    const columns = ["date", "mid", "assessed", "assessmentDate"];
    const result = await e2e.evaluate({ A1: `=PRICES.HISTORY("${weekly}", "${FROM}", "${TO}", "${columns.join(",")}", 1, "${calendar}")` });
    const { rows, assessed } = await history(weekly, { calendarType: calendar, carryForward: "true" });
    const expected = table(rows, columns, "ascending", (row, column) => (column === "assessed" ? assessed.has(text(row.date, "date")) : serialCell(row, column)));
    // The book is worth checking only if it holds both kinds of row.
    expect(expected.some((row) => row[2] === true) && expected.some((row) => row[2] === false)).toBe(true);
    const days = Math.round(serialOf(TO) - serialOf(FROM)) + 1;
    expect(rows.length).toBe(calendar === "CalendarDays" ? days : rows.filter((row) => ![0, 6].includes(new Date(`${text(row.date, "date")}T00:00:00Z`).getUTCDay())).length);
    expect(rounded(region(result.cells, 0, 1, rows.length + 2, 4))).toEqual(rounded([columns, ...expected, [null, null, null, null]]));
  });

  it("lists assessment days only by default, each one assessed", async () => {
    const result = await e2e.evaluate({ A1: `=PRICES.HISTORY("${weekly}", "${FROM}", "${TO}", "date,assessed", 0, "AssessmentDays", , , "text")` });
    const { rows, assessed } = await history(weekly);
    expect(rows.length).toBeGreaterThan(5);
    expect(region(result.cells, 0, 1, rows.length + 1, 2)).toEqual([...table(rows, ["date", "assessed"], "ascending", (row, column) => (column === "assessed" ? assessed.has(String(row.date)) : row.date)), [null, null]]);
    expect(rows.every((row) => assessed.has(String(row.date)))).toBe(true);
  });

  it.each(AVERAGES)("gives one row per period for %s", async (calculation) => {
    const columns = ["date", "low", "mid", "high", "revision", "assessmentPeriod"];
    const result = await e2e.evaluate({ A1: `=PRICES.HISTORY("${daily}", "${FROM}", "${TO}", "${columns.join(";")}", 0, , "${calculation}", , "text")` });
    const { rows } = await history(daily, { priceCalculationType: calculation, Fields: "assessmentPeriod" });
    expect(rows.every((row) => row.revision === 1)).toBe(true);
    expect(region(result.cells, 0, 1, rows.length + 1, columns.length)).toEqual([...table(rows, columns, "ascending", (row, column) => row[column]), columns.map(() => null)]);
  });

  it("shows several fields named in a range, optional ones included", async () => {
    const columns = ["date", "pricingRationale", "appraisalPrice", "midChangeSincePrevious", "highChangeSincePreviousProportion", "revision", "assessmentDate"];
    const cells: Record<string, unknown> = {};
    columns.forEach((column, index) => (cells[`${String.fromCharCode(65 + index)}1`] = column));
    cells.A3 = `=PRICES.HISTORY("${daily}", "${FROM}", "${TO}", A1:G1, 0, , , "descending")`;
    const result = await e2e.evaluate(cells);
    const { rows } = await history(daily, { Fields: "pricingRationale,appraisalPrice,midChangeSincePrevious,highChangeSincePreviousProportion" });
    expect(rows.every((row) => typeof row.pricingRationale === "string" && typeof row.appraisalPrice === "boolean")).toBe(true);
    expect(rounded(region(result.cells, 0, 3, rows.length, columns.length))).toEqual(rounded(table(rows, columns, "descending", serialCell)));
  });
});

describe("CURVE", () => {
  function curveRows(record: JsonObject): unknown[][] {
    return objects(record.forwardCurves, "forwardCurves").map((point) => [point.forwardCode, point.forwardMonth, point.low, point.mid, point.high]);
  }
  const NAMES = ["code", "month", "low", "mid", "high"];

  it("spills the forward curve of a date and of the latest assessment with each header mode", async () => {
    const date = "2025-05-14";
    const result = await e2e.evaluate({
      A1: withCurves,
      A2: `=PRICES.CURVE(A1, "${date}")`,
      G2: `=PRICES.CURVE(A1, ${serialOf(date)}, 0)`,
      M2: `=PRICES.CURVE(A1, , 2)`,
    });
    const [dated] = prices(await e2e.service("/Prices", { Symbols: withCurves, Dates: date }), withCurves);
    const [latest] = prices(await e2e.service("/Prices", { Symbols: withCurves }), withCurves);
    if (!dated || !latest) throw new Error("no price for the curve instrument");
    const datedRows = curveRows(dated);
    const latestRows = curveRows(latest);
    expect(datedRows.length).toBeGreaterThanOrEqual(3);
    const blank = NAMES.map(() => null);
    expect(region(result.cells, 0, 2, datedRows.length + 2, 5)).toEqual([NAMES, ...datedRows, blank]);
    expect(region(result.cells, 6, 2, datedRows.length + 1, 5)).toEqual([...datedRows, blank]);
    expect(region(result.cells, 12, 2, latestRows.length + 3, 5)).toEqual([[`${withCurves} ${String(latest.date)}`, "", "", "", ""], NAMES, ...latestRows, blank]);
  });
});

describe("FORECAST", () => {
  it("spills the F24M forecast prices after the latest assessment, dates as serials or text", async () => {
    const result = await e2e.evaluate({
      A1: withForecast,
      A2: "=PRICES.FORECAST(A1)",
      G2: '=PRICES.FORECAST(A1, "F24M", 2, "text")',
    });
    const [latest] = prices(await e2e.service("/Prices", { Symbols: withForecast }), withForecast);
    if (!latest) throw new Error("no latest price for the forecast instrument");
    const from = text(latest.date, "date");
    const json = await e2e.service("/Prices/History", { Symbols: withForecast, FromDate: from, ToDate: addDays(from, 3_660), forecastType: "F24M" });
    const forecast = block(json, withForecast).forecast as JsonObject | undefined;
    if (!forecast) throw new Error("the service returned no forecast");
    const points = objects(forecast.forecastPrices, "forecastPrices");
    expect(points.length).toBeGreaterThan(0);
    const names = ["date", "low", "mid", "high"];
    const bySerial = points.map((point) => [serialOfDateTime(text(point.date, "date")), point.low, point.mid, point.high]);
    const byText = points.map((point) => [text(point.date, "date").slice(0, 10), point.low, point.mid, point.high]);
    expect(rounded(region(result.cells, 0, 2, points.length + 2, 4))).toEqual(rounded([names, ...bySerial, [null, null, null, null]]));
    expect(region(result.cells, 6, 2, points.length + 3, 4)).toEqual([[forecast.symbol, "", "", ""], names, ...byText, [null, null, null, null]]);
  });
});
