/**
 * Books through the real host, the built functions and the sandbox, each value compared with what the service
 * answers directly over HTTP. One sandbox, one page server and one Chromium for the whole file.
 */
import type { EvaluationResult } from "../../src/host/page-api";
import type { RunningSandbox } from "../../src/sandbox/server";
import { DIST, ensureBuilt, evaluateInPage, openHostPage, servePages, type HostBrowser, type PageServer } from "../../src/runner/host-page";
import { sandboxGet, sandboxToken } from "../support/service";

jest.setTimeout(300_000);

const TODAY = "2024-06-28";
let sandbox: RunningSandbox;
let pages: PageServer;
let browser: HostBrowser;
let token: string;

beforeAll(async () => {
  ensureBuilt(() => undefined);
  pages = await servePages(DIST);
  const { startSandbox } = await import("../../src/sandbox/server");
  sandbox = await startSandbox({ port: 0, today: TODAY, quiet: true, corsOrigins: [pages.origin] });
  token = await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret");
  browser = await openHostPage(`${pages.origin}/host.html`, () => undefined);
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  await pages?.close();
});

interface PriceRecordJson {
  date: string;
  low: number;
  mid: number;
  high: number;
}
interface PricesJson {
  instruments: { symbol: string; prices: PriceRecordJson[] }[];
}

/** The service's answer for symbols x dates, straight over HTTP with the same token. */
async function servicePrices(symbols: readonly string[], dates: readonly string[]): Promise<Map<string, PriceRecordJson>> {
  const response = await sandboxGet(sandbox, "/Prices", { Symbols: symbols.join(","), Dates: dates.join(",") }, token);
  expect(response.status).toBe(200);
  const json = JSON.parse(response.text) as PricesJson;
  const out = new Map<string, PriceRecordJson>();
  for (const instrument of json.instruments) for (const price of instrument.prices) out.set(`${instrument.symbol}|${price.date}`, price);
  return out;
}

function evaluate(cells: Record<string, unknown>): Promise<EvaluationResult> {
  return evaluateInPage(browser.page, { cells }, sandbox.apiUrl, token);
}

function symbols(count: number, prefix = ""): string[] {
  return sandbox.data.instruments
    .filter((instrument) => instrument.series && instrument.record.symbol.startsWith(prefix))
    .map((instrument) => instrument.record.symbol)
    .slice(0, count);
}

const DATES = ["2024-05-02", "2024-05-15", "2024-06-03"];

describe("workbook runner against the sandbox", () => {
  it("answers a single MID cell with the service's mid", async () => {
    const [symbol] = symbols(1, "MB-");
    if (!symbol) throw new Error("the sandbox has no MB- instrument");
    const result = await evaluate({ A1: symbol, B1: `=PRICES.MID(A1, "${DATES[0]}")` });
    const expected = (await servicePrices([symbol], [DATES[0] ?? ""])).get(`${symbol}|${DATES[0]}`);
    expect(result.cells.B1).toBe(expected?.mid);
  });

  it("answers a grid from ranges: symbols down, dates across", async () => {
    const chosen = symbols(3);
    const cells: Record<string, unknown> = { B1: DATES[0], C1: DATES[1], D1: DATES[2] };
    chosen.forEach((symbol, index) => (cells[`A${index + 2}`] = symbol));
    cells.F1 = `=PRICES.LOW(A2:A${chosen.length + 1}, B1:D1)`;
    const result = await evaluate(cells);
    const expected = await servicePrices(chosen, DATES);
    chosen.forEach((symbol, row) => {
      DATES.forEach((date, col) => {
        const address = `${String.fromCharCode(70 + col)}${row + 1}`;
        expect([address, result.cells[address]]).toEqual([address, expected.get(`${symbol}|${date}`)?.low]);
      });
    });
  });

  it("answers #N/A for an unknown symbol and #VALUE! for a bad date", async () => {
    const [symbol] = symbols(1);
    const result = await evaluate({ A1: '=PRICES.MID("NO-SUCH-SYMBOL")', A2: `=PRICES.MID("${symbol ?? ""}", "2024-13-01")` });
    expect(String(result.cells.A1)).toMatch(/^#N\/A/);
    expect(String(result.cells.A2)).toMatch(/^#VALUE!: .*2024-13-01/);
  });

  it("answers #SPILL! when a history would overwrite a cell", async () => {
    const [symbol] = symbols(1);
    const result = await evaluate({ A1: `=PRICES.HISTORY("${symbol ?? ""}", "2024-05-01", "2024-06-01")`, A3: "in the way" });
    expect(String(result.cells.A1)).toMatch(/^#SPILL!/);
    expect(result.cells.A3).toBe("in the way");
  });

  it("evaluates a 2,000-cell sheet with the minimum number of requests", async () => {
    const chosen = symbols(100);
    const columns = Math.ceil(2000 / chosen.length);
    const days: string[] = [];
    for (let day = 1; days.length < columns; day += 1) days.push(`2024-04-${String(day).padStart(2, "0")}`);
    const cells: Record<string, unknown> = {};
    const column = (index: number): string => (index < 26 ? String.fromCharCode(65 + index) : `A${String.fromCharCode(65 + index - 26)}`);
    days.forEach((date, index) => (cells[`${column(index + 1)}1`] = date));
    chosen.forEach((symbol, row) => {
      cells[`A${row + 2}`] = symbol;
      days.forEach((_, index) => (cells[`${column(index + 1)}${row + 2}`] = `=PRICES.MID($A${row + 2}, ${column(index + 1)}$1)`));
    });
    const before = (await browser.page.evaluate(() => window.PricesHost?.stats())) as { requests: number } | undefined;
    const result = await evaluate(cells);
    const expected = await servicePrices(chosen, days);
    let compared = 0;
    chosen.forEach((symbol, row) => {
      days.forEach((date, index) => {
        const address = `${column(index + 1)}${row + 2}`;
        const price = expected.get(`${symbol}|${date}`);
        // The service leaves out a date before an instrument's first assessment; the cell says so.
        if (price) expect([address, result.cells[address]]).toEqual([address, price.mid]);
        else expect([address, String(result.cells[address])]).toEqual([address, expect.stringMatching(/^#N\/A: no assessment for .* on or before /)]);
        compared += 1;
      });
    });
    expect(compared).toBeGreaterThanOrEqual(2000);
    // 100 symbols and 20 dates fit one /Prices request under the default limits (500 symbols, 250 dates).
    expect(result.stats.requests - (before?.requests ?? 0)).toBe(1);
  });
});
