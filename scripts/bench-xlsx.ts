/**
 * `npm run bench:xlsx`: a 20,000-cell .xlsx model and a 100,000-row book refreshed end to end by the runner (read, evaluated by
 * the functions' host, a Node context or headless Chromium, against the runner's own sandbox, written back), as
 * `npm run workbook -- model.xlsx --out refreshed.xlsx` does. `--host node,chromium` runs every case under each; `--runs N` times each case N times (default 5) and gives the median run. Prints one JSON line per case and rewrites the "## Workbook files" section of docs/benchmarks.md.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { strToU8, zipSync } from "fflate";
import { columnName } from "../src/formula/a1";
import { writeSection } from "./bench-section";
import { watchTree } from "./process-tree-memory";
import { ensureBuilt } from "../src/runner/host-page";

const SYMBOLS = 200;
const DATES = 50;
/** The issue's size: dates + symbols + SYMBOLS x DATES mids + SYMBOLS x (DATES - 1) changes = 20,050. */
const MIN_CELLS = 20_000;

export async function pickSymbols(): Promise<{ symbols: string[]; today: string }> {
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
export async function writeModel(path: string, symbols: readonly string[], today: string): Promise<number> {
  // loaded here, not by each case's child: the child's memory and start are the runner's alone
  const { default: ExcelJS } = await import("exceljs");
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

/** Which half of the run a progress line ends: the marks a case's figures are read from. */
const MARKS = { read: /^workbook: read /, evaluating: /^workbook: evaluating /, evaluated: /^workbook: evaluated /, writing: /^workbook: writing /, wrote: /^workbook: wrote / };

/** `npm run workbook`'s launcher (the runner bundled, rebuilt when stale): each case runs it as that command does. */
const LAUNCHER = join(__dirname, "run-workbook.cjs");

/** The phases of one case, from the times its stderr lines reached this process (the child's start included). */
interface ChildLine {
  readonly wallMs: number;
  readonly readMs: number;
  readonly startMs: number;
  readonly evaluateMs: number;
  readonly writeMs: number;
  readonly untilWrittenMs: number;
  /** From the process's start to its first stderr line. */
  readonly firstLineMs: number;
  readonly requests: number;
  readonly requestsByPath: Record<string, number>;
}

function phases(marks: readonly { line: string; at: number }[], started: number, ended: number, stdout: string): ChildLine {
  const at = (pattern: RegExp): number => marks.find((mark) => pattern.test(mark.line))?.at ?? Number.NaN;
  const ms = (value: number): number => Math.round(value);
  const printed = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as { stats?: { requests?: number; requestsByPath?: Record<string, number> } };
  return {
    wallMs: ms(ended - started),
    readMs: ms(at(MARKS.read) - started),
    startMs: ms(at(MARKS.evaluating) - at(MARKS.read)),
    evaluateMs: ms(at(MARKS.evaluated) - at(MARKS.evaluating)),
    writeMs: ms(at(MARKS.wrote) - at(MARKS.writing)),
    untilWrittenMs: ms(at(MARKS.wrote) - started),
    firstLineMs: ms((marks[0]?.at ?? Number.NaN) - started),
    requests: printed.stats?.requests ?? 0,
    requestsByPath: printed.stats?.requestsByPath ?? {},
  };
}

interface CaseLine extends ChildLine {
  readonly case: string;
  readonly host: string;
  readonly busyLoops: number;
  readonly loadStart: string;
  readonly loadEnd: string;
  /** Peak of the summed PSS of the runner and every descendant (Chromium's processes), sampled every 100 ms. */
  readonly treePeakPssMb: number;
  readonly treePeakRssMb: number;
  readonly largestProcessRssMb: number;
  readonly largestProcess: string;
  readonly processes: number;
  /** CPU seconds the whole tree used (user + system), its start included. */
  readonly treeCpuS: number;
  /** The longest time the command's stderr stayed silent, from its start to its exit, as this process received it. */
  readonly longestSilenceMs: number;
  readonly silenceBefore: string;
  /** The wall of the run whose memory was sampled (its sampling slows it). */
  readonly sampledWallMs?: number;
  /** Every timed run's wall, in the order they ran (the figures are the median run's). */
  readonly wallsMs?: readonly number[];
}

const load = (): string => loadavg().map((value) => value.toFixed(1)).join(" ");

/**
 * One case timed `runs` times alone, then once with its memory sampled. Reading /proc/PID/smaps_rollup every 100 ms
 * walks the runner's page tables while it allocates: it added ~0.5 s to the 20,050-cell model's 2.9-3.4 s (four
 * alternating pairs), so the clock's figures come from runs nobody samples, the tree's memory and CPU from the other.
 * One run of the model moves by +-0.4 s with how the two cores' threads happen to meet (2.2-3.0 s in ten quiet runs),
 * so the clock's figures are the median run's (by wall), and the longest silence the longest of all the timed runs.
 */
async function runCaseTimed(name: string, model: string, out: string, today: string, host: string, busyLoops: number, runs: number): Promise<CaseLine> {
  const timed: CaseLine[] = [];
  for (let run = 0; run < runs; run++) timed.push(await runCase(name, model, out, today, host, busyLoops, false));
  const byWall = [...timed].sort((a, b) => a.wallMs - b.wallMs);
  const median = byWall[Math.floor((byWall.length - 1) / 2)];
  const quietest = timed.reduce((longest, line) => (line.longestSilenceMs > longest.longestSilenceMs ? line : longest));
  if (median === undefined) throw new Error("--runs: at least one timed run");
  const sampled = await runCase(name, model, out, today, host, busyLoops, true);
  return {
    ...median,
    loadStart: timed[0]?.loadStart ?? median.loadStart,
    wallsMs: timed.map((line) => line.wallMs),
    longestSilenceMs: quietest.longestSilenceMs,
    silenceBefore: quietest.silenceBefore,
    loadEnd: sampled.loadEnd,
    treePeakPssMb: sampled.treePeakPssMb,
    treePeakRssMb: sampled.treePeakRssMb,
    largestProcessRssMb: sampled.largestProcessRssMb,
    largestProcess: sampled.largestProcess,
    processes: sampled.processes,
    treeCpuS: sampled.treeCpuS,
    sampledWallMs: sampled.wallMs,
  };
}

/**
 * One case in a child process, the command `npm run workbook` runs (`node scripts/run-workbook.cjs`): the whole tree's
 * memory sampled from /proc, and its stderr's lines timed as they arrive here, the phases and the gaps between them.
 */
async function runCase(name: string, model: string, out: string, today: string, host: string, busyLoops: number, sampleMemory: boolean): Promise<CaseLine> {
  const loadStart = load();
  const started = performance.now();
  const child = spawn(process.execPath, [LAUNCHER, model, "--out", out, "--today", today], {
    cwd: join(__dirname, ".."),
    env: { ...process.env, ...(host === "default" ? {} : { PRICES_RUNNER_HOST: host }) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const memory = sampleMemory ? watchTree(child.pid ?? -1) : undefined;
  let last = started;
  let gap = 0;
  let silenceBefore = "";
  const tail: string[] = [];
  const marks: { line: string; at: number }[] = [];
  const note = (line: string): void => {
    const now = performance.now();
    marks.push({ line, at: now });
    if (now - last > gap) {
      gap = now - last;
      silenceBefore = line;
    }
    last = now;
  };
  let pending = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      note(line);
      tail.push(line);
      if (tail.length > 20) tail.shift();
    }
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  const code = await new Promise<number | null>((done) => child.on("close", done));
  const ended = performance.now();
  note("(exit)");
  const peak = memory?.stop() ?? { pssMb: 0, rssMb: 0, largestRssMb: 0, largestName: "", processes: 0, cpuSeconds: 0 };
  if (code !== 0) throw new Error(`${name} failed (exit ${String(code)}):\n${tail.join("\n")}`);
  const line = phases(marks, started, ended, stdout);
  return {
    case: name,
    host,
    busyLoops,
    loadStart,
    loadEnd: load(),
    ...line,
    treePeakPssMb: peak.pssMb,
    treePeakRssMb: peak.rssMb,
    largestProcessRssMb: peak.largestRssMb,
    largestProcess: peak.largestName,
    processes: peak.processes,
    treeCpuS: Math.round(peak.cpuSeconds * 10) / 10,
    longestSilenceMs: Math.round(gap),
    silenceBefore,
  };
}

/** `count` processes that keep a core busy each (`node -e 'for(;;){}'`), for the run beside them; `stop` ends them by their id. */
function busyLoops(count: number): { stop(): void } {
  const loops = Array.from({ length: count }, () => spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
  return {
    stop() {
      for (const loop of loops) loop.kill("SIGKILL");
    },
  };
}

const seconds = (ms: number): string => (ms / 1000).toFixed(1);

function row(line: CaseLine, what: string): string {
  const where = line.busyLoops > 0 ? `beside ${line.busyLoops} busy loops` : "quiet";
  const phases = `read ${seconds(line.readMs)} s, start of the service and host ${seconds(line.startMs)} s, evaluation ${seconds(line.evaluateMs)} s, write ${seconds(line.writeMs)} s`;
  const memory = `CPU ${line.treeCpuS.toFixed(1)} s over the tree; whole tree peak ${line.treePeakPssMb} MB PSS (${line.treePeakRssMb} MB RSS summed, ${line.processes} processes; largest ${line.largestProcess} ${line.largestProcessRssMb} MB RSS)`;
  const walls = line.wallsMs ?? [line.wallMs];
  const spread = walls.length > 1 ? `median of ${walls.length} runs, ${seconds(Math.min(...walls))}-${seconds(Math.max(...walls))} s; ` : "";
  return `| ${what}, ${line.host} host, ${where} (load ${line.loadStart} / ${line.loadEnd}) | ${seconds(line.wallMs)} s end to end (${spread}${phases}); ${memory}; first stderr line after ${seconds(line.firstLineMs)} s; longest stderr silence ${seconds(line.longestSilenceMs)} s (before "${line.silenceBefore}"); ${line.requests} service requests |`;
}

async function main(): Promise<void> {
  // `--host node|chromium|node,chromium` picks the runner's hosts (default: the runner's own default); `--busy N` the
  // busy loops of the second run (default 2, 0 skips it).
  // `--runs N` the timed runs of each case (default 5: the figures are the median run's).
  const { values } = parseArgs({ options: { host: { type: "string", default: "default" }, busy: { type: "string", default: "2" }, runs: { type: "string", default: "5" } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: expected a whole number of runs, got ${values.runs}`);
  const hosts = values.host.split(",");
  const busy = Number(values.busy);
  const startLoad = load();
  const dir = mkdtempSync(join(tmpdir(), "prices-bench-xlsx-"));
  try {
    const { symbols, today } = await pickSymbols();
    const model = join(dir, "model.xlsx");
    const cells = await writeModel(model, symbols, today);
    if (cells < MIN_CELLS) throw new Error(`the model has ${cells} cells, the benchmark promises at least ${MIN_CELLS}`);
    const large = join(dir, "large.xlsx");
    const end = Date.parse(`${today}T00:00:00Z`);
    const dates = Array.from({ length: 20 }, (_, index) => 25_569 + Math.floor((end - (index + 1) * 7 * 86_400_000) / 86_400_000));
    writeLargeBook(large, symbols.slice(0, 100), dates);
    // a stale dist/ is rebuilt before the clock starts: the figure is the runner's work, not webpack's
    ensureBuilt((message) => process.stderr.write(`${message}\n`));
    // and so is the runner's bundle (the launcher builds it when stale, on its first run)
    (require(LAUNCHER) as { builtRunner(): string }).builtRunner();
    const lines: CaseLine[] = [];
    const runBoth = async (loops: number): Promise<void> => {
      for (const [name, book] of [["xlsx-20000", model], ["xlsx-100000-rows", large]] as const) {
        for (const host of hosts) {
          const line = await runCaseTimed(name, book, join(dir, `${name}-refreshed.xlsx`), today, host, loops, runs);
          process.stdout.write(`${JSON.stringify(line)}\n`);
          lines.push(line);
        }
      }
    };
    await runBoth(0);
    if (busy > 0) {
      const loops = busyLoops(busy);
      try {
        await runBoth(busy);
      } finally {
        loops.stop();
      }
    }
    const modelWhat = `${cells.toLocaleString("en")}-cell model: ${SYMBOLS} symbols x ${DATES} weekly dates of \`=_xldudf_PRICES_MID($A2,B$1)\` and ${SYMBOLS * (DATES - 1)} \`=C2/B2-1\` (target: 2 s)`;
    const largeWhat = `${LARGE_ROWS.toLocaleString("en")} rows x 5 columns, ${LARGE_PRICES.toLocaleString("en")} \`=_xldudf_PRICES_MID(A2,B2)\` (target: whole tree under 600 MB, a line every 2 s)`;
    const section = [
      `Written by \`npm run bench:xlsx\` (scripts/bench-xlsx.ts) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, load average ${startLoad} at the start and ${load()} at the end (each row gives its own). Each case is the runner's whole path as \`npm run workbook -- model.xlsx --out refreshed.xlsx\` takes it, in a child process of its own, the command \`npm run workbook\` runs (\`node scripts/run-workbook.cjs\`: the runner bundled by esbuild, built before the clock starts): its own sandbox (in the runner's process), the functions bundle's host, the package read with fflate and saxes and written back with only the refreshed cells changed; dist/ is built before the clock starts. Each case runs ${runs} times timed and once more sampled: the clock's figures (the wall, the phases, the first line) are the median run's by wall (every wall in the raw line as wallsMs), the stderr silence the longest of the timed runs, none of whose memory anybody samples (reading smaps_rollup every 100 ms added ~0.5 s to the model); memory and CPU are the sampled run's (its wall in the raw line as sampledWallMs). Memory is the runner and every process it started (Chromium's, when the host is Chromium), sampled from /proc every 100 ms: PSS (/proc/PID/smaps_rollup; pages the processes share count once) summed, with summed RSS beside it; CPU is the user and system time of the same processes (/proc/PID/stat), the figure a loaded machine changes least. The stderr silence is timed here, where the child's stderr arrives, from its start to its exit (Node's start included), and so are the phases (the read from the process's start). The busy loops are \`node -e 'for(;;){}'\`, one per core of the 2.`,
      "",
      "| case | figure |",
      "| --- | --- |",
      ...lines.map((line) => row(line, line.case === "xlsx-20000" ? modelWhat : largeWhat)),
      "",
      "Raw lines:",
      "",
      "```",
      ...lines.map((line) => JSON.stringify(line)),
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
