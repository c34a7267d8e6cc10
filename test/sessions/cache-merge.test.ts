/**
 * Two writers on one partition file (issue 28): a save merges with what another writer saved after this one loaded,
 * the newer line of a key wins, a key this session dropped on purpose is not brought back, and a lock left by a writer
 * that died is taken over. Real files; the concurrent case with two runners is test/e2e/cache-writers.test.ts.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileCacheBackend } from "../../src/prices/persistent/file-backend";
import { ADDIN_VERSION, partitionFor } from "../../src/prices/persistent";
import { storedLine } from "../../src/prices/persistent/stored-line";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "prices-cache-merge-"));
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const line = (symbol: string, storedAt: number, mid: number): string => storedLine(`p|${symbol}|2025-05-14|None|`, "2025-06-30", storedAt, JSON.stringify({ assessmentDate: "2025-05-14T00:00:00Z", mid }));

it("keeps what another writer saved since this one loaded, the newer line of a key, and leaves out what this one dropped", async () => {
  const partition = await partitionFor("https://prices.example.com/physical/v2", "someone", ADDIN_VERSION);
  const backend = new FileCacheBackend(dir);
  await backend.save(partition, [line("A", 1, 1), line("B", 1, 1), line("C", 1, 1)]);
  const loaded = await backend.load(partition);
  // Meanwhile another writer saves a newer B and a new D.
  await new FileCacheBackend(dir).save(partition, [...loaded.lines, line("B", 5, 2), line("D", 5, 1)]);
  // This one: an older copy of B, a new E, and C dropped (it failed the checks).
  await backend.save(partition, [line("A", 1, 1), line("B", 2, 3), line("E", 6, 1)], { dropped: new Set(["p|C|2025-05-14|None|"]) });
  const saved = await backend.load(partition);
  expect([...saved.lines].sort()).toEqual([line("A", 1, 1), line("B", 5, 2), line("D", 5, 1), line("E", 6, 1)].sort());
});

it("takes over the lock of a writer whose process is gone, and leaves no lock behind", async () => {
  const partition = await partitionFor("https://prices.example.com/physical/v2", "someone", ADDIN_VERSION);
  const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  const lock = join(dir, `${partition.id}.jsonl.lock`);
  writeFileSync(lock, JSON.stringify({ pid: Number(gone.stdout), at: Date.now() }));
  await new FileCacheBackend(dir).save(partition, [line("A", 1, 1)]);
  expect(readFileSync(join(dir, `${partition.id}.jsonl`), "utf8")).toContain(line("A", 1, 1));
  expect(existsSync(lock)).toBe(false);
});
