/**
 * The built task pane in real headless Chromium: office.js outside Office, a small Excel stub that
 * records formulas and evaluates them with the real functions.js, the real sandbox, and a real
 * sign-in through the sandbox's login page in a real popup window standing in for the Office dialog.
 * Screenshots of each state go to test-output/screenshots/pane-*.png (docs/screenshots with npm run screenshots).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { fromEpochDay } from "../../src/api/dates";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server";
import { servePages, type PageServer } from "../../src/runner/host-page";
import { launchChromium, type TestBrowser } from "../support/chromium";
import { screenshotDir } from "../support/screenshots";
import { sandboxGet, sandboxToken } from "../support/service";
import { EXCEL_STUB } from "./pane-excel-stub";
import { buildPane, containsText, hasText } from "./pane-page";
import { SEARCHED_FIELDS } from "../../src/functions/instrument-search";

// Bounds against a hang: building the pane with webpack takes minutes on two busy cores.
jest.setTimeout(900_000);

const SHOTS = screenshotDir();

let distDir: string;
let browser: TestBrowser;
let server: PageServer;
let paneOrigin: string;
let sandbox: RunningSandbox;
let context: BrowserContext;
let page: Page;
const consoleTexts: string[] = [];
const issuedTokens = new Set<string>();
const idTokens = new Set<string>();
/** Every URL any page or window of the browser requested, with the method and body of each end-session request. */
const requested: string[] = [];
const endSessionRequests: { method: string; body: string }[] = [];
/** Every 404 any page or window met. */
const notFound: string[] = [];

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
        if (typeof body["id_token"] === "string") idTokens.add(body["id_token"]);
      } catch {
        // not JSON: nothing issued
      }
      await route.fulfill({ response, body: text });
    },
  );
}

/** The service's own answer for one price (asked directly, not through the pane's client). */
async function servicePrice(symbol: string, date?: string): Promise<{ date: string; assessmentDate: string; revision: number; mid: number }> {
  const token = await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret");
  const response = await sandboxGet(sandbox, "/Prices", date ? { Symbols: symbol, Dates: date } : { Symbols: symbol }, token);
  expect(response.status).toBe(200);
  const body = JSON.parse(response.text) as { instruments: { symbol: string; prices: { date: string; assessmentDate: string; revision: number; mid: number }[] }[] };
  const record = body.instruments.find((i) => i.symbol === symbol)?.prices[0];
  if (!record) throw new Error(`the service sent no price for ${symbol}`);
  return record;
}

/** What the pane must say about a record, from the service's answer: the day the value stands for against the day it was made. */
function expectedWording(record: { date: string; assessmentDate: string; revision: number }): string {
  const made = record.assessmentDate.slice(0, 10);
  if (made < record.date) return `carried forward from ${made} (no assessment on ${record.date})`;
  if (made > record.date && record.revision > 0) return `assessed on ${record.date}, corrected on ${made} (revision ${record.revision})`;
  if (made > record.date) return `assessed on ${record.date}, published on ${made}`;
  return `assessed on ${made}`;
}

/** Writes a formula into a cell of the stub workbook, as a user typing it would. */
async function typeFormula(address: string, formula: string): Promise<void> {
  await selectCell(address);
  await page.evaluate((f) =>
    (window as unknown as { Excel: { run(cb: (c: { workbook: { getSelectedRange(): { formulas: unknown }; }; sync(): Promise<void> }) => Promise<void>): Promise<void> } }).Excel.run(async (c) => {
      c.workbook.getSelectedRange().formulas = [[f]];
      await c.sync();
    }),
  formula);
  await settle();
}

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
  sandbox = await startSandbox({ port: 0, quiet: true, redirectUris: [`${paneOrigin}/auth-dialog.html`, `${paneOrigin}/auth-silent.html`], corsOrigins: [paneOrigin] });
  browser = await launchChromium({ viewport: { width: 320, height: 720 } });
  context = browser.context;
  context.on("page", watch);
  context.on("request", (request) => {
    requested.push(request.url());
    if (new URL(request.url()).pathname.endsWith("/session/end")) endSessionRequests.push({ method: request.method(), body: request.postData() ?? "" });
  });
  context.on("response", (response) => {
    if (response.status() === 404) notFound.push(response.url());
  });
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
    // no session at the token service yet: the silent sign-in ends quietly in the plain signed-out line and button
    await hasText(page.locator("#auth-status"), /^Not signed in\. Functions answer/);
    expect(await page.locator("#sign-in").isVisible()).toBe(true);
    expect(await page.locator("#sign-in").isEnabled()).toBe(true);
    await containsText(page.locator("#auth-status"), "API localhost:4000 (local sandbox).");
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

  it("pins the local sandbox: stored settings that call it 'sandbox' but point elsewhere are not used", async () => {
    const other = await context.newPage();
    await other.goto(`${paneOrigin}/taskpane.html`);
    await other.evaluate(() =>
      window.localStorage.setItem("prices.settings", JSON.stringify({ environment: { kind: "sandbox", baseUrl: "https://evil.example/physical/v2", authority: "https://evil.example/auth" } })),
    );
    await other.reload();
    await other.waitForFunction(() => "PricesPane" in window);
    const environment = await other.evaluate(() => (window as unknown as { PricesPane: { settings(): { environment: unknown } } }).PricesPane.settings().environment);
    expect(environment).toEqual({ kind: "sandbox", baseUrl: "https://localhost:4000/physical/v2", authority: "https://localhost:4000/auth", clientId: "prices-excel-addin", scope: "sandbox.physicalprices.api" });
    await containsText(other.locator("#auth-status"), "API localhost:4000 (local sandbox).");
    await other.evaluate(() => window.localStorage.removeItem("prices.settings"));
    await other.close();
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
    await containsText(page.locator("#auth-status"), `API ${new URL(sandbox.apiUrl).host}.`);
    await shot(page, "settings");
  });

  it("asks before sending a token to a service not confirmed before; cancelling opens no sign-in window", async () => {
    await page.getByRole("tab", { name: "Search" }).click();
    const host = new URL(sandbox.apiUrl).host;
    const pagesBefore = context.pages().length;
    await page.locator("#sign-in").click();
    const confirm = page.locator("#confirm-api");
    await confirm.waitFor({ state: "visible" });
    await hasText(page.locator("#confirm-api-host"), host);
    await hasText(page.locator("#confirm-api-url"), sandbox.apiUrl);
    expect(context.pages().length).toBe(pagesBefore);
    await shot(page, "confirm-api");
    await page.locator("#confirm-api-no").click();
    await hasText(page.locator("#auth-status"), `Sign-in cancelled: ${host} was not confirmed, so no token was requested for it.`);
    expect(await confirm.isHidden()).toBe(true);
    expect(context.pages().length).toBe(pagesBefore);
    expect(await page.evaluate(() => window.localStorage.getItem("prices.confirmedApi"))).toBeNull();
  });

  it("signs in for real through the sandbox's login page in a popup", async () => {
    await page.getByRole("tab", { name: "Search" }).click();
    const popupPromise = context.waitForEvent("page");
    await page.locator("#sign-in").click();
    await page.locator("#confirm-api-yes").click();
    const popup = await popupPromise;
    await popup.waitForSelector("#username", { timeout: 60_000 });
    await popup.setViewportSize({ width: 480, height: 640 });
    await popup.locator("#username").fill("analyst");
    await popup.locator("#password").fill("analyst");
    await shot(popup, "login");
    await popup.locator("button[type=submit].primary").click();
    await hasText(page.locator("#auth-status"), /Signed in as analyst/, 60_000);
    await containsText(page.locator("#auth-status"), ` · API ${new URL(sandbox.apiUrl).host}`);
    expect(JSON.parse((await page.evaluate(() => window.localStorage.getItem("prices.confirmedApi"))) ?? "null")).toBe(sandbox.apiUrl);
    await popup.waitForEvent("close", { timeout: 10_000 }).catch(() => undefined);
    expect(popup.isClosed()).toBe(true);
    expect(issuedTokens.size).toBeGreaterThanOrEqual(2);
    // the sign-in window logged no 404 (its icon was one, in every sign-in)
    expect(notFound).toEqual([]);
    // the functions now share the pane's client and the earlier #N/A cell recalculated to a number: the pane hands the
    // client over once the user's cache is open (after "Signed in" shows), and asks Excel to recalculate as it does
    await page.waitForFunction(() => (window as unknown as { PricesAddin: { configured: boolean } }).PricesAddin.configured);
    await settle();
    expect(typeof (await cellValue("A1"))).toBe("object");
    const a1 = (await cellValue("A1")) as unknown[][];
    // the latest the service has published now (its own answer: the series' last day may not be out yet)
    expect(a1[0]?.[0]).toBe((await servicePrice(pick().record.symbol)).mid);
    // the service listed this session's instruments before the functions got the client: the persistent cache is confirmed
    expect(await page.evaluate(() => (window as unknown as { PricesPane: { persistence(): { status(): { confirmed: boolean } | undefined } } }).PricesPane.persistence().status()?.confirmed)).toBe(true);
    await hasText(page.locator("#result-count"), new RegExp(`of ${sandbox.data.instruments.length} instruments`), 30_000);
    await shot(page, "signed-in");
  });

  it("searches by text and filters, instantly on the cached list", async () => {
    const target = pick();
    const word = target.record.description.split(/\s+/).find((w) => w.length > 4) ?? target.record.symbol;
    await page.locator("#search-text").fill(word);
    const expected = sandbox.data.instruments.filter((i) => SEARCHED_FIELDS.map((f) => String(i.record[f])).join("\n").toLowerCase().includes(word.toLowerCase()));
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
    const r = target.record;
    await page.locator("#results li").first().locator(".symbol").click();
    const detail = page.locator("#detail");
    await hasText(detail.locator("h2"), r.symbol);
    /** The value cell of the row labelled `label`. */
    const field = (label: string): Locator => detail.locator("tr", { has: page.locator("th", { hasText: new RegExp(`^${label}$`) }) }).locator("td");
    const named = (name: string, id: string): string => (name !== id ? `${name} (${id})` : id);
    const expected: [string, string][] = [
      ["Symbol", r.symbol],
      ["Short description", r.descriptionShort],
      ["Product id", String(r.productId)],
      ["Commodity", named(r.commodity, r.commodityId)],
      ["Location", named(r.location, r.locationId)],
      ["Currency", named(r.currency, r.currencyId)],
      ["Unit", named(r.unitOfMeasure, r.unitOfMeasureId)],
      ["Incoterm", named(r.incoterm, r.incotermId)],
      ["Source", named(r.source, r.sourceId)],
      ["Price type", r.priceType],
      ["Frequency", r.frequency],
      ["Status", r.status],
      ["Launch date", r.launchDate],
      ["Calculation types", r.priceCalculationTypeIds.join(", ") || "none"],
      ["Forecast types", r.forecastTypeIds.join(", ") || "none"],
      ["Forward curves", r.hasForwardCurves ? "yes" : "no"],
    ];
    for (const [label, value] of expected) {
      expect([label, value.trim() !== ""]).toEqual([label, true]);
      await hasText(field(label), value);
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
    expect(value[0]?.[0]).toBe((await servicePrice(target.record.symbol)).mid);
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
    // ticking an optional column keeps the ticked defaults: the table keeps its date, low, mid and high
    for (const field of ["date", "low", "mid", "high"]) expect(await page.locator("#fields-box").getByLabel(field, { exact: true }).isChecked()).toBe(true);
    await page.locator("#fields-box").getByLabel("assessed", { exact: true }).check();
    await hasText(page.locator("#preview"), '=PRICES.HISTORY("MB-""X","2024-01-01",,"date,low,mid,high,assessed")');
    for (const field of ["date", "low", "high"]) await page.locator("#fields-box").getByLabel(field, { exact: true }).uncheck();
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
    const served = await servicePrice(target.record.symbol);
    await containsText(out, served.assessmentDate);
    await containsText(out, `Revision${served.revision}`);
    await hasText(out.locator("tr", { has: page.locator("th", { hasText: "Assessed or carried" }) }).locator("td"), expectedWording(served));
    // the cell's own value, not the key it was asked by
    await containsText(page.locator("#diagnostics .cell-value"), `Value ${String(await cellValue("B2"))}`);
    await containsText(out, `Asked for${target.record.symbol}`);
    await shot(page, "lineage");
  });

  it("says a corrected value was assessed on its day and corrected later, not carried forward", async () => {
    const corrected = sandbox.data.instruments
      .filter((i) => /^MB-/.test(i.record.symbol) && i.record.status === "Active")
      .flatMap((i) => Array.from({ length: i.series.length }, (_, index) => ({ i, index })).filter(({ index }) => (i.series.revision[index] ?? 0) > 0))
      .at(-1);
    if (!corrected) throw new Error("the sandbox data has no corrected MB- value");
    const symbol = corrected.i.record.symbol;
    const date = fromEpochDay(corrected.i.series.days[corrected.index] ?? 0);
    const served = await servicePrice(symbol, date);
    const wording = expectedWording(served);
    expect(wording).toMatch(new RegExp(`^assessed on ${date}, corrected on \\d{4}-\\d{2}-\\d{2} \\(revision ${served.revision}\\)$`));
    await typeFormula("F2", `=PRICES.MID("${symbol}","${date}")`);
    expect(await cellValue("F2")).toEqual([[served.mid]]);
    await page.locator("#trace").click();
    const out = page.locator("#diagnostics");
    await containsText(out, `Asked for${symbol} · ${date}`);
    await hasText(out.locator("tr", { has: page.locator("th", { hasText: "Assessed or carried" }) }).locator("td"), wording);
    await selectCell("B2");
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

  it("shows conversions: References lists them, the builder offers the instrument's, the cell explanation names them", async () => {
    const metal = sandbox.data.instruments.find((i) => i.record.status === "Active" && /^MB-AL-/.test(i.record.symbol) && i.record.currencyId === "USD" && i.record.unitOfMeasureId === "MT");
    if (!metal) throw new Error("the sandbox data has no active aluminium instrument in USD/MT");
    const symbol = metal.record.symbol;
    await page.getByRole("tab", { name: "References" }).click();
    await page.locator("#ref-type").selectOption("UnitOfMeasure");
    await page.locator("#ref-text").fill("Metric tonne");
    await containsText(page.locator("#ref-table"), "KG, LB, ST, BU");

    await page.getByRole("tab", { name: "Build" }).click();
    await page.locator("#fn").selectOption("MID");
    await page.locator("#arg-0").fill(symbol);
    const units = await page.locator("#arg-3 option").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(units).toEqual(["", "KG", "LB", "ST"]);
    const currencies = await page.locator("#arg-2 option").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(currencies).toEqual(["", ...(sandbox.data.references.find((g) => g.type === "Currency")?.items.map((item) => item.id).filter((id) => id !== "USD") ?? [])]);
    await page.locator("#arg-2").selectOption("EUR");
    await page.locator("#arg-3").selectOption("LB");
    const formula = `=PRICES.MID("${symbol}",,"EUR","LB")`;
    await hasText(page.locator("#preview"), formula);
    await selectCell("F4");
    await page.locator("#insert").click();
    await settle();
    expect((await excelState()).inserted.at(-1)).toEqual({ address: "Sheet1!F4", formula });
    const value = ((await cellValue("F4")) as unknown[][])[0]?.[0];
    expect(typeof value).toBe("number");

    await page.getByRole("tab", { name: "Cell & refresh" }).click();
    await page.locator("#trace").click();
    const out = page.locator("#diagnostics");
    await containsText(out, `Asked for${symbol} · latest · in EUR/LB`);
    await containsText(out, "Conversionfrom USD/MT to EUR/LB");
    await containsText(out, "targetCurrency");
  });

  it("plans a sheet refresh first and, above the threshold set on the Cache tab, asks: Cancel sends nothing, Refresh anyway refreshes", async () => {
    const requestsSent = (): Promise<number> => page.evaluate(() => (window as unknown as { PricesPane: { client(): { stats(): { requestsSent: number } } } }).PricesPane.client().stats().requestsSent);
    const sheetCalculations = async (): Promise<number> => (await excelState()).calculations.filter((c) => c.scope === "sheet").length;
    await page.locator("#tab-cache").click();
    await page.locator("#cache-confirm-requests").fill("0");
    await page.locator("#cache-save").click();
    await hasText(page.locator("#cache-result"), /^Cache settings saved/);
    await page.locator("#tab-cell").click();
    const sent = await requestsSent();
    const calculated = await sheetCalculations();

    await page.locator("#refresh-sheet").click();
    await hasText(page.locator("#refresh-question"), /^Refreshing the sheet would send [1-9]\d* requests?, [\d,]+ records, [\d,]+ of [\d,]+ values from the cache, .+: above your limit of 0 requests or 100,000 records\. Refresh anyway\?$/);
    expect(await page.locator("#refresh-confirm").isVisible()).toBe(true);
    await shot(page, "refresh-confirm");
    await page.locator("#refresh-cancel").click();
    await hasText(page.locator("#refresh-result"), "Refresh cancelled: nothing was sent.");
    expect(await page.locator("#refresh-confirm").isVisible()).toBe(false);
    expect(await requestsSent()).toBe(sent);
    expect(await sheetCalculations()).toBe(calculated);

    await page.locator("#refresh-sheet").click();
    await page.locator("#refresh-anyway").click();
    await hasText(page.locator("#refresh-result"), /^Refreshed the sheet: [1-9]\d* cached values? dropped, recalculated\.$/);
    await settle();
    expect(await sheetCalculations()).toBe(calculated + 1);
    expect(await requestsSent()).toBeGreaterThan(sent);

    // back to the default: below it, a sheet refresh goes at once
    await page.locator("#tab-cache").click();
    await page.locator("#cache-confirm-requests").fill("50");
    await page.locator("#cache-save").click();
    await page.locator("#tab-cell").click();
    await page.locator("#refresh-sheet").click();
    await hasText(page.locator("#refresh-result"), /^Refreshed the sheet: /);
    expect(await page.locator("#refresh-confirm").isVisible()).toBe(false);
    await settle();
  });

  it("lists a change with a jump that selects each cell it concerns", async () => {
    const symbol = pick().record.symbol;
    await typeFormula("H2", `=PRICES.MID("${symbol}","2025-06-02")`);
    await typeFormula("H3", `=PRICES.MID("${symbol}")`);
    await selectCell("A1");
    // the persistent cache tells the change log of a corrected record, as a refresh would
    await page.evaluate((s) => {
      const side = { date: "2025-06-02", assessmentDate: "2025-06-02T00:00:00Z", revision: 0, low: 1, mid: 2, high: 3 };
      const entry = (value: unknown) => ({ kind: "price" as const, symbol: s, value, storedAt: 0, expiresAt: 0, bytes: 100 });
      const pane = (window as unknown as { PricesPane: { persistence(): { changes: { replaced(id: string, a: unknown, b: unknown, day: string): void } } } }).PricesPane;
      pane.persistence().changes.replaced(`p|${s}|2025-06-02|None|`, entry(side), entry({ ...side, assessmentDate: "2025-06-05T00:00:00Z", revision: 1, mid: 2.5 }), "2025-06-03");
    }, symbol);
    await page.locator("#tab-cache").click();
    await containsText(page.locator("#cache-changes"), `${symbol} 2025-06-02: correction, 2 (rev 0) → 2.5 (rev 1)`);
    const jumps = page.locator("#cache-changes button.change-jump");
    await hasText(jumps, "Sheet1!H2");
    await jumps.click();
    const state = await page.evaluate(() => {
      const s = (window as unknown as { __excel: { state: { selection: string; jumps: string[] } } }).__excel.state;
      return { selection: s.selection, jumps: [...s.jumps] };
    });
    expect(state).toEqual({ selection: "H2", jumps: ["Sheet1!H2"] });
    await shot(page, "cache-changes");
    await page.locator("#tab-cell").click();
  });

  it("keeps the user across a reload: signed in again from the token service's session with no click, and the cells compute", async () => {
    const reloaded = await context.newPage();
    watch(reloaded);
    const popups: string[] = [];
    const onPage = (opened: Page): void => void popups.push(opened.url());
    context.on("page", onPage);
    await reloaded.goto(`${paneOrigin}/taskpane.html`);
    await hasText(reloaded.locator("#auth-status"), /^Signed in as analyst/, 120_000);
    await reloaded.reload();
    await hasText(reloaded.locator("#auth-status"), /Not signed in \(looking for your session at the token service…\)|^Signed in as analyst/, 120_000);
    await hasText(reloaded.locator("#auth-status"), /^Signed in as analyst/, 120_000);
    context.off("page", onPage);
    // no window opened, no click made; the token service's answer came back through the silent page only
    expect(popups).toEqual([]);
    expect(requested.some((url) => url.startsWith(`${paneOrigin}/auth-silent.html`))).toBe(true);
    const symbol = pick().record.symbol;
    const value = await reloaded.evaluate(async (f) => {
      const w = window as unknown as {
        Excel: { run(cb: (c: { workbook: { getSelectedRange(): { formulas: unknown } }; sync(): Promise<void> }) => Promise<void>): Promise<void> };
        __excel: { select(a: string): void; settle(): Promise<void>; value(a: string): unknown };
      };
      w.__excel.select("A1");
      await w.Excel.run(async (c) => {
        c.workbook.getSelectedRange().formulas = [[f]];
        await c.sync();
      });
      await w.__excel.settle();
      return w.__excel.value("A1");
    }, `=PRICES.MID("${symbol}")`);
    expect((value as unknown[][])[0]?.[0]).toBe((await servicePrice(symbol)).mid);
    // still no token in this page's storage: the silent sign-in's MSAL cache is memory only
    const stored = await reloaded.evaluate(() => JSON.stringify({ ...window.localStorage, ...window.sessionStorage }));
    for (const secret of issuedTokens) expect(stored.includes(secret)).toBe(false);
    await reloaded.close();
  });

  it("asks before ending the token service's session when the sign-out carries no ID token (a window the add-in did not send)", async () => {
    const bare = await context.newPage();
    const query = new URLSearchParams({ client_id: "prices-excel-addin", post_logout_redirect_uri: `${paneOrigin}/auth-dialog.html` });
    await bare.goto(`${sandbox.issuer}/session/end?${query}`);
    await bare.waitForSelector("button[name=logout]", { timeout: 120_000 });
    await containsText(bare.locator("h1"), "Sign out of the Physical Prices sandbox?");
    // closed without an answer: the session stays, for the add-in's own sign-out below
    await bare.close();
    endSessionRequests.length = 0;
  });

  it("signs out: tokens and cache dropped, functions back to #N/A, and the token service's session ended without a second confirmation", async () => {
    // the popup's sign-in's ID token (the reload test's silent sign-ins got their own)
    const idToken = [...idTokens][0] ?? "";
    const logoutPromise = context.waitForEvent("page");
    await page.locator("#sign-out").click();
    const logout = await logoutPromise;
    const questions: string[] = [];
    logout.on("domcontentloaded", () => {
      void logout.locator("button[name=logout]").count().then((n) => n > 0 && questions.push(logout.url()), () => undefined);
    });
    // nobody clicks anything: the window ends the session and closes by itself
    await hasText(page.locator("#auth-status"), /^Signed out of the add-in and of the token service\. Sign in asks for an account\./, 120_000);
    if (!logout.isClosed()) await logout.waitForEvent("close", { timeout: 120_000 }).catch(() => undefined);
    expect(logout.isClosed()).toBe(true);
    expect(questions).toEqual([]);
    // the hint went in the body of a form POST, and no URL the browser asked for ever held the ID token (or any token)
    for (const secret of issuedTokens) expect(requested.filter((url) => url.includes(secret) || url.includes(encodeURIComponent(secret)))).toEqual([]);
    expect(endSessionRequests).toHaveLength(1);
    expect(endSessionRequests[0]?.method).toBe("POST");
    expect(new URLSearchParams(endSessionRequests[0]?.body).get("id_token_hint")).toBe(idToken);
    expect(notFound).toEqual([]);
    await settle();
    expect(String(await cellValue("B2"))).toMatch(/^#N\/A: .*sign in from the Prices pane/i);
    const stats = await page.evaluate(() => (window as unknown as { PricesPane: { client(): { stats(): { cacheEntries: number } } } }).PricesPane.client().stats().cacheEntries);
    expect(stats).toBe(0);
    await shot(page, "signed-out-again");

    // the token service's session is over: the next sign-in asks for the credentials, with no "Continue as"
    const loginPromise = context.waitForEvent("page");
    await page.locator("#sign-in").click();
    const login = await loginPromise;
    await login.waitForSelector("#username", { timeout: 60_000 });
    expect(await login.locator("#continue").count()).toBe(0);
    await login.close();
    await containsText(page.locator("#auth-status"), "Sign-in did not complete", 120_000);
  });

  it("stays signed out after a reload that follows a sign-out, with no error: by the user's choice, and by the token service's ended session", async () => {
    const reloaded = await context.newPage();
    await reloaded.goto(`${paneOrigin}/taskpane.html`);
    await hasText(reloaded.locator("#auth-status"), /^Not signed in\. Functions answer/, 120_000);
    expect(await reloaded.evaluate(() => window.localStorage.getItem("prices.auth.signedOutByUser"))).toBe("true");
    // without the pane's own memory of the sign-out, the token service has no session left to sign in from
    await reloaded.evaluate(() => window.localStorage.removeItem("prices.auth.signedOutByUser"));
    const silentBefore = requested.filter((url) => url.startsWith(`${paneOrigin}/auth-silent.html`)).length;
    await reloaded.reload();
    await hasText(reloaded.locator("#auth-status"), /^Not signed in \(looking for your session at the token service…\)|^Not signed in\. Functions answer/, 120_000);
    await hasText(reloaded.locator("#auth-status"), /^Not signed in\. Functions answer/, 120_000);
    expect(requested.filter((url) => url.startsWith(`${paneOrigin}/auth-silent.html`)).length).toBeGreaterThan(silentBefore);
    expect(await reloaded.locator("#sign-in").isEnabled()).toBe(true);
    await reloaded.close();
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

  it("acts on a Sign in click made while taskpane.js is still loading (a slow or throttled page load)", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const early = await context.newPage();
    await early.route(
      (url) => url.pathname.endsWith("/taskpane.js"),
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await early.goto(`${paneOrigin}/taskpane.html`, { waitUntil: "commit" });
    await early.locator("#sign-in").click();
    expect(await early.evaluate(() => "PricesPane" in window)).toBe(false);
    const popupPromise = context.waitForEvent("page");
    release();
    const popup = await popupPromise;
    await popup.waitForSelector("#username", { timeout: 60_000 });
    await popup.close();
    await early.close();
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
