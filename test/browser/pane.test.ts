/**
 * The built task pane in real headless Chromium: office.js outside Office, a small Excel stub that
 * records formulas and evaluates them with the real functions.js, the real sandbox, and a real
 * sign-in through the sandbox's login page in a real popup window standing in for the Office dialog.
 * Screenshots of each state go to docs/screenshots/pane-*.png.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server";
import { servePages, type PageServer } from "../../scripts/workbook";
import { launchChromium, type TestBrowser } from "../support/chromium";
import { EXCEL_STUB } from "./pane-excel-stub";

jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, "../..");
const SHOTS = path.join(ROOT, "docs/screenshots");

let distDir: string;
let browser: TestBrowser;
let server: PageServer;
let paneOrigin: string;
let sandbox: RunningSandbox;
let context: BrowserContext;
let page: Page;
const consoleTexts: string[] = [];
const issuedTokens = new Set<string>();

/** Builds the add-in into a temporary folder so a parallel build of dist/ is never disturbed. */
function buildPane(outDir: string): void {
  execFileSync(process.execPath, [require.resolve("webpack-cli/bin/cli.js"), "--mode", "development", "--output-path", outDir], { cwd: ROOT, stdio: "pipe" });
}

async function shot(target: Page, name: string): Promise<void> {
  await target.screenshot({ path: path.join(SHOTS, `pane-${name}.png`), fullPage: true });
}

function watch(target: Page): void {
  target.on("console", (message) => consoleTexts.push(message.text()));
}

/** Passes token requests through, keeping what the token service issued so the test can look for it later. */
async function captureTokens(browserContext: BrowserContext): Promise<void> {
  await browserContext.route(
    (url) => url.pathname.endsWith("/token"),
    async (route) => {
      if (route.request().method() !== "POST") return route.fallback();
      const response = await route.fetch();
      const text = await response.text();
      try {
        const body = JSON.parse(text) as Record<string, unknown>;
        for (const key of ["access_token", "refresh_token", "id_token"]) if (typeof body[key] === "string") issuedTokens.add(body[key] as string);
      } catch {
        // not JSON: nothing issued
      }
      await route.fulfill({ response, body: text });
    },
  );
}

/** Waits until the element's text equals (string) or matches (RegExp) what is expected; fails with the text seen. */
async function hasText(locator: Locator, expected: string | RegExp, timeout = 15_000, contain = false): Promise<void> {
  const deadline = Date.now() + timeout;
  let seen = "";
  for (;;) {
    seen = ((await locator.first().textContent({ timeout }).catch(() => "")) ?? "").trim();
    const ok = typeof expected === "string" ? (contain ? seen.includes(expected) : seen === expected) : expected.test(seen);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`expected ${String(expected)} ${contain ? "in" : "as"} the text of ${String(locator)}, saw: ${seen.slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const containsText = (locator: Locator, expected: string | RegExp, timeout = 15_000): Promise<void> => hasText(locator, expected, timeout, true);

const settle = (): Promise<void> => page.evaluate(() => (window as unknown as { __excel: { settle(): Promise<void> } }).__excel.settle());
const cellValue = (address: string): Promise<unknown> => page.evaluate((a) => (window as unknown as { __excel: { value(a: string): unknown } }).__excel.value(a), address);
const selectCell = (address: string): Promise<void> => page.evaluate((a) => (window as unknown as { __excel: { select(a: string): void } }).__excel.select(a), address);
const excelState = (): Promise<{ inserted: { address: string; formula: string }[]; calculations: { scope: string }[] }> =>
  page.evaluate(() => {
    const s = (window as unknown as { __excel: { state: { inserted: unknown[]; calculations: unknown[] } } }).__excel.state;
    return JSON.parse(JSON.stringify({ inserted: s.inserted, calculations: s.calculations })) as { inserted: { address: string; formula: string }[]; calculations: { scope: string }[] };
  });

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), "pane-dist-"));
  buildPane(distDir);
  server = await servePages(distDir);
  paneOrigin = server.origin;
  sandbox = await startSandbox({ port: 0, quiet: true, redirectUris: [`${paneOrigin}/auth-dialog.html`], corsOrigins: [paneOrigin] });
  browser = await launchChromium({ viewport: { width: 320, height: 720 } });
  context = browser.context;
  context.on("page", watch);
  await captureTokens(context);
  await context.addInitScript({ content: EXCEL_STUB });
  page = context.pages()[0] ?? (await context.newPage());
  watch(page);
  await page.goto(`${paneOrigin}/taskpane.html`);
  await page.waitForFunction(() => "PricesPane" in window && "PricesAddin" in window);
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  await server?.close();
  if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
});

describe("task pane in Chromium", () => {
  const pick = () => {
    const found = sandbox.data.instruments.find((i) => i.series.length > 0 && i.record.status === "Active" && /^MB-/.test(i.record.symbol));
    if (!found) throw new Error("the sandbox data has no active MB- instrument");
    return found;
  };

  it("starts signed out, and a function answers #N/A asking to sign in", async () => {
    await hasText(page.locator("#auth-status"), /Not signed in/);
    await selectCell("A1");
    const formula = `=PRICES.MID("${pick().record.symbol}")`;
    await page.evaluate((f) =>
      (window as unknown as { Excel: { run(cb: (c: { workbook: { getSelectedRange(): { formulas: unknown }; }; sync(): Promise<void> }) => Promise<void>): Promise<void> } }).Excel.run(async (c) => {
        c.workbook.getSelectedRange().formulas = [[f]];
        await c.sync();
      }),
    formula);
    await settle();
    expect(String(await cellValue("A1"))).toMatch(/^#N\/A: .*sign in from the Prices pane/i);
    await shot(page, "signed-out");
  });

  it("saves settings that point at the sandbox (no secrets in them)", async () => {
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.locator("#env-service").check();
    await page.locator("#set-baseUrl").fill(sandbox.apiUrl);
    await page.locator("#set-authority").fill(sandbox.issuer);
    await page.locator("#settings-save").click();
    await hasText(page.locator("#settings-result"), "Settings saved.");
    const stored = await page.evaluate(() => window.localStorage.getItem("prices.settings"));
    expect(JSON.parse(stored ?? "{}").environment).toEqual({
      kind: "service",
      baseUrl: sandbox.apiUrl,
      authority: sandbox.issuer,
      clientId: "prices-excel-addin",
      scope: "sandbox.physicalprices.api",
    });
    await shot(page, "settings");
  });

  it("signs in for real through the sandbox's login page in a popup", async () => {
    await page.getByRole("tab", { name: "Search" }).click();
    const popupPromise = context.waitForEvent("page");
    await page.locator("#sign-in").click();
    const popup = await popupPromise;
    await popup.waitForSelector("#username", { timeout: 60_000 });
    await popup.setViewportSize({ width: 480, height: 640 });
    await popup.locator("#username").fill("analyst");
    await popup.locator("#password").fill("analyst");
    await shot(popup, "login");
    await popup.locator("button[type=submit].primary").click();
    await hasText(page.locator("#auth-status"), /Signed in as analyst/, 60_000);
    await popup.waitForEvent("close", { timeout: 10_000 }).catch(() => undefined);
    expect(popup.isClosed()).toBe(true);
    expect(issuedTokens.size).toBeGreaterThanOrEqual(2);
    // the functions now share the pane's client and the earlier #N/A cell recalculated to a number
    await settle();
    expect(typeof (await cellValue("A1"))).toBe("object");
    const a1 = (await cellValue("A1")) as unknown[][];
    const target = pick();
    expect(a1[0]?.[0]).toBe(target.series.mid[target.series.length - 1]);
    await hasText(page.locator("#result-count"), new RegExp(`of ${sandbox.data.instruments.length} instruments`), 30_000);
    await shot(page, "signed-in");
  });

  it("searches by text and filters, instantly on the cached list", async () => {
    const target = pick();
    const word = target.record.description.split(/\s+/).find((w) => w.length > 4) ?? target.record.symbol;
    await page.locator("#search-text").fill(word);
    const expected = sandbox.data.instruments.filter((i) => `${i.record.symbol}\n${i.record.description}\n${i.record.descriptionShort}`.toLowerCase().includes(word.toLowerCase()));
    await hasText(page.locator("#result-count"), new RegExp(`^${expected.length} of ${sandbox.data.instruments.length}`));
    await page.locator("#filters-box summary").click();
    await page.locator("#f-currencyId").selectOption(target.record.currencyId);
    const filtered = expected.filter((i) => i.record.currencyId === target.record.currencyId);
    await hasText(page.locator("#result-count"), new RegExp(`^${filtered.length} of`));
    await page.locator("#search-text").fill(target.record.symbol);
    await hasText(page.locator("#results li").first().locator(".symbol"), target.record.symbol);
    await shot(page, "search");
  });

  it("shows every field with full names in the detail view", async () => {
    const target = pick();
    await page.locator("#results li").first().locator(".symbol").click();
    const detail = page.locator("#detail");
    await hasText(detail.locator("h2"), target.record.symbol);
    for (const text of [target.record.commodity, target.record.currency, target.record.unitOfMeasure, target.record.location, target.record.launchDate, target.record.frequency]) {
      await containsText(detail, text);
    }
    await containsText(detail, target.record.hasForwardCurves ? "Forward curves" : "No forward curves");
    await shot(page, "detail");
  });

  it("inserts the latest mid with one click; the stub records the formula and the real function fills it", async () => {
    const target = pick();
    await selectCell("B2");
    await page.locator("#results li").first().getByRole("button", { name: /Insert latest mid/ }).click();
    await settle();
    const state = await excelState();
    expect(state.inserted.at(-1)).toEqual({ address: "Sheet1!B2", formula: `=PRICES.MID("${target.record.symbol}")` });
    const value = (await cellValue("B2")) as unknown[][];
    expect(value[0]?.[0]).toBe(target.series.mid[target.series.length - 1]);
    await selectCell("B4");
    await page.locator("#results li").first().getByRole("button", { name: /Insert metadata/ }).click();
    await settle();
    expect((await excelState()).inserted.at(-1)?.formula).toBe(`=PRICES.INSTRUMENT("${target.record.symbol}")`);
  });

  it("builds a formula with escaped text and inserts it at the selection", async () => {
    await page.getByRole("tab", { name: "Build" }).click();
    await page.locator("#fn").selectOption("HISTORY");
    await page.locator("#arg-0").fill('MB-"X');
    await page.locator("#arg-1").fill("2024-01-01");
    await page.locator("#fields-box").getByLabel("mid", { exact: true }).check();
    await page.locator("#fields-box").getByLabel("assessed", { exact: true }).check();
    await hasText(page.locator("#preview"), '=PRICES.HISTORY("MB-""X","2024-01-01",,"mid,assessed")');
    await shot(page, "builder");
    await selectCell("D2");
    await page.locator("#insert").click();
    await settle();
    expect((await excelState()).inserted.at(-1)).toEqual({ address: "Sheet1!D2", formula: '=PRICES.HISTORY("MB-""X","2024-01-01",,"mid,assessed")' });
    expect(String(await cellValue("D2"))).toMatch(/^#N\/A/);
  });

  it("explains the selected cell: the request that served it, its date, revision and whether assessed", async () => {
    const target = pick();
    await page.getByRole("tab", { name: "Cell & refresh" }).click();
    await selectCell("B2");
    await page.locator("#trace").click();
    const out = page.locator("#diagnostics");
    await containsText(out, "PRICES.MID");
    await containsText(out, `GET /Prices?`);
    await containsText(out, target.record.symbol);
    const last = target.series.length - 1;
    await containsText(out, target.series.assessmentDate(last));
    await containsText(out, `Revision${target.series.revision[last]}`);
    await containsText(out, /assessed on|carried forward/);
    // the cell's own value, not the key it was asked by
    await containsText(page.locator("#diagnostics .cell-value"), `Value ${String(await cellValue("B2"))}`);
    await containsText(out, `Asked for${target.record.symbol}`);
    await shot(page, "lineage");
  });

  it("refreshes the selection: drops its cached values and recalculates", async () => {
    await selectCell("B2");
    const before = await page.evaluate(() => (window as unknown as { PricesPane: { client(): { stats(): { requestsSent: number } } } }).PricesPane.client().stats().requestsSent);
    await page.locator("#refresh-selection").click();
    await hasText(page.locator("#refresh-result"), /Refreshed the selection: [1-9]\d* cached values? dropped/);
    await settle();
    const after = await page.evaluate(() => (window as unknown as { PricesPane: { client(): { stats(): { requestsSent: number } } } }).PricesPane.client().stats().requestsSent);
    expect(after).toBeGreaterThan(before);
    expect((await excelState()).calculations.some((c) => c.scope === "range")).toBe(true);
    await containsText(page.locator("#counters"), "Requests sent");
    // every error the counter counts is listed in plain words (D2 asked for an unknown symbol)
    const counted = await page.evaluate(() => (window as unknown as { PricesPane: { client(): { stats(): { errors: number } } } }).PricesPane.client().stats().errors);
    expect(counted).toBeGreaterThan(0);
    await containsText(page.locator("#errors"), "Unknown or not permitted symbol 'MB-\"X'. Check the symbol in Search.");
    await shot(page, "refresh");
  });

  it("lists and searches the six reference types", async () => {
    await page.getByRole("tab", { name: "References" }).click();
    const group = sandbox.data.references.find((g) => g.type === "Currency");
    await page.locator("#ref-type").selectOption("Currency");
    await hasText(page.locator("#ref-count"), `${group?.items.length} of ${group?.items.length} Currency items`);
    const item = group?.items[0];
    await page.locator("#ref-text").fill(item?.id ?? "");
    await containsText(page.locator("#ref-table"), item?.description ?? "");
    await shot(page, "references");
    const options = await page.locator("#ref-type option").allTextContents();
    expect(options.sort()).toEqual([...sandbox.data.references.map((g) => g.type)].sort());
  });

  it("signs out: tokens and cache dropped, functions back to #N/A", async () => {
    await page.locator("#sign-out").click();
    await hasText(page.locator("#auth-status"), /Not signed in/);
    await settle();
    expect(String(await cellValue("B2"))).toMatch(/^#N\/A: .*sign in from the Prices pane/i);
    const stats = await page.evaluate(() => (window as unknown as { PricesPane: { client(): { stats(): { cacheEntries: number } } } }).PricesPane.client().stats().cacheEntries);
    expect(stats).toBe(0);
    await shot(page, "signed-out-again");
  });

  it("signs in with a service key kept in memory only", async () => {
    await page.locator("#signin-extra summary").click();
    await page.locator("#sk-name").fill("sandbox-service");
    await page.locator("#sk-key").fill("sandbox-service-key");
    await page.locator("#sk-submit").click();
    await hasText(page.locator("#auth-status"), /Signed in as sandbox-service \(service key\)/);
    expect(await page.locator("#sk-key").inputValue()).toBe("");
    await page.locator("#sign-out").click();
    await hasText(page.locator("#auth-status"), /Not signed in/);
  });

  it("left no token or key in storage, cookies or console output", async () => {
    expect(issuedTokens.size).toBeGreaterThanOrEqual(3);
    const secrets = [...issuedTokens, "sandbox-service-key"];
    const stored = await page.evaluate(() => {
      const dump = (s: Storage): string => Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i) ?? "")}`).join("\n");
      return `${dump(window.localStorage)}\n${dump(window.sessionStorage)}\n${document.cookie}`;
    });
    const cookies = JSON.stringify(await context.cookies([paneOrigin]));
    for (const secret of secrets) {
      expect(stored.includes(secret)).toBe(false);
      expect(cookies.includes(secret)).toBe(false);
      expect(consoleTexts.some((text) => text.includes(secret))).toBe(false);
    }
  });

  it("follows a dark theme and stays usable at 320 px", async () => {
    const dark = await context.newPage();
    await dark.emulateMedia({ colorScheme: "dark" });
    await dark.goto(`${paneOrigin}/taskpane.html`);
    await dark.waitForFunction(() => "PricesPane" in window);
    expect(await dark.evaluate(() => document.documentElement.dataset["theme"])).toBe("dark");
    const overflow = await dark.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await dark.keyboard.press("Tab");
    await shot(dark, "dark");
    await dark.close();
  });
});
