/**
 * The workbench in real headless Chromium on `npm start`'s stack (scripts/start.ts on free ports): the demo
 * sheet fills without sign-in and matches the service over HTTP, a typed formula spills, errors keep their
 * messages, a HISTORY spill charts, and signing in through the real pane (real sign-in window, analyst) switches
 * the functions to the user's token and inserts a formula from the search into the grid. Screenshots go to
 * test-output/screenshots/workbench-*.png (docs/screenshots with npm run screenshots).
 */
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { startStack, type RunningStack } from "../../scripts/start";
import { launchChromium, type TestBrowser } from "../support/chromium";
import { screenshotDir } from "../support/screenshots";
import { sandboxGet, sandboxToken } from "../support/service";
import { type WorkbenchWindow, waitFor, workbenchOn } from "./workbench-page";

// Bounds against a hang: the stack builds the add-in with webpack, minutes on two busy cores.
jest.setTimeout(900_000);

const SHOTS = screenshotDir();

interface PriceRecord {
  date: string;
  mid: number;
  low: number;
  high: number;
}
interface PriceResponse {
  instruments: { symbol: string; prices: PriceRecord[] }[];
}
let stack: RunningStack;
let context: BrowserContext;
let page: Page;
let browser: TestBrowser;
let token: string;
const requestedAuth: string[] = [];

const wb = <T>(fn: (w: WorkbenchWindow["Workbench"], arg: string) => T | Promise<T>, arg = ""): Promise<T> =>
  page.evaluate(
    ([source, a]) => {
      const f = new Function("w", "a", `return (${source})(w, a);`) as (w: unknown, a: string) => T;
      return f((window as unknown as WorkbenchWindow).Workbench, a);
    },
    [fn.toString(), arg] as const,
  );
const { settled, valueAt, textAt, load, paneFrame } = workbenchOn(() => page);

async function service<T>(route: string, params: Record<string, string>): Promise<T> {
  const response = await sandboxGet(stack.sandbox, route, params, token);
  if (response.status !== 200) throw new Error(`${route} answered ${response.status}`);
  return JSON.parse(response.text) as T;
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `workbench-${name}.png`) });
}

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  stack = await startStack({ port: 0, apiPort: 0 });
  token = await sandboxToken(stack.sandbox, "sandbox-full", "sandbox-full-secret");
  browser = await launchChromium({ viewport: { width: 1600, height: 1000 } });
  context = browser.context;
  context.on("request", (request) => {
    if (request.url().startsWith(stack.sandbox.apiUrl)) requestedAuth.push(request.headers()["authorization"] ?? "");
  });
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(stack.workbenchUrl);
  await load();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe("the workbench (npm start's stack in Chromium)", () => {
  it("fills the demo sheet without sign-in, using the sandbox's demo service key", async () => {
    expect(await wb((w) => w.source())).toBe("demo");
    expect(await page.locator("#source").textContent()).toContain("demo service key (sandbox-service)");
    const symbols = await wb((w) => w.demo.symbols);
    expect(symbols).toHaveLength(5);
    for (let i = 0; i < 5; i += 1) expect(typeof (await valueAt(`B${4 + i}`))).toBe("number");
    await shot("demo");
  });

  it("shows the latest mids and the grid of mids by date as the service returns them over HTTP", async () => {
    const symbols = await wb((w) => w.demo.symbols);
    const latest = await service<PriceResponse>("/Prices", { Symbols: symbols.join(",") });
    const dates = [(await valueAt("C3")) as string, (await valueAt("D3")) as string, (await valueAt("E3")) as string, (await valueAt("F3")) as string];
    const dated = await service<PriceResponse>("/Prices", { Symbols: symbols.join(","), Dates: dates.join(",") });
    for (const [i, symbol] of symbols.entries()) {
      const expected = latest.instruments.find((item) => item.symbol === symbol)?.prices[0]?.mid;
      expect({ symbol, mid: await valueAt(`B${4 + i}`) }).toEqual({ symbol, mid: expected });
      const block = dated.instruments.find((item) => item.symbol === symbol);
      for (const [j, date] of dates.entries()) {
        const record = block?.prices.find((p) => p.date === date);
        const cell = `${String.fromCharCode(67 + j)}${4 + i}`;
        expect({ cell, mid: await valueAt(cell) }).toEqual({ cell, mid: record?.mid });
      }
    }
  });

  it("spills a year of history whose rows match the service's history", async () => {
    const symbols = await wb((w) => w.demo.symbols);
    const from = await wb((w) => w.demo.fromDate);
    const today = new Date().toISOString().slice(0, 10);
    const history = await service<PriceResponse>("/Prices/History", { Symbols: symbols[0] ?? "", FromDate: from, ToDate: today });
    const prices = [...(history.instruments[0]?.prices ?? [])].reverse();
    expect(prices.length).toBeGreaterThan(100);
    expect([await valueAt("J3"), await valueAt("K3"), await valueAt("L3"), await valueAt("M3")]).toEqual(["date", "low", "mid", "high"]);
    for (const index of [0, Math.floor(prices.length / 2), prices.length - 1]) {
      const row = 4 + index;
      expect(await textAt(`J${row}`)).toBe(prices[index]?.date);
      expect(await valueAt(`L${row}`)).toBe(prices[index]?.mid);
    }
    expect(await valueAt(`J${4 + prices.length}`)).toBeNull();
  });

  it("keeps each deliberate error with its message, and draws #SPILL! with the range it needed", async () => {
    expect(String(await valueAt("B11"))).toBe("#N/A: unknown or not permitted symbol 'NO-SUCH-SYMBOL'");
    expect(String(await valueAt("B12"))).toMatch(/^#VALUE!: .*2024-13-01/);
    expect(String(await valueAt("B13"))).toMatch(/^#N\/A: no assessment .* on or before 1990-01-02/);
    expect(String(await valueAt("B15"))).toMatch(/^#SPILL!: spill range B15:E\d+ isn't blank \(C16\)/);
    await page.locator('td[data-address="B15"]').click();
    expect(await page.locator("#cell-message").textContent()).toContain("#SPILL!: spill range B15");
    expect(await page.locator("td.spill-dashed").count()).toBeGreaterThan(4);
    const messages = await page.locator("#messages li").allTextContents();
    expect(messages.some((m) => m.startsWith("B11") && m.includes("NO-SUCH-SYMBOL"))).toBe(true);
    await shot("errors");
  });

  it("evaluates a typed formula on Enter and spills it with a spill border", async () => {
    // the demo symbol with the most January assessments (frequencies differ), so the spill has many rows
    const symbols = await wb((w) => w.demo.symbols);
    const januaries = await Promise.all(
      symbols.map(async (symbol) => ({ symbol, answer: await service<PriceResponse>("/Prices/History", { Symbols: symbol, FromDate: "2025-01-01", ToDate: "2025-01-31" }) })),
    );
    const { symbol: chosen, answer: january } = januaries.reduce((best, next) =>
      (next.answer.instruments[0]?.prices.length ?? 0) > (best.answer.instruments[0]?.prices.length ?? 0) ? next : best,
    );
    await page.locator('td[data-address="A50"]').click();
    await page.keyboard.type(`=PRICES.HISTORY("${chosen}", "2025-01-01", "2025-01-31", "date,mid")`);
    await page.keyboard.press("Enter");
    await settled();
    const prices = [...(january.instruments[0]?.prices ?? [])].reverse();
    expect(prices.length).toBeGreaterThan(5);
    expect(await valueAt("A50")).toBe("date");
    expect(await valueAt("B50")).toBe("mid");
    expect(await textAt("A51")).toBe(prices[0]?.date);
    expect(await valueAt(`B${50 + prices.length}`)).toBe(prices[prices.length - 1]?.mid);
    await page.locator('td[data-address="B52"]').click();
    expect(await page.locator("#formula").inputValue()).toContain("PRICES.HISTORY");
    expect(await page.locator("td.spill-border.edge-t").count()).toBe(2);
    expect(await page.locator("td.spill-border.edge-l").count()).toBe(prices.length + 1);
    expect(await page.locator("#chart").getAttribute("data-anchor")).toBe("A50");
    expect(await page.locator("#chart path.series").count()).toBe(1);
    await shot("typed");
  });

  it("evaluates Excel formulas around PRICES: TODAY()-1 as a date, AVERAGE over a HISTORY spill, arithmetic on the results", async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const from = "2024-01-01";
    const dated = await service<PriceResponse>("/Prices", { Symbols: "MB-AL-0004", Dates: yesterday });
    const history = await service<PriceResponse>("/Prices/History", { Symbols: "MB-AL-0004", FromDate: from, ToDate: new Date().toISOString().slice(0, 10) });
    const mids = (history.instruments[0]?.prices ?? []).map((record) => record.mid);
    expect(mids.length).toBeGreaterThan(10);
    const entries: [string, string][] = [
      ["H60", '=PRICES.MID("MB-AL-0004", TODAY()-1)'],
      ["H61", '=AVERAGE(PRICES.HISTORY("MB-AL-0004","2024-01-01",,"mid",0))'],
      ["H62", "=H60/H61-1"],
    ];
    for (const [address, formula] of entries) {
      await page.locator(`td[data-address="${address}"]`).click();
      await page.keyboard.type(formula);
      await page.keyboard.press("Enter");
      await settled();
    }
    const mid = dated.instruments[0]?.prices[0]?.mid;
    const average = mids.reduce((sum, value) => sum + value, 0) / mids.length;
    expect(await valueAt("H60")).toBe(mid);
    expect(Number(await valueAt("H61"))).toBeCloseTo(average, 9);
    expect(Number(await valueAt("H62"))).toBeCloseTo((mid ?? 0) / average - 1, 9);
  });

  it("refuses a broken formula as Excel does, leaving the cell as it was", async () => {
    await page.locator('td[data-address="H50"]').click();
    await page.keyboard.type("=PRICES.MID(");
    await page.keyboard.press("Enter");
    expect(await page.locator("#cell-message").textContent()).toContain("There's a problem with this formula");
    await page.keyboard.press("Escape");
    expect(await valueAt("H50")).toBeNull();
  });

  it("charts the year of history when one of its cells is selected", async () => {
    await page.locator('td[data-address="K20"]').click();
    expect(await page.locator("#chart").getAttribute("data-anchor")).toBe("J3");
    expect(await page.locator("#chart path.series").count()).toBe(3);
    await shot("chart");
  });

  it("signs in through the pane (real sign-in window), switches the functions to the user's token and inserts from the search", async () => {
    const pane = paneFrame();
    await pane.waitForSelector("#sign-in");
    const before = requestedAuth.length;
    const popupPromise = context.waitForEvent("page");
    await pane.locator("#sign-in").click();
    // the workbench's sandbox runs on a random port, but it is the local sandbox: no question before the window
    const popup = await popupPromise;
    expect(await pane.locator("#confirm-api").isHidden()).toBe(true);
    await popup.waitForSelector("#username", { timeout: 60_000 });
    await popup.locator("#username").fill("analyst");
    await popup.locator("#password").fill("analyst");
    await popup.locator("button[type=submit].primary").click();
    await waitFor(async () => /Signed in as analyst/.test((await pane.locator("#auth-status").textContent()) ?? ""), "the pane to say it is signed in", 120_000);
    await waitFor(async () => (await wb((w) => w.source())) === "pane", "the workbench to use the pane's client");
    await settled();
    expect(await page.locator("#source").textContent()).toContain("pane's sign-in");
    // every API request after sign-in carries a token the pane obtained, not the demo's
    const demoToken = requestedAuth[0];
    expect(requestedAuth.slice(before).filter((auth) => auth !== "").every((auth) => auth !== demoToken)).toBe(true);
    expect(typeof (await valueAt("B4"))).toBe("number");

    const symbols = await wb((w) => w.demo.symbols);
    const target = symbols[2] ?? "";
    await page.locator('td[data-address="H52"]').click();
    await waitFor(async () => ((await pane.locator("#result-count").textContent()) ?? "").includes("instruments"), "the pane's instrument list", 120_000);
    await pane.locator("#search-text").fill(target);
    await waitFor(async () => ((await pane.locator("#results li .symbol").first().textContent()) ?? "") === target, "the search result");
    await pane.locator("#results li").first().getByRole("button", { name: /Insert latest mid/ }).click();
    await waitFor(async () => (await valueAt("H52")) !== null, "the inserted formula's value");
    await settled();
    const latest = await service<PriceResponse>("/Prices", { Symbols: target });
    expect(await valueAt("H52")).toBe(latest.instruments[0]?.prices[0]?.mid);
    await page.locator('td[data-address="H52"]').click();
    expect(await page.locator("#formula").inputValue()).toBe(`=PRICES.MID("${target}")`);
    await shot("signed-in");
  });

  it("freezes the demo sheet to values with a provenance sheet, and unfreezes every formula back (pane signed in above)", async () => {
    const pane = paneFrame();
    await settled();
    const entries = await wb((w) => w.entries());
    const formulas = Object.entries(entries).filter(([, content]) => typeof content === "string" && /^=.*PRICES\./i.test(content));
    expect(formulas.length).toBeGreaterThan(10);
    const addresses: string[] = [];
    for (let row = 1; row <= 40; row += 1) for (const column of "ABCDEFGHIJKLMN") addresses.push(`${column}${row}`);
    const valuesOf = (): Promise<unknown[]> => page.evaluate((list) => list.map((address) => (window as unknown as WorkbenchWindow).Workbench.value(address)), addresses);
    const before = await valuesOf();

    await pane.locator("#tab-cell").click();
    await pane.locator("#freeze-scope-sheet").check();
    await pane.locator("#freeze").click();
    await waitFor(async () => /^Froze \d+ formulas/.test((await pane.locator("#freeze-result").textContent()) ?? ""), "the freeze", 120_000);
    await settled();
    const frozen = await wb((w) => w.entries());
    expect(Object.values(frozen).filter((content) => typeof content === "string" && /^=.*PRICES\./i.test(content))).toEqual([]);
    const after = await valuesOf();
    // Errors are frozen as their code (what Excel's values give), everything else as it was.
    addresses.forEach((address, index) => {
      const was = before[index];
      const expected = typeof was === "string" && was.startsWith("#") ? was.split(":")[0] : was;
      expect([address, after[index]]).toEqual([address, expected]);
    });
    const provenance = await pane.evaluate(() =>
      Excel.run(async (context) => {
        const range = context.workbook.worksheets.getItem("Prices provenance").getUsedRangeOrNullObject();
        range.load("values");
        await context.sync();
        return range.values as unknown[][];
      }),
    );
    expect(provenance[0]?.slice(0, 4)).toEqual(["Sheet", "Address", "Formula", "Symbol"]);
    const symbols = await wb((w) => w.demo.symbols);
    const firstMid = provenance.find((row) => row[1] === "B4");
    expect(firstMid?.[3]).toBe(symbols[0]);
    expect(JSON.stringify(provenance)).not.toMatch(/eyJ|bearer/i);

    await pane.locator("#unfreeze").click();
    await waitFor(async () => /^Restored \d+ formulas/.test((await pane.locator("#freeze-result").textContent()) ?? ""), "the unfreeze", 120_000);
    await settled();
    expect(await wb((w) => w.entries())).toEqual(entries);
    expect(await valuesOf()).toEqual(before);
    await shot("unfrozen");
  });
});

describe("the workbench as an analyst reads it", () => {
  const enter = async (address: string, typed: string): Promise<void> => {
    expect(await wb((w, a) => w.enter(a.split("|")[0] ?? "", a.split("|").slice(1).join("|")), `${address}|${typed}`)).toBeUndefined();
    await settled();
  };

  it("shows INSTRUMENT's launchDate and PRICE's date as dates, as tables do, not serials", async () => {
    const symbols = await wb((w) => w.demo.symbols);
    const symbol = symbols[0] ?? "";
    await enter("L60", `=PRICES.INSTRUMENT("${symbol}","launchDate")`);
    await enter("L61", `=PRICES.PRICE("${symbol}",,"date")`);
    const record = await service<{ instruments: { launchDate: string }[] }>("/Instruments", { Symbols: symbol });
    const latest = await service<PriceResponse>("/Prices", { Symbols: symbol });
    expect(typeof (await valueAt("L60"))).toBe("number");
    expect(await textAt("L60")).toBe(record.instruments[0]?.launchDate.slice(0, 10));
    expect(await textAt("L61")).toBe(latest.instruments[0]?.prices[0]?.date.slice(0, 10));
  });

  it("charts only the price columns of a history that also holds assessment dates and revisions", async () => {
    const symbols = await wb((w) => w.demo.symbols);
    const from = await wb((w) => w.demo.fromDate);
    await enter("A80", `=PRICES.HISTORY("${symbols[0] ?? ""}","${from}",,"date,mid,assessmentDate,revision,high")`);
    await page.locator('td[data-address="B82"]').click();
    expect(await page.locator("#chart").getAttribute("data-anchor")).toBe("A80");
    expect(await page.locator("#chart path.series").evaluateAll((paths) => paths.map((p) => p.getAttribute("data-series")))).toEqual(["mid", "high"]);
  });

  it("keeps the user across a reload: the pane signs in again from the token service's session with no click, the typed cells compute with it", async () => {
    const popups: string[] = [];
    const onPage = (opened: Page): void => void popups.push(opened.url());
    context.on("page", onPage);
    const before = requestedAuth.length;
    await page.reload();
    await load();
    await waitFor(async () => /^Signed in as analyst/.test((await paneFrame().locator("#auth-status").textContent()) ?? ""), "the reloaded pane to sign in from the session", 120_000);
    await waitFor(async () => (await wb((w) => w.source())) === "pane", "the workbench to use the pane's client again");
    context.off("page", onPage);
    expect(popups).toEqual([]);
    await settled();
    // the cells typed above came back with the page and compute with the user's token, not the demo key's
    const symbols = await wb((w) => w.demo.symbols);
    const latest = await service<PriceResponse>("/Prices", { Symbols: symbols[0] ?? "" });
    expect(await textAt("L61")).toBe(latest.instruments[0]?.prices[0]?.date.slice(0, 10));
    await enter("L62", `=PRICES.MID("${symbols[0] ?? ""}")`);
    expect(await valueAt("L62")).toBe(latest.instruments[0]?.prices[0]?.mid);
    const demoToken = requestedAuth[0];
    expect(requestedAuth.slice(before).filter((auth) => auth !== "" && auth !== demoToken).length).toBeGreaterThan(0);
  });

  it("signs out of the pane and of the token service; the sheet goes back to the demo key and Sign in asks again", async () => {
    const pane = paneFrame();
    expect(await wb((w) => w.source())).toBe("pane");
    // one click: the token service ends its session without asking again (the pane hands it the ID token)
    await pane.locator("#sign-out").click();
    await waitFor(async () => /Signed out of the add-in and of the token service/.test((await pane.locator("#auth-status").textContent()) ?? ""), "the pane to say it signed out at the token service");
    await waitFor(async () => (await wb((w) => w.source())) === "demo", "the workbench to use the demo key again");
    const loginPromise = context.waitForEvent("page");
    await pane.locator("#sign-in").click();
    const login = await loginPromise;
    await login.waitForSelector("#username", { timeout: 60_000 });
    expect(await login.locator("#continue").count()).toBe(0);
    await login.close();
  });

  it("stays signed out after a reload that follows the sign-out, with no error, on the demo key", async () => {
    await page.reload();
    await load();
    await waitFor(async () => /^Not signed in\. The workbench fills/.test((await paneFrame().locator("#auth-status").textContent()) ?? ""), "the reloaded pane's plain signed-out line", 120_000);
    expect(await wb((w) => w.source())).toBe("demo");
    expect(await paneFrame().locator("#sign-in").isEnabled()).toBe(true);
  });

  it("resizes a column by dragging its header's right edge", async () => {
    const header = page.locator("table.grid thead th", { hasText: /^C$/ });
    const before = (await header.boundingBox())?.width ?? 0;
    const handle = header.locator(".col-resize");
    const box = await handle.boundingBox();
    if (!box) throw new Error("column C has no resize handle");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    const after = (await header.boundingBox())?.width ?? 0;
    expect(Math.round(after - before)).toBeGreaterThanOrEqual(55);
    // rows exist only near the view: bring row 82 into it (a reload above put the view back at the top)
    await wb((w, a) => w.select(a), "C82");
    const cell = (await page.locator('td[data-address="C82"]').boundingBox())?.width ?? 0;
    expect(Math.abs(cell - after)).toBeLessThan(3);
  });
});
