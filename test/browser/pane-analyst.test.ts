/**
 * The pane as an analyst uses it, in real headless Chromium against the real sandbox and its real token service:
 * switching accounts (sign out at the token service, sign in as another user without clearing anything), explaining
 * a spilled cell, the builder refusing what it cannot build, the publication state of an instrument, and why a
 * search finds nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Page, Route } from "playwright-core";
import { fromEpochDay } from "../../src/api/dates";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server";
import { servePages, type PageServer } from "../../src/runner/host-page";
import { launchChromium, type TestBrowser } from "../support/chromium";
import { EXCEL_STUB } from "./pane-excel-stub";
import { buildPane, containsText, hasText } from "./pane-page";
import { londonOffset } from "../../src/taskpane/publication";

// Bounds against a hang: the stack builds the add-in with webpack, minutes on two busy cores.
jest.setTimeout(900_000);

let distDir: string;
let browser: TestBrowser;
let server: PageServer;
let sandbox: RunningSandbox;
let context: BrowserContext;
let page: Page;

/**
 * The sandbox's and the pane's clock: 09:00 London on a weekday ten days or more ago, so today's assessment (made
 * around 16:30 local time) is not out yet, as on any real morning.
 */
const DAY = ((): string => {
  let day = Date.now() - 10 * 86_400_000;
  while ([0, 6].includes(new Date(day).getUTCDay())) day -= 86_400_000;
  return new Date(day).toISOString().slice(0, 10);
})();
const NOW = Date.parse(`${DAY}T09:00:00Z`) - londonOffset(DAY) * 60_000;

const settle = (): Promise<void> => page.evaluate(() => (window as unknown as { __excel: { settle(): Promise<void> } }).__excel.settle());
const cellValue = (address: string): Promise<unknown> => page.evaluate((a) => (window as unknown as { __excel: { value(a: string): unknown } }).__excel.value(a), address);
/** Waits for the pane to hand the functions its client (it opens the user's cache after "Signed in" shows first); the stub tracks the recalculation it asks for from then on. */
const handedOver = async (): Promise<void> => {
  await page.waitForFunction(() => (window as unknown as { PricesAddin: { configured: boolean } }).PricesAddin.configured);
};
const selectCell = (address: string): Promise<void> => page.evaluate((a) => (window as unknown as { __excel: { select(a: string): void } }).__excel.select(a), address);

/** Writes a formula into a cell of the stub workbook, as a user typing it would. */
async function typeFormula(address: string, formula: string): Promise<void> {
  await selectCell(address);
  await page.evaluate((f) =>
    (window as unknown as { Excel: { run(cb: (c: { workbook: { getSelectedRange(): { formulas: unknown } }; sync(): Promise<void> }) => Promise<void>): Promise<void> } }).Excel.run(async (c) => {
      c.workbook.getSelectedRange().formulas = [[f]];
      await c.sync();
    }),
  formula);
  await settle();
}

/** Clicks Sign in and completes the sandbox's login page in the popup as `username`; returns the popup's login page text. */
async function signInAs(username: string, how: "password" | "continue" = "password"): Promise<string> {
  const popupPromise = context.waitForEvent("page");
  await page.locator("#sign-in").click();
  const popup = await popupPromise;
  await popup.waitForSelector("#username", { timeout: 60_000 });
  const text = (await popup.locator("main").textContent()) ?? "";
  if (how === "continue") {
    await popup.locator("#continue").click();
  } else {
    await popup.locator("#username").fill(username);
    await popup.locator("#password").fill(username);
    await popup.locator("form:not(#continue-form) button[type=submit].primary").click();
  }
  await hasText(page.locator("#auth-status"), new RegExp(`Signed in as ${username}`), 60_000);
  return text;
}

beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), "pane-analyst-dist-"));
  buildPane(distDir);
  server = await servePages(distDir);
  sandbox = await startSandbox({ port: 0, quiet: true, now: new Date(NOW).toISOString(), redirectUris: [`${server.origin}/auth-dialog.html`], corsOrigins: [server.origin] });
  browser = await launchChromium({ viewport: { width: 360, height: 800 } });
  context = browser.context;
  await context.addInitScript({ content: EXCEL_STUB });
  // settings pointing at this sandbox, already confirmed (the trust prompt has its own test in pane.test.ts)
  await context.addInitScript({
    content: `localStorage.setItem("prices.settings", ${JSON.stringify(JSON.stringify({ environment: { kind: "service", baseUrl: sandbox.apiUrl, authority: sandbox.issuer, clientId: "prices-excel-addin", scope: "sandbox.physicalprices.api" } }))});
localStorage.setItem("prices.confirmedApi", ${JSON.stringify(JSON.stringify(sandbox.apiUrl))});`,
  });
  await context.clock.setFixedTime(NOW);
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${server.origin}/taskpane.html`);
  await page.waitForFunction(() => "PricesPane" in window && "PricesAddin" in window);
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  await server?.close();
  if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
});

describe("a formula typed as the pane says Signed in", () => {
  /**
   * Holds the pane's request for the whole instrument list (the entitlement its sign-in confirms the user's cache with,
   * before it hands the functions their client) until released.
   */
  async function holdInstrumentList(): Promise<{ release(): Promise<number> }> {
    const held: Route[] = [];
    let released = false;
    const matches = (url: URL): boolean => url.pathname.endsWith("/Instruments") && !url.searchParams.has("symbols");
    await page.route(matches, (route) => (released ? route.continue() : void held.push(route)));
    return {
      async release() {
        released = true;
        for (const route of held) await route.continue();
        await page.unroute(matches);
        return held.length;
      },
    };
  }
  const evaluations = (): Promise<number> => page.evaluate(() => (window as unknown as { __excel: { state: { evaluations: number } } }).__excel.state.evaluations);

  it("waits for the functions' client, and is never told to sign in, while the sign-in still opens the user's cache", async () => {
    const list = await holdInstrumentList();
    await signInAs("trial");
    const before = await evaluations();
    const symbol = sandbox.data.instruments.find((i) => /^MB-/.test(i.record.symbol) && i.record.status === "Active" && i.series.length > 0)?.record.symbol;
    if (symbol === undefined) throw new Error("the sandbox has no active metal with prices");
    const typed = typeFormula("A1", `=PRICES.MID("${symbol}")`);
    // the cell is being calculated while the entitlement is still held: the client cannot have been handed over yet
    await page.waitForFunction((n) => (window as unknown as { __excel: { state: { evaluations: number } } }).__excel.state.evaluations > n, before);
    expect(await list.release()).toBeGreaterThan(0);
    await typed;
    const value = await cellValue("A1");
    // signed out before the verdict, so the next test starts as it expects either way
    await page.locator("#sign-out").click();
    await containsText(page.locator("#auth-status"), "Signed out of the add-in and of the token service", 120_000);
    expect(Array.isArray(value) ? typeof (value as unknown[][])[0]?.[0] : value).toBe("number");
  });
});

describe("switching accounts", () => {
  const analystOnly = (): string => {
    const trial = sandbox.data.instruments.filter((i) => i.record.commodityId !== "" && !/^MB-/.test(i.record.symbol) && i.series.length > 0);
    const found = trial[0];
    if (!found) throw new Error("the sandbox has no instrument outside the trial entitlement");
    return found.record.symbol;
  };

  it("signs out at the token service, then signs in as another user without clearing anything", async () => {
    const first = await signInAs("analyst");
    expect(first).not.toContain("Continue as");
    const symbol = analystOnly();
    await typeFormula("A1", `=PRICES.MID("${symbol}")`);
    expect(typeof (await cellValue("A1"))).toBe("object");

    // one click: the token service ends its session without a second confirmation (the pane hands it the ID token)
    await page.locator("#sign-out").click();
    await containsText(page.locator("#auth-status"), "Signed out of the add-in and of the token service", 120_000);
    await settle();
    expect(String(await cellValue("A1"))).toMatch(/^#N\/A: .*sign in/i);

    // the token service asks again: the login form, and no "continue as analyst" (its session ended)
    const second = await signInAs("trial");
    expect(second).not.toContain("Continue as");
    await handedOver();
    await settle();
    // the trial's own answer, not the sign-out's
    expect(String(await cellValue("A1"))).toMatch(/^#N\/A/);
    expect(String(await cellValue("A1"))).not.toMatch(/sign in from the Prices pane/);
    await hasText(page.locator("#result-count"), /of \d+ instruments/, 120_000);
  });

  it("offers to continue as the signed-in account or use another one when the token service still has a session", async () => {
    // the pane reloaded (Excel reopened): its tokens were in memory only, but the token service keeps its session.
    // Its silent sign-in cannot use it here (this sandbox registers no auth-silent.html for this origin, as where a
    // browser withholds a third-party session cookie): Sign in is then one click on "Continue as"
    await page.reload();
    await page.waitForFunction(() => "PricesPane" in window && "PricesAddin" in window);
    await hasText(page.locator("#auth-status"), /Not signed in/);
    const text = await signInAs("trial", "continue");
    expect(text).toContain("Continue as trial");
    expect(text).toContain("Or use another account");
  });
});

describe("explaining a spilled cell", () => {
  const metal = (): { symbol: string; series: { length: number } } => {
    const found = sandbox.data.instruments.find((i) => /^MB-/.test(i.record.symbol) && i.record.status === "Active" && i.series.length > 30);
    if (!found) throw new Error("the sandbox has no active metal with a history");
    return { symbol: found.record.symbol, series: found.series };
  };
  const isoOfSerial = (serial: number): string => new Date((serial - 25569) * 86_400_000).toISOString().slice(0, 10);

  it("explains the element under the cursor three rows down a spilled history, and follows the selection", async () => {
    const { symbol } = metal();
    const today = DAY;
    const from = new Date(NOW - 90 * 86_400_000).toISOString().slice(0, 10);
    await typeFormula("C2", `=PRICES.HISTORY("${symbol}","${from}","${today}")`);
    const value = await cellValue("C2");
    // the whole value when it is not a spill (an error's text says why)
    expect(Array.isArray(value) ? (value as unknown[][])[0] : value).toEqual(["date", "low", "mid", "high"]);
    const spilled = value as unknown[][];
    // C5 is three rows below the anchor: the third record under the header row
    await selectCell("C5");
    await page.getByRole("tab", { name: "Cell & refresh" }).click();
    await page.locator("#trace").click();
    const out = page.locator("#diagnostics");
    await containsText(out, "row 4, column 1 of the result of Sheet1!C2", 120_000);
    const row3 = spilled[3] as number[];
    await containsText(out, `This row${isoOfSerial(row3[0] ?? 0)} · low ${row3[1]} · mid ${row3[2]} · high ${row3[3]}`);
    await containsText(out, `Asked for${symbol} history ${from} to ${today}`);
    expect(await out.textContent()).not.toContain("holds no formula");

    // moving the cursor two rows down explains that row, without clicking
    await selectCell("D7");
    await containsText(out, "row 6, column 2 of the result of Sheet1!C2", 120_000);
    const row5 = spilled[5] as number[];
    await containsText(out, `This row${isoOfSerial(row5[0] ?? 0)} · low ${row5[1]}`);
  });

  it("clears the explanation on sign-out", async () => {
    const logoutPromise = context.waitForEvent("page");
    await page.locator("#sign-out").click();
    await hasText(page.locator("#diagnostics"), "Signed out: the explanation was cleared.");
    await logoutPromise;
    await containsText(page.locator("#auth-status"), "Signed out of the add-in and of the token service", 120_000);
  });
});

describe("the formula builder", () => {
  const inserted = (): Promise<number> => page.evaluate(() => (window as unknown as { __excel: { state: { inserted: unknown[] } } }).__excel.state.inserted.length);

  it("refuses an invalid date and from after to, inserting nothing", async () => {
    await page.getByRole("tab", { name: "Build" }).click();
    await page.locator("#fn").selectOption("HISTORY");
    await page.locator("#arg-0").fill("MB-AL-0004");
    await page.locator("#arg-1").fill("2024-13-01");
    await containsText(page.locator("#build-error"), 'from: "2024-13-01" is not a date. Write YYYY-MM-DD');
    await hasText(page.locator("#preview"), "");
    const before = await inserted();
    await selectCell("H1");
    await page.locator("#insert").click();
    await page.locator("#arg-1").fill("2024-05-01");
    await page.locator("#arg-2").fill("2023-01-01");
    await hasText(page.locator("#build-error"), "from (2024-05-01) is after to (2023-01-01): choose a first date on or before the last.");
    await page.locator("#insert").click();
    await settle();
    expect(await inserted()).toBe(before);
  });

  it("builds a rolling range with to blank, fields in the table's order, under plain labels", async () => {
    await page.locator("#presets").getByRole("button", { name: "last year" }).click();
    // date, low, mid and high start ticked (the function's own columns): with all four the formula needs no fields
    await hasText(page.locator("#preview"), '=PRICES.HISTORY("MB-AL-0004",TODAY()-365)');
    await page.locator("#fields-box").getByLabel("high", { exact: true }).uncheck();
    await hasText(page.locator("#preview"), '=PRICES.HISTORY("MB-AL-0004",TODAY()-365,,"date,low,mid")');
    await hasText(page.locator("#build-error"), "");
    expect(await page.locator("#panel-build").textContent()).not.toMatch(/spec \d/);
  });
});

describe("publication", () => {
  /** A daily metal of a London market (its offset is London's) whose assessment of DAY is made after 09:00. */
  const londonDaily = (): { symbol: string; previous: string } => {
    const offset = londonOffset(DAY);
    const zone = offset === 0 ? /(\+00:00|Z)$/ : /\+01:00$/;
    for (const i of sandbox.data.instruments) {
      if (!/^MB-/.test(i.record.symbol) || i.record.frequency !== "Daily" || i.record.status !== "Active") continue;
      const n = i.series.length;
      if (n < 30 || fromEpochDay(i.series.days[n - 1] as number) !== DAY) continue;
      const made = i.series.assessmentDate(n - 1);
      if (!zone.test(made) || !made.startsWith(DAY)) continue;
      return { symbol: i.record.symbol, previous: fromEpochDay(i.series.days[n - 2] as number) };
    }
    throw new Error(`the sandbox has no daily London metal assessed on ${DAY}`);
  };

  it("says at 09:00 that today's assessment is awaited, in the search detail and in the explanation", async () => {
    const { symbol, previous } = londonDaily();
    await signInAs("trial");
    await page.getByRole("tab", { name: "Search" }).click();
    await hasText(page.locator("#result-count"), /of \d+ instruments/, 120_000);
    await page.locator("#search-text").fill(symbol);
    await page.locator("#results li").first().locator(".symbol").click();
    const line = page.locator("#detail .publication");
    await containsText(line, "Awaiting today's assessment, usually published around ", 120_000);
    await containsText(line, " London. The latest is " + previous + "'s");

    await typeFormula("J1", `=PRICES.MID("${symbol}")`);
    await page.getByRole("tab", { name: "Cell & refresh" }).click();
    await page.locator("#trace").click();
    await containsText(page.locator("#diagnostics .publication"), "Awaiting today's assessment", 120_000);
    await containsText(page.locator("#diagnostics"), `Assessment${previous}`);
  });
});

describe("an empty search says why", () => {
  it("suggests the close word for a typo, and names a commodity outside the trial's entitlement", async () => {
    await page.getByRole("tab", { name: "Search" }).click();
    await page.locator("#search-text").fill("alumnium");
    await hasText(page.locator("#result-count"), /^0 of \d+ instruments$/);
    await containsText(page.locator("#no-match"), "nothing holds 'alumnium': did you mean aluminium?");
    await page.locator("#search-text").fill("wheat");
    await containsText(page.locator("#no-match"), "'wheat' is the commodity Wheat, which your account does not see");
    await page.locator("#search-text").fill("aluminium");
    await hasText(page.locator("#no-match"), "");
  });
});
