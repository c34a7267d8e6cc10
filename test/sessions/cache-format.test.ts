/**
 * The persistent cache's format 5 (issue 28's read figure): a usual price record is stored as a flat array without its
 * field names and read back as it was; any other value stays JSON; every line is ASCII, so a file decodes as Latin-1
 * and a line's size is its length; a format 4 file is refused with one line and removed; a flat line edited by hand,
 * or one that fits no record, is dropped and counted like any line that fails.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StoredEntry } from "../../src/prices/cache";
import type { KeyKind } from "../../src/prices/types";
import { FileCacheBackend } from "../../src/prices/persistent/file-backend";
import { ADDIN_VERSION, PersistentCache, type Partition, partitionFor } from "../../src/prices/persistent";
import { storedLine } from "../../src/prices/persistent/stored-line";
import { storedValue, storedValueText } from "../../src/prices/persistent/stored-value";

let dir: string;
let partition: Partition;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "prices-cache-format-"));
  partition = await partitionFor("https://prices.example.com/physical/v2", "someone", ADDIN_VERSION);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const TODAY = "2025-07-01";
const curve = (code: string, month: string, mid: number): Record<string, unknown> => ({ forwardCode: code, forwardMonth: month, low: mid - 1, mid, high: mid + 1.25 });
const WITH_CURVES = { date: "2025-05-14", assessmentDate: "2025-05-14T17:33:44-05:00", revision: 2, low: 458.16, mid: 461, high: 463.83, forwardCurves: [curve("M1", "JUN", 462.78), curve("M2", "JUL", -0.5)] };
const PLAIN = { date: "2025-05-14", assessmentDate: "2025-05-14T17:30:00Z", revision: 0, low: 90, mid: 100.1, high: 110 };
const id = (symbol: string): string => `p|${symbol}|2025-05-14|None|`;

function cacheOver(backend = new FileCacheBackend(dir)): Promise<PersistentCache> {
  return PersistentCache.open({ partition, backend, today: () => TODAY, scheduleFlush: () => undefined });
}

function entry(kind: KeyKind, value: unknown): StoredEntry {
  return { kind, value, storedAt: 1000, expiresAt: 2000, bytes: 0 };
}

/** The value part of every line of the partition file, after its header. */
function storedValues(): string[] {
  const [file] = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
  return readFileSync(join(dir, file ?? ""), "latin1").split("\n").slice(1, -1).map((line) => line.slice(line.lastIndexOf("\t") + 1));
}

describe("a price record's stored form", () => {
  it("keeps a usual record, with forward curves or without, as a flat array and reads it back as it was", () => {
    for (const record of [WITH_CURVES, PLAIN]) {
      const text = storedValueText("price", record);
      expect(text.startsWith("[")).toBe(true);
      expect(text).not.toContain("forwardCode");
      // The same fields in the same order: JSON text compares both.
      expect(JSON.stringify(storedValue("price", text))).toBe(JSON.stringify(record));
    }
  });

  it("keeps any other record as JSON, and reads it back as it was", () => {
    const others: unknown[] = [
      { ...PLAIN, appraisalPrice: true },
      { ...PLAIN, forwardCurves: [] },
      { mid: 100.1, date: "2025-05-14", assessmentDate: "2025-05-14T17:30:00Z", revision: 0, low: 90, high: 110 },
      { ...WITH_CURVES, forwardCurves: [{ ...curve("M1", "JUN", 1), note: "x" }] },
      { ...PLAIN, revision: null },
    ];
    for (const record of others) {
      const text = storedValueText("price", record);
      expect(text.startsWith("{")).toBe(true);
      expect(JSON.stringify(storedValue("price", text))).toBe(JSON.stringify(record));
    }
    // Other kinds are JSON whatever their shape.
    expect(storedValueText("instrument", PLAIN)).toBe(JSON.stringify(PLAIN));
  });

  it("serves from a reopened file what the cache stored, in the flat form", async () => {
    const first = await cacheOver();
    first.set(id("MB-AL-0001"), entry("price", WITH_CURVES));
    first.set(id("MB-CU-0002"), entry("price", { ...PLAIN, pricingRationale: "thin trade" }));
    await first.flush();
    const [flat, json] = storedValues();
    expect(flat?.startsWith("[")).toBe(true);
    expect(json?.startsWith("{")).toBe(true);
    const second = await cacheOver();
    expect(second.peek(id("MB-AL-0001"))?.value).toEqual(WITH_CURVES);
    expect(second.peek(id("MB-CU-0002"))?.value).toEqual({ ...PLAIN, pricingRationale: "thin trade" });
    expect(second.rejected).toBe(0);
  });
});

describe("ASCII lines", () => {
  // A price record with a rationale (stored as JSON): final, so served from a reopened file.
  const record = { ...PLAIN, pricingRationale: "Zürich warehouse, €/t" };
  const recordId = id("MB-ZN-0009");

  it("writes a character past ASCII as its escape, loads the file as ASCII, and reads the value back", async () => {
    const first = await cacheOver();
    first.set(recordId, entry("price", record));
    await first.flush();
    const [value] = storedValues();
    expect(value).toContain("Z\\u00fcrich");
    expect(value).toContain("\\u20ac/t");
    const loaded = await new FileCacheBackend(dir).load(partition);
    expect(loaded.ascii).toBe(true);
    const second = await cacheOver();
    expect(second.peek(recordId)?.value).toEqual(record);
    // The bound counts the bytes of the stored form: the file's body.
    const header = readFileSync(join(dir, `${partition.id}.jsonl`), "latin1").indexOf("\n") + 1;
    expect(second.bytes).toBe(statSync(join(dir, `${partition.id}.jsonl`)).size - header);
  });

  it("reads a file holding a character past ASCII as UTF-8, counting its bytes", async () => {
    const raw = storedLine(recordId, "2025-06-30", 1000, JSON.stringify(record)).replace("Z\\u00fcrich", "Zürich");
    expect(raw).toContain("Zürich");
    const body = `${raw}\n`;
    const header = { version: partition.version, baseUrl: partition.baseUrl, subject: partition.subject, lines: createHash("sha256").update(body).digest("base64url") };
    writeFileSync(join(dir, `${partition.id}.jsonl`), `${JSON.stringify(header)}\n${body}`);
    const loaded = await new FileCacheBackend(dir).load(partition);
    expect(loaded).toMatchObject({ ascii: false, lines: [raw] });
    const cache = await cacheOver();
    expect(cache.bytes).toBe(Buffer.byteLength(body));
    // The file's digest vouches for the line as it is (its own digest was written over the escaped text).
    expect(cache.peek(recordId)?.value).toEqual(record);
  });
});

describe("format 4", () => {
  it("refuses a file written in format 4 with one line naming it, and removes it", async () => {
    const old = `${ADDIN_VERSION}/4`;
    const path = join(dir, `${partition.id}.jsonl`);
    const line = `"${id("MB-AL-0001")}"\t2025-06-30\t1000\t0\t${JSON.stringify(PLAIN)}`;
    writeFileSync(path, `${JSON.stringify({ version: old, baseUrl: partition.baseUrl, subject: partition.subject })}\n${line}\n`);
    const logged: string[] = [];
    const loaded = await new FileCacheBackend(dir, { log: (message) => void logged.push(message) }).load(partition);
    expect(loaded.lines).toEqual([]);
    expect(logged).toEqual([`workbook: persistent cache ${path} was written by version ${old}, not this one's ${partition.version}: removed (its values are asked again)`]);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("a flat line that does not read", () => {
  async function savedFlat(): Promise<string> {
    const first = await cacheOver();
    for (const symbol of ["MB-AL-0001", "MB-CU-0002", "MB-NI-0003"]) first.set(id(symbol), entry("price", { ...PLAIN, mid: symbol.length }));
    await first.flush();
    return join(dir, `${partition.id}.jsonl`);
  }

  async function mids(): Promise<{ mids: unknown[]; rejected: number }> {
    const cache = await cacheOver();
    const read = ["MB-AL-0001", "MB-CU-0002", "MB-NI-0003"].map((symbol) => (cache.peek(id(symbol))?.value as { mid?: unknown } | undefined)?.mid);
    return { mids: read, rejected: cache.rejected };
  }

  it("drops a number edited by hand: the file's digest and the line's both find it", async () => {
    const path = await savedFlat();
    const text = readFileSync(path, "latin1");
    const edited = text.replace('"2025-05-14T17:30:00Z",0,90,10,110]', '"2025-05-14T17:30:00Z",0,90,999.99,110]');
    expect(edited).not.toBe(text);
    writeFileSync(path, edited);
    expect((await new FileCacheBackend(dir).load(partition)).intact).toBe(false);
    expect(await mids()).toEqual({ mids: [undefined, 10, 10], rejected: 1 });
  });

  it("drops a line whose flat record is cut short or holds a mid that is not a number, even with both digests written again", async () => {
    const path = await savedFlat();
    const [header = ""] = readFileSync(path, "latin1").split("\n");
    const flat = (mid: unknown, extra: unknown[] = []): string => JSON.stringify(["2025-05-14", "2025-05-14T17:30:00Z", 0, 90, mid, 110, ...extra]);
    const body = `${[
      storedLine(id("MB-AL-0001"), "2025-06-30", 1000, flat(10, ["M1", "JUN", 1])),
      storedLine(id("MB-CU-0002"), "2025-06-30", 1000, flat("abc")),
      storedLine(id("MB-NI-0003"), "2025-06-30", 1000, flat(10)),
    ].join("\n")}\n`;
    const forged = { ...(JSON.parse(header) as Record<string, unknown>), lines: createHash("sha256").update(body).digest("base64url") };
    writeFileSync(path, `${JSON.stringify(forged)}\n${body}`);
    expect((await new FileCacheBackend(dir).load(partition)).intact).toBe(true);
    expect(await mids()).toEqual({ mids: [undefined, undefined, 10], rejected: 2 });
  });
});
