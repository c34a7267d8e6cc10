/**
 * The runner against a sandbox started with `--limit-records 2000`, the add-in not told (decision 11): the
 * client learns the limit from the first 400, plans the refused keys again, and every cell is filled, equal to
 * the same book against a sandbox with the default limits.
 */
import { sandboxToken } from "../support/service";
import { evaluateInPage } from "../../src/runner/host-page";
import { type LimitedPair, overrunningBook, startLimitedPair } from "./limited-pair";

jest.setTimeout(240_000);

let stage: LimitedPair;

beforeAll(async () => {
  stage = await startLimitedPair();
});

afterAll(async () => {
  await stage?.close();
});

it("fills a 100 x 50 grid and a 10-year daily history that each exceed the service's 2,000 records", async () => {
  const { browser, limited, plain } = stage;
  const cells = overrunningBook(limited);
  const limitedToken = await sandboxToken(limited, "sandbox-full", "sandbox-full-secret");
  const plainToken = await sandboxToken(plain, "sandbox-full", "sandbox-full-secret");
  const expected = await evaluateInPage(browser.page, { cells }, plain.apiUrl, plainToken);
  const actual = await evaluateInPage(browser.page, { cells }, limited.apiUrl, limitedToken);

  const values = Object.entries(actual.cells);
  expect(values.filter(([, value]) => typeof value === "string" && value.startsWith("#"))).toEqual([]);
  expect(actual.cells).toEqual(expected.cells);
  expect(values.filter(([, value]) => typeof value === "number").length).toBeGreaterThanOrEqual(5_000 + 3_651 * 2);
  // 5,000 grid records and 3,651 history rows: more than one 2,000-record answer each.
  expect(Object.keys(actual.cells).filter((address) => /^BB\d+$/.test(address)).length).toBe(3651);
  const stats = actual.stats.client as { replanned: number; failedRequests: number };
  expect(stats.replanned).toBeGreaterThanOrEqual(1);
});
