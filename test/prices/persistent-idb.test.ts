/**
 * The persistent cache over IndexedDB (idb-keyval) in headless Chromium, with the real client against the real
 * sandbox: a reopen serves final records with no request and asks again the rest; partitions by environment and
 * subject; a version bump empties the store; the byte bound; no token in any stored value; forgetting a subject.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { servePages, type PageServer } from "../../src/runner/host-page";
import { startTestSandbox, clientCredentialsToken } from "../helpers/sandbox";
import type { RunningSandbox } from "../../src/sandbox/server";
import { weekdaysBefore } from "./sandbox-helpers";

jest.setTimeout(120_000);

let dir: string;
let pages: PageServer;
let sandbox: RunningSandbox;
let context: BrowserContext;
let page: Page;
let token: string;
let symbol: string;
let finalDate: string;
let recentDate: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "prices-idb-"));
  await build({ entryPoints: [join(__dirname, "persistent-idb-entry.ts")], bundle: true, format: "iife", platform: "browser", outfile: join(dir, "bundle.js"), logLevel: "silent" });
  writeFileSync(join(dir, "host.html"), '<!doctype html><meta charset="utf-8"><script src="bundle.js"></script>');
  pages = await servePages(dir);
  sandbox = await startTestSandbox({ corsOrigins: [pages.origin] });
  token = await clientCredentialsToken(sandbox.issuer, "sandbox-full", "sandbox-full-secret", sandbox.ca);
  symbol = sandbox.data.instruments[0]?.record.symbol ?? "";
  const weekdays = weekdaysBefore(sandbox.data.today, 25);
  finalDate = weekdays[20] ?? "";
  recentDate = weekdays[2] ?? "";
  context = await chromium.launchPersistentContext(join(dir, "profile"), {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    ignoreHTTPSErrors: true,
  });
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${pages.origin}/host.html`);
});

afterAll(async () => {
  await context?.close();
  await sandbox?.close();
  await pages?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface SessionResult {
  statuses: string[];
  keysRequested: number;
  notes: (string | undefined)[];
  size: number;
  bytes: number;
  lines: number;
}

/** One session in the page: open the partition, ask the keys through the real client, write the partition. */
function session(options: { subject: string; baseUrl?: string; version?: string; maxBytes?: number; keys: { symbol: string; date?: string }[] }): Promise<SessionResult> {
  return page.evaluate(
    async ({ options: given, apiUrl, token: accessToken, today }) => {
      const api = window.persistentTest;
      if (!api) throw new Error("the test bundle did not load");
      const { openPersistentCache, IndexedDbCacheBackend, createPricesClient, staticTokenProvider } = api;
      const cache = await openPersistentCache({
        baseUrl: given.baseUrl ?? apiUrl,
        subject: given.subject,
        backend: new IndexedDbCacheBackend(),
        today: () => today,
        scheduleFlush: () => undefined,
        ...(given.version === undefined ? {} : { addinVersion: given.version }),
        ...(given.maxBytes === undefined ? {} : { maxBytes: given.maxBytes }),
      });
      const size = cache.size;
      const client = createPricesClient({ baseUrl: apiUrl, tokenProvider: staticTokenProvider(accessToken), storage: cache, retry: { limit: 1 } });
      const answers = await Promise.allSettled(given.keys.map((key) => client.price(key)));
      await cache.flush();
      return {
        statuses: answers.map((answer) => answer.status),
        keysRequested: client.stats().keysRequested,
        notes: given.keys.map((key) => client.lineage(key)?.cacheNote),
        size,
        bytes: cache.bytes,
        lines: cache.lines().length,
      };
    },
    { options, apiUrl: sandbox.apiUrl, token, today: sandbox.data.today },
  );
}

/** Every value IndexedDB holds, as JSON text. */
function storedText(): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open("physical-prices-cache");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction("partitions").objectStore("partitions").getAll();
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            open.result.close();
            resolve(JSON.stringify(request.result));
          };
        };
      }),
  );
}

it("serves a final record with no request on reopen, asks again inside the window, and never another subject's or environment's", async () => {
  const keys = [{ symbol, date: finalDate }, { symbol, date: recentDate }];
  const cold = await session({ subject: "alice", keys });
  expect(cold.statuses).toEqual(["fulfilled", "fulfilled"]);
  expect(cold.keysRequested).toBe(2);

  const warm = await session({ subject: "alice", keys });
  expect(warm.size).toBe(1);
  expect(warm.keysRequested).toBe(1);
  expect(warm.notes[0]).toMatch(/^from the cache, final since \d{4}-\d{2}-\d{2}$/);
  expect(warm.notes[1]).toBe("asked again: inside the correction window");

  const bob = await session({ subject: "bob", keys });
  expect(bob.size).toBe(0);
  expect(bob.keysRequested).toBe(2);
  const elsewhere = await session({ subject: "alice", baseUrl: "https://prices.example.com/physical/v2", keys: [] });
  expect(elsewhere.size).toBe(0);
});

it("never stores a token", async () => {
  await session({ subject: "alice", keys: [{ symbol, date: finalDate }, { symbol }] });
  const text = await storedText();
  expect(text).toContain(symbol);
  for (const part of token.split(".")) expect(text).not.toContain(part);
});

it("holds its byte bound", async () => {
  const dates = weekdaysBefore(finalDate, 40);
  const bounded = await session({ subject: "carol", maxBytes: 5_000, keys: dates.map((date) => ({ symbol, date })) });
  expect(bounded.bytes).toBeLessThanOrEqual(5_000);
  expect(bounded.lines).toBeGreaterThan(0);
  expect(bounded.lines).toBeLessThan(dates.length);
  const reopened = await session({ subject: "carol", maxBytes: 5_000, keys: [] });
  expect(reopened.lines).toBe(bounded.lines);
});

it("empties the store when the add-in version changes, and forgets a subject everywhere", async () => {
  await session({ subject: "dave", keys: [{ symbol, date: finalDate }] });
  const bumped = await session({ subject: "alice", version: "99.0.0", keys: [] });
  expect(bumped.size).toBe(0);
  const text = await storedText();
  expect(text).not.toContain('"subject":"dave"');
  // Another version's entries went, this one's remain; forgetting a subject takes all of its partitions.
  await session({ subject: "erin", version: "99.0.0", keys: [{ symbol, date: finalDate }] });
  await session({ subject: "erin", version: "99.0.0", baseUrl: "https://prices.example.com/physical/v2", keys: [] });
  const forgotten = await page.evaluate(async () => {
    const api = window.persistentTest;
    if (!api) throw new Error("the test bundle did not load");
    return new api.IndexedDbCacheBackend().forgetSubject("erin");
  });
  expect(forgotten).toBe(2);
  expect(await storedText()).not.toContain('"subject":"erin"');
});

it("keeps both panes' entries when two open one partition and save at once", async () => {
  const dates = weekdaysBefore(finalDate, 2);
  const kept = await page.evaluate(
    async ({ apiUrl, token: accessToken, today, wanted, dates: [first, second] }) => {
      const api = window.persistentTest;
      if (!api) throw new Error("the test bundle did not load");
      const { openPersistentCache, IndexedDbCacheBackend, createPricesClient, staticTokenProvider } = api;
      const open = () => openPersistentCache({ baseUrl: apiUrl, subject: "grace", backend: new IndexedDbCacheBackend(), today: () => today, scheduleFlush: () => undefined });
      // Both open the partition (empty) before either saves: two Excel windows of one user.
      const panes = await Promise.all([open(), open()]);
      await Promise.all(
        panes.map((cache, index) => createPricesClient({ baseUrl: apiUrl, tokenProvider: staticTokenProvider(accessToken), storage: cache, retry: { limit: 1 } }).price({ symbol: wanted, date: index === 0 ? (first ?? "") : (second ?? "") })),
      );
      await Promise.all(panes.map((cache) => cache.flush()));
      return (await open()).ids();
    },
    { apiUrl: sandbox.apiUrl, token, today: sandbox.data.today, wanted: symbol, dates },
  );
  expect(kept.sort()).toEqual(dates.map((date) => `p|${symbol}|${date}|None|`).sort());
});
