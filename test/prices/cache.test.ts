import { MemoryCacheStorage, InvalidInstrumentError, NoDataError, type CacheStorage, type StoredEntry } from "../../src/prices";
import { checkBatch } from "../../src/prices/plan-requests";
import { midOf, problem } from "./fake-service";
import { flushAll, reasonOf, setup, valueOf, within } from "./setup";

/** A storage that hands back JSON copies, as a persistent store would; `fail` makes chosen operations throw. */
function copyingStorage(fail: { set?: (key: string) => boolean; get?: boolean } = {}): CacheStorage {
  const inner = new MemoryCacheStorage({ maxEntries: 100, maxBytes: 1e9 });
  return {
    get: (key) => {
      if (fail.get) throw new Error("storage unreadable");
      const value = inner.get(key);
      return value ? (JSON.parse(JSON.stringify(value)) as StoredEntry) : undefined;
    },
    set: (key, value) => {
      if (fail.set?.(key)) throw new Error("storage full");
      inner.set(key, JSON.parse(JSON.stringify(value)) as StoredEntry);
    },
    delete: (key) => inner.delete(key),
    keys: () => inner.keys(),
    get size() {
      return inner.size;
    },
    get bytes() {
      return inner.bytes;
    },
  };
}

const HOUR = 3_600_000;
const past = { symbol: "AAA", date: "2024-03-01" };

describe("cache ages", () => {
  it("keeps a past day's value for 24 hours", async () => {
    const { client, manual, calls, clock } = setup();
    const [first] = await flushAll(manual, [client.price(past)]);
    clock.now += 23 * HOUR;
    const again = await client.price(past);
    expect(again).toBe(valueOf(first));
    expect(calls).toHaveLength(1);
    clock.now += 2 * HOUR;
    const later = client.price(past);
    manual.flush();
    await later;
    expect(calls).toHaveLength(2);
    expect(client.stats()).toMatchObject({ keysAsked: 3, cacheHits: 1 });
  });

  it.each([
    ["latest", { symbol: "AAA" }],
    ["today", { symbol: "AAA", date: "2024-06-28" }],
  ])("keeps %s for 5 minutes only", async (_, key) => {
    const { client, manual, calls, clock } = setup();
    await flushAll(manual, [client.price(key)]);
    clock.now += 4 * 60_000;
    await client.price(key);
    expect(calls).toHaveLength(1);
    clock.now += 2 * 60_000;
    await flushAll(manual, [client.price(key)]);
    expect(calls).toHaveLength(2);
  });

  it("keeps instruments and references for 24 hours", async () => {
    const { client, manual, calls, clock } = setup();
    await flushAll<unknown>(manual, [client.instrument("AAA"), client.references("Currency")]);
    clock.now += 23 * HOUR;
    await Promise.all([client.instrument("AAA"), client.references("Currency")]);
    expect(calls).toHaveLength(2);
    clock.now += 2 * HOUR;
    await flushAll<unknown>(manual, [client.instrument("AAA"), client.references("Currency")]);
    expect(calls).toHaveLength(4);
  });

  it("never caches a 5xx or network failure", async () => {
    const { client, manual, service } = setup();
    service.script.push(problem(503), problem(503), problem(503));
    const [failed] = await flushAll(manual, [client.price(past)]);
    expect(reasonOf(failed).name).toBe("HTTPError");
    const [next] = await flushAll(manual, [client.price(past)]);
    expect(valueOf(next).date).toBe(past.date);
    expect(service.calls).toHaveLength(4);
  });

  it("keeps an unknown instrument's error briefly (errorTtlMs), then asks again", async () => {
    const { client, manual, calls, clock } = setup({ fake: { unknown: ["NOPE"] } });
    await flushAll(manual, [client.price({ symbol: "NOPE", date: "2024-03-01" })]);
    await expect(client.price({ symbol: "NOPE", date: "2024-03-01" })).rejects.toBeInstanceOf(InvalidInstrumentError);
    expect(calls).toHaveLength(1);
    clock.now += 61_000;
    const [again] = await flushAll(manual, [client.price({ symbol: "NOPE", date: "2024-03-01" })]);
    expect(reasonOf(again)).toBeInstanceOf(InvalidInstrumentError);
    expect(calls).toHaveLength(2);
  });

  it("answers a cached unknown-instrument error with the service's detail, as the first answer had it", async () => {
    const detail = "Calculation type MonthlyAverage is not available for this instrument";
    const { client, manual, calls } = setup({ fake: { unknown: ["AAA"], invalidMessage: detail }, storage: copyingStorage() });
    const key = { symbol: "AAA", date: "2024-03-15", calculationType: "MonthlyAverage" as const };
    const [first] = await flushAll(manual, [client.price(key)]);
    const fresh = reasonOf(first) as InvalidInstrumentError;
    expect(fresh.detail).toBe(detail);
    const cached = (await client.price(key).then(() => undefined, (error: unknown) => error)) as InvalidInstrumentError;
    expect(calls).toHaveLength(1);
    expect(cached).toBeInstanceOf(InvalidInstrumentError);
    expect({ name: cached.name, message: cached.message, symbol: cached.symbol, detail: cached.detail }).toEqual({
      name: "InvalidInstrumentError",
      message: `AAA: unknown or not permitted (${detail})`,
      symbol: "AAA",
      detail,
    });
  });

  it("answers a cached no-data error with its symbol, date and message", async () => {
    const { client, manual, calls } = setup({ fake: { firstDate: { LATE: "2024-03-01" } }, storage: copyingStorage() });
    const key = { symbol: "LATE", date: "2024-02-01" };
    await flushAll(manual, [client.price(key)]);
    const cached = (await client.price(key).then(() => undefined, (error: unknown) => error)) as NoDataError;
    expect(calls).toHaveLength(1);
    expect(cached).toBeInstanceOf(NoDataError);
    expect({ message: cached.message, symbol: cached.symbol, date: cached.date }).toEqual({ message: "LATE: no assessment on or before 2024-02-01", symbol: "LATE", date: "2024-02-01" });
  });

  it("settles every key of a batch when the storage throws on writing", async () => {
    let writes = 0;
    // The second write throws, and every write of the unknown symbol's error.
    const storage = copyingStorage({ set: (key) => (writes += 1) === 2 || key.includes("NOPE") });
    const { client, manual } = setup({ fake: { unknown: ["NOPE"] }, storage });
    const keys = ["AAA", "BBB", "NOPE", "CCC"].map((symbol) => ({ symbol, date: "2024-03-01" }));
    const results = await within(60_000, flushAll(manual, keys.map((key) => client.price(key))));
    for (const index of [0, 1, 3]) expect(valueOf(results[index]).mid).toBe(midOf(keys[index]?.symbol ?? "", "2024-03-01"));
    expect(reasonOf(results[2])).toBeInstanceOf(InvalidInstrumentError);
    expect(client.stats()).toMatchObject({ errors: 1, failedRequests: 0 });
  });

  it("answers from the service when the storage throws on reading", async () => {
    const { client, manual, calls } = setup({ storage: copyingStorage({ get: true }) });
    const [result] = await within(60_000, flushAll(manual, [client.price(past)]));
    expect(valueOf(result).mid).toBe(midOf("AAA", past.date));
    expect(calls).toHaveLength(1);
  });

  it("shares one pending request between concurrent asks of the same key in different windows", async () => {
    const { client, manual, calls } = setup();
    const first = client.price(past);
    manual.flush();
    const second = client.price(past);
    expect(manual.pending).toBe(0);
    expect(await second).toBe(await first);
    expect(calls).toHaveLength(1);
  });
});

describe("invalidate", () => {
  async function warm() {
    const context = setup();
    const { client, manual } = context;
    await flushAll<unknown>(manual, [
      client.price({ symbol: "AAA", date: "2024-03-01" }),
      client.price({ symbol: "BBB", date: "2024-03-01" }),
      client.history({ symbol: "AAA", fromDate: "2024-03-01", toDate: "2024-03-05" }),
      client.instrument("AAA"),
      client.references("Currency"),
    ]);
    return context;
  }

  it("drops everything without a filter", async () => {
    const { client } = await warm();
    expect(client.invalidate()).toBe(5);
    expect(client.stats().cacheEntries).toBe(0);
  });

  it("drops exactly the keys given (a one-cell refresh), in their normal form, and ignores a key that cannot be normalised", async () => {
    const { client } = await warm();
    expect(client.invalidate({ keys: [{ symbol: "aaa", date: "2024-03-01" }, { symbol: "", date: "nope" }] })).toBe(1);
    expect(client.stats().cacheEntries).toBe(4);
    expect(client.invalidate({ keys: [{ symbol: "AAA", date: "2024-03-01" }] })).toBe(0);
    expect(client.invalidate({ keys: [{ symbol: "BBB", date: "2024-03-01" }], kinds: ["history"] })).toBe(0);
  });

  it("drops by kind", async () => {
    const { client } = await warm();
    expect(client.invalidate({ kinds: ["price", "reference"] })).toBe(3);
    expect(client.stats().cacheEntries).toBe(2);
  });

  it("drops by symbol in any letter case, keeping keys without a symbol", async () => {
    const { client, manual, calls } = await warm();
    expect(client.invalidate({ symbols: ["aaa"] })).toBe(3);
    const before = calls.length;
    await client.price({ symbol: "BBB", date: "2024-03-01" });
    await client.references("Currency");
    expect(calls).toHaveLength(before);
    await flushAll(manual, [client.price({ symbol: "AAA", date: "2024-03-01" })]);
    expect(calls).toHaveLength(before + 1);
  });

  it("does not store the answer of a request invalidated while in flight", async () => {
    const { client, manual } = setup();
    const pending = client.price(past);
    expect(client.invalidate()).toBe(0);
    manual.flush();
    await pending;
    expect(client.stats().cacheEntries).toBe(0);
  });
});

describe("bounded storage", () => {
  const entry = (bytes: number): StoredEntry => ({ kind: "price", storedAt: 0, expiresAt: 1, bytes, value: 1 });

  it("evicts the least recently used entry beyond maxEntries", () => {
    const storage = new MemoryCacheStorage({ maxEntries: 3, maxBytes: 1e9 });
    for (const key of ["a", "b", "c"]) storage.set(key, entry(10));
    storage.get("a");
    storage.set("d", entry(10));
    expect([...storage.keys()].sort()).toEqual(["a", "c", "d"]);
  });

  it("evicts beyond maxBytes and refuses an entry larger than the whole budget", () => {
    const storage = new MemoryCacheStorage({ maxEntries: 100, maxBytes: 100 });
    storage.set("a", entry(40));
    storage.set("b", entry(40));
    storage.set("c", entry(40));
    expect([...storage.keys()]).toEqual(["b", "c"]);
    expect(storage.bytes).toBe(80);
    storage.set("huge", entry(101));
    expect(storage.size).toBe(2);
  });

  it("counts a key kept again once, and moves it to the back of the eviction order", () => {
    const storage = new MemoryCacheStorage({ maxEntries: 3, maxBytes: 1e9 });
    for (const key of ["a", "b", "c"]) storage.set(key, entry(40));
    const again = entry(40);
    storage.set("a", again);
    expect(storage.size).toBe(3);
    expect(storage.bytes).toBe(120);
    expect(storage.peek("a")).toBe(again);
    storage.set("d", entry(40));
    expect([...storage.keys()]).toEqual(["c", "a", "d"]);
  });

  it("keeps the client's cache within maxEntries", async () => {
    const { client, manual, calls } = setup({ cache: { maxEntries: 3 } });
    const dates = ["2024-03-01", "2024-03-02", "2024-03-03", "2024-03-04", "2024-03-05"];
    await flushAll(manual, dates.map((date) => client.price({ symbol: "AAA", date })));
    expect(client.stats().cacheEntries).toBe(3);
    await flushAll(manual, [client.price({ symbol: "AAA", date: "2024-03-05" })]);
    expect(calls).toHaveLength(1);
    await flushAll(manual, [client.price({ symbol: "AAA", date: "2024-03-01" })]);
    expect(calls).toHaveLength(2);
  });

  it("stores plain JSON (a history's assessed dates as an array) and restores a Set", async () => {
    const stored = new Map<string, StoredEntry>();
    const inner = new MemoryCacheStorage({ maxEntries: 100, maxBytes: 1e9 });
    const storage = {
      get: (key: string) => {
        const value = inner.get(key);
        // A persistent store hands back a copy, not the object it was given.
        return value ? (JSON.parse(JSON.stringify(value)) as StoredEntry) : undefined;
      },
      set: (key: string, value: StoredEntry) => {
        stored.set(key, value);
        inner.set(key, value);
      },
      delete: (key: string) => inner.delete(key),
      keys: () => inner.keys(),
      get size() {
        return inner.size;
      },
      get bytes() {
        return inner.bytes;
      },
    };
    const { client, manual } = setup({ storage });
    const key = { symbol: "AAA", fromDate: "2024-03-01", toDate: "2024-03-06" };
    const [first] = await flushAll(manual, [client.history(key)]);
    const entry = [...stored.values()][0];
    const copy = JSON.parse(JSON.stringify(entry)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(entry ?? {})) expect(copy[name]).toEqual(value);
    const again = await client.history(key);
    expect(again.assessedDates).toBeInstanceOf(Set);
    expect([...again.assessedDates].sort()).toEqual([...valueOf(first).assessedDates].sort());
    expect(again.prices).toEqual(valueOf(first).prices);
  });
});

describe("statistics and lineage", () => {
  it("counts keys, hits, requests and records", async () => {
    const { client, manual } = setup();
    await flushAll(manual, [client.price({ symbol: "AAA", date: "2024-03-01" }), client.price({ symbol: "AAA", date: "2024-03-02" }), client.price({ symbol: "BBB", date: "2024-03-01" })]);
    await client.price({ symbol: "AAA", date: "2024-03-01" });
    expect(client.stats()).toMatchObject({ keysAsked: 4, cacheHits: 1, keysRequested: 3, requestsSent: 1, attempts: 1, retries: 0, errors: 0, cacheEntries: 3 });
    // The planner may fetch the 2 x 2 rectangle (4 records for 3 asked) in one request.
    expect(client.stats().recordsReceived).toBe(client.stats().recordsRequested);
  });

  it("tells which request served a key, and that a later ask came from the cache", async () => {
    const { client, manual, clock } = setup();
    const sentAt = clock.now;
    await flushAll(manual, [client.price(past)]);
    const fresh = client.lineage(past);
    expect(fresh).toMatchObject({ kind: "price", fromCache: false, requestId: 1 });
    expect(fresh?.request).toMatchObject({ id: 1, endpoint: "/Prices", method: "GET", sentAt, attempts: 1, keys: 1, status: 200 });
    expect(fresh?.request?.params).toMatchObject({ Symbols: "AAA", Dates: "2024-03-01" });
    clock.now += 1000;
    await client.price({ ...past, symbol: "aaa" });
    expect(client.lineage(past)).toMatchObject({ fromCache: true, requestId: 1, askedAt: sentAt + 1000 });
    expect(client.lineage({ symbol: "ZZZ" })).toBeUndefined();
  });

  it("remembers a bounded number of request descriptions", async () => {
    const { client, manual } = setup({ maxLineageRequests: 2 });
    for (const symbol of ["A", "B", "C"]) await flushAll(manual, [client.price({ symbol })]);
    expect(client.lineage({ symbol: "A" })?.request).toBeUndefined();
    expect(client.lineage({ symbol: "A" })?.requestId).toBe(1);
    expect(client.lineage({ symbol: "C" })?.request?.id).toBe(3);
  });
});

describe("the batch contract", () => {
  it("accepts one result per key", () => {
    expect(checkBatch([1, new Error("x")], 2)).toHaveLength(2);
  });

  it.each([[[1]], [[1, 2, 3]], [undefined]])("rejects %p for two keys", (results) => {
    expect(() => checkBatch(results, 2)).toThrow(/results for 2 keys/);
  });

  it("settles every key even when a scheduler throws", async () => {
    const { client } = setup({
      scheduler: () => {
        throw new Error("scheduler broke");
      },
    });
    await expect(client.price(past)).rejects.toThrow("scheduler broke");
  });
});
