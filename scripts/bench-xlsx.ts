/**
 * `npm run bench:xlsx`: a 20,000-cell .xlsx model and a 100,000-row book refreshed end to end by the runner (read, evaluated by
 * the host in headless Chromium against the runner's own sandbox, written back), as `npm run workbook -- model.xlsx
 * --out refreshed.xlsx` does. Prints one JSON line per case and rewrites the "## Workbook files" section of docs/benchmarks.md.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import ExcelJS from "exceljs";
import { strToU8, zipSync } from "fflate";
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

const LARGE_ROWS = 100_000;
const LARGE_PRICES = 2_000;

/**
 * The large book as Excel writes one (raw parts, zipped): LARGE_ROWS rows x 5 columns of symbol, date, two numbers and,
 * in the first LARGE_PRICES rows, `=_xldudf_PRICES_MID(A2,B2)` in E (a number in E below).
 */
export function writeLargeBook(path: string, symbols: readonly string[], dates: readonly number[]): void {
  const rows: string[] = [];
  for (let row = 1; row <= LARGE_ROWS; row += 1) {
    const symbol = row % symbols.length;
    const date = dates[row % dates.length] ?? 0;
    const e = row <= LARGE_PRICES ? `<c r="E${row}" s="1"><f>_xldudf_PRICES_MID(A${row},B${row})</f><v>0</v></c>` : `<c r="E${row}"><v>${row * 0.5}</v></c>`;
    rows.push(`<row r="${row}" spans="1:5"><c r="A${row}" t="s"><v>${symbol}</v></c><c r="B${row}" s="2"><v>${date}</v></c><c r="C${row}"><v>${row}</v></c><c r="D${row}"><v>${row * 1.25}</v></c>${e}</row>`);
  }
  const main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
  const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  const files = {
    "[Content_Types].xml": `${head}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    "_rels/.rels": `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/_rels/workbook.xml.rels": `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/styles" Target="styles.xml"/><Relationship Id="rId3" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    "xl/workbook.xml": `${head}<workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="Prices" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="191029"/></workbook>`,
    "xl/styles.xml": `${head}<styleSheet xmlns="${main}"><fonts count="1"><font><sz val="11"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf/></cellStyleXfs><cellXfs count="3"><xf/><xf numFmtId="4" applyNumberFormat="1"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    "xl/sharedStrings.xml": `${head}<sst xmlns="${main}" count="${symbols.length}" uniqueCount="${symbols.length}">${symbols.map((symbol) => `<si><t>${symbol}</t></si>`).join("")}</sst>`,
    "xl/worksheets/sheet1.xml": `${head}<worksheet xmlns="${main}" xmlns:r="${rel}"><dimension ref="A1:E${LARGE_ROWS}"/><sheetData>${rows.join("")}</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`,
  };
  writeFileSync(path, zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)]))));
}

/** The large case in a process of its own, so its peak memory is the runner's alone: prints one JSON line. */
async function largeChild(model: string, out: string, today: string): Promise<void> {
  const marks: { message: string; at: number }[] = [];
  const started = performance.now();
  let gap = 0;
  let last = started;
  let silenceBefore = "";
  const result = await runWorkbook({ bookPath: model, out, service: { kind: "sandbox", today } }, (message) => {
    const now = performance.now();
    if (now - last > gap) {
      gap = now - last;
      silenceBefore = message;
    }
    last = now;
    marks.push({ message, at: now });
  });
  const at = (pattern: RegExp): number => marks.find((mark) => pattern.test(mark.message))?.at ?? Number.NaN;
  process.stdout.write(
    `${JSON.stringify({
      wallMs: Math.round(performance.now() - started),
      readMs: Math.round(at(/^workbook: read /) - started),
      evaluateMs: Math.round(at(/^workbook: evaluated /) - at(/^workbook: evaluating /)),
      writeMs: Math.round(at(/^workbook: wrote /) - at(/^workbook: writing /)),
      longestSilenceMs: Math.round(gap),
      silenceBefore,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      requests: result.stats.requests,
      requestsByPath: result.stats.requestsByPath,
    })}\n`,
  );
}

interface LargeLine {
  readonly wallMs: number;
  readonly readMs: number;
  readonly evaluateMs: number;
  readonly writeMs: number;
  readonly longestSilenceMs: number;
  readonly peakRssMb: number;
  readonly requests: number;
  readonly requestsByPath: Record<string, number>;
}

/** The 100,000-row book refreshed by the runner in a child process (Node's own peak RSS; Chromium's is its own process). */
function runLarge(dir: string, symbols: readonly string[], today: string): LargeLine {
  const model = join(dir, "large.xlsx");
  const end = Date.parse(`${today}T00:00:00Z`);
  const dates = Array.from({ length: 20 }, (_, index) => 25_569 + Math.floor((end - (index + 1) * 7 * 86_400_000) / 86_400_000));
  writeLargeBook(model, symbols.slice(0, 100), dates);
  const child = spawnSync(process.execPath, ["--import", "tsx", __filename, "--large-child", model, join(dir, "large-refreshed.xlsx"), today], {
    cwd: join(__dirname, ".."),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`the large case failed (exit ${String(child.status)})`);
  return JSON.parse(child.stdout.trim().split("\n").pop() ?? "{}") as LargeLine;
}

async function main(): Promise<void> {
  // `--large-child MODEL OUT TODAY` runs the large case in a child of its own.
  const { values, positionals } = parseArgs({ options: { "large-child": { type: "boolean", default: false } }, allowPositionals: true });
  if (values["large-child"]) {
    const [model, out, today] = positionals;
    return largeChild(model ?? "", out ?? "", today ?? "");
  }
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
    const large = runLarge(dir, symbols, today);
    process.stdout.write(`${JSON.stringify({ case: "xlsx-100000-rows", ...large })}\n`);
    const section = [
      `Written by \`npm run bench:xlsx\` (scripts/bench-xlsx.ts) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, load average ${startLoad} at the start and ${loadavg().map((value) => value.toFixed(1)).join(" ")} at the end. The runner's whole path as \`npm run workbook -- model.xlsx --out refreshed.xlsx\` takes it: its own sandbox, Chromium (dist/ built before the clock starts), the page (Chromium starts while the sheets are read, so "read" is the time until they are read and "sandbox, token and Chromium" what is left of the start after it), the package read with fflate and saxes and written back with only the refreshed cells changed. The large book runs in a child process, whose peak RSS is the runner's (Chromium is a process of its own).`,
      "",
      "| case | figure |",
      "| --- | --- |",
      `| ${LARGE_ROWS.toLocaleString("en")} rows x 5 columns, ${LARGE_PRICES.toLocaleString("en")} \`=_xldudf_PRICES_MID(A2,B2)\` (target: under 600 MB) | ${(large.wallMs / 1000).toFixed(1)} s end to end: read ${(large.readMs / 1000).toFixed(1)} s, evaluation ${(large.evaluateMs / 1000).toFixed(1)} s, write ${(large.writeMs / 1000).toFixed(1)} s; runner peak RSS ${large.peakRssMb} MB; longest time without a line on stderr ${(large.longestSilenceMs / 1000).toFixed(1)} s; ${large.requests} service requests |`,
      `| ${cells.toLocaleString("en")}-cell model: ${SYMBOLS} symbols x ${DATES} weekly dates of \`=_xldudf_PRICES_MID($A2,B$1)\` and ${SYMBOLS * (DATES - 1)} \`=C2/B2-1\` | ${(wallMs / 1000).toFixed(1)} s end to end: read ${(readMs / 1000).toFixed(1)} s, sandbox, token and Chromium ${((evaluateStartMs - readMs) / 1000).toFixed(1)} s, evaluation in the page ${(evaluateMs / 1000).toFixed(1)} s, written after ${(writeDoneMs / 1000).toFixed(1)} s; ${line.requests} service requests (${Object.entries(line.requestsByPath).map(([path, count]) => `${path} ${count}`).join(", ")}) |`,
      "",
      "Raw line:",
      "",
      "```",
      JSON.stringify(line),
      JSON.stringify({ case: "xlsx-100000-rows", ...large }),
      "```",
      "",
    ].join("\n");
    await writeSection("Workbook files", section);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) void main().catch((error: unknown) => {
  process.stderr.write(`bench:xlsx: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
