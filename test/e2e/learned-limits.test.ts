/**
 * The runner against a sandbox started with `--limit-records 2000`, the add-in not told (decision 11): the
 * client learns the limit from the first 400, plans the refused keys again, and every cell is filled, equal to
 * the same book against a sandbox with the default limits.
 */
import { addDays } from "../../src/api/dates";
import { columnName } from "../../src/formula/a1";
import type { RunningSandbox } from "../../src/sandbox/server";
import { DIST, ensureBuilt, evaluateInPage, openHostPage, servePages, type HostBrowser, type PageServer } from "../../src/runner/host-page";
import { sandboxToken } from "../support/service";
import { weekdays } from "../helpers/weekdays";
import { TODAY } from "./support";

jest.setTimeout(240_000);

let pages: PageServer;
let browser: HostBrowser;
let limited: RunningSandbox;
let plain: RunningSandbox;

beforeAll(async () => {
  ensureBuilt(() => undefined);
  pages = await servePages(DIST);
  const { startSandbox } = await import("../../src/sandbox/server");
  const common = { port: 0, today: TODAY, quiet: true, corsOrigins: [pages.origin] };
  limited = await startSandbox({ ...common, limits: { maxSymbols: 500, maxDates: 250, maxRecords: 2_000 } });
  plain = await startSandbox(common);
  browser = await openHostPage(`${pages.origin}/host.html`, () => undefined);
});

afterAll(async () => {
  await browser?.close();
  await limited?.close();
  await plain?.close();
  await pages?.close();
});

/** A column's letters, counting from 1 as the sheet's layout here does. */
const column = (index: number): string => columnName(index - 1);

it("fills a 100 x 50 grid and a 10-year daily history that each exceed the service's 2,000 records", async () => {
  const symbols = limited.data.instruments.filter((item) => item.record.launchDate < "2015-01-01" && item.record.status === "Active").slice(0, 100).map((item) => item.record.symbol);
  expect(symbols).toHaveLength(100);
  const dates = weekdays(addDays(TODAY, -1), 50);
  const cells: Record<string, unknown> = {};
  symbols.forEach((symbol, index) => (cells[`A${index + 2}`] = symbol));
  dates.forEach((date, index) => (cells[`${column(index + 2)}1`] = date));
  cells.B2 = `=PRICES.MID(A2:A101, B1:${column(51)}1)`;
  cells.BB1 = `=PRICES.HISTORY(A2, "${addDays(TODAY, -3650)}", "${TODAY}", "date,mid", 0, "CalendarDays")`;

  const limitedToken = await sandboxToken(limited, "sandbox-full", "sandbox-full-secret");
  const plainToken = await sandboxToken(plain, "sandbox-full", "sandbox-full-secret");
  const expected = await evaluateInPage(browser.page, { cells }, plain.apiUrl, plainToken);
  const actual = await evaluateInPage(browser.page, { cells }, limited.apiUrl, limitedToken);

  const values = Object.entries(actual.cells);
  expect(values.filter(([, value]) => typeof value === "string" && value.startsWith("#"))).toEqual([]);
  expect(actual.cells).toEqual(expected.cells);
  expect(values.filter(([, value]) => typeof value === "number").length).toBeGreaterThanOrEqual(5_000 + 3_651 * 2);
  // 5,000 grid records and 3,651 history rows: more than one 2,000-record answer each.
  expect(Object.keys(actual.cells).filter((address) => /^BB\d+$/.test(address)).length).toBe(3651);
  const stats = actual.stats.client as { replanned: number; failedRequests: number };
  expect(stats.replanned).toBeGreaterThanOrEqual(1);
});
