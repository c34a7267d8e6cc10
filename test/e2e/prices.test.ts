/**
 * PRICE and AVERAGE through the runner's page against the sandbox: every optional field, every calculation type,
 * every way to give a date, both date formats; each value compared with the service's own answer over HTTP.
 */
import {
  addDays,
  address,
  expectCell,
  instrumentRecords,
  prices,
  serialOf,
  serialOfDateTime,
  startE2E,
  TODAY,
  type E2E,
  type JsonObject,
} from "./support";

jest.setTimeout(120_000);

const OPTIONAL_FIELDS = [
  "pricingRationale",
  "appraisalPrice",
  "lowChangeSincePrevious",
  "midChangeSincePrevious",
  "highChangeSincePrevious",
  "lowChangeSincePreviousProportion",
  "midChangeSincePreviousProportion",
  "highChangeSincePreviousProportion",
];
const AVERAGES = ["WeeklyAverage", "MonthlyAverage", "QuarterlyAverage", "YearlyAverage"];
/** A Wednesday and the Saturday after it (no daily assessment on a Saturday). */
const DATE = "2025-05-14";
const SATURDAY = "2025-05-17";

let e2e: E2E;
/** Daily instruments with every average type, assessed since before 2024. */
let daily: string[];

beforeAll(async () => {
  e2e = await startE2E();
  const records = await instrumentRecords(e2e);
  daily = records
    .filter((record) => record.frequency === "Daily" && record.status === "Active")
    .filter((record) => AVERAGES.every((type) => (record.priceCalculationTypeIds as unknown[]).includes(type)))
    .filter((record) => String(record.launchDate) < "2024-01-01")
    .map((record) => String(record.symbol))
    .slice(0, 3);
  if (daily.length < 3) throw new Error("the sandbox has fewer than 3 daily instruments with every average type");
});

afterAll(async () => {
  await e2e?.close();
});

function first(): string {
  return daily[0] ?? "";
}

/** The one price record the service returns for symbol and date (latest without date), with every optional field. */
async function record(symbol: string, date: string | undefined, calculation = "None"): Promise<JsonObject> {
  const query: Record<string, string> = { Symbols: symbol, Fields: [...OPTIONAL_FIELDS, "assessmentPeriod"].join(",") };
  if (date !== undefined) query.Dates = date;
  if (calculation !== "None") query.priceCalculationType = calculation;
  const [found] = prices(await e2e.service("/Prices", query), symbol);
  if (!found) throw new Error(`no price for ${symbol} on ${date ?? "latest"}`);
  return found;
}

describe("PRICE", () => {
  it("returns each optional field as the service sends it", async () => {
    const symbol = first();
    const cells: Record<string, unknown> = { A1: symbol, B1: DATE };
    OPTIONAL_FIELDS.forEach((field, index) => (cells[`A${index + 2}`] = `=PRICES.PRICE($A$1, $B$1, "${field}")`));
    const result = await e2e.evaluate(cells);
    const expected = await record(symbol, DATE);
    OPTIONAL_FIELDS.forEach((field, index) => {
      if (expected[field] === undefined) throw new Error(`the service sent no ${field}`);
      expectCell(result.cells, `A${index + 2}`, expected[field]);
    });
  });

  it("returns low, mid, high, revision, date and assessmentDate, dates as serials by default and as text on request", async () => {
    const symbol = first();
    const fields = ["low", "mid", "high", "revision", "date", "assessmentDate"];
    const cells: Record<string, unknown> = { A1: symbol, B1: SATURDAY };
    fields.forEach((field, index) => {
      cells[`A${index + 2}`] = `=PRICES.PRICE($A$1, $B$1, "${field}")`;
      cells[`B${index + 2}`] = `=PRICES.PRICE($A$1, $B$1, "${field}", , "text")`;
      cells[`C${index + 2}`] = `=PRICES.PRICE($A$1, $B$1, "${field}", "None", "serial")`;
    });
    const result = await e2e.evaluate(cells);
    const expected = await record(symbol, SATURDAY);
    // A Saturday stands for itself while the assessment is the latest earlier one.
    expect(expected.date).toBe(SATURDAY);
    expect(String(expected.assessmentDate).slice(0, 10) < SATURDAY).toBe(true);
    const serial: JsonObject = { ...expected, date: serialOf(SATURDAY), assessmentDate: serialOfDateTime(String(expected.assessmentDate)) };
    fields.forEach((field, index) => {
      expectCell(result.cells, `A${index + 2}`, serial[field]);
      expectCell(result.cells, `B${index + 2}`, expected[field]);
      expectCell(result.cells, `C${index + 2}`, serial[field]);
    });
  });

  it("reads dates as serials, YYYY-MM-DD text, empty cells, omitted dates and \"latest\"", async () => {
    const symbol = first();
    const result = await e2e.evaluate({
      A1: symbol,
      B1: serialOf(DATE),
      C1: DATE,
      D1: "latest",
      E1: "2025-5-14",
      A2: '=PRICES.PRICE($A$1, B1, "assessmentDate", , "text")',
      B2: '=PRICES.PRICE($A$1, C1, "assessmentDate", , "text")',
      C2: '=PRICES.PRICE($A$1, D1, "assessmentDate", , "text")',
      D2: '=PRICES.PRICE($A$1, , "assessmentDate", , "text")',
      E2: '=PRICES.PRICE($A$1, Z99, "assessmentDate", , "text")',
      F2: '=PRICES.PRICE($A$1, E1, "assessmentDate", , "text")',
      A3: "=PRICES.MID($A$1, B1)",
      B3: "=PRICES.MID($A$1, C1)",
      C3: "=PRICES.MID($A$1)",
      D3: '=PRICES.MID($A$1, "latest")',
      E3: `=PRICES.MID($A$1, ${serialOf(DATE)})`,
      A4: '=PRICES.PRICE($A$1, D1, "date")',
    });
    const dated = await record(symbol, DATE);
    const latest = await record(symbol, undefined);
    expect(latest.date).toBe(TODAY);
    for (const at of ["A2", "B2", "F2"]) expectCell(result.cells, at, dated.assessmentDate);
    for (const at of ["C2", "D2"]) expectCell(result.cells, at, latest.assessmentDate);
    // a referenced empty date cell gives an empty result, as a blank inside a range does; only an omitted date or "latest" is latest
    expectCell(result.cells, "E2", "");
    for (const at of ["A3", "B3", "E3"]) expectCell(result.cells, at, dated.mid);
    for (const at of ["C3", "D3"]) expectCell(result.cells, at, latest.mid);
    expectCell(result.cells, "A4", serialOf(String(latest.date)));
  });

  it("gives the period-to-date average of each calculation type, with revision 1 and the period", async () => {
    const symbol = first();
    const types = ["None", ...AVERAGES];
    const fields = ["low", "mid", "high", "revision", "assessmentDate"];
    const cells: Record<string, unknown> = { A1: symbol, B1: DATE };
    types.forEach((type, row) => {
      fields.forEach((field, col) => (cells[address(col, row + 2)] = `=PRICES.PRICE($A$1, $B$1, "${field}", "${type}", "text")`));
      if (type !== "None") cells[address(fields.length, row + 2)] = `=PRICES.PRICE($A$1, $B$1, "assessmentPeriod", "${type}")`;
    });
    const result = await e2e.evaluate(cells);
    for (const [row, type] of types.entries()) {
      const expected = await record(symbol, DATE, type);
      expect(expected.revision).toBe(type === "None" ? 0 : 1);
      fields.forEach((field, col) => expectCell(result.cells, address(col, row + 2), expected[field]));
      if (type !== "None") expectCell(result.cells, address(fields.length, row + 2), expected.assessmentPeriod);
    }
  });

  it("spills a grid of averages: symbols down, serial and text dates across", async () => {
    const dates = [DATE, SATURDAY, addDays(DATE, 30)];
    const cells: Record<string, unknown> = { B1: dates[0], C1: serialOf(dates[1] ?? ""), D1: dates[2] };
    daily.forEach((symbol, index) => (cells[`A${index + 2}`] = symbol));
    cells.F1 = `=PRICES.PRICE(A2:A${daily.length + 1}, B1:D1, "high", "MonthlyAverage")`;
    const result = await e2e.evaluate(cells);
    const query = { Symbols: daily.join(","), Dates: dates.join(","), priceCalculationType: "MonthlyAverage" };
    const json = await e2e.service("/Prices", query);
    daily.forEach((symbol, row) => {
      const byDate = new Map(prices(json, symbol).map((price) => [price.date, price]));
      dates.forEach((date, col) => expectCell(result.cells, address(5 + col, row + 1), byDate.get(date)?.high));
    });
  });
});

describe("AVERAGE", () => {
  it("gives each period's average of the field asked, for a date and for the latest", async () => {
    const symbol = first();
    const periods = ["Weekly", "Monthly", "Quarterly", "Yearly"];
    const cells: Record<string, unknown> = { A1: symbol, B1: DATE };
    periods.forEach((period, row) => {
      cells[`A${row + 2}`] = `=PRICES.AVERAGE($A$1, "${period}", $B$1)`;
      cells[`B${row + 2}`] = `=PRICES.AVERAGE($A$1, "${period}", $B$1, "low")`;
      cells[`C${row + 2}`] = `=PRICES.AVERAGE($A$1, "${period}", , "high")`;
      cells[`D${row + 2}`] = `=PRICES.AVERAGE($A$1, "${period}", $B$1, "assessmentPeriod")`;
    });
    const result = await e2e.evaluate(cells);
    for (const [row, period] of periods.entries()) {
      const dated = await record(symbol, DATE, `${period}Average`);
      const latest = await record(symbol, undefined, `${period}Average`);
      expectCell(result.cells, `A${row + 2}`, dated.mid);
      expectCell(result.cells, `B${row + 2}`, dated.low);
      expectCell(result.cells, `C${row + 2}`, latest.high);
      expectCell(result.cells, `D${row + 2}`, dated.assessmentPeriod);
    }
  });

  it("spills a grid for a range of symbols and dates", async () => {
    const dates = ["2025-01-15", "2025-04-15"];
    const cells: Record<string, unknown> = { A1: daily[0], A2: daily[1], B3: dates[0], C3: dates[1] };
    cells.E1 = "=PRICES.AVERAGE(A1:A2, \"Quarterly\", B3:C3)";
    const result = await e2e.evaluate(cells);
    const json = await e2e.service("/Prices", { Symbols: daily.slice(0, 2).join(","), Dates: dates.join(","), priceCalculationType: "QuarterlyAverage" });
    daily.slice(0, 2).forEach((symbol, row) => {
      const byDate = new Map(prices(json, symbol).map((price) => [price.date, price]));
      dates.forEach((date, col) => expectCell(result.cells, address(4 + col, row + 1), byDate.get(date)?.mid));
    });
  });
});
