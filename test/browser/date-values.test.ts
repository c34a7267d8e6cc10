/**
 * Dates in Excel through the real functions bundle (dist/functions.js) in headless Chromium, with a small Office
 * stand-in that declares Excel's requirement sets (or none), and the real sandbox: docs/functions.md's headerless
 * HISTORY example gives dates that carry their date format where the build keeps a number's format (ExcelApi 1.16:
 * FormattedNumber; 1.19: a Double with numberFormat), and the plain serials elsewhere.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { DIST, ensureBuilt, servePages, type PageServer } from "../../src/runner/host-page";
import { isoDateToSerial } from "../../src/formula/excel-dates";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server";
import { launchChromium, type TestBrowser } from "../support/chromium";
import { sandboxToken } from "../support/service";

// Bounds against a hang: a stale dist/ is rebuilt with webpack first, minutes on two busy cores.
jest.setTimeout(600_000);

/** Declares the requirement sets of `?sets=Name=1.4,...` (none: an Excel without data types), then loads the bundle. */
const PAGE = String.raw`<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><title>dates</title>
<script>
  const declared = new Map((new URLSearchParams(location.search).get("sets") || "").split(",").filter(Boolean).map((pair) => pair.split("=")));
  window.Office = { context: { requirements: { isSetSupported: (name, version) => declared.has(name) && Number(declared.get(name)) >= Number(version || "0") } } };
  const registered = new Map();
  class CustomFunctionsError extends Error { constructor(code, message) { super(message); this.code = code; } }
  window.CustomFunctions = {
    associate(id, implementation) { if (typeof id === "string") registered.set(id, implementation); else for (const [k, v] of Object.entries(id)) registered.set(k, v); },
    Error: CustomFunctionsError,
    ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A", divisionByZero: "#DIV/0!", invalidNumber: "#NUM!", nullReference: "#NULL!", invalidName: "#NAME?", invalidReference: "#REF!", notSupported: "#N/A" },
  };
  window.__registered = registered;
</script>
<script src="/functions.js"></script>
</head><body></body></html>`;

const TODAY = "2025-03-31";
let pages: PageServer;
let sandbox: RunningSandbox;
let browser: TestBrowser;
let page: Page;
let token: string;
let folder: string;

beforeAll(async () => {
  ensureBuilt(() => undefined);
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "prices-dates-page-"));
  fs.writeFileSync(path.join(folder, "dates.html"), PAGE);
  pages = await servePages(DIST, { "dates-test": folder });
  sandbox = await startSandbox({ port: 0, today: TODAY, quiet: true, corsOrigins: [pages.origin] });
  token = await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret");
  browser = await launchChromium();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  await pages?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

/** docs/functions.md's example `=PRICES.HISTORY("MB-AL-0004","2024-01-01","2024-12-31","date,mid",0,"Weekdays",,"descending")`, as Excel calls it. */
async function headerlessHistory(sets: string): Promise<unknown[][]> {
  await page.goto(`${pages.origin}/dates-test/dates.html?sets=${encodeURIComponent(sets)}`);
  await page.waitForFunction(() => "PricesAddin" in window && (window as unknown as { __registered: Map<string, unknown> }).__registered.has("HISTORY"));
  return page.evaluate(
    async ({ baseUrl, accessToken }) => {
      const w = window as unknown as {
        PricesAddin: { configure(options: Record<string, unknown>): Promise<void> };
        __registered: Map<string, (...args: unknown[]) => Promise<unknown[][]>>;
      };
      await w.PricesAddin.configure({ baseUrl, tokenProvider: { getToken: () => Promise.resolve(accessToken) }, recalculate: false });
      const history = w.__registered.get("HISTORY");
      if (!history) throw new Error("HISTORY is not registered");
      return history("MB-AL-0004", "2024-01-01", "2024-12-31", [["date,mid"]], 0, "Weekdays", null, "descending", null, null, null, {});
    },
    { baseUrl: sandbox.apiUrl, accessToken: token },
  );
}

describe("dates of a headerless HISTORY in Excel", () => {
  it("are plain serials where Excel declares no data types (older builds): 45657, 45656, ...", async () => {
    const rows = await headerlessHistory("");
    expect(rows[0]?.[0]).toBe(isoDateToSerial("2024-12-31"));
    expect(rows[1]?.[0]).toBe(isoDateToSerial("2024-12-30"));
    expect(rows.every((row) => typeof row[0] === "number" && typeof row[1] === "number")).toBe(true);
  });

  it("carry yyyy-mm-dd as FormattedNumber values where Excel keeps a number's format (CustomFunctionsRuntime 1.4, ExcelApi 1.16)", async () => {
    const plain = await headerlessHistory("");
    const rows = await headerlessHistory("CustomFunctionsRuntime=1.4,ExcelApi=1.16");
    expect(rows).toHaveLength(plain.length);
    rows.forEach((row, i) => {
      expect(row[0]).toEqual({ type: "FormattedNumber", basicValue: plain[i]?.[0], numberFormat: "yyyy-mm-dd" });
      expect(row[1]).toBe(plain[i]?.[1]);
    });
  });

  it("carry yyyy-mm-dd as Doubles with a number format from ExcelApi 1.19, and stay plain with the runtime below 1.4", async () => {
    const plain = await headerlessHistory("");
    const rows = await headerlessHistory("CustomFunctionsRuntime=1.5,ExcelApi=1.19");
    expect(rows[0]?.[0]).toEqual({ type: "Double", basicValue: plain[0]?.[0], numberFormat: "yyyy-mm-dd" });
    expect(await headerlessHistory("CustomFunctionsRuntime=1.3,ExcelApi=1.19")).toEqual(plain);
  });
});
