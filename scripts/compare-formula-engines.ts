/**
 * Measures formula engines on the project's own corpus (test/host/engine-corpus.ts) against LibreOffice's
 * recalculation and Excel's documented values, as the engine corpus test does, and prints one line per candidate.
 * The candidates that are not the project's dependencies are loaded from a directory given on the command line:
 *   npm install --prefix /tmp/cand hyperformula fast-formula-parser @ironcalc/wasm
 *   npx tsx scripts/compare-formula-engines.ts --candidates /tmp/cand/node_modules [--engine /tmp/old/src/host/engine.ts]
 * (`--engine` measures another checkout's WorkbookEngine, e.g. the one before issue 16.)
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import ExcelJS from "exceljs";
import { columnIndex, parseCellAddress } from "../src/formula/a1";
import { readBook } from "../src/host/book";
import { WorkbookEngine } from "../src/host/engine";
import { createCustomFunctionsRuntime } from "../src/host/runtime";
import { type CellValue, isCellError } from "../src/host/values";
import { libreOfficeRecalculated } from "../test/support/libreoffice-recalc";
import { type Expected, INPUTS, INPUT_FORMULAS, corpus, fileForm } from "../test/host/engine-corpus";

type Answer = number | string | boolean | { error: string } | null;
type Candidate = (cells: Record<string, string | number | boolean>, targets: readonly string[]) => Promise<Map<string, Answer>>;

const FIRST_ROW = 21;

function agrees(expected: Expected | null, actual: Answer, tolerance: number): boolean {
  if (expected === null) return actual === null || actual === 0 || actual === "";
  if (typeof expected === "object") return typeof actual === "object" && actual !== null && actual.error === expected.error;
  if (typeof expected === "number") return typeof actual === "number" && Math.abs(expected - actual) <= tolerance * Math.max(1, Math.abs(expected));
  return expected === actual;
}

function fromCell(value: CellValue): Answer {
  return isCellError(value) ? { error: value.code } : value;
}

/** The project's engine (or another checkout's, loaded by path). */
function projectEngine(enginePath?: string): Candidate {
  return async (cells, targets) => {
    const load = createRequire(__filename);
    const Engine = enginePath ? (load(resolve(enginePath)) as { WorkbookEngine: typeof WorkbookEngine }).WorkbookEngine : WorkbookEngine;
    const read = enginePath ? (load(resolve(dirname(enginePath), "book.ts")) as { readBook: typeof readBook }).readBook : readBook;
    const engine = new Engine({ runtime: createCustomFunctionsRuntime(), metadata: [], today: () => 45352 });
    const book: Record<string, unknown> = {};
    for (const [address, value] of Object.entries(cells)) book[address] = typeof value === "string" && !value.startsWith("=") ? `'${value}` : value;
    const alone = async (target: string): Promise<Answer> => {
      const only = Object.fromEntries(Object.entries(book).filter(([address]) => !/^L\d+$/.test(address) || address === target));
      try {
        engine.load(read({ cells: only }));
        await engine.evaluate();
        const position = parseCellAddress(target) ?? { row: 0, col: 0 };
        return fromCell(engine.value(position.row, position.col));
      } catch (error) {
        return { error: `failed: ${String(error).slice(0, 60)}` };
      }
    };
    try {
      engine.load(read({ cells: book }));
      await engine.evaluate();
    } catch {
      // the engine before issue 16 refused a whole book for one formula it could not parse, or threw: each formula on its own then
      const answers = new Map<string, Answer>();
      for (const target of targets) answers.set(target, await alone(target));
      return answers;
    }
    const left = new Set("leftForExcel" in engine ? engine.leftForExcel().map((entry) => entry.cell) : []);
    return new Map<string, Answer>(targets.map((target): [string, Answer] => {
      const position = parseCellAddress(target) ?? { row: 0, col: 0 };
      return [target, left.has(target) ? { error: "left for Excel" } : fromCell(engine.value(position.row, position.col))];
    }));
  };
}

function hyperFormula(require: NodeRequire): Candidate {
  return (cells, targets) => {
    const { HyperFormula } = require("hyperformula") as { HyperFormula: { buildFromSheets(sheets: Record<string, unknown[][]>, config: object): { getCellValue(address: object): unknown } } };
    const grid: unknown[][] = [];
    for (const [address, value] of Object.entries(cells)) {
      const position = parseCellAddress(address) ?? { row: 0, col: 0 };
      const row = (grid[position.row] ??= []);
      row[position.col] = typeof value === "string" && value.startsWith("=") ? `=${value.slice(1).replace(/_xlfn\.(_xlws\.)?/g, "")}` : value;
    }
    const hf = HyperFormula.buildFromSheets({ Sheet1: Array.from(grid, (row) => Array.from(row ?? [], (cell) => cell ?? null)) }, { licenseKey: "gpl-v3" });
    return Promise.resolve(new Map<string, Answer>(targets.map((target): [string, Answer] => {
      const position = parseCellAddress(target) ?? { row: 0, col: 0 };
      const value = hf.getCellValue({ sheet: 0, row: position.row, col: position.col });
      if (value !== null && typeof value === "object") return [target, { error: String((value as { value?: unknown }).value) }];
      return [target, value as Answer];
    })));
  };
}

function ironCalc(require: NodeRequire): Candidate {
  return (cells, targets) => {
    const wasm = require("@ironcalc/wasm") as {
      initSync(input: { module: Buffer }): void;
      Model: new (name: string, locale: string, timezone: string, language: string) => { setUserInput(s: number, r: number, c: number, v: string): void; evaluate(): void; getFormattedCellValue(s: number, r: number, c: number): string };
    };
    wasm.initSync({ module: readFileSync(require.resolve("@ironcalc/wasm/wasm_bg.wasm")) });
    const model = new wasm.Model("corpus", "en", "UTC", "en");
    for (const [address, value] of Object.entries(cells)) {
      const match = /^([A-Z]+)(\d+)$/.exec(address);
      if (!match) continue;
      const input = typeof value === "string" && value.startsWith("=") ? `=${value.slice(1).replace(/_xlfn\.(_xlws\.)?/g, "")}` : typeof value === "string" ? `'${value}` : String(value).toUpperCase();
      model.setUserInput(0, Number(match[2]), columnIndex(match[1] ?? "A") + 1, input);
    }
    model.evaluate();
    return Promise.resolve(new Map<string, Answer>(targets.map((target): [string, Answer] => {
      const match = /^([A-Z]+)(\d+)$/.exec(target) ?? ["", "A", "1"];
      const shown = model.getFormattedCellValue(0, Number(match[2]), columnIndex(match[1] ?? "A") + 1);
      if (/^#[A-Z/0!?]+[!?A]?$/.test(shown)) return [target, { error: shown }];
      if (shown === "TRUE" || shown === "FALSE") return [target, shown === "TRUE"];
      const number = Number(shown.replace(/,/g, ""));
      return [target, shown !== "" && Number.isFinite(number) && !/^0\d/.test(shown) ? number : shown];
    })));
  };
}

async function main(): Promise<void> {
  // the engine before issue 16 let a worksheet function's exception escape its run: counted as that formula's failure
  process.on("unhandledRejection", () => undefined);
  const { values } = parseArgs({ options: { candidates: { type: "string" }, engine: { type: "string" } } });
  const formulas = corpus();
  const cells: Record<string, string | number | boolean> = { ...INPUTS };
  for (const [address, formula] of Object.entries(INPUT_FORMULAS)) cells[address] = `=${formula}`;
  const targets = formulas.map((_, index) => `L${FIRST_ROW + index}`);
  formulas.forEach((entry, index) => (cells[`L${FIRST_ROW + index}`] = `=${fileForm(entry.formula)}`));
  const dir = mkdtempSync(join(tmpdir(), "prices-compare-"));
  let recalculated: Map<string, unknown>;
  try {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("Sheet1");
    for (const [address, value] of Object.entries(cells)) {
      sheet.getCell(address).value = typeof value === "string" && value.startsWith("=") ? ({ formula: value.slice(1) } as ExcelJS.CellFormulaValue) : value;
    }
    await book.xlsx.writeFile(join(dir, "corpus.xlsx"));
    recalculated = libreOfficeRecalculated(join(dir, "corpus.xlsx"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const expected = formulas.map((entry, index) => (entry.excel ? entry.excel.value : ((recalculated.get(targets[index] ?? "") as Expected | undefined) ?? null)));
  const candidates: [string, Candidate, number][] = [["this engine", projectEngine(), 1e-9]];
  if (values.engine) candidates.push([`engine at ${values.engine}`, projectEngine(values.engine), 1e-9]);
  if (values.candidates) {
    const require = createRequire(join(resolve(values.candidates), "noop.js"));
    // IronCalc shows at most 9 decimals in its formatted values, the only values its binding gives
    candidates.push(["HyperFormula", hyperFormula(require), 1e-9], ["IronCalc (wasm)", ironCalc(require), 1e-8]);
  }
  for (const [name, candidate, tolerance] of candidates) {
    const answers = await candidate(cells, targets);
    let agree = 0;
    let left = 0;
    const wrong: string[] = [];
    targets.forEach((target, index) => {
      const answer = answers.get(target) ?? null;
      if (agrees(expected[index] ?? null, answer, tolerance)) agree += 1;
      else if (typeof answer === "object" && answer !== null && answer.error === "left for Excel") left += 1;
      else wrong.push(`=${formulas[index]?.formula}: expected ${JSON.stringify(expected[index])}, got ${JSON.stringify(answer)}`);
    });
    process.stdout.write(`${name}: ${agree}/${targets.length} agree, ${left} left for Excel, ${wrong.length} silently wrong\n${wrong.slice(0, 400).map((line) => `  ${line}\n`).join("")}`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
