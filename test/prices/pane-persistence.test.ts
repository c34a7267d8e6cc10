/**
 * The pane's persistent cache across sign-ins (src/prices/persistent/pane-persistence.ts) with the real client and
 * sandbox: the last-known setting and the count the Cache tab shows, forgetting on sign-out when asked, "Forget cached
 * prices", and another user never reading the first one's partition.
 */
import { createPricesClient, type PricesClient } from "../../src/prices";
import type { CacheBackend, Partition } from "../../src/prices/persistent";
import { CACHE_SETTINGS_KEY, DEFAULT_CACHE_SETTINGS, panePersistence, readCacheSettings, type PanePersistence } from "../../src/prices/persistent/pane-persistence";
import { startHarness, weekdaysBefore, type Harness } from "./sandbox-helpers";

jest.setTimeout(180_000);

/** IndexedDB's stand-in in Node: partitions kept in a map (the browser test covers the real one). */
function memoryBackend(): CacheBackend & { partitions: Map<string, readonly string[]> } {
  const partitions = new Map<string, readonly string[]>();
  return {
    partitions,
    load: (partition: Partition) => Promise.resolve(partitions.get(`${partition.version}|${partition.id}`) ?? []),
    save: (partition: Partition, lines: readonly string[]) => Promise.resolve(void partitions.set(`${partition.version}|${partition.id}`, [...lines])),
    clear: (partition: Partition) => Promise.resolve(void partitions.delete(`${partition.version}|${partition.id}`)),
  };
}

function settingsStorage(): { read(key: string): unknown; write(key: string, value: unknown): Promise<void> } {
  const values = new Map<string, unknown>();
  return { read: (key) => values.get(key), write: (key, value) => Promise.resolve(void values.set(key, value)) };
}

describe("the pane's persistent cache", () => {
  let harness: Harness;
  let symbol: string;
  let recentDate: string;
  let finalDate: string;
  const unreachable = (() => Promise.reject(new TypeError("fetch failed: getaddrinfo ENOTFOUND"))) as unknown as typeof fetch;

  beforeAll(async () => {
    harness = await startHarness({ today: "2025-06-30" });
    symbol = harness.sandbox.data.instruments[0]?.record.symbol ?? "";
    const weekdays = weekdaysBefore(harness.sandbox.data.today, 25);
    recentDate = weekdays[1] ?? "";
    finalDate = weekdays[20] ?? "";
  });
  afterAll(() => harness.close());

  function client(persistence: PanePersistence, fetch: typeof globalThis.fetch): PricesClient {
    return createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: harness.tokens(), fetch, storage: persistence.storage, retry: { limit: 1 } });
  }

  it("shows last known values only when the setting asks, and counts them for the Cache tab", async () => {
    const backend = memoryBackend();
    const settings = settingsStorage();
    const persistence = panePersistence({ backend, settingsStorage: settings, today: () => harness.sandbox.data.today });
    expect(persistence.settings()).toEqual(DEFAULT_CACHE_SETTINGS);
    await persistence.signedIn(harness.sandbox.apiUrl, "alice@example.com");
    const online = client(persistence, harness.fetch);
    await Promise.all([online.price({ symbol, date: recentDate }), online.price({ symbol, date: finalDate })]);
    await persistence.signedOut();

    await persistence.signedIn(harness.sandbox.apiUrl, "alice@example.com");
    const offline = client(persistence, unreachable);
    await expect(offline.price({ symbol, date: recentDate })).rejects.toThrow(/ENOTFOUND/);
    await expect(offline.price({ symbol, date: finalDate })).resolves.toMatchObject({ date: finalDate });
    expect(persistence.offline().values).toBe(0);

    await persistence.saveSettings({ ...persistence.settings(), lastKnownWhenUnreachable: true });
    expect(readCacheSettings(settings).lastKnownWhenUnreachable).toBe(true);
    await expect(offline.price({ symbol, date: recentDate })).resolves.toMatchObject({ date: recentDate });
    const shown = persistence.offline();
    expect(shown.values).toBe(1);
    expect(shown.since).toBeLessThanOrEqual(Date.now());
    expect(offline.lineage({ symbol, date: recentDate })?.cacheNote).toMatch(/^last known value/);
  });

  it("forgets on sign-out when the setting asks, and on Forget cached prices; another user never reads them", async () => {
    const backend = memoryBackend();
    const settings = settingsStorage();
    await settings.write(CACHE_SETTINGS_KEY, { forgetOnSignOut: true });
    const persistence = panePersistence({ backend, settingsStorage: settings, today: () => harness.sandbox.data.today });
    await persistence.signedIn(harness.sandbox.apiUrl, "bob@example.com");
    await client(persistence, harness.fetch).price({ symbol, date: finalDate });
    expect(persistence.status()?.entries).toBe(1);
    await persistence.signedOut();
    expect(persistence.status()).toBeUndefined();
    expect([...backend.partitions.values()].every((lines) => lines.length === 0)).toBe(true);

    await persistence.saveSettings({ ...persistence.settings(), forgetOnSignOut: false });
    await persistence.signedIn(harness.sandbox.apiUrl, "bob@example.com");
    await client(persistence, harness.fetch).price({ symbol, date: finalDate });
    await persistence.signedOut();
    expect([...backend.partitions.values()].some((lines) => lines.length === 1)).toBe(true);

    await persistence.signedIn(harness.sandbox.apiUrl, "carol@example.com");
    expect(persistence.status()).toEqual({ entries: 0, bytes: 0, subject: "carol@example.com" });
    await persistence.signedIn(harness.sandbox.apiUrl, "bob@example.com");
    expect(persistence.status()?.entries).toBe(1);
    await persistence.forget();
    expect(persistence.status()?.entries).toBe(0);
    expect([...backend.partitions.values()].every((lines) => lines.length === 0)).toBe(true);
  });
});

it("does not keep sign-in waiting on a store that never answers", async () => {
  const silent: CacheBackend = { load: () => new Promise<readonly string[]>(() => undefined), save: () => Promise.resolve(), clear: () => Promise.resolve() };
  const persistence = panePersistence({ backend: silent, settingsStorage: settingsStorage(), openTimeoutMs: 50 });
  await persistence.signedIn("https://prices.example.com/physical/v2", "frank@example.com");
  expect(persistence.status()).toBeUndefined();
  persistence.storage.set("p|X|2025-06-02|None|", { kind: "price", value: 1, storedAt: 0, expiresAt: Date.now() + 60_000, bytes: 10 });
  expect(persistence.storage.get("p|X|2025-06-02|None|")?.value).toBe(1);
});
