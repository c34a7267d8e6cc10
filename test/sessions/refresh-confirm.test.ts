/** The refresh confirmation: the threshold the settings hold, and the question asked above it. */
import { DEFAULT_PLAN_THRESHOLD, idsOfSymbols, refreshQuestion, type RefreshPlan } from "../../src/sessions/refresh-plan";
import { CACHE_SETTINGS_KEY, DEFAULT_CACHE_SETTINGS, planThreshold, readCacheSettings } from "../../src/sessions/pane-persistence";
import { normHistoryKey, normPriceKey } from "../../src/prices/keys";

const plan = (requests: number, records: number): RefreshPlan => ({ requests, records, keys: 10, fromCache: 2, estimateMs: 1200, byEndpoint: { "/Prices": requests } });

function storage(saved: unknown): { read(key: string): unknown; write(key: string, value: unknown): Promise<void> } {
  return { read: (key) => (key === CACHE_SETTINGS_KEY ? saved : undefined), write: () => Promise.resolve() };
}

describe("refresh confirmation threshold", () => {
  it("defaults to 50 requests or 100,000 records, and reads a saved threshold (0 included)", () => {
    expect(planThreshold(DEFAULT_CACHE_SETTINGS)).toEqual(DEFAULT_PLAN_THRESHOLD);
    expect(planThreshold(readCacheSettings(storage(undefined)))).toEqual({ requests: 50, records: 100_000 });
    expect(planThreshold(readCacheSettings(storage({ confirmAboveRequests: 0, confirmAboveRecords: 500 })))).toEqual({ requests: 0, records: 500 });
  });

  it("keeps the default for a threshold that is not a whole number of 0 or more", () => {
    const read = readCacheSettings(storage({ confirmAboveRequests: -1, confirmAboveRecords: "many" }));
    expect(planThreshold(read)).toEqual(DEFAULT_PLAN_THRESHOLD);
    expect(readCacheSettings(storage({ confirmAboveRequests: 2.5 })).confirmAboveRequests).toBe(50);
  });

  it("asks above the threshold only, naming the plan and the limit", () => {
    expect(refreshQuestion("sheet", plan(50, 100_000), DEFAULT_PLAN_THRESHOLD)).toBeUndefined();
    expect(refreshQuestion("sheet", plan(51, 10), DEFAULT_PLAN_THRESHOLD)).toBe(
      "Refreshing the sheet would send 51 requests, 10 records, 2 of 10 values from the cache, about 1 s: above your limit of 50 requests or 100,000 records. Refresh anyway?",
    );
    expect(refreshQuestion("workbook", plan(1, 100_001), DEFAULT_PLAN_THRESHOLD)).toMatch(/^Refreshing the workbook would send 1 request, 100,001 records/);
    expect(refreshQuestion("sheet", plan(1, 1), { requests: 0, records: 100 })).toMatch(/above your limit of 0 requests or 100 records/);
    expect(refreshQuestion("sheet", plan(0, 0), { requests: 0, records: 0 })).toBeUndefined();
  });

  it("plans the keys a refresh drops: the sheet's symbols, or every key for the workbook", () => {
    const ids = [normPriceKey({ symbol: "MB-CU-0001", date: "2025-06-02" }).id, normPriceKey({ symbol: "MB-AL-0002" }).id, normHistoryKey({ symbol: "mb-cu-0001", fromDate: "2025-01-01", toDate: "2025-02-01" }).id];
    expect(idsOfSymbols(ids, ["mb-cu-0001"])).toEqual([ids[0], ids[2]]);
    expect(idsOfSymbols(ids, [])).toEqual([]);
    expect(idsOfSymbols(ids, undefined)).toEqual(ids);
  });
});
