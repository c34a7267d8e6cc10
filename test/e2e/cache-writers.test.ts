/**
 * Two writers (issue 28): two runners refreshing with the same `--cache` at once keep each other's entries. Each asks
 * 20 final prices of its own against the real sandbox; both start together and the test waits for both, 20 times, and
 * every one of the 40 entries must be in the partition file afterwards (before, the last writer won).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningSandbox } from "../../src/sandbox/server";
import { runWorkbook } from "../../src/runner/workbook-runner";
import { sandboxToken } from "../support/service";
import { TODAY } from "./support";

jest.setTimeout(900_000);

const DATE = "2025-05-14";
const ROUNDS = 20;
let sandbox: RunningSandbox;
let dir: string;
let token: string;
let halves: [string[], string[]];

beforeAll(async () => {
  const { startSandbox } = await import("../../src/sandbox/server");
  sandbox = await startSandbox({ port: 0, today: TODAY, quiet: true, rateLimit: 0 });
  dir = mkdtempSync(join(tmpdir(), "prices-cache-writers-"));
  writeFileSync(join(dir, "ca.pem"), sandbox.ca);
  token = await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret");
  const symbols = sandbox.data.instruments
    .filter((item) => item.record.launchDate < "2024-01-01" && item.record.status === "Active")
    .map((item) => item.record.symbol)
    .slice(0, 40);
  expect(symbols).toHaveLength(40);
  halves = [symbols.slice(0, 20), symbols.slice(20)];
  halves.forEach((half, index) => writeFileSync(join(dir, `book-${index}.json`), JSON.stringify({ cells: Object.fromEntries(half.map((symbol, row) => [`A${row + 1}`, `=PRICES.MID("${symbol}", "${DATE}")`])) })));
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function refresh(book: number, cache: string): Promise<number> {
  const service = { kind: "token" as const, apiUrl: sandbox.apiUrl, token };
  const result = (await runWorkbook({ bookPath: join(dir, `book-${book}.json`), service, cache, caPath: join(dir, "ca.pem") }, () => undefined)) as unknown as { cells: Record<string, unknown> };
  return Object.values(result.cells).filter((value) => typeof value === "number").length;
}

it(`keeps every entry of two runners saving one cache at once (${ROUNDS} rounds)`, async () => {
  const missing: string[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const cache = join(dir, `cache-${round}`);
    const answered = await Promise.all([refresh(0, cache), refresh(1, cache)]);
    expect(answered).toEqual([20, 20]);
    const files = readdirSync(cache).filter((name) => name.endsWith(".jsonl"));
    expect(files).toHaveLength(1);
    const text = readFileSync(join(cache, files[0] ?? ""), "utf8");
    for (const symbol of [...halves[0], ...halves[1]]) if (!text.includes(`"p|${symbol}|${DATE}|`)) missing.push(`round ${round}: ${symbol}`);
    // Nothing left behind: no lock, no temporary file.
    expect(readdirSync(cache).filter((name) => !name.endsWith(".jsonl"))).toEqual([]);
  }
  expect(missing).toEqual([]);
});
