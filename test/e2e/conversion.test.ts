/**
 * Conversion end to end through the runner's page against the sandbox (convention 21): a grid of mids in EUR/LB
 * beside the same grid unconverted, a history in CNY, the conversions list and the errors; every value compared with
 * the service's own raw answer over HTTP.
 */
import { address, expectCell, instrumentRecords, prices, region, startE2E, type E2E, type JsonObject } from "./support";

jest.setTimeout(120_000);

const DATES = ["2025-05-12", "2025-05-14", "2025-05-17"];

let e2e: E2E;
let metals: string[];
let dry: string;

beforeAll(async () => {
  e2e = await startE2E();
  const records = await instrumentRecords(e2e);
  const active = records.filter((record) => record.status === "Active" && String(record.launchDate) < "2024-01-01");
  metals = active.filter((record) => record.currencyId === "USD" && record.unitOfMeasureId === "MT" && record.frequency === "Daily").map((record) => String(record.symbol)).slice(0, 3);
  dry = String(active.find((record) => record.unitOfMeasureId === "DMT")?.symbol ?? "");
  if (metals.length < 3 || dry === "") throw new Error("the sandbox lacks daily USD/MT instruments or one in DMT");
});

afterAll(async () => {
  await e2e?.close();
});

function mids(json: JsonObject, symbol: string): Map<string, unknown> {
  return new Map(prices(json, symbol).map((record) => [String(record.date), record.mid]));
}

describe("conversion through the runner", () => {
  it("spills a grid of mids in EUR/LB beside the same grid unconverted, each equal to the service's raw answer", async () => {
    const cells: Record<string, unknown> = {};
    metals.forEach((symbol, row) => (cells[`A${row + 2}`] = symbol));
    DATES.forEach((date, column) => (cells[address(column + 1, 1)] = date));
    cells.F2 = "=PRICES.MID(A2:A4, B1:D1)";
    cells.J2 = '=PRICES.MID(A2:A4, B1:D1, "eur", "LB")';
    const result = await e2e.evaluate(cells);
    const query = { Symbols: metals.join(","), Dates: DATES.join(",") };
    const [own, converted] = await Promise.all([e2e.service("/Prices", query), e2e.service("/Prices", { ...query, targetCurrency: "EUR", targetUnitOfMeasure: "LB" })]);
    const expected = (json: JsonObject) => metals.map((symbol) => DATES.map((date) => mids(json, symbol).get(date) ?? null));
    expect(region(result.cells, 5, 2, 3, 3)).toEqual(expected(own));
    expect(region(result.cells, 9, 2, 3, 3)).toEqual(expected(converted));
    // A pound costs about 1/2205 of a tonne: the converted grid is not the unconverted one.
    const [ownFirst, convertedFirst] = [result.cells.F2, result.cells.J2] as number[];
    expect((convertedFirst ?? 0) / (ownFirst ?? 1)).toBeGreaterThan(0.0002);
    expect((convertedFirst ?? 0) / (ownFirst ?? 1)).toBeLessThan(0.0007);
  });

  it("spills a history in CNY equal to the service's raw answer, each day at its own rate", async () => {
    const symbol = metals[0] ?? "";
    const result = await e2e.evaluate({ A1: symbol, A3: '=PRICES.HISTORY(A1, "2025-05-01", "2025-05-31", "date,low,mid,high", 1, , , , "text", "CNY")' });
    const json = await e2e.service("/Prices/History", { Symbols: symbol, FromDate: "2025-05-01", ToDate: "2025-05-31", targetCurrency: "CNY" });
    const expected = prices(json, symbol).reverse().map((record) => [record.date, record.low, record.mid, record.high]);
    expect(expected.length).toBeGreaterThan(15);
    expect(region(result.cells, 0, 3, 1, 4)).toEqual([["date", "low", "mid", "high"]]);
    expect(region(result.cells, 0, 4, expected.length, 4)).toEqual(expected);
  });

  it("lists the conversions and names what cannot convert", async () => {
    const symbol = metals[0] ?? "";
    const result = await e2e.evaluate({
      A1: `=PRICES.CONVERSIONS("${symbol}", 0)`,
      E1: `=PRICES.MID("${dry}", , , "LB")`,
      E2: `=PRICES.MID("${symbol}", , "XYZ")`,
      E3: `=PRICES.INSTRUMENT("${symbol}", "unitOfMeasureId", , , "lb")`,
    });
    const references = await e2e.service("/References", { Types: "Currency" });
    const currencies = (((references.references as JsonObject[])[0]?.items ?? []) as JsonObject[]).map((item) => item.id).filter((id) => id !== "USD");
    const kinds = Array.from({ length: currencies.length + 3 }, (_, row) => [result.cells[`A${row + 1}`], result.cells[`B${row + 1}`]]);
    expect(kinds).toEqual([...currencies.map((id) => ["currency", id]), ["unit", "KG"], ["unit", "LB"], ["unit", "ST"]]);
    expectCell(result.cells, "E1", `#N/A: '${dry}': Conversion from DMT to LB is not available for this instrument`);
    expect(String(result.cells.E2)).toMatch(/^#VALUE!: currency 'XYZ' is not a currency id; valid: USD, EUR/);
    expectCell(result.cells, "E3", "LB");
  });
});
