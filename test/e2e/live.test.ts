/**
 * PRICES.LIVE in headless Chromium: the built host page and functions.js against the sandbox publishing on a fast
 * clock that the page shares. The test waits for the cell to change (no bound but the hang timeout), then for the
 * formula that reads it; cancelled, the cell leaves the registry.
 */
import { fromEpochDay } from "../../src/api/dates";
import { DIST, ensureBuilt, evaluateInPage, openHostPage, servePages, type HostBrowser, type PageServer } from "../../src/runner/host-page";
import type { RunningSandbox } from "../../src/sandbox/server";
import { sandboxToken } from "../support/service";

jest.setTimeout(300_000);

const START = "2025-06-30T10:00:00Z";
let pages: PageServer;
let sandbox: RunningSandbox;
let browser: HostBrowser;
let token: string;

beforeAll(async () => {
  ensureBuilt(() => undefined);
  pages = await servePages(DIST);
  const { startSandbox } = await import("../../src/sandbox/server");
  sandbox = await startSandbox({ port: 0, quiet: true, corsOrigins: [pages.origin], live: { speed: 0 }, now: START });
  token = await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret");
  browser = await openHostPage(`${pages.origin}/host.html`, () => undefined);
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  await pages?.close();
});

function midOn(symbol: string, date: string): number {
  const series = sandbox.data.instruments.find((i) => i.record.symbol === symbol)?.series;
  if (!series) throw new Error(symbol);
  for (let i = series.length - 1; i >= 0; i--) if (fromEpochDay(series.days[i] ?? 0) === date) return series.mid[i] ?? NaN;
  throw new Error(`${symbol} has no ${date}`);
}

describe("PRICES.LIVE in the host page", () => {
  it("changes when the assessment is published, recalculates the formula reading it, and leaves when cancelled", async () => {
    const live = sandbox.live;
    if (!live) throw new Error("the sandbox is not live");
    const symbol = sandbox.data.instruments.find((i) => i.record.frequency === "Daily" && i.record.status === "Active" && i.record.symbol.startsWith("MB-"))?.record.symbol ?? "";
    const publication = live.nextPublication([symbol]);
    if (!publication) throw new Error("nothing to publish");
    // two minutes before the publication, then twenty times real speed: the page runs the same clock
    live.clock.set(publication.at - 2 * 60_000);
    live.clock.setSpeed(20);
    const result = await evaluateInPage(browser.page, { cells: { A1: `=PRICES.LIVE("${symbol}")`, B1: "=A1*2" } }, sandbox.apiUrl, token, undefined, "1900", { live: { clock: live.clock.setting() } });
    const before = result.cells.A1;
    expect(typeof before).toBe("number");
    expect(result.cells.B1).toBe((before as number) * 2);
    const mid = midOn(symbol, publication.date);
    expect(before).not.toBe(mid);

    await browser.page.waitForFunction(
      (shown) => {
        const cells = window.PricesHost?.cells() ?? {};
        return cells.A1 !== shown && typeof cells.B1 === "number" && cells.B1 === (cells.A1 as number) * 2;
      },
      before,
      { timeout: 0 },
    );
    const after = await browser.page.evaluate(() => window.PricesHost?.cells() ?? {});
    expect(after.A1).toBe(mid);
    expect(after.B1).toBe(mid * 2);
    // the cell is held live: one instrument, one cell
    expect(await browser.page.evaluate(() => window.PricesAddin?.liveState()?.cells)).toBe(1);

    await browser.page.evaluate(() => window.PricesHost?.cancelAll());
    const state = await browser.page.evaluate(() => window.PricesAddin?.liveState());
    expect(state?.cells).toBe(0);
    expect(state?.instruments).toEqual([]);
  });

  it("is taken once where live updates are off, as the runner configures the page: the latest value, nothing held live", async () => {
    const symbol = "MB-AL-0004";
    const result = await evaluateInPage(browser.page, { cells: { A1: `=PRICES.LIVE("${symbol}")`, B1: `=PRICES.MID("${symbol}")` } }, sandbox.apiUrl, token);
    expect(typeof result.cells.A1).toBe("number");
    expect(result.cells.A1).toBe(result.cells.B1);
    expect(await browser.page.evaluate(() => window.PricesAddin?.liveState())).toBeUndefined();
    expect(await browser.page.evaluate(() => window.PricesAddin?.liveUpdates)).toBe(true);
  });
});
