/**
 * A refresh plan is the refresh run through the client with a fetch that records and sends nothing: against the
 * sandbox, the planned requests are exactly the requests a refresh from the same persistent cache then sends.
 */
import { createPricesClient, type PriceKey } from "../../src/prices";
import { type CacheBackend, type Partition, openPersistentCache, subjectOfToken } from "../../src/prices/persistent";
import { type PlannedRequest, describePlan, needsConfirmation, planRecorder, summarizePlan } from "../../src/sessions/refresh-plan";
import { startHarness, weekdaysBefore, type Harness } from "../prices/sandbox-helpers";

jest.setTimeout(180_000);

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ today: "2025-06-30" });
});
afterAll(() => harness.close());

function memoryBackend(): CacheBackend {
  const partitions = new Map<string, readonly string[]>();
  return {
    load: (partition: Partition) => Promise.resolve({ lines: partitions.get(partition.id) ?? [], intact: false }),
    save: (partition: Partition, lines: readonly string[]) => Promise.resolve(void partitions.set(partition.id, [...lines])),
    clear: (partition: Partition) => Promise.resolve(void partitions.delete(partition.id)),
  };
}

it("plans exactly the requests the refresh then sends, and sends none itself", async () => {
  const tokens = harness.tokens();
  const subject = subjectOfToken(await tokens.getToken()) ?? "";
  const backend = memoryBackend();
  const today = harness.sandbox.data.today;
  const open = () => openPersistentCache({ baseUrl: harness.sandbox.apiUrl, subject, backend, today: () => today, scheduleFlush: () => undefined });
  const symbols = harness.sandbox.data.instruments.slice(0, 30).map((item) => item.record.symbol);
  const keys: PriceKey[] = [...symbols.flatMap((symbol) => weekdaysBefore(today, 30).map((date) => ({ symbol, date }))), ...symbols.map((symbol) => ({ symbol }))];

  const first = await open();
  const cold = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: tokens, fetch: harness.fetch, storage: first });
  await Promise.all(keys.map((key) => cold.price(key)));
  await first.flush();

  const before = harness.counts.api;
  const recorder = planRecorder(harness.sandbox.apiUrl);
  const planning = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: tokens, fetch: recorder.fetch, storage: await open(), retry: { limit: 1 } });
  await Promise.allSettled(keys.map((key) => planning.price(key)));
  const plan = summarizePlan(recorder.requests, planning.stats());
  expect(harness.counts.api).toBe(before);

  const sent: PlannedRequest[] = [];
  const watching = planRecorder(harness.sandbox.apiUrl);
  const passing = ((input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    void watching.fetch(input, init).catch(() => undefined);
    sent.push(...watching.requests.splice(0));
    return harness.fetch(input, init);
  }) as typeof fetch;
  const refreshing = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: tokens, fetch: passing, storage: await open() });
  const answers = await Promise.allSettled(keys.map((key) => refreshing.price(key)));
  expect(answers.every((answer) => answer.status === "fulfilled")).toBe(true);

  expect(recorder.requests).toEqual(sent);
  expect(harness.counts.api - before).toBe(sent.length);
  expect(plan.requests).toBe(refreshing.stats().requestsSent);
  expect(plan.records).toBe(refreshing.stats().recordsRequested);
  expect(plan.fromCache).toBe(refreshing.stats().cacheHits);
  expect(plan.fromCache).toBeGreaterThan(0);
  expect(plan.keys).toBe(keys.length);
  expect(describePlan(plan)).toMatch(/^\d+ requests?, [\d,]+ records, [\d,]+ of [\d,]+ values from the cache, /);
  expect(needsConfirmation(plan, { requests: plan.requests - 1, records: Number.MAX_SAFE_INTEGER })).toBe(true);
  expect(needsConfirmation(plan, { requests: plan.requests, records: plan.records })).toBe(false);
});

it("reads keys back from their ids, and plans asking them again as a cold client would send it", async () => {
  const { normHistoryKey, normPriceKey } = await import("../../src/prices/keys");
  const ids = [
    normPriceKey({ symbol: "mb-cu-0001", date: "2025-6-2" }).id,
    normPriceKey({ symbol: "MB-CU-0001" }).id,
    normPriceKey({ symbol: "MB-CU-0001", date: "2025-06-02", calculationType: "MonthlyAverage", fields: ["pricingRationale"], currency: "eur", unit: "lb" }).id,
    normHistoryKey({ symbol: "MB-CU-0001", fromDate: "2025-01-01", toDate: "2025-03-31", calendarType: "Weekdays", carryForward: true, currency: "EUR" }).id,
    normHistoryKey({ symbol: "MB-CU-0001", fromDate: "2025-01-01", toDate: "2025-03-31", forecastType: "F24M", fields: ["assessmentPeriod"] }).id,
  ];
  const { keyOfId, planKeys } = await import("../../src/sessions/refresh-plan");
  const back = ids.map((id) => {
    const key = keyOfId(id);
    if (!key) return undefined;
    return "price" in key ? normPriceKey(key.price).id : normHistoryKey(key.history).id;
  });
  expect(back).toEqual(ids);
  expect(keyOfId("r|Currency")).toBeUndefined();

  const symbols = harness.sandbox.data.instruments.slice(0, 20).map((item) => item.record.symbol);
  const keys = symbols.flatMap((symbol) => weekdaysBefore(harness.sandbox.data.today, 10).map((date) => normPriceKey({ symbol, date }).id));
  const before = harness.counts.api;
  const plan = await planKeys(keys, { baseUrl: harness.sandbox.apiUrl, createClient: createPricesClient });
  expect(harness.counts.api).toBe(before);
  const cold = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: harness.tokens(), fetch: harness.fetch });
  await Promise.all(keys.map((id) => cold.price((keyOfId(id) as { price: PriceKey }).price)));
  expect(plan.requests).toBe(cold.stats().requestsSent);
  expect(plan.records).toBe(cold.stats().recordsRequested);
  expect(plan.keys).toBe(keys.length);
});
