/**
 * The learned-limit files' shared stage: one Chromium host page, a sandbox whose real limit is 2,000 records and a
 * plain one to compare with, and the book that overruns the limit (a 100 x 50 grid and a 10-year daily history).
 */
import { addDays } from "../../src/api/dates";
import { columnName } from "../../src/formula/a1";
import type { RunningSandbox } from "../../src/sandbox/server";
import { DIST, ensureBuilt, openHostPage, servePages, type HostBrowser, type PageServer } from "../../src/runner/host-page";
import { weekdays } from "../helpers/weekdays";
import { TODAY } from "./support";

export interface LimitedPair {
  readonly pages: PageServer;
  readonly browser: HostBrowser;
  /** Refuses an answer of more than 2,000 records (the add-in is not told: decision 11). */
  readonly limited: RunningSandbox;
  readonly plain: RunningSandbox;
  close(): Promise<void>;
}

export async function startLimitedPair(): Promise<LimitedPair> {
  ensureBuilt(() => undefined);
  const pages = await servePages(DIST);
  const { startSandbox } = await import("../../src/sandbox/server");
  const common = { port: 0, today: TODAY, quiet: true, corsOrigins: [pages.origin] };
  const limited = await startSandbox({ ...common, limits: { maxSymbols: 500, maxDates: 250, maxRecords: 2_000 } });
  const plain = await startSandbox(common);
  const browser = await openHostPage(`${pages.origin}/host.html`, () => undefined);
  return {
    pages,
    browser,
    limited,
    plain,
    async close() {
      await browser.close();
      await limited.close();
      await plain.close();
      await pages.close();
    },
  };
}

/** 100 symbols launched before 2015 down A2:A101, 50 weekdays across B1:AY1, their mids at B2, and at BB1 one symbol's 10-year daily history. */
export function overrunningBook(sandbox: RunningSandbox): Record<string, unknown> {
  const symbols = sandbox.data.instruments.filter((item) => item.record.launchDate < "2015-01-01" && item.record.status === "Active").slice(0, 100).map((item) => item.record.symbol);
  if (symbols.length !== 100) throw new Error(`the sandbox has ${symbols.length} active symbols launched before 2015, not 100`);
  const dates = weekdays(addDays(TODAY, -1), 50);
  const cells: Record<string, unknown> = {};
  symbols.forEach((symbol, index) => (cells[`A${index + 2}`] = symbol));
  dates.forEach((date, index) => (cells[`${columnName(index + 1)}1`] = date));
  cells.B2 = `=PRICES.MID(A2:A101, B1:${columnName(50)}1)`;
  cells.BB1 = `=PRICES.HISTORY(A2, "${addDays(TODAY, -3650)}", "${TODAY}", "date,mid", 0, "CalendarDays")`;
  return cells;
}
