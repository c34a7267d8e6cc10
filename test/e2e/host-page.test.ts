/** The built host page in real Chromium, with the fixture bundle instead of the add-in's functions. */
import { join } from "node:path";
import type { EvaluationResult } from "../../src/host/page-api";
import { DIST, ensureBuilt, openHostPage, servePages, type HostBrowser, type PageServer } from "../../src/runner/host-page";

jest.setTimeout(180_000);

const FIXTURES = join(__dirname, "..", "host", "fixtures");
let server: PageServer;
let browser: HostBrowser;

beforeAll(async () => {
  ensureBuilt(() => undefined);
  server = await servePages(DIST, { fixtures: FIXTURES });
  browser = await openHostPage(`${server.origin}/host.html?functions=fixtures/functions.js&metadata=fixtures/functions.json&timeout=500`, () => undefined);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function evaluate(cells: Record<string, unknown>): Promise<EvaluationResult> {
  return browser.page.evaluate((book) => {
    const host = window.PricesHost;
    if (!host) throw new Error("no host");
    return host.evaluate(book);
  }, { cells });
}

describe("host.html in Chromium", () => {
  it("lists the functions of functions.json", async () => {
    const names = await browser.page.evaluate(() => window.PricesHost?.functions ?? []);
    expect(names).toContain("GRID");
    expect(names).toHaveLength(24);
  });

  it("evaluates scalars, spills, lifted ranges and errors as the Node engine does", async () => {
    const result = await evaluate({
      A1: 2,
      B1: "=PRICES.ADD(A1, 3)",
      A3: "=PRICES.GRID(2,2)",
      D1: "=PRICES.ADD(A3:A4, 1)",
      F1: "=PRICES.MIXED()",
      F4: "=PRICES.GRID(1,2)",
      G4: "in the way",
      A6: '=PRICES.FAIL("unknown symbol XX")',
      A7: "=PRICES.NEVER()",
      A8: "=PRICES.NOPE()",
    });
    expect(result.cells).toEqual({
      A1: 2,
      B1: 5,
      D1: 1,
      F1: 1,
      G1: "#N/A: no data",
      D2: 11,
      F2: "a",
      G2: true,
      A3: 0,
      B3: 1,
      A4: 10,
      B4: 11,
      F4: "#SPILL!: spill range F4:G4 isn't blank (G4)",
      G4: "in the way",
      A6: "#N/A: unknown symbol XX",
      A7: "#BUSY!: no result after 500 ms",
      A8: "#NAME?: unknown function PRICES.NOPE",
    });
  });

  it("reports request statistics even before the functions are configured", async () => {
    const result = await evaluate({ A1: 1 });
    expect(result.stats).toEqual({ requests: 0, requestsByPath: {}, client: null });
  });

  it("rejects a book with a syntax error with a message naming the cell", async () => {
    const message = await browser.page.evaluate(async () => {
      try {
        await window.PricesHost?.evaluate({ cells: { B2: "=PRICES.ADD(1" } });
        return "no error";
      } catch (error) {
        return String(error);
      }
    });
    expect(message).toContain("B2: missing ) in =PRICES.ADD(1");
  });
});
