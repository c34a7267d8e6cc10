/**
 * Data types in the workbench, in real headless Chromium on `npm start`'s stack: PRICES.ENTITY's card opens beside
 * its cell with every field, `=A1.Mid` calculates, and a sum of rich prices equals the sum of the plain ones.
 */
import path from "node:path";
import type { Page } from "playwright-core";
import { startStack, type RunningStack } from "../../scripts/start";
import { launchChromium, type TestBrowser } from "../support/chromium";
import { sandboxGet, sandboxToken } from "../support/service";
import { screenshotDir } from "../support/screenshots";
import { type WorkbenchWindow, workbenchOn } from "./workbench-page";

// Bounds against a hang: the stack builds the add-in with webpack, minutes on two busy cores.
jest.setTimeout(900_000);

let stack: RunningStack;
let browser: TestBrowser;
let page: Page;
let token: string;

const { settled, valueAt, textAt, enter, load } = workbenchOn(() => page);

async function service<T>(route: string, params: Record<string, string>): Promise<T> {
  const response = await sandboxGet(stack.sandbox, route, params, token);
  if (response.status !== 200) throw new Error(`${route} answered ${response.status}`);
  return JSON.parse(response.text) as T;
}

beforeAll(async () => {
  stack = await startStack({ port: 0, apiPort: 0 });
  token = await sandboxToken(stack.sandbox, "sandbox-full", "sandbox-full-secret");
  browser = await launchChromium({ viewport: { width: 1600, height: 1000 } });
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  await page.goto(stack.workbenchUrl);
  await load();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe("data types in the workbench", () => {
  it("opens an instrument's card beside its cell with every field, and calculates =AE1.Mid", async () => {
    const symbols = await page.evaluate(() => (window as unknown as WorkbenchWindow).Workbench.demo.symbols);
    const symbol = symbols[0]!;
    expect(await enter("AE1", `=PRICES.ENTITY("${symbol}")`)).toBeUndefined();
    expect(await enter("AF1", "=AE1.Mid")).toBeUndefined();
    expect(await enter("AF2", "=AE1.[Launch date]")).toBeUndefined();
    expect(await enter("AF3", "=AE1.Commodity")).toBeUndefined();
    await settled();

    const latest = await service<{ instruments: { prices: { mid: number; low: number; high: number }[] }[] }>("/Prices", { Symbols: symbol });
    const record = latest.instruments[0]!.prices[0]!;
    const instrument = await service<{ instruments: Record<string, unknown>[] }>("/Instruments", { Symbols: symbol, Fields: "Commodity,Location,Currency,UnitOfMeasure,Incoterm,Source" });
    const fields = instrument.instruments[0]!;
    expect(await textAt("AE1")).toBe(`${symbol} ${String(fields.descriptionShort)}`);
    expect(await valueAt("AF1")).toBe(record.mid);
    expect(typeof (await valueAt("AF2"))).toBe("number");
    expect(await valueAt("AF3")).toBe(fields.commodity);

    await page.evaluate(() => (window as unknown as WorkbenchWindow).Workbench.select("AE1"));
    const cell = page.locator('td[data-address="AE1"]');
    await cell.click();
    const card = page.locator(".data-card");
    await card.waitFor({ state: "visible" });
    expect(await card.getAttribute("data-address")).toBe("AE1");
    // beside the cell: to its right (or its left), at its height
    const [cellBox, cardBox] = [await cell.boundingBox(), await card.boundingBox()];
    expect(cardBox!.x >= cellBox!.x + cellBox!.width || cardBox!.x + cardBox!.width <= cellBox!.x).toBe(true);
    expect(Math.abs(cardBox!.y - cellBox!.y)).toBeLessThan(2);
    await page.screenshot({ path: path.join(screenshotDir(), "workbench-card.png") });
    const shown = Object.fromEntries(await card.locator("dd").evaluateAll((nodes) => nodes.map((node) => [(node as HTMLElement).dataset["field"], node.textContent])));
    expect(Object.keys(shown)).toEqual([
      "Low", "Mid", "High", "Assessment date", "Price date",
      "Symbol", "Description", "Short description", "Commodity", "Location", "Currency", "Unit", "Incoterm", "Frequency", "Source", "Price type", "Status", "Launch date", "Currency id", "Unit id",
    ]);
    expect(shown.Symbol).toBe(symbol);
    expect(shown.Commodity).toBe(fields.commodity);
    expect(shown.Currency).toBe(fields.currency);
    expect(shown.Unit).toBe(fields.unitOfMeasure);
    expect(shown.Frequency).toBe(fields.frequency);
    expect(shown["Launch date"]).toBe(String(fields.launchDate).slice(0, 10));
    const money = (n: number) => `${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 4 })} ${String(fields.currencyId)}/${String(fields.unitOfMeasureId)}`;
    expect([shown.Low, shown.Mid, shown.High]).toEqual([money(record.low), money(record.mid), money(record.high)]);

    // a plain cell closes it
    await page.locator('td[data-address="AF1"]').click();
    await card.waitFor({ state: "hidden" });
  });

  it("sums rich prices to the sum of the plain ones, and shows a rich price with its currency and unit", async () => {
    const symbols = await page.evaluate(() => (window as unknown as WorkbenchWindow).Workbench.demo.symbols);
    for (const [i, symbol] of symbols.slice(0, 4).entries()) {
      expect(await enter(`AH${i + 1}`, `=PRICES.PRICE("${symbol}",,,,,,,"rich")`)).toBeUndefined();
      expect(await enter(`AI${i + 1}`, `=PRICES.PRICE("${symbol}",,,,,,,"plain")`)).toBeUndefined();
    }
    expect(await enter("AH6", "=SUM(AH1:AH4)")).toBeUndefined();
    expect(await enter("AI6", "=SUM(AI1:AI4)")).toBeUndefined();
    expect(await enter("AH7", "=AH1.Currency")).toBeUndefined();
    await settled();
    const richSum = await valueAt("AH6");
    expect(typeof richSum).toBe("number");
    expect(richSum).toBe(await valueAt("AI6"));
    expect(await valueAt("AH1")).toBe(await valueAt("AI1"));
    expect(await textAt("AH1")).toMatch(/^[\d,]+\.\d{2,4} [A-Z]+\/[A-Z0-9]+$/);
    expect(await textAt("AH7")).toMatch(/^[A-Z]{3}$/);
    await page.evaluate(() => (window as unknown as WorkbenchWindow).Workbench.select("AH1"));
    await page.locator('td[data-address="AH1"]').click();
    const card = page.locator(".data-card");
    await card.waitFor({ state: "visible" });
    const names = await card.locator("dt").allTextContents();
    expect(names).toEqual(["Value", "Symbol", "Field", "Currency", "Unit", "Date", "Assessment date", "Revision", "Carried forward", "Conversion", "Request"]);
  });
});
