/** The client against the sandbox with injected faults: every key settles, retries keep to the policy. */
import { HTTPError, NetworkError, TimeoutError, createPricesClient, type PriceKey, type PricesClient } from "../../src/prices";
import { expectedOn, startHarness, weekdaysBefore, type Harness } from "./sandbox-helpers";

// A bound against a hang, not a speed target: on two busy cores the sandbox in this process answers slowly.
jest.setTimeout(600_000);

/** Fails the test instead of hanging if some key never settles. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

// The timeout is far above a loaded machine's answer time: the faults under test are the sandbox's, not the machine's.
const policy = { retry: { backoffBaseMs: 10, backoffMaxMs: 50, maxRetryAfterMs: 100 }, timeoutMs: 30_000 };
const limits = { maxSymbols: 4, maxDates: 3 };

function clientFor(harness: Harness, extra: object = {}): PricesClient {
  return createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: harness.tokens(), fetch: harness.fetch, limits, ...policy, ...extra });
}

function gridKeys(harness: Harness, symbolCount: number, dateCount: number): PriceKey[] {
  const symbols = harness.sandbox.data.instruments.slice(0, symbolCount).map((item) => item.record.symbol);
  const dates = weekdaysBefore("2024-05-31", dateCount);
  return symbols.flatMap((symbol) => dates.map((date) => ({ symbol, date })));
}

describe("mixed faults: latency, 500, 503, 429, drops and truncated bodies", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ faults: "latency=40ms:0.3,500:0.1,503:0.1,429=1:0.1,drop:0.05,truncate:0.05,seed=11" });
  });
  afterAll(() => harness.close());

  it("settles every key, never exceeds the attempts policy, and answers right values once retried", async () => {
    const client = clientFor(harness);
    const keys = gridKeys(harness, 12, 9);
    const apiBefore = harness.counts.api;
    const first = await within(300_000, Promise.allSettled(keys.map((key) => client.price(key))));
    const stats = client.stats();
    expect(stats.requestsSent).toBe(Math.ceil(12 / 4) * Math.ceil(9 / 3));
    expect(harness.counts.api - apiBefore).toBe(stats.attempts);
    expect(stats.attempts).toBeLessThanOrEqual(stats.requestsSent * 3);
    expect(stats.retries).toBeGreaterThan(0);
    for (const result of first) {
      if (result.status === "rejected") expect(["HTTPError", "NetworkError", "TimeoutError"]).toContain((result.reason as Error).name);
    }
    // Ask again until the faults let every key through: failures were not cached, values are right.
    let round = 0;
    let results = first;
    while (results.some((result) => result.status === "rejected") && round < 10) {
      round += 1;
      results = await within(300_000, Promise.allSettled(keys.map((key) => client.price(key))));
    }
    results.forEach((result, index) => {
      const key = keys[index] as PriceKey;
      expect(result.status).toBe("fulfilled");
      if (result.status === "fulfilled") expect(result.value).toMatchObject(expectedOn(harness.sandbox.data, key.symbol, key.date as string) ?? {});
    });
  });
});

describe.each([
  ["503", "503:1", HTTPError, 503],
  ["500", "500:1", HTTPError, 500],
  ["dropped connections", "drop:1", NetworkError, 0],
  ["truncated JSON", "truncate:1", NetworkError, 0],
] as const)("an outage of %s", (_, faults, errorClass, status) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ faults });
  });
  afterAll(() => harness.close());

  it("fails every key after exactly 3 attempts per request, with the cause", async () => {
    const client = clientFor(harness);
    const keys = gridKeys(harness, 5, 4);
    const apiBefore = harness.counts.api;
    const results = await within(120_000, Promise.allSettled(keys.map((key) => client.price(key))));
    const stats = client.stats();
    expect(stats.requestsSent).toBe(Math.ceil(5 / 4) * Math.ceil(4 / 3));
    expect(harness.counts.api - apiBefore).toBe(stats.requestsSent * 3);
    for (const result of results) {
      const reason = (result as PromiseRejectedResult).reason as HTTPError;
      expect(reason).toBeInstanceOf(errorClass);
      expect(reason.status).toBe(status);
    }
  });
});

describe("an outage of 429 with Retry-After: 1", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ faults: "429=1:1" });
  });
  afterAll(() => harness.close());

  it("waits the second asked between attempts when the policy allows it, 3 attempts per request", async () => {
    const client = clientFor(harness, { retry: { ...policy.retry, maxRetryAfterMs: 1_500 } });
    const keys = gridKeys(harness, 5, 4);
    const apiBefore = harness.counts.api;
    const results = await within(120_000, Promise.allSettled(keys.map((key) => client.price(key))));
    const requests = Math.ceil(5 / 4) * Math.ceil(4 / 3);
    expect(client.stats().requestsSent).toBe(requests);
    expect(harness.counts.api - apiBefore).toBe(requests * 3);
    expect(client.lineage(keys[0] as PriceKey)?.request?.retryDelaysMs).toEqual([1_000, 1_000]);
    for (const result of results) expect(((result as PromiseRejectedResult).reason as HTTPError).status).toBe(429);
  });

  it("fails at once, saying when to retry, when the wait is longer than the policy allows", async () => {
    const client = clientFor(harness);
    const keys = gridKeys(harness, 5, 4);
    const apiBefore = harness.counts.api;
    const results = await within(120_000, Promise.allSettled(keys.map((key) => client.price(key))));
    const requests = Math.ceil(5 / 4) * Math.ceil(4 / 3);
    expect(harness.counts.api - apiBefore).toBe(requests);
    for (const result of results) {
      const reason = (result as PromiseRejectedResult).reason as HTTPError;
      expect(reason).toBeInstanceOf(HTTPError);
      expect(reason.status).toBe(429);
      expect(reason.message).toMatch(/; retry after 1 s$/);
    }
  });
});

describe("latency beyond the timeout", () => {
  let harness: Harness;
  beforeAll(async () => {
    // An answer ten times later than the client's timeout, however slowly the machine runs both.
    harness = await startHarness({ faults: "latency=3s:1" });
  });
  afterAll(() => harness.close());

  it("times out every attempt and settles every key with TimeoutError", async () => {
    const client = clientFor(harness, { timeoutMs: 300, retry: { limit: 2, backoffBaseMs: 5, backoffMaxMs: 10 } });
    const keys = gridKeys(harness, 2, 2);
    const results = await within(120_000, Promise.allSettled(keys.map((key) => client.price(key))));
    for (const result of results) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(TimeoutError);
    expect(client.stats().attempts).toBe(2);
  });
});
