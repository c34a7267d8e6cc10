/**
 * Issue 28: the persistent cache serves a value only after the service, this session, has accepted the token and
 * listed the instrument for the caller; and every value read back passes the response checks. Against the real
 * sandbox, through the runner's `--cache`: a forged token (the full-access client's payload, a broken signature) gets
 * no cached value; an entitlement withdrawn since the cache was filled gets none of the withdrawn instruments (and
 * they leave the file); a line whose mid is edited to `"abc"` is asked again, not shown.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningSandbox } from "../../src/sandbox/server";
import type { RunnerOptions } from "../../src/runner/arguments";
import { runWorkbook } from "../../src/runner/workbook-runner";
import { sandboxToken } from "../support/service";
import { TODAY } from "./support";

jest.setTimeout(300_000);

const DATE = "2025-05-14";
let sandbox: RunningSandbox;
let dir: string;
let metals: string[];
let others: string[];

beforeAll(async () => {
  const { startSandbox } = await import("../../src/sandbox/server");
  sandbox = await startSandbox({ port: 0, today: TODAY, quiet: true });
  dir = mkdtempSync(join(tmpdir(), "prices-cache-entitlement-"));
  const chosen = (prefix: string): string[] =>
    sandbox.data.instruments
      .filter((item) => item.record.symbol.startsWith(prefix) && item.record.launchDate < "2024-01-01" && item.record.status === "Active")
      .map((item) => item.record.symbol)
      .slice(0, 3);
  metals = chosen("MB-");
  others = chosen("AG-");
  expect(metals).toHaveLength(3);
  expect(others).toHaveLength(3);
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  cells: Record<string, unknown>;
  stats: { requests: number; client: Record<string, number> };
  log: string[];
}

/** One dated (final) MID per symbol, through the runner with `--cache`. */
async function run(name: string, service: RunnerOptions["service"], cache: string, symbols: readonly string[]): Promise<Run> {
  const book = join(dir, `${name}.json`);
  writeFileSync(book, JSON.stringify({ cells: Object.fromEntries(symbols.map((symbol, index) => [`A${index + 1}`, `=PRICES.MID("${symbol}", "${DATE}")`])) }));
  const caPath = join(dir, "ca.pem");
  writeFileSync(caPath, sandbox.ca);
  const log: string[] = [];
  const result = (await runWorkbook({ bookPath: book, service, cache, caPath }, (line) => void log.push(line))) as unknown as Omit<Run, "log">;
  return { ...result, log };
}

const numbers = (cells: Record<string, unknown>): number => Object.values(cells).filter((value) => typeof value === "number").length;

/** A token whose payload is `payloadOf`'s and whose header and signature are `signedBy`'s: the signature does not match. */
function forged(payloadOf: string, signedBy: string): string {
  const [header, , signature] = signedBy.split(".");
  return `${header ?? ""}.${payloadOf.split(".")[1] ?? ""}.${signature ?? ""}`;
}

it("serves no cached value to a forged token naming the full-access client", async () => {
  const cache = join(dir, "forged");
  const symbols = [...metals, ...others];
  const full = await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret");
  const filled = await run("fill", { kind: "token", apiUrl: sandbox.apiUrl, token: full }, cache, symbols);
  expect(numbers(filled.cells)).toBe(symbols.length);
  // The same token again: every value from the cache, no price request (so the partition would serve a forgery).
  const again = await run("again", { kind: "token", apiUrl: sandbox.apiUrl, token: full }, cache, symbols);
  expect(again.cells).toEqual(filled.cells);
  expect(again.stats.client.cacheHits).toBe(symbols.length);
  expect(again.stats.requests).toBe(0);

  const trial = await sandboxToken(sandbox, "sandbox-trial", "sandbox-trial-secret");
  const attack = await run("forged", { kind: "token", apiUrl: sandbox.apiUrl, token: forged(full, trial) }, cache, symbols);
  expect(numbers(attack.cells)).toBe(0);
  expect(attack.stats.client.cacheHits).toBe(0);
  expect(attack.log.join("\n")).toMatch(/running without the persistent cache/);
});

it("serves no cached value of an instrument whose entitlement was withdrawn, and drops it from the partition", async () => {
  const cache = join(dir, "withdrawn");
  const symbols = [...metals, ...others];
  const filled = await run("own-fill", { kind: "sandbox", today: TODAY }, cache, symbols);
  expect(numbers(filled.cells)).toBe(symbols.length);
  const withdrawn = await run("own-withdrawn", { kind: "sandbox", today: TODAY, sandbox: { withdrawn: { "sandbox-full": ["AG-"] } } }, cache, symbols);
  // The metals come from the cache; the withdrawn instruments are refused by the service, none served from the cache.
  metals.forEach((_symbol, index) => expect(withdrawn.cells[`A${index + 1}`]).toBe(filled.cells[`A${index + 1}`]));
  others.forEach((symbol, index) => expect(withdrawn.cells[`A${metals.length + index + 1}`]).toBe(`#N/A: unknown or not permitted symbol '${symbol}'`));
  expect(withdrawn.stats.client.cacheHits).toBe(metals.length);
  const [file] = readdirSync(cache).filter((name) => name.endsWith(".jsonl"));
  const text = readFileSync(join(cache, file ?? ""), "utf8");
  for (const symbol of metals) expect(text).toContain(`|${symbol}|`);
  for (const symbol of others) expect(text).not.toContain(`|${symbol}|`);
});

it("asks again a cached line edited to a mid that is not a number, or to another number, and says so", async () => {
  const cache = join(dir, "edited");
  const filled = await run("edit-fill", { kind: "sandbox", today: TODAY }, cache, metals);
  expect(numbers(filled.cells)).toBe(metals.length);
  const [file] = readdirSync(cache).filter((name) => name.endsWith(".jsonl"));
  const path = join(cache, file ?? "");
  const lines = readFileSync(path, "utf8").split("\n");
  const lineOf = (symbol: string | undefined): number => lines.findIndex((line) => line.includes(`|${symbol ?? ""}|`));
  const [notNumber, otherNumber] = [lineOf(metals[0]), lineOf(metals[1])];
  expect(notNumber).toBeGreaterThan(0);
  expect(otherNumber).toBeGreaterThan(0);
  lines[notNumber] = withMid(lines[notNumber] ?? "", "abc");
  lines[otherNumber] = withMid(lines[otherNumber] ?? "", 999.99);
  expect(lines[notNumber]).toContain('"abc"');
  expect(lines[otherNumber]).toContain(",999.99,");
  writeFileSync(path, lines.join("\n"));
  const again = await run("edit-again", { kind: "sandbox", today: TODAY }, cache, metals);
  expect(again.cells).toEqual(filled.cells);
  expect(Object.values(again.cells)).not.toContain(999.99);
  expect(again.stats.client.cacheHits).toBe(metals.length - 2);
  expect(again.stats.client.keysRequested).toBe(2);
  expect(again.log.join("\n")).toMatch(/persistent cache: 2 cached values failed the response checks; dropped and asked again/);
  // The answers asked again replace the edited lines.
  const saved = readFileSync(path, "utf8");
  const midOf = (symbol: string | undefined): unknown => (JSON.parse(saved.split("\n").find((line) => line.includes(`|${symbol ?? ""}|`))?.split("\t")[4] ?? "[]") as unknown[])[4];
  expect(typeof midOf(metals[0])).toBe("number");
  expect(midOf(metals[1])).not.toBe(999.99);
});

/** A stored price line with its mid edited: the fifth field of the flat record (stored-value.ts), the line's digest left as it was. */
function withMid(line: string, mid: unknown): string {
  const valueAt = line.lastIndexOf("\t") + 1;
  const flat = JSON.parse(line.slice(valueAt)) as unknown[];
  expect(Array.isArray(flat)).toBe(true);
  flat[4] = mid;
  return line.slice(0, valueAt) + JSON.stringify(flat);
}

it("refuses a 150 MB cache file with one line and refreshes from the service", async () => {
  const { ADDIN_VERSION, partitionFor } = await import("../../src/prices/persistent");
  const cache = join(dir, "big");
  mkdirSync(cache);
  const partition = await partitionFor("the runner's own sandbox", "sandbox-full", ADDIN_VERSION);
  const path = join(cache, `${partition.id}.jsonl`);
  writeFileSync(path, `${JSON.stringify({ version: partition.version, baseUrl: partition.baseUrl, subject: partition.subject })}\n`);
  truncateSync(path, 150 * 1024 * 1024);
  const result = await run("big", { kind: "sandbox", today: TODAY }, cache, metals);
  expect(numbers(result.cells)).toBe(metals.length);
  expect(result.log.filter((line) => line.includes(path))).toEqual([`workbook: persistent cache ${path} is 150.0 MB, over its bound of 50.0 MB: not read (its values are asked again, and the file is replaced)`]);
  // Replaced by the session's own entries.
  expect(statSync(path).size).toBeLessThan(1024 * 1024);
});
