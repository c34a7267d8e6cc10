/**
 * The documented metal examples (=PRICES.CURVE("MB-AL-0004"), =PRICES.FORECAST("MB-AL-0004")) answer for the
 * analyst's entitlement (every instrument) and the trial's (metals only), through the runner's page.
 */
import { region, startE2E, type E2E } from "./support";

jest.setTimeout(120_000);

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

describe("documented metal examples", () => {
  it.each([
    ["the full client", "sandbox-full", "sandbox-full-secret"],
    ["the trial client (metals only)", "sandbox-trial", "sandbox-trial-secret"],
  ])("spill a forward curve and a forecast for %s", async (_who, clientId, secret) => {
    const token = await e2e.clientToken(clientId, secret);
    const result = await e2e.evaluate({ A1: '=PRICES.CURVE("MB-AL-0004")', G1: '=PRICES.FORECAST("MB-AL-0004")' }, { token });
    const curve = region(result.cells, 0, 1, 4, 5);
    const forecast = region(result.cells, 6, 1, 4, 4);
    expect(curve[0]).toEqual(["code", "month", "low", "mid", "high"]);
    expect(curve.slice(1).map((row) => row[0])).toEqual(["M1", "M2", "M3"]);
    expect(curve.slice(1).every((row) => row.slice(2).every((value) => typeof value === "number"))).toBe(true);
    expect(forecast[0]).toEqual(["date", "low", "mid", "high"]);
    expect(forecast.slice(1).every((row) => row.every((value) => typeof value === "number"))).toBe(true);
  });
});
