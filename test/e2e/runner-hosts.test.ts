/**
 * The runner's two hosts give the same run: the functions bundle in the runner's own Node context (the default) and
 * host.html in headless Chromium (`PRICES_RUNNER_HOST=chromium`). The same command on the same book, once under each,
 * prints the same JSON (values, cone, service requests, the client's counters) and writes the same parts and report.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import type { RunningSandbox } from "../../src/sandbox/server";
import { sandboxGet, sandboxToken } from "../support/service";
import { excel365Book } from "./excel365-book";
import { runMain, type MainRun } from "./run-main";
import { activeMetals, prices, TODAY, type JsonObject } from "./support";

jest.setTimeout(300_000);

const DATE = "2025-05-14";
const FROM = "2025-05-01";
const TO = "2025-05-31";
const HOSTS = ["node", "chromium"] as const;
let sandbox: RunningSandbox;
let dir: string;
let symbols: [string, string];
let history: { date: string; mid: number }[];

beforeAll(async () => {
  const { startSandbox } = await import("../../src/sandbox/server");
  sandbox = await startSandbox({ port: 0, today: TODAY, quiet: true });
  dir = mkdtempSync(join(tmpdir(), "prices-e2e-hosts-"));
  const chosen = activeMetals(sandbox, FROM).slice(0, 2);
  symbols = [chosen[0] ?? "", chosen[1] ?? ""];
  const token = await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret");
  const response = await sandboxGet(sandbox, "/Prices/History", { Symbols: symbols[0], FromDate: FROM, ToDate: TO }, token);
  expect(response.status).toBe(200);
  history = prices(JSON.parse(response.text) as JsonObject, symbols[0])
    .map((record) => ({ date: String(record.date), mid: Number(record.mid) }))
    .sort((a, b) => a.date.localeCompare(b.date));
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The command under one host; a failed run shows its stderr in the comparison. */
async function under(host: (typeof HOSTS)[number], args: readonly string[]): Promise<MainRun> {
  const run = await runMain(args, { PRICES_RUNNER_HOST: host });
  expect([host, run.code, run.code === 0 ? "" : run.errors]).toEqual([host, 0, ""]);
  return run;
}

/** Every entry of a package as text (a binary entry as base64), by name. */
function parts(path: string): Record<string, string> {
  return Object.fromEntries(Object.entries(unzipSync(readFileSync(path))).map(([name, bytes]) => [name, name.endsWith(".bin") ? Buffer.from(bytes).toString("base64") : strFromU8(bytes)]));
}

describe("the runner under its Node host and under Chromium", () => {
  it("prints the same JSON for a JSON book with prices, a history spill and an error", async () => {
    const book = join(dir, "book.json");
    const cells = {
      A1: symbols[0],
      A2: symbols[1],
      B1: "=PRICES.MID(A1:A2)",
      C1: `=PRICES.HIGH(A1:A2, "${DATE}")`,
      D1: `=PRICES.HISTORY(A1, "${FROM}", "${TO}")`,
      E1: '=PRICES.MID("ZZ-NOPE-0000")',
      F1: "=C1/C2-1",
    };
    writeFileSync(book, JSON.stringify({ cells }));
    // one after the other: a run captures this process's stdout and stderr
    const node = await under("node", [book, "--today", TODAY]);
    const chromium = await under("chromium", [book, "--today", TODAY]);
    const printed = JSON.parse(node.printed) as { cells: Record<string, unknown> };
    expect(Object.keys(printed.cells).length).toBeGreaterThan(Object.keys(cells).length);
    expect(printed).toEqual(JSON.parse(chromium.printed));
  });

  it("writes the same refreshed Excel 365 model (spills, shared formulas, tables, names) and the same report", async () => {
    const input = join(dir, "model.xlsx");
    writeFileSync(input, excel365Book({ symbols, date: DATE, from: FROM, to: TO, history }).bytes);
    const runs = [];
    for (const host of HOSTS) {
      const out = join(dir, `model-${host}.xlsx`);
      const report = join(dir, `model-${host}.report.json`);
      const run = await under(host, [input, "--out", out, "--report", report, "--today", TODAY]);
      runs.push({ printed: JSON.parse(run.printed) as { out: string }, parts: parts(out), report: JSON.parse(readFileSync(report, "utf8")) as { out: string } });
    }
    const [node, chromium] = runs.map((run) => ({ ...run, printed: { ...run.printed, out: "" }, report: { ...run.report, out: "" } }));
    expect(node?.parts["xl/worksheets/sheet1.xml"]).not.toEqual(parts(input)["xl/worksheets/sheet1.xml"]);
    expect(node).toEqual(chromium);
  });
});
