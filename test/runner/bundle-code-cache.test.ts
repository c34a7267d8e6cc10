/**
 * The functions bundle's kept compiled code (src/runner/bundle-code-cache.ts). Each run is a Node process of its own, as
 * each workbook run is: within one process V8's own compilation cache would answer a second compile of the same source.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** Runs `file` in a fresh context of a fresh process, the code kept in `cache`: how it ran, and what it computed. */
function ran(file: string, cache: string | undefined): { use: string; answer: unknown } {
  const script = `
    const { createContext } = require("node:vm");
    const { runWithCodeCache } = require(${JSON.stringify(join(ROOT, "src/runner/bundle-code-cache.ts"))});
    const context = createContext({});
    const use = runWithCodeCache(${JSON.stringify(file)}, context, ${cache === undefined ? "undefined" : JSON.stringify(cache)});
    process.stdout.write(JSON.stringify({ use, answer: context.answer }));
  `;
  return JSON.parse(execFileSync(process.execPath, ["--import", "tsx", "-e", script], { cwd: ROOT, encoding: "utf8" })) as { use: string; answer: unknown };
}

/** A bundle of a few functions computing `value`; the same size and time for each value of one length. */
function bundle(file: string, value: string): void {
  writeFileSync(file, `function twice(x) { return x + x; }\nfunction answerOf() { return "${value}"; }\nglobalThis.answer = twice(answerOf());\n`);
  utimesSync(file, new Date(1_700_000_000_000), new Date(1_700_000_000_000));
}

describe("the functions bundle's kept compiled code", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "code-cache-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("compiles and keeps on the first run and runs from what it kept on the next, with the same result", () => {
    const file = join(dir, "functions.js");
    const cache = join(dir, "cache");
    bundle(file, "ab");
    expect(ran(file, cache)).toEqual({ use: "compiled, kept", answer: "abab" });
    expect(ran(file, cache)).toEqual({ use: "from cache", answer: "abab" });
    const kept = readdirSync(join(cache, "prices-functions"));
    expect(kept).toHaveLength(1);
    expect(statSync(join(cache, "prices-functions", kept[0] ?? "")).size).toBeGreaterThan(0);
  });

  it("compiles afresh when what it kept is not the bundle's code (another build, damaged), and keeps nothing without a folder", () => {
    const file = join(dir, "functions.js");
    const cache = join(dir, "cache");
    bundle(file, "ab");
    ran(file, cache);
    // another build of the same size and time (V8 alone would take the old code: it checks the length): the new build runs
    bundle(file, "cd");
    expect(ran(file, cache)).toEqual({ use: "compiled, kept", answer: "cdcd" });
    for (const name of readdirSync(join(cache, "prices-functions"))) writeFileSync(join(cache, "prices-functions", name), "not V8's code");
    expect(ran(file, cache)).toEqual({ use: "compiled, kept", answer: "cdcd" });
    expect(ran(file, cache)).toEqual({ use: "from cache", answer: "cdcd" });
    expect(ran(file, undefined)).toEqual({ use: "compiled", answer: "cdcd" });
  });
});
