/**
 * The workbench as a spreadsheet user's hands and eyes expect it, in real headless Chromium at 1280 x 720 on
 * `npm start`'s stack (scripts/start.ts on free ports): each key of the grid moves once, as in Excel; a headerless
 * HISTORY shows its dates; a reload keeps the typed cells (and offers to clear them); the service refused at the
 * browser (Playwright's `page.route` aborting the API) for a fresh load and for an open page says so in the line under
 * the title and in the pane, marks the values kept from before, and Explain and Refresh say what happened; recovery
 * clears the marks; a one-cell refresh asks only what that cell needs; the builder starts with the table's columns;
 * the card stays on a 1280 x 720 screen; Settings tells the truth about data types; the Cache tab's check boxes sit
 * beside their labels. Screenshots: test-output/screenshots/workbench-offline-*.png (docs/screenshots with npm run
 * screenshots).
 */
import path from "node:path";
import type { BrowserContext, Page, Route } from "playwright-core";
import { startStack, type RunningStack } from "../../scripts/start";
import { launchChromium, type TestBrowser } from "../support/chromium";
import { screenshotDir } from "../support/screenshots";
import { type WorkbenchWindow, waitFor, workbenchOn } from "./workbench-page";

// Bounds against a hang: the stack builds the add-in with webpack, minutes on two busy cores.
jest.setTimeout(900_000);

let stack: RunningStack;
let context: BrowserContext;
let page: Page;
let browser: TestBrowser;
const apiRequests: string[] = [];

const { settled, valueAt, textAt, load, paneFrame, entries } = workbenchOn(() => page);
const nameBox = async (): Promise<string> => (await page.locator("#name-box").textContent()) ?? "";
const sourceLine = async (): Promise<string> => (await page.locator("#source").textContent()) ?? "";
const symbols = (): Promise<string[]> => page.evaluate(() => (window as unknown as { Workbench: { demo?: { symbols: string[] } } }).Workbench.demo?.symbols ?? []);
const refuse = (route: Route): Promise<void> => route.abort("connectionrefused");
const isApi = (url: URL): boolean => url.href.startsWith(stack.sandbox.apiUrl);

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(screenshotDir(), `workbench-${name}.png`) });
}

async function signIn(): Promise<void> {
  const pane = paneFrame();
  await pane.waitForSelector("#sign-in");
  const popupPromise = context.waitForEvent("page");
  await pane.locator("#sign-in").click();
  const popup = await popupPromise;
  await popup.waitForSelector("#username", { timeout: 60_000 });
  await popup.locator("#username").fill("analyst");
  await popup.locator("#password").fill("analyst");
  await popup.locator("button[type=submit].primary").click();
  await waitFor(async () => /Signed in as analyst/.test((await pane.locator("#auth-status").textContent()) ?? ""), "the pane to say it is signed in");
  await waitFor(async () => (await page.evaluate(() => (window as unknown as WorkbenchWindow).Workbench.source())) === "pane", "the workbench to use the pane's client");
  await settled();
}

beforeAll(async () => {
  stack = await startStack({ port: 0, apiPort: 0 });
  browser = await launchChromium({ viewport: { width: 1280, height: 720 } });
  context = browser.context;
  context.on("request", (request) => {
    if (request.url().startsWith(stack.sandbox.apiUrl)) apiRequests.push(request.url());
  });
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(stack.workbenchUrl);
  await load();
});

// a failed offline test must not leave the API refused for the tests after it
afterEach(async () => {
  await page?.unroute(isApi, refuse);
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe("the workbench's keys, as in Excel", () => {
  it("moves one cell for Enter, Shift+Enter, Tab and Shift+Tab, after typing and without; Escape cancels; F2 edits", async () => {
    await page.locator('td[data-address="AC5"]').click();
    await page.keyboard.type("1");
    await page.keyboard.press("Enter");
    expect(await nameBox()).toBe("AC6");
    await page.keyboard.type("2");
    await page.keyboard.press("Shift+Enter");
    expect(await nameBox()).toBe("AC5");
    await page.keyboard.type("3");
    await page.keyboard.press("Tab");
    expect(await nameBox()).toBe("AD5");
    await page.keyboard.type("4");
    await page.keyboard.press("Shift+Tab");
    expect(await nameBox()).toBe("AC5");
    expect([await valueAt("AC5"), await valueAt("AC6"), await valueAt("AD5")]).toEqual([3, 2, 4]);
    // without an editor open
    await page.keyboard.press("Enter");
    expect(await nameBox()).toBe("AC6");
    await page.keyboard.press("Shift+Enter");
    expect(await nameBox()).toBe("AC5");
    await page.keyboard.press("Tab");
    expect(await nameBox()).toBe("AD5");
    await page.keyboard.press("Shift+Tab");
    expect(await nameBox()).toBe("AC5");
    // Escape drops what was typed
    await page.keyboard.type("9");
    expect(await page.locator("input.cell-editor").count()).toBe(1);
    await page.keyboard.press("Escape");
    expect(await page.locator("input.cell-editor").count()).toBe(0);
    expect(await nameBox()).toBe("AC5");
    expect(await valueAt("AC5")).toBe(3);
    // F2 edits what is there
    await page.keyboard.press("F2");
    expect(await page.locator("input.cell-editor").inputValue()).toBe("3");
    await page.keyboard.type("5");
    await page.keyboard.press("Enter");
    expect(await valueAt("AC5")).toBe(35);
    expect(await nameBox()).toBe("AC6");
  });
});

describe("dates", () => {
  it("shows the dates of docs/functions.md's headerless HISTORY example as dates, its mids as numbers", async () => {
    await page.locator('td[data-address="AF5"]').click();
    await page.keyboard.type('=PRICES.HISTORY("MB-AL-0004","2024-01-01","2024-12-31","date,mid",0,"Weekdays",,"descending")');
    await page.keyboard.press("Enter");
    await settled();
    expect(typeof (await valueAt("AF5"))).toBe("number");
    expect(await textAt("AF5")).toBe("2024-12-31");
    expect(await textAt("AF6")).toBe("2024-12-30");
    expect(typeof (await valueAt("AG5"))).toBe("number");
    expect(await textAt("AG5")).not.toMatch(/^\d{4}-\d\d-\d\d$/);
  });
});

describe("a reload", () => {
  it("keeps the typed cells and offers to clear them; clearing goes back to the demo sheet", async () => {
    const typed = await entries();
    await page.reload();
    await load();
    expect(await valueAt("AC5")).toBe(35);
    expect(await valueAt("AD5")).toBe(4);
    expect((await entries())["AF5"]).toBe(typed["AF5"]);
    expect(await textAt("AF6")).toBe("2024-12-30");
    await page.locator("#typed-offer").waitFor({ state: "visible" });
    expect(await page.locator("#typed-offer-text").textContent()).toContain("4 cells you typed before the reload are kept");
    await page.locator("#typed-offer-clear").click();
    await settled();
    expect(await page.locator("#typed-offer").isHidden()).toBe(true);
    expect(await valueAt("AC5")).toBeNull();
    await page.reload();
    await load();
    expect(await valueAt("AC5")).toBeNull();
    expect(await page.locator("#typed-offer").isHidden()).toBe(true);
  });
});

describe("the service refused at the browser", () => {
  it("on a fresh load: the line under the title says so, a typed PRICES cell says service unreachable; the sheet fills when it answers", async () => {
    const [symbol] = await symbols();
    await page.locator('td[data-address="AC10"]').click();
    await page.keyboard.type(`=PRICES.MID("${symbol}")`);
    await page.keyboard.press("Enter");
    await settled();
    expect(typeof (await valueAt("AC10"))).toBe("number");
    await page.route(isApi, refuse);
    await page.reload();
    await page.evaluate(() => (window as unknown as WorkbenchWindow).WorkbenchReady);
    await waitFor(async () => (await sourceLine()).includes("cannot be reached"), "the line under the title to say the service cannot be reached");
    expect(await sourceLine()).toMatch(/since .*; no successful contact yet/);
    expect(await page.locator("#source").getAttribute("class")).toContain("offline");
    await waitFor(async () => String(await valueAt("AC10")).includes("service unreachable"), "the typed cell to say service unreachable");
    expect(await textAt("AC10")).toBe("#N/A");
    expect(await sourceLine()).toContain("The demo sheet fills by itself when the service answers again");
    await shot("offline-fresh");
    await page.unroute(isApi, refuse);
    await waitFor(async () => (await symbols()).length > 0 && typeof (await valueAt("B4")) === "number", "the demo sheet once the service answers", 180_000);
    await settled();
    expect(await sourceLine()).not.toContain("cannot be reached");
    expect(typeof (await valueAt("AC10"))).toBe("number");
  });

  it("on an open, signed-in page: marks the values kept from before, Explain and Refresh say what happened, recovery clears the marks", async () => {
    await signIn();
    const pane = paneFrame();
    // last known values on (Cache tab), so a refreshed cell keeps its value from this computer's cache
    await pane.getByRole("tab", { name: "Cache" }).click();
    await pane.locator("#cache-last-known").check();
    await pane.locator("#cache-save").click();
    await page.route(isApi, refuse);
    await page.locator('td[data-address="AC10"]').click();
    await pane.getByRole("tab", { name: "Cell & refresh" }).click();
    await pane.locator("#refresh-selection").click();
    await waitFor(async () => ((await pane.locator("#refresh-result").textContent()) ?? "").includes("failed"), "Refresh to report its failure");
    expect(await pane.locator("#refresh-result").textContent()).toContain("the prices service cannot be reached");
    expect(await pane.locator("#service-reach").isVisible()).toBe(true);
    expect(await pane.locator("#service-reach").textContent()).toContain("last successful contact");
    await waitFor(async () => (await sourceLine()).includes("cannot be reached"), "the workbench's line to say so");
    await settled();
    // every PRICES value shown is marked, the typed cell's last known value too
    expect(typeof (await valueAt("AC10"))).toBe("number");
    expect(await page.locator('td[data-address="AC10"]').getAttribute("class")).toContain("kept");
    expect(await page.locator('td[data-address="B4"]').getAttribute("class")).toContain("kept");
    expect(await page.locator('td[data-address="AC10"]').getAttribute("title")).toContain("last known value");
    await pane.locator("#trace").click();
    await waitFor(async () => ((await pane.locator("#diagnostics").textContent()) ?? "").includes("Source"), "the explanation");
    const explained = (await pane.locator("#diagnostics").textContent()) ?? "";
    expect(explained).toContain("this computer's cache: last known value, fetched");
    expect(explained).not.toContain("fresh from the service");
    await shot("offline-kept");

    await page.unroute(isApi, refuse);
    await pane.locator("#refresh-selection").click();
    await waitFor(async () => ((await pane.locator("#refresh-result").textContent()) ?? "").startsWith("Refreshed the selection"), "Refresh to succeed");
    await settled();
    expect(await sourceLine()).not.toContain("cannot be reached");
    expect(await pane.locator("#service-reach").isHidden()).toBe(true);
    expect(await page.locator("td.kept").count()).toBe(0);
  });
});

describe("the pane in the workbench", () => {
  it("refreshes one selected cell with the one request that cell needs", async () => {
    const pane = paneFrame();
    // Explain following the selection asks for its own (the instrument's publication): not the refresh's
    await pane.locator("#follow-selection").uncheck();
    await page.locator('td[data-address="AC10"]').click();
    await settled();
    const before = apiRequests.length;
    await pane.locator("#refresh-selection").click();
    await waitFor(async () => ((await pane.locator("#refresh-result").textContent()) ?? "").includes("1 cached value dropped"), "the one-cell refresh");
    await settled();
    const [symbol] = await symbols();
    const sent = apiRequests.slice(before);
    expect(sent).toHaveLength(1);
    expect(decodeURIComponent(sent[0] ?? "")).toContain(String(symbol));
  });

  it("starts the builder's HISTORY with date, low, mid and high ticked, and keeps them when optional columns are ticked", async () => {
    const pane = paneFrame();
    await pane.getByRole("tab", { name: "Build" }).click();
    await pane.locator("#fn").selectOption("HISTORY");
    for (const field of ["date", "low", "mid", "high"]) expect(await pane.locator("#fields-box").getByLabel(field, { exact: true }).isChecked()).toBe(true);
    await pane.locator("#arg-0").fill("MB-AL-0004");
    await pane.locator("#arg-1").fill("2024-01-01");
    expect(await pane.locator("#preview").textContent()).toBe('=PRICES.HISTORY("MB-AL-0004","2024-01-01")');
    await pane.locator("#fields-box").getByLabel("revision", { exact: true }).check();
    await pane.locator("#fields-box").getByLabel("assessed", { exact: true }).check();
    expect(await pane.locator("#preview").textContent()).toBe('=PRICES.HISTORY("MB-AL-0004","2024-01-01",,"date,low,mid,high,revision,assessed")');
  });

  it("says in Settings that the workbench's grid shows data types", async () => {
    const pane = paneFrame();
    await pane.getByRole("tab", { name: "Settings" }).click();
    const text = (await pane.locator("#rich-values-status").textContent()) ?? "";
    expect(text).not.toContain("no data types");
    expect(text).toContain("This Excel shows them");
  });

  it("draws the Cache tab's check boxes small, beside their labels", async () => {
    const pane = paneFrame();
    await pane.getByRole("tab", { name: "Cache" }).click();
    for (const id of ["#cache-last-known", "#cache-forget-on-sign-out"]) {
      const box = await pane.locator(id).boundingBox();
      const label = await pane.locator(id).locator("xpath=..").boundingBox();
      expect(box!.width).toBeLessThan(24);
      // on the label's line, at its left, not above it
      expect(box!.x - label!.x).toBeLessThan(12);
      expect(box!.y + box!.height / 2).toBeGreaterThan(label!.y);
      expect(box!.y + box!.height / 2).toBeLessThan(label!.y + label!.height);
      expect(label!.height).toBeLessThan(2 * box!.height + 8);
    }
  });
});

describe("the card at 1280 x 720", () => {
  it("stays inside the window and scrolls inside itself", async () => {
    const viewport = page.viewportSize()!;
    const cell = page.locator('td[data-address="AC26"]');
    await page.locator('td[data-address="AC26"]').click();
    await page.keyboard.type('=PRICES.ENTITY("MB-AL-0004")');
    await page.keyboard.press("Enter");
    await settled();
    await cell.scrollIntoViewIfNeeded();
    await cell.click();
    const card = page.locator(".data-card");
    await card.waitFor({ state: "visible" });
    const box = (await card.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    const scrolls = await card.evaluate((element) => ({ overflow: getComputedStyle(element).overflowY, fits: element.scrollHeight <= element.clientHeight }));
    expect(scrolls.overflow).toBe("auto");
    if (!scrolls.fits) expect(box.height).toBeLessThanOrEqual(viewport.height - 16);
  });
});
