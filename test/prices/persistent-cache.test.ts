/** The persistent cache with the file backend, against the real sandbox: reopen, partitions, versions, bound, offline. */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addDays } from "../../src/api/dates";
import { createPricesClient, isNetworkError, type PricesClient, type TokenProvider } from "../../src/prices";
import { FileCacheBackend } from "../../src/prices/persistent/file-backend";
import { type PersistentCache, openPersistentCache, subjectOfToken } from "../../src/prices/persistent";
import { startHarness, weekdaysBefore, type Harness } from "./sandbox-helpers";

jest.setTimeout(180_000);

describe("persistent cache against the sandbox", () => {
  let harness: Harness;
  let dir: string;
  let tokens: TokenProvider;
  let subject: string;
  let today: string;
  let symbol: string;
  let finalDate: string;
  let recentDate: string;

  beforeAll(async () => {
    harness = await startHarness({ today: "2025-06-30" });
    tokens = harness.tokens();
    subject = subjectOfToken(await tokens.getToken()) ?? "";
    today = harness.sandbox.data.today;
    symbol = harness.sandbox.data.instruments.find((item) => item.record.symbol.startsWith("MT"))?.record.symbol ?? harness.sandbox.data.instruments[0]?.record.symbol ?? "";
    const weekdays = weekdaysBefore(today, 25);
    finalDate = weekdays[20] ?? "";
    recentDate = weekdays[2] ?? "";
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "prices-persistent-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  afterAll(() => harness.close());

  async function session(options: { subject?: string; baseUrl?: string; version?: string; maxBytes?: number; lastKnown?: boolean; fetch?: typeof fetch; tokenProvider?: TokenProvider } = {}): Promise<{ cache: PersistentCache; client: PricesClient }> {
    const cache = await openPersistentCache({
      baseUrl: options.baseUrl ?? harness.sandbox.apiUrl,
      subject: options.subject ?? subject,
      backend: new FileCacheBackend(dir),
      today: () => today,
      scheduleFlush: () => undefined,
      lastKnownWhenUnreachable: () => options.lastKnown === true,
      ...(options.version === undefined ? {} : { addinVersion: options.version }),
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    });
    const client = createPricesClient({
      baseUrl: harness.sandbox.apiUrl,
      tokenProvider: options.tokenProvider ?? tokens,
      fetch: options.fetch ?? harness.fetch,
      storage: cache,
      retry: { limit: 1 },
    });
    return { cache, client };
  }

  function ask(opened: { client: PricesClient }, keys: { symbol: string; date?: string }[]): Promise<PromiseSettledResult<unknown>[]> {
    return Promise.allSettled(keys.map((key) => opened.client.price(key)));
  }

  it("serves a final record on reopen with no request and asks again a record inside the correction window and the latest", async () => {
    const keys = [{ symbol, date: finalDate }, { symbol, date: recentDate }, { symbol }];
    const first = await session();
    const cold = await ask(first, keys);
    expect(cold.every((answer) => answer.status === "fulfilled")).toBe(true);
    await first.cache.flush();

    const second = await session();
    const requestsBefore = harness.counts.api;
    const warm = await ask(second, keys);
    expect(warm.map((answer) => answer.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    expect(warm[0]).toEqual(cold[0]);
    // One window: the record inside the window and the latest, not the final one.
    const stats = second.client.stats();
    expect(stats.keysRequested).toBe(2);
    expect(harness.counts.api - requestsBefore).toBe(stats.requestsSent);
    expect(second.client.lineage({ symbol, date: finalDate })?.cacheNote).toBe(`from the cache, final since ${addDays(finalDate, 8)}`);
    expect(second.client.lineage({ symbol, date: finalDate })?.fromCache).toBe(true);
    expect(second.client.lineage({ symbol, date: recentDate })?.cacheNote).toBe("asked again: inside the correction window");
    expect(second.client.lineage({ symbol })?.cacheNote).toBe("asked again: a latest value may have changed");
  });

  it("does not count a record fetched inside its window as final later: it may have been corrected since", async () => {
    const first = await session();
    await ask(first, [{ symbol, date: recentDate }]);
    await first.cache.flush();
    const later = today;
    today = addDays(today, 30);
    try {
      const second = await session();
      await ask(second, [{ symbol, date: recentDate }]);
      expect(second.client.stats().keysRequested).toBe(1);
    } finally {
      today = later;
    }
  });

  it("never serves another subject's or another environment's records", async () => {
    const first = await session();
    await ask(first, [{ symbol, date: finalDate }]);
    await first.cache.flush();

    const other = await session({ subject: "sandbox-trial" });
    expect(other.cache.size).toBe(0);
    await ask(other, [{ symbol, date: finalDate }]);
    expect(other.client.stats().keysRequested).toBe(1);

    const elsewhere = await session({ baseUrl: "https://prices.example.com/physical/v2" });
    expect(elsewhere.cache.size).toBe(0);
    expect(elsewhere.cache.lines()).toEqual([]);

    // The trial client's own token names its own subject, so its session opens its own partition.
    const trialSubject = subjectOfToken(await harness.tokens("sandbox-trial").getToken());
    expect(trialSubject).toBeDefined();
    expect(trialSubject).not.toBe(subject);
  });

  it("empties the cache when the add-in version changes", async () => {
    const first = await session({ version: "0.1.0" });
    await ask(first, [{ symbol, date: finalDate }]);
    await first.cache.flush();
    expect(readdirSync(dir)).toHaveLength(1);

    const bumped = await session({ version: "0.2.0" });
    expect(bumped.cache.size).toBe(0);
    expect(readdirSync(dir)).toHaveLength(0);
    await ask(bumped, [{ symbol, date: finalDate }]);
    expect(bumped.client.stats().keysRequested).toBe(1);
  });

  it("holds its byte bound, the least recently used out first", async () => {
    const dates = weekdaysBefore(addDays(today, -10), 60);
    const maxBytes = 6_000;
    const opened = await session({ maxBytes });
    await ask(
      opened,
      dates.map((date) => ({ symbol, date })),
    );
    const idOf = (line: string): string => JSON.parse(line.slice(0, line.indexOf("\t"))) as string;
    const before = opened.cache.lines().map(idOf);
    expect(before.length).toBeGreaterThan(3);
    expect(before.length).toBeLessThan(dates.length);
    // The least recently used entry is read again: it stays, and the next oldest goes when a new one comes.
    const [oldest, secondOldest] = before;
    const dateOf = (id: string | undefined): string => id?.split("|")[2] ?? "";
    await ask(opened, [{ symbol, date: dateOf(oldest) }]);
    const newcomer = addDays(dates.at(-1) ?? "", -3);
    await ask(opened, [{ symbol, date: newcomer }]);
    expect(opened.cache.bytes).toBeLessThanOrEqual(maxBytes);
    await opened.cache.flush();
    const [file] = readdirSync(dir);
    const header = readFileSync(join(dir, file ?? ""), "utf8").split("\n")[0] ?? "";
    expect(statSync(join(dir, file ?? "")).size - header.length - 1).toBeLessThanOrEqual(maxBytes);
    const kept = opened.cache.lines().map(idOf);
    expect(kept).toContain(oldest);
    expect(kept).not.toContain(secondOldest);
    expect(kept.at(-1)).toBe(`p|${symbol}|${newcomer}|None|`);
  });

  it("leaves out damaged lines, finding a damaged value when it is first read, and asks those keys again", async () => {
    const dates = weekdaysBefore(addDays(today, -10), 5);
    const keys = dates.map((date) => ({ symbol, date }));
    const first = await session();
    const cold = await ask(first, keys);
    await first.cache.flush();
    const [file] = readdirSync(dir);
    const path = join(dir, file ?? "");
    const [header, ...lines] = readFileSync(path, "utf8").split("\n");
    const lineOf = (date: string): string => lines.find((line) => line.includes(`|${date}|`)) ?? "";
    const [good, badHead, badValue, oldForm, badDay] = dates.map(lineOf);
    const [id, day, storedAt, , value] = (oldForm ?? "").split("\t");
    const damaged = [
      good,
      `{${badHead}`,
      "",
      badValue?.slice(0, badValue.lastIndexOf("\t") + 20),
      // The previous format, `[id, day, storedAt, value]` on one JSON line.
      `[${id},"${day}",${storedAt},${value}]`,
      // A day of the right shape that no calendar has.
      badDay?.replace(/\t\d{4}-\d{2}-\d{2}\t/, "\t2024-13-45\t"),
    ];
    writeFileSync(path, [header, ...damaged].join("\n") + "\n");

    const second = await session();
    expect(second.cache.size).toBe(2);
    const warm = await ask(second, keys);
    expect(warm).toEqual(cold);
    // Only the intact line is served from the cache; the damaged value was found when read and dropped.
    expect(second.client.stats().keysRequested).toBe(4);
    expect(second.client.lineage({ symbol, date: dates[0] ?? "" })?.cacheNote).toMatch(/^from the cache, final since /);
    expect(second.cache.lines().every((line) => !line.startsWith("{") && line.split("\t").length === 5)).toBe(true);
  });

  it("never stores a token", async () => {
    const opened = await session();
    await ask(opened, [{ symbol, date: finalDate }, { symbol, date: recentDate }, { symbol }]);
    await opened.client.instrument(symbol);
    await opened.cache.flush();
    const token = await tokens.getToken();
    for (const name of readdirSync(dir)) {
      const text = readFileSync(join(dir, name), "utf8");
      expect(text).not.toContain(token);
      for (const part of token.split(".")) expect(text).not.toContain(part);
      expect(text.toLowerCase()).not.toContain("bearer");
    }
  });

  it("fills final records when the service is unreachable, and last known values only when the setting asks", async () => {
    const first = await session();
    await ask(first, [{ symbol, date: finalDate }, { symbol, date: recentDate }]);
    await first.cache.flush();
    const unreachable = (() => Promise.reject(new TypeError("fetch failed: connect ECONNREFUSED"))) as unknown as typeof fetch;

    const off = await session({ fetch: unreachable });
    const [final, recent] = await ask(off, [{ symbol, date: finalDate }, { symbol, date: recentDate }]);
    expect(final?.status).toBe("fulfilled");
    expect(recent?.status).toBe("rejected");
    expect(recent?.status === "rejected" && isNetworkError(recent.reason)).toBe(true);
    expect(off.cache.offline()).toEqual({ values: 0, since: undefined });

    const on = await session({ fetch: unreachable, lastKnown: true });
    const [finalOn, recentOn] = await ask(on, [{ symbol, date: finalDate }, { symbol, date: recentDate }]);
    expect(finalOn?.status).toBe("fulfilled");
    expect(recentOn?.status).toBe("fulfilled");
    const summary = on.cache.offline();
    expect(summary.values).toBe(1);
    expect(typeof summary.since).toBe("number");
    expect(on.client.lineage({ symbol, date: recentDate })?.cacheNote).toMatch(/^last known value, fetched .*: the service was unreachable$/);
  });
});

describe("persistent cache lines", () => {
  it("reads back a key whose id holds a quote, a backslash or a tab, and its value", async () => {
    const saved = new Map<string, readonly string[]>();
    const backend = {
      load: () => Promise.resolve({ lines: saved.get("lines") ?? [], intact: false }),
      save: (_partition: unknown, lines: readonly string[]) => Promise.resolve(void saved.set("lines", [...lines])),
      clear: () => Promise.resolve(void saved.clear()),
    };
    const options = { baseUrl: "https://prices.example.com", subject: "someone", backend, today: () => "2025-06-30", scheduleFlush: () => undefined };
    const ids = ['p|A"B|2025-06-02|None|', "p|A\\B|2025-06-02|None|", "p|A\tB|2025-06-02|None|", "p|MB-CU-0001|2025-06-02|None|"];
    // A price record as the service answers it (a stored value passes the response checks when read back).
    const record = (index: number): Record<string, unknown> => ({ date: "2025-06-02", assessmentDate: "2025-06-02T16:00:00Z", revision: 0, low: index, mid: index, high: index, pricingRationale: "tab\there" });
    const first = await openPersistentCache(options);
    ids.forEach((id, index) => first.set(id, { kind: "price", value: record(index), storedAt: 1_000 + index, expiresAt: 2_000, bytes: 64 }));
    await first.flush();
    const second = await openPersistentCache(options);
    expect(ids.map((id) => second.get(id)?.value)).toEqual(ids.map((_id, index) => record(index)));
    expect(second.get(ids[0] ?? "")).toMatchObject({ kind: "price", symbol: 'A"B', storedAt: 1_000 });
  });
});
