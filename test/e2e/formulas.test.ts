/**
 * Excel formulas around PRICES through the runner's page, the real functions bundle and client against the sandbox:
 * values compared with the service's answers over HTTP, and every PRICES call of the recalculation batched into the
 * fewest requests, nested ones included.
 */
import { addDays, prices, startE2E, TODAY, type E2E } from "./support";

jest.setTimeout(120_000);

let e2e: E2E;
let symbols: string[];

beforeAll(async () => {
  e2e = await startE2E();
  symbols = e2e.sandbox.data.instruments
    .filter((i) => /^MB-/.test(i.record.symbol) && i.record.status === "Active" && i.series.length > 500)
    .map((i) => i.record.symbol)
    .slice(0, 5);
  expect(symbols).toHaveLength(5);
});

afterAll(async () => {
  await e2e?.close();
});

describe("formulas with PRICES nested", () => {
  it("evaluates TODAY()-1 dates, arithmetic and AVERAGE over the results as the service answers, in one request", async () => {
    const yesterday = addDays(TODAY, -1);
    const cells: Record<string, unknown> = {};
    symbols.forEach((symbol, index) => {
      cells[`A${index + 1}`] = symbol;
      cells[`B${index + 1}`] = `=PRICES.MID(A${index + 1}, TODAY()-1)`;
      cells[`C${index + 1}`] = `=ROUND(PRICES.HIGH(A${index + 1}, TODAY()-1)-PRICES.LOW(A${index + 1}, TODAY()-1), 2)`;
    });
    cells.D1 = "=AVERAGE(B1:B5)";
    cells.D2 = "=MAX(B1:B5)/MIN(B1:B5)-1";
    cells.D3 = '=INDEX(B1:B5, MATCH(MAX(B1:B5), B1:B5, 0))';
    const result = await e2e.evaluate(cells);
    const answer = await e2e.service("/Prices", { Symbols: symbols.join(","), Dates: yesterday });
    const mids = symbols.map((symbol) => Number(prices(answer, symbol)[0]?.mid));
    symbols.forEach((symbol, index) => {
      const [record] = prices(answer, symbol);
      expect([symbol, result.cells[`B${index + 1}`]]).toEqual([symbol, record?.mid]);
      expect([symbol, result.cells[`C${index + 1}`]]).toEqual([symbol, Math.round((Number(record?.high) - Number(record?.low)) * 100) / 100]);
    });
    expect(result.cells.D1).toBeCloseTo(mids.reduce((sum, mid) => sum + mid, 0) / mids.length, 9);
    expect(result.cells.D2).toBeCloseTo(Math.max(...mids) / Math.min(...mids) - 1, 9);
    expect(result.cells.D3).toBe(Math.max(...mids));
    // 15 nested calls of three functions: one /Prices request (the client's key covers low, mid and high)
    expect(result.stats.requestsByPath).toEqual({ "/Prices": 1 });
  });

  it("reads a HISTORY spill with A1# and takes from it with TAKE and INDEX", async () => {
    const symbol = symbols[0] ?? "";
    const from = addDays(TODAY, -60);
    const result = await e2e.evaluate({
      A1: symbol,
      B1: `=PRICES.HISTORY(A1, "${from}", "${TODAY}", "mid", 0)`,
      D1: "=ROWS(B1#)",
      D2: "=INDEX(B1#, ROWS(B1#))",
      D3: "=SUM(TAKE(B1#, 3))",
    });
    const history = await e2e.service("/Prices/History", { Symbols: symbol, FromDate: from, ToDate: TODAY });
    const mids = prices(history, symbol)
      .map((record) => ({ date: String(record.date), mid: Number(record.mid) }))
      .sort((a, b) => a.date.localeCompare(b.date))
      .map((record) => record.mid);
    expect(result.cells.D1).toBe(mids.length);
    expect(result.cells.D2).toBe(mids[mids.length - 1]);
    expect(result.cells.D3).toBeCloseTo((mids[0] ?? 0) + (mids[1] ?? 0) + (mids[2] ?? 0), 9);
  });
});
