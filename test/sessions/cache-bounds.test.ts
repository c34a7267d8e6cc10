/**
 * Bounds on read (issue 28): a partition file over its bound (50 MB) is refused unread, with one line naming the
 * file and the bound; a file within it is read as before, a large one with progress. The 150 MB file is sparse (a
 * header, then zeros).
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileCacheBackend } from "../../src/prices/persistent/file-backend";
import { ADDIN_VERSION, partitionFor } from "../../src/prices/persistent";
import { storedLine } from "../../src/prices/persistent/stored-line";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "prices-cache-bounds-"));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("refuses a 150 MB partition file with one line naming the file and the 50 MB bound, and reads one within it", async () => {
  const partition = await partitionFor("https://prices.example.com/physical/v2", "someone", ADDIN_VERSION);
  const path = join(dir, `${partition.id}.jsonl`);
  const header = JSON.stringify({ version: partition.version, baseUrl: partition.baseUrl, subject: partition.subject });
  const line = `"p|MB-AL-0001|2025-05-14|None|"\t2025-06-30\t1000\t{"mid":1}`;
  writeFileSync(path, `${header}\n${line}\n`);
  const logged: string[] = [];
  const backend = new FileCacheBackend(dir, { log: (message) => void logged.push(message) });
  await expect(backend.load(partition)).resolves.toEqual({ lines: [line], intact: false, ascii: true });
  expect(logged).toEqual([]);

  truncateSync(path, 150 * 1024 * 1024);
  await expect(backend.load(partition)).resolves.toEqual({ lines: [], intact: true });
  expect(logged).toEqual([`workbook: persistent cache ${path} is 150.0 MB, over its bound of 50.0 MB: not read (its values are asked again, and the file is replaced)`]);
});

it("tells its progress while reading a large partition file within the bound, and reads all of it", async () => {
  const partition = await partitionFor("https://prices.example.com/physical/v2", "someone else", ADDIN_VERSION);
  const path = join(dir, `${partition.id}.jsonl`);
  const header = JSON.stringify({ version: partition.version, baseUrl: partition.baseUrl, subject: partition.subject });
  const lines = Array.from({ length: 160_000 }, (_, index) => storedLine(`p|MB-AL-${index}|2025-05-14|None|`, "2025-06-30", 1000 + index, JSON.stringify({ assessmentDate: "2025-05-14T00:00:00Z", mid: index })));
  writeFileSync(path, `${header}\n${lines.join("\n")}\n`);
  const logged: string[] = [];
  const loaded = await new FileCacheBackend(dir, { log: (message) => void logged.push(message) }).load(partition);
  expect(loaded.lines.length).toBe(lines.length);
  expect(loaded.lines.join("\n") === lines.join("\n")).toBe(true);
  expect(logged.length).toBeGreaterThanOrEqual(2);
  expect(logged.every((line) => line.startsWith(`workbook: reading the persistent cache ${path}: `))).toBe(true);
  expect(logged.at(-1)).toMatch(/: (\d+\.\d) MB of \1 MB$/);
});
