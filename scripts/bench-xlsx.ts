/**
 * `npm run bench:xlsx`: a 20,000-cell .xlsx model refreshed end to end by the runner (read with exceljs, evaluated by
 * the host in headless Chromium against the runner's own sandbox, written back), as `npm run workbook -- model.xlsx
 * --out refreshed.xlsx` does. Prints one JSON line and rewrites the "## Workbook files" section of docs/benchmarks.md.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { columnName } from "../src/formula/a1";
import { writeSection } from "./bench-section";
import { ensureBuilt } from "../src/runner/host-page";
import { runWorkbook } from "../src/runner/workbook-runner";

const SYMBOLS = 200;
const DATES = 50;
/** The issue's size: dates + symbols + SYMBOLS x DATES mids + SYMBOLS x (DATES - 1) changes = 20,050. */
const MIN_CELLS = 20_000;

async function pickSymbols(): Promise<{ symbols: string[]; today: string }> {
  const { startSandbox } = await import("../src/sandbox/server");
  const sandbox = await startSandbox({ port: 0, quiet: true });
  try {
    const symbols = sandbox.data.instruments
      .filter((item) => item.record.launchDate < "2023-01-01")
      .map((item) => item.record.symbol)
      .slice(0, SYMBOLS);
    if (symbols.length < SYMBOLS) throw new Error(`the sandbox has ${symbols.length} instruments launched before 2023, the model needs ${SYMBOLS}`);
    return { symbols, today: sandbox.data.today };
  } finally {
    await sandbox.close();
  }
}

/** Symbols down A, dates across row 1, =PRICES.MID($A2,B$1) in the grid, and day-on-day changes =C2/B2-1 beside it. */
async function writeModel(path: string, symbols: readonly string[], today: string): Promise<number> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Model");
  const end = Date.parse(`${today}T00:00:00Z`);
  const dates = Array.from({ length: DATES }, (_, index) => new Date(end - (DATES - index) * 7 * 86_400_000).toISOString().slice(0, 10));
  let cells = 0;
  dates.forEach((date, index) => {
    sheet.getCell(1, index + 2).value = date;
    cells += 1;
  });
  symbols.forEach((symbol, row) => {
    const r = row + 2;
    sheet.getCell(r, 1).value = symbol;
    cells += 1;
    dates.forEach((_, index) => {
      const c = index + 2;
      sheet.getCell(r, c).value = { formula: `_xldudf_PRICES_MID($A${r},${columnName(c - 1)}$1)` };
      cells += 1;
      if (index > 0) {
        sheet.getCell(r, DATES + 2 + index).value = { formula: `${columnName(c - 1)}${r}/${columnName(c - 2)}${r}-1` };
        cells += 1;
      }
    });
  });
  await workbook.xlsx.writeFile(path);
  return cells;
}

async function main(): Promise<void> {
  const startLoad = loadavg().map((value) => value.toFixed(1)).join(" ");
  const dir = mkdtempSync(join(tmpdir(), "prices-bench-xlsx-"));
  try {
    const { symbols, today } = await pickSymbols();
    const model = join(dir, "model.xlsx");
    const cells = await writeModel(model, symbols, today);
    if (cells < MIN_CELLS) throw new Error(`the model has ${cells} cells, the benchmark promises at least ${MIN_CELLS}`);
    const out = join(dir, "refreshed.xlsx");
    // a stale dist/ is rebuilt before the clock starts: the figure is the runner's work, not webpack's
    ensureBuilt((message) => process.stderr.write(`${message}\n`));
    const marks: { message: string; at: number }[] = [];
    const started = performance.now();
    const result = await runWorkbook({ bookPath: model, out, service: { kind: "sandbox", today } }, (message) => marks.push({ message, at: performance.now() }));
    const wallMs = performance.now() - started;
    const at = (pattern: RegExp): number => marks.find((mark) => pattern.test(mark.message))?.at ?? Number.NaN;
    const readMs = at(/^workbook: read /) - started;
    const writeDoneMs = at(/^workbook: wrote /) - started;
    const evaluateStartMs = at(/^workbook: evaluating /) - started;
    const evaluateMs = at(/^workbook: evaluated /) - started - evaluateStartMs;
    const line = {
      case: "xlsx-20000",
      cells,
      formulas: SYMBOLS * DATES + SYMBOLS * (DATES - 1),
      wallMs: Math.round(wallMs),
      readMs: Math.round(readMs),
      startMs: Math.round(evaluateStartMs - readMs),
      evaluateMs: Math.round(evaluateMs),
      untilWrittenMs: Math.round(writeDoneMs),
      requests: result.stats.requests,
      requestsByPath: result.stats.requestsByPath,
      bytesIn: readFileSync(model).length,
      bytesOut: readFileSync(out).length,
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    const section = [
      `Written by \`npm run bench:xlsx\` (scripts/bench-xlsx.ts) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, load average ${startLoad} at the start and ${loadavg().map((value) => value.toFixed(1)).join(" ")} at the end. The runner's whole path as \`npm run workbook -- model.xlsx --out refreshed.xlsx\` takes it: its own sandbox, Chromium (dist/ built before the clock starts), the page, exceljs reading and writing.`,
      "",
      "| case | figure |",
      "| --- | --- |",
      `| ${cells.toLocaleString("en")}-cell model: ${SYMBOLS} symbols x ${DATES} weekly dates of \`=_xldudf_PRICES_MID($A2,B$1)\` and ${SYMBOLS * (DATES - 1)} \`=C2/B2-1\` | ${(wallMs / 1000).toFixed(1)} s end to end: read ${(readMs / 1000).toFixed(1)} s, sandbox, token and Chromium ${((evaluateStartMs - readMs) / 1000).toFixed(1)} s, evaluation in the page ${(evaluateMs / 1000).toFixed(1)} s, written after ${(writeDoneMs / 1000).toFixed(1)} s; ${line.requests} service requests (${Object.entries(line.requestsByPath).map(([path, count]) => `${path} ${count}`).join(", ")}) |`,
      "",
      "Raw line:",
      "",
      "```",
      JSON.stringify(line),
      "```",
      "",
    ].join("\n");
    await writeSection("Workbook files", section);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`bench:xlsx: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
