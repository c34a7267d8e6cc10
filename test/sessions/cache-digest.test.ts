/**
 * The partition file's digest over all its lines (issue 28's read figure): a file as the cache saved it loads intact,
 * and each line's own digest is then not checked again; a file edited anywhere loads not intact, each line's digest
 * is checked as its value is read, and only the edited line is dropped. Either way every value passes the response
 * checks: a forger who writes both digests again still gets a value that does not read dropped.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileCacheBackend } from "../../src/prices/persistent/file-backend";
import { ADDIN_VERSION, PersistentCache, type Partition, partitionFor } from "../../src/prices/persistent";
import { storedLine } from "../../src/prices/persistent/stored-line";

let dir: string;
let partition: Partition;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "prices-cache-digest-"));
  partition = await partitionFor("https://prices.example.com/physical/v2", "someone", ADDIN_VERSION);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const SYMBOLS = ["MB-AL-0001", "MB-CU-0002", "MB-NI-0003"];
const id = (symbol: string): string => `p|${symbol}|2025-05-14|None|`;
const line = (symbol: string, mid: unknown): string => storedLine(id(symbol), "2025-06-30", 1000, JSON.stringify({ date: "2025-05-14", assessmentDate: "2025-05-14T17:30:00Z", revision: 0, low: 90, mid, high: 110 }));

async function saved(): Promise<string> {
  await new FileCacheBackend(dir).save(partition, SYMBOLS.map((symbol, index) => line(symbol, 100 + index)));
  return join(dir, `${partition.id}.jsonl`);
}

async function reopened(): Promise<{ cache: PersistentCache; mids: unknown[] }> {
  const cache = await PersistentCache.open({ partition, backend: new FileCacheBackend(dir), today: () => "2025-07-01", scheduleFlush: () => undefined });
  const mids = SYMBOLS.map((symbol) => (cache.peek(id(symbol))?.value as { mid?: unknown } | undefined)?.mid);
  return { cache, mids };
}

it("loads a file as the cache saved it intact, and serves every value", async () => {
  await saved();
  const loaded = await new FileCacheBackend(dir).load(partition);
  expect(loaded.intact).toBe(true);
  expect(loaded.lines).toHaveLength(3);
  const { cache, mids } = await reopened();
  expect(mids).toEqual([100, 101, 102]);
  expect(cache.rejected).toBe(0);
});

it("loads a file edited in one line not intact, and drops that line alone", async () => {
  const path = await saved();
  writeFileSync(path, readFileSync(path, "utf8").replace('"mid":101', '"mid":999.99'));
  expect((await new FileCacheBackend(dir).load(partition)).intact).toBe(false);
  const { cache, mids } = await reopened();
  expect(mids).toEqual([100, undefined, 102]);
  expect(cache.rejected).toBe(1);
});

it("loads a file without the digest (an older save) not intact, and still checks each line", async () => {
  const path = await saved();
  const [header = "", ...rest] = readFileSync(path, "utf8").split("\n");
  const { lines: _digest, ...older } = JSON.parse(header) as Record<string, unknown>;
  writeFileSync(path, [JSON.stringify(older), ...rest].join("\n").replace('"mid":102', '"mid":7'));
  expect((await new FileCacheBackend(dir).load(partition)).intact).toBe(false);
  const { mids } = await reopened();
  expect(mids).toEqual([100, 101, undefined]);
});

it("drops a forged value that does not read even when both digests were written again", async () => {
  const path = await saved();
  const [header = ""] = readFileSync(path, "utf8").split("\n");
  const body = `${[line(SYMBOLS[0] ?? "", 100), line(SYMBOLS[1] ?? "", "abc"), line(SYMBOLS[2] ?? "", 102)].join("\n")}\n`;
  const forged = { ...(JSON.parse(header) as Record<string, unknown>), lines: createHash("sha256").update(body).digest("base64url") };
  writeFileSync(path, `${JSON.stringify(forged)}\n${body}`);
  expect((await new FileCacheBackend(dir).load(partition)).intact).toBe(true);
  const { cache, mids } = await reopened();
  expect(mids).toEqual([100, undefined, 102]);
  expect(cache.rejected).toBe(1);
});
