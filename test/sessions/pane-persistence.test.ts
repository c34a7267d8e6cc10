/**
 * The pane's persistent cache across sign-ins (src/sessions/pane-persistence.ts) with the real client and
 * sandbox: nothing loaded served before the service lists this session's instruments (a forged token and a withdrawn
 * entitlement get no cached value), the last-known setting (unconfirmed offline) and the count the Cache tab shows,
 * forgetting on sign-out when asked, "Forget cached prices", and another user never reading the first one's partition.
 */
import { createPricesClient, staticTokenProvider, type PricesClient, type TokenProvider } from "../../src/prices";
import type { CacheBackend, LoadedLines, Partition } from "../../src/prices/persistent";
import { CACHE_SETTINGS_KEY, DEFAULT_CACHE_SETTINGS, panePersistence, readCacheSettings, type PanePersistence } from "../../src/sessions/pane-persistence";
import { startHarness, weekdaysBefore, type Harness } from "../prices/sandbox-helpers";

jest.setTimeout(180_000);

/** IndexedDB's stand-in in Node: partitions kept in a map (the browser test covers the real one). */
function memoryBackend(): CacheBackend & { partitions: Map<string, readonly string[]> } {
  const partitions = new Map<string, readonly string[]>();
  return {
    partitions,
    load: (partition: Partition) => Promise.resolve({ lines: partitions.get(`${partition.version}|${partition.id}`) ?? [], intact: false }),
    save: (partition: Partition, lines: readonly string[]) => Promise.resolve(void partitions.set(`${partition.version}|${partition.id}`, [...lines])),
    clear: (partition: Partition) => Promise.resolve(void partitions.delete(`${partition.version}|${partition.id}`)),
  };
}

/** Price entries of the open partition (the entitlement's instrument list is kept beside them). */
const prices = (persistence: PanePersistence): number => persistence.knownIds().filter((id) => id.startsWith("p|")).length;

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

  function client(persistence: PanePersistence, fetch: typeof globalThis.fetch, tokenProvider: TokenProvider = harness.tokens()): PricesClient {
    return createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider, fetch, storage: persistence.storage, retry: { limit: 1 } });
  }

  /** The pane session's entitlement ask: this session's client's instrument list. */
  const listedBy = (ask: () => PricesClient) => () => ask().instruments(undefined, { fresh: true });

  it("shows last known values only when the setting asks, and counts them for the Cache tab", async () => {
    const backend = memoryBackend();
    const settings = settingsStorage();
    const persistence = panePersistence({ backend, settingsStorage: settings, today: () => harness.sandbox.data.today });
    expect(persistence.settings()).toEqual(DEFAULT_CACHE_SETTINGS);
    const online = client(persistence, harness.fetch);
    await persistence.signedIn(harness.sandbox.apiUrl, "alice@example.com", listedBy(() => online));
    await Promise.all([online.price({ symbol, date: recentDate }), online.price({ symbol, date: finalDate })]);
    await persistence.signedOut();

    // Offline from the start: no entitlement answer this session, so not even the final value is served.
    const offline = client(persistence, unreachable);
    await persistence.signedIn(harness.sandbox.apiUrl, "alice@example.com", listedBy(() => offline));
    await expect(offline.price({ symbol, date: recentDate })).rejects.toThrow(/ENOTFOUND/);
    await expect(offline.price({ symbol, date: finalDate })).rejects.toThrow(/ENOTFOUND/);
    expect(persistence.offline().values).toBe(0);

    // Where the user chose "last known value", both are shown, marked unconfirmed.
    await persistence.saveSettings({ ...persistence.settings(), lastKnownWhenUnreachable: true });
    expect(readCacheSettings(settings).lastKnownWhenUnreachable).toBe(true);
    await expect(offline.price({ symbol, date: recentDate })).resolves.toMatchObject({ date: recentDate });
    await expect(offline.price({ symbol, date: finalDate })).resolves.toMatchObject({ date: finalDate });
    const shown = persistence.offline();
    expect(shown).toMatchObject({ values: 2, unconfirmed: true });
    expect(shown.since).toBeLessThanOrEqual(Date.now());
    expect(offline.lineage({ symbol, date: recentDate })?.cacheNote).toMatch(/^last known value, unconfirmed/);
  });

  it("serves nothing loaded before the service lists this session's instruments, then the final values with no request", async () => {
    const backend = memoryBackend();
    const persistence = panePersistence({ backend, settingsStorage: settingsStorage(), today: () => harness.sandbox.data.today });
    const first = client(persistence, harness.fetch);
    await persistence.signedIn(harness.sandbox.apiUrl, "dave@example.com", listedBy(() => first));
    await first.price({ symbol, date: finalDate });
    await persistence.signedOut();

    const id = `p|${symbol}|${finalDate}|None|`;
    const second = client(persistence, harness.fetch);
    let beforeAnswer: unknown = "not asked";
    await persistence.signedIn(harness.sandbox.apiUrl, "dave@example.com", async () => {
      // The partition is open, the service has not answered yet: the loaded value is there, and not served.
      expect(prices(persistence)).toBe(1);
      beforeAnswer = persistence.storage.get(id);
      return second.instruments();
    });
    expect(beforeAnswer).toBeUndefined();
    const asked = harness.counts.api;
    await expect(second.price({ symbol, date: finalDate })).resolves.toMatchObject({ date: finalDate });
    expect(harness.counts.api).toBe(asked);
    expect(second.lineage({ symbol, date: finalDate })?.cacheNote).toMatch(/^from the cache, final since /);
  });

  it("serves no cached value to a forged token (the full-access client's payload, another's signature)", async () => {
    const backend = memoryBackend();
    const persistence = panePersistence({ backend, settingsStorage: settingsStorage(), today: () => harness.sandbox.data.today });
    await persistence.saveSettings({ ...persistence.settings(), lastKnownWhenUnreachable: true });
    const full = client(persistence, harness.fetch);
    await persistence.signedIn(harness.sandbox.apiUrl, "sandbox-full", listedBy(() => full));
    await full.price({ symbol, date: finalDate });
    await persistence.signedOut();

    const [header, , signature] = (await harness.tokens("sandbox-trial").getToken()).split(".");
    const payload = (await harness.tokens().getToken()).split(".")[1];
    const forged = client(persistence, harness.fetch, staticTokenProvider(`${header ?? ""}.${payload ?? ""}.${signature ?? ""}`));
    await persistence.signedIn(harness.sandbox.apiUrl, "sandbox-full", listedBy(() => forged));
    expect(prices(persistence)).toBe(1);
    await expect(forged.price({ symbol, date: finalDate })).rejects.toThrow(/rejected the token/);
    expect(forged.stats().cacheHits).toBe(0);
    expect(persistence.offline().values).toBe(0);
  });
});

it("serves no cached value of an instrument whose entitlement was withdrawn, and drops it from the partition", async () => {
  const [before, after] = await Promise.all([startHarness({ today: "2025-06-30" }), startHarness({ today: "2025-06-30", withdrawn: { "sandbox-full": ["AG-"] } })]);
  try {
    const pick = (prefix: string): string => before.sandbox.data.instruments.find((item) => item.record.symbol.startsWith(prefix) && item.record.launchDate < "2024-01-01")?.record.symbol ?? "";
    const [metal, other] = [pick("MB-"), pick("AG-")];
    const date = weekdaysBefore(before.sandbox.data.today, 25)[20] ?? "";
    const backend = memoryBackend();
    const persistence = panePersistence({ backend, settingsStorage: settingsStorage(), today: () => before.sandbox.data.today });
    // One environment, as the pane names it; the two sandboxes are its service before and after the withdrawal.
    const environment = "https://prices.example.com/physical/v2";
    const on = (harness: Harness): PricesClient => createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: harness.tokens(), fetch: harness.fetch, storage: persistence.storage, retry: { limit: 1 } });
    const filling = on(before);
    await persistence.signedIn(environment, "sandbox-full", () => filling.instruments(undefined, { fresh: true }));
    await Promise.all([filling.price({ symbol: metal, date }), filling.price({ symbol: other, date })]);
    await persistence.signedOut();

    const later = on(after);
    await persistence.signedIn(environment, "sandbox-full", () => later.instruments(undefined, { fresh: true }));
    const asked = after.counts.api;
    await expect(later.price({ symbol: metal, date })).resolves.toMatchObject({ date });
    expect(after.counts.api).toBe(asked);
    await expect(later.price({ symbol: other, date })).rejects.toThrow(/not permitted|unknown/);
    expect(later.stats().cacheHits).toBe(1);
    await persistence.signedOut();
    const saved = [...backend.partitions.values()].flat().join("\n");
    expect(saved).toContain(`|${metal}|`);
    expect(saved).not.toContain(`|${other}|`);
  } finally {
    await Promise.all([before.close(), after.close()]);
  }
});

describe("the pane's persistent cache, continued", () => {
  let harness: Harness;
  let symbol: string;
  let finalDate: string;

  beforeAll(async () => {
    harness = await startHarness({ today: "2025-06-30" });
    symbol = harness.sandbox.data.instruments[0]?.record.symbol ?? "";
    finalDate = weekdaysBefore(harness.sandbox.data.today, 25)[20] ?? "";
  });
  afterAll(() => harness.close());

  function client(persistence: PanePersistence, fetch: typeof globalThis.fetch): PricesClient {
    return createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: harness.tokens(), fetch, storage: persistence.storage, retry: { limit: 1 } });
  }
  const listedBy = (ask: () => PricesClient) => () => ask().instruments(undefined, { fresh: true });

  it("forgets on sign-out when the setting asks, and on Forget cached prices; another user never reads them", async () => {
    const backend = memoryBackend();
    const settings = settingsStorage();
    await settings.write(CACHE_SETTINGS_KEY, { forgetOnSignOut: true });
    const persistence = panePersistence({ backend, settingsStorage: settings, today: () => harness.sandbox.data.today });
    const bob = client(persistence, harness.fetch);
    await persistence.signedIn(harness.sandbox.apiUrl, "bob@example.com", listedBy(() => bob));
    await bob.price({ symbol, date: finalDate });
    expect(prices(persistence)).toBe(1);
    await persistence.signedOut();
    expect(persistence.status()).toBeUndefined();
    expect([...backend.partitions.values()].every((lines) => lines.length === 0)).toBe(true);

    await persistence.saveSettings({ ...persistence.settings(), forgetOnSignOut: false });
    await persistence.signedIn(harness.sandbox.apiUrl, "bob@example.com", listedBy(() => bob));
    await bob.price({ symbol, date: finalDate });
    await persistence.signedOut();
    expect([...backend.partitions.values()].some((lines) => lines.filter((line) => line.startsWith('"p|')).length === 1)).toBe(true);

    await persistence.signedIn(harness.sandbox.apiUrl, "carol@example.com", listedBy(() => bob));
    expect(persistence.status()?.subject).toBe("carol@example.com");
    expect(prices(persistence)).toBe(0);
    await persistence.signedIn(harness.sandbox.apiUrl, "bob@example.com", listedBy(() => bob));
    expect(prices(persistence)).toBe(1);
    await persistence.forget();
    expect(persistence.status()?.entries).toBe(0);
    expect([...backend.partitions.values()].every((lines) => !lines.some((line) => line.startsWith('"p|')))).toBe(true);
  });
});

it("does not keep sign-in waiting on a store that never answers", async () => {
  const silent: CacheBackend = { load: () => new Promise<LoadedLines>(() => undefined), save: () => Promise.resolve(), clear: () => Promise.resolve() };
  const persistence = panePersistence({ backend: silent, settingsStorage: settingsStorage(), openTimeoutMs: 50 });
  await persistence.signedIn("https://prices.example.com/physical/v2", "frank@example.com", () => Promise.resolve([]));
  expect(persistence.status()).toBeUndefined();
  persistence.storage.set("p|X|2025-06-02|None|", { kind: "price", value: 1, storedAt: 0, expiresAt: Date.now() + 60_000, bytes: 10 });
  expect(persistence.storage.get("p|X|2025-06-02|None|")?.value).toBe(1);
});
