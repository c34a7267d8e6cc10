/**
 * The workbench and its pane as a newcomer meets them on a 1280 x 720 laptop screen (issue 20), in real headless
 * Chromium on `npm start`'s stack (scripts/start.ts on free ports): reloads reuse the demo key's token, the first view
 * shows column A with its symbols and numbers whole, every cell the keyboard reaches takes typing, the builder reads
 * a typed reference and a typed symbol alike, Explain follows the selection from the start, and frozen dates stay
 * dates. Screenshots go to test-output/ (npm run screenshots writes the README's).
 */
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { startStack, type RunningStack } from "../../scripts/start";
import { launchChromium, type TestBrowser } from "../support/chromium";
import { screenshotDir } from "../support/screenshots";
import { containsText } from "../browser/pane-page";
import { type WorkbenchWindow, waitFor, workbenchOn } from "./workbench-page";

// Bounds against a hang: the stack builds the add-in with webpack, minutes on two busy cores (it once
// took beforeAll past 300 s at load average 12).
jest.setTimeout(900_000);

const SHOTS = screenshotDir();

let stack: RunningStack;
let context: BrowserContext;
let page: Page;
let browser: TestBrowser;
const tokenRequests: string[] = [];
/** Every 404 any page or window of the browser met. */
const notFound: string[] = [];

const workbench = workbenchOn(() => page);
const { settled, valueAt, textAt, entries, load, paneFrame } = workbench;

/** Whether a cell's text is drawn whole (no ellipsis, nothing clipped). */
const drawnWhole = (address: string): Promise<boolean> =>
  page.locator(`td[data-address="${address}"]`).evaluate((td) => {
    const inner = td.firstElementChild instanceof HTMLElement ? td.firstElementChild : td;
    return inner.scrollWidth <= inner.clientWidth + 1 && td.scrollWidth <= td.clientWidth + 1;
  });

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  stack = await startStack({ port: 0, apiPort: 0 });
  browser = await launchChromium({ viewport: { width: 1280, height: 720 } });
  context = browser.context;
  context.on("response", (response) => {
    if (response.status() === 404) notFound.push(response.url());
  });
  context.on("request", (request) => {
    if (request.url().startsWith(`${stack.sandbox.issuer}/token`)) tokenRequests.push(request.url());
  });
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(stack.workbenchUrl);
  await load();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe("the workbench at 1280 x 720, as a newcomer meets it", () => {
  it("shows column A and its symbols and numbers whole in the first view", async () => {
    const grid = await page.locator("#grid").boundingBox();
    const a4 = await page.locator('td[data-address="A4"]').boundingBox();
    if (!grid || !a4) throw new Error("no grid or no A4");
    expect(a4.x).toBeGreaterThanOrEqual(grid.x);
    expect(a4.y + a4.height).toBeLessThanOrEqual(grid.y + grid.height);
    const symbols = await page.evaluate(() => (window as unknown as WorkbenchWindow).Workbench.demo.symbols);
    for (let row = 4; row < 4 + symbols.length; row += 1) {
      expect({ cell: `A${row}`, whole: await drawnWhole(`A${row}`) }).toEqual({ cell: `A${row}`, whole: true });
      for (const column of "BCDEF") expect({ cell: `${column}${row}`, whole: await drawnWhole(`${column}${row}`) }).toEqual({ cell: `${column}${row}`, whole: true });
    }
    await page.screenshot({ path: path.join(SHOTS, "newcomer-first-view.png") });
  });

  it("takes typing in every cell the keyboard reaches (past column AC: AG2)", async () => {
    await page.locator('td[data-address="A2"]').click();
    for (let i = 0; i < 32; i += 1) await page.keyboard.press("ArrowRight");
    expect(await page.locator("#name-box").textContent()).toBe("AG2");
    await page.keyboard.type("typed far right");
    await page.keyboard.press("Enter");
    expect((await entries())["AG2"]).toBe("typed far right");
    expect(await textAt("AG2")).toBe("typed far right");
  });

  it("clears a refused formula's message once the user moves on", async () => {
    await page.locator('td[data-address="H40"]').click();
    await page.locator("#formula").fill("=PRICES.MID(");
    await page.locator("#formula").press("Enter");
    await containsText(page.locator("#cell-message"), "There's a problem with this formula");
    await page.locator('td[data-address="B4"]').click();
    expect(await page.locator("#name-box").textContent()).toBe("B4");
    expect(await page.locator("#cell-message").textContent()).not.toContain("problem with this formula");
  });

  it("explains the selected cell from the start when the Cell tab is open (follow the selection)", async () => {
    const pane = paneFrame();
    await pane.locator("#tab-cell").click();
    await page.locator('td[data-address="B4"]').click();
    await containsText(pane.locator("#diagnostics"), "PRICES.MID(A4:A8)", 30_000);
    await page.locator('td[data-address="G5"]').click();
    await containsText(pane.locator("#diagnostics"), "PRICES.INSTRUMENT(A4:A8", 30_000);
  });

  it("builds from the Selection button and from typed text, in both orders", async () => {
    const pane = paneFrame();
    await pane.locator("#tab-build").click();
    await pane.locator("#fn").selectOption("MID");
    await page.evaluate(() => (window as unknown as WorkbenchWindow).Workbench.select("A4:A8"));
    await pane.getByRole("button", { name: "Fill symbols from the selected cells" }).click();
    await containsText(pane.locator("#preview"), "=PRICES.MID(Sheet1!A4:A8)");
    // the box filled from the selection takes a typed symbol afterwards
    await pane.locator("#arg-0").fill("MB-AL-0004");
    await containsText(pane.locator("#preview"), '=PRICES.MID("MB-AL-0004")');
    expect(await pane.locator("#build-error").textContent()).toBe("");
    // and a typed reference, without the button, is a reference
    await pane.locator("#fn").selectOption("HIGH");
    await pane.locator("#arg-0").fill("A4:A8");
    await containsText(pane.locator("#preview"), "=PRICES.HIGH(A4:A8)");
    expect(await pane.locator("#build-error").textContent()).toBe("");
  });

  it("fills the sheet on each of 20 reloads in a row, reusing the demo key's token held by the dev server", async () => {
    const before = tokenRequests.length;
    for (let reload = 0; reload < 20; reload += 1) {
      await page.reload();
      await load();
      expect({ reload, source: await page.locator("#source").textContent() }).toEqual({ reload, source: expect.stringContaining("demo service key") });
      expect({ reload, b4: typeof (await valueAt("B4")) }).toEqual({ reload, b4: "number" });
    }
    expect(tokenRequests.length - before).toBe(0);
  });
});

describe("signed in, the sheet frozen and unfrozen in the workbench", () => {
  const enter = async (address: string, typed: string): Promise<void> => {
    expect(await workbench.enter(address, typed)).toBeUndefined();
    await settled();
  };

  beforeAll(async () => {
    const pane = paneFrame();
    await pane.locator("#tab-search").click();
    await pane.waitForSelector("#sign-in");
    // signed out, the pane says what fills the sheet instead of "functions answer #N/A"
    await containsText(pane.locator("#auth-status"), "demo key");
    const popupPromise = context.waitForEvent("page");
    await pane.locator("#sign-in").click();
    const popup = await popupPromise;
    // the local sandbox on another port is still the local sandbox: no "send your sign-in to ...?" first
    expect(await pane.locator("#confirm-api").isHidden()).toBe(true);
    await popup.waitForSelector("#username", { timeout: 60_000 });
    await popup.locator("#username").fill("analyst");
    await popup.locator("#password").fill("analyst");
    await popup.locator("button[type=submit].primary").click();
    await containsText(pane.locator("#auth-status"), "Signed in as analyst", 60_000);
    // the sign-in window logs no 404 (a missing icon was one in every sign-in)
    expect(notFound).toEqual([]);
    await waitFor(async () => /pane's sign-in/.test((await page.locator("#source").textContent()) ?? ""), "the workbench to use the pane's client");
    await settled();
    await enter("H60", '=AVERAGE(PRICES.HISTORY(A4,"2024-01-01",,"mid",0))');
    await enter("H61", "=PRICES.CONVERSIONS(A4)");
  });

  it("explains every PRICES function's cells, dates as dates", async () => {
    const pane = paneFrame();
    await pane.locator("#tab-cell").click();
    const explain = async (address: string): Promise<string> => {
      await page.locator(`td[data-address="${address}"]`).click();
      await containsText(pane.locator("#diagnostics"), `Sheet1!${address}`, 30_000);
      await waitFor(async () => !/Reading the selected cell/.test((await pane.locator("#diagnostics").textContent()) ?? ""), `the explanation of ${address}`);
      return (await pane.locator("#diagnostics").textContent()) ?? "";
    };
    const launchRow = await page.evaluate(() => {
      for (let row = 19; row < 40; row += 1) if ((window as unknown as WorkbenchWindow).Workbench.value(`A${row}`) === "launchDate") return row;
      return 0;
    });
    expect(await explain(`B${launchRow}`)).toMatch(/Value \d{4}-\d{2}-\d{2}/);
    expect(await explain("J5")).toMatch(/Value \d{4}-\d{2}-\d{2}/);
    for (const address of ["G5", `B${launchRow}`, "H61"]) {
      const text = await explain(address);
      expect({ address, asked: /not asked yet/.test(text), instrument: /instrument /.test(text) }).toEqual({ address, asked: false, instrument: true });
    }
    expect(await explain("D21")).toMatch(/reference list Currency[\s\S]*(fresh from the service|from the cache)/);
    const forecast = await explain("X5");
    expect(forecast).toMatch(/Forecast.*forecast prices/);
    expect(forecast).toMatch(/This row\d{4}-\d{2}-\d{2} · low/);
    expect(await explain("R5")).toMatch(/history|Service answer|Assessment/);
    await page.screenshot({ path: path.join(SHOTS, "newcomer-explain.png") });
  });

  it("keeps dates as dates, lists a complete provenance row for every function, none with an assessment for an error, and shows the provenance sheet as a tab", async () => {
    const pane = paneFrame();
    const before = await entries();
    const historyDate = await textAt("J4");
    expect(historyDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const launchRow = await page.evaluate(() => {
      for (let row = 19; row < 40; row += 1) if ((window as unknown as WorkbenchWindow).Workbench.value(`A${row}`) === "launchDate") return row;
      return 0;
    });
    expect(launchRow).toBeGreaterThan(0);
    const launchDate = await textAt(`B${launchRow}`);
    expect(launchDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    await pane.locator("#tab-cell").click();
    await pane.locator("#freeze-scope-sheet").check();
    await pane.locator("#freeze").click();
    await containsText(pane.locator("#freeze-result"), "Froze", 120_000);
    await settled();
    const frozen = await entries();
    expect(typeof frozen["J4"]).toBe("number");
    expect(await textAt("J4")).toBe(historyDate);
    expect(await textAt(`B${launchRow}`)).toBe(launchDate);

    await page.locator('#sheet-tabs button[data-sheet="Prices provenance"]').click();
    const table = await page.locator("#other-sheet table tbody tr").evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("td")].map((td) => td.textContent ?? "")));
    await page.screenshot({ path: path.join(SHOTS, "newcomer-provenance.png") });
    const [header = [], ...rows] = table;
    const column = (name: string): number => header.indexOf(name);
    const rowAt = (address: string): string[] | undefined => rows.find((row) => row[column("Address")] === address);
    // every frozen formula's text is in the sheet
    const frozenFormulas = Object.entries(before).filter(([address, content]) => typeof content === "string" && /^=.*PRICES\./i.test(content) && !String(frozen[address]).startsWith("="));
    expect(frozenFormulas.length).toBeGreaterThan(10);
    expect(frozenFormulas.filter(([, formula]) => !rows.some((row) => row[column("Formula")] === formula))).toEqual([]);
    // complete for every function, nested calls included
    for (const address of ["X3", "R3", "A19", "G4", "D19", "H60", "H61", "J3", "O3"]) {
      const row = rowAt(address);
      const filled = row ? ["Symbol", "Date asked", "Retrieved at", "Service URL"].map((name) => row[column(name)] !== "") : [];
      expect({ address, filled }).toEqual({ address, filled: [true, true, true, true] });
    }
    // the no-curve cell shows #N/A: never an assessment or a revision
    const noCurve = rowAt("B14");
    expect(noCurve?.[column("Assessment date")]).toBe("");
    expect(noCurve?.[column("Revision")]).toBe("");

    await page.locator('#sheet-tabs button[data-sheet="Sheet1"]').click();
    await pane.locator("#unfreeze").click();
    await containsText(pane.locator("#freeze-result"), "Restored", 120_000);
    await settled();
    expect(await entries()).toEqual(before);
    expect(await page.locator('#sheet-tabs button[data-sheet="Prices provenance"]').count()).toBe(0);
  });

  it("keeps a Sign in click made while the pane is still loading (taskpane.js held back), and opens the sign-in window", async () => {
    const early = await context.newPage();
    let release: () => void = () => undefined;
    const held = new Promise<void>((done) => (release = done));
    await early.route("**/taskpane.js", async (route) => {
      await held;
      await route.continue();
    });
    try {
      await early.goto(stack.workbenchUrl);
      const frame = early.frameLocator("iframe#pane");
      await frame.locator("#sign-in").waitFor();
      const popupPromise = context.waitForEvent("page");
      await frame.locator("#sign-in").click();
      release();
      const popup = await popupPromise;
      expect(popup.url()).toContain("auth-dialog.html");
      await popup.close();
    } finally {
      release();
      await early.close();
    }
  });
});
