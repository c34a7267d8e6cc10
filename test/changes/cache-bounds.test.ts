/**
 * Bounds on read (issue 28): a partition file over its bound (50 MB) is refused unread, with one line naming the
 * file and the bound; a file within it is read as before. The 150 MB file is sparse (a header, then zeros).
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileCacheBackend } from "../../src/prices/persistent/file-backend";
import { ADDIN_VERSION, partitionFor } from "../../src/prices/persistent";

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
  await expect(backend.load(partition)).resolves.toEqual([line]);
  expect(logged).toEqual([]);

  truncateSync(path, 150 * 1024 * 1024);
  await expect(backend.load(partition)).resolves.toEqual([]);
  expect(logged).toEqual([`workbook: persistent cache ${path} is 150.0 MB, over its bound of 50.0 MB: not read (its values are asked again, and the file is replaced)`]);
});
