/**
 * The engine against a real spreadsheet: the corpus (engine-corpus.ts) is written to an .xlsx, LibreOffice
 * recalculates it on load, and the engine evaluates the same cells in Node. At least 99 % must agree, and every
 * formula that does not agree must be left for Excel: none silently wrong.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { parseCellAddress } from "../../src/formula/a1";
import { isCellError, type CellValue } from "../../src/host/values";
import { type RecalculatedValue, libreOfficeRecalculated } from "../support/libreoffice-recalc";
import { type CorpusFormula, type Expected, INPUTS, INPUT_FORMULAS, corpus, fileForm } from "./engine-corpus";
import { fixtureHost } from "./harness";

jest.setTimeout(240_000);

const SHEET = "Sheet1";
/** Formulas go down column L from row 21, below every input (so `@A1:A10` meets none of their rows). */
const FIRST_ROW = 21;

interface Outcome {
  readonly cell: string;
  readonly formula: string;
  readonly expected: Expected | null;
  readonly source: string;
  readonly actual: CellValue;
  readonly left?: string;
}

function agrees(expected: Expected | null, actual: CellValue): boolean {
  if (expected === null) return actual === null || actual === 0 || actual === "";
  if (typeof expected === "object") return isCellError(actual) && actual.code === expected.error;
  if (typeof expected === "number") {
    if (typeof actual !== "number") return false;
    return Math.abs(expected - actual) <= 1e-9 * Math.max(1, Math.abs(expected));
  }
  return expected === actual;
}

function expectedOf(value: RecalculatedValue | undefined): Expected | null {
  if (value === undefined || value === null) return null;
  return value;
}

let outcomes: Outcome[] = [];
const formulas = corpus();

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "prices-corpus-"));
  try {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet(SHEET);
    const cells: Record<string, unknown> = {};
    for (const [address, value] of Object.entries(INPUTS)) {
      sheet.getCell(address).value = value;
      cells[address] = typeof value === "string" ? `'${value}` : value;
    }
    for (const [address, formula] of Object.entries(INPUT_FORMULAS)) {
      sheet.getCell(address).value = { formula } as ExcelJS.CellFormulaValue;
      cells[address] = `=${formula}`;
    }
    formulas.forEach((entry, index) => {
      const address = `L${FIRST_ROW + index}`;
      const stored = fileForm(entry.formula);
      sheet.getCell(address).value = { formula: stored } as ExcelJS.CellFormulaValue;
      cells[address] = `=${stored}`;
    });
    const file = join(dir, "corpus.xlsx");
    await book.xlsx.writeFile(file);
    const recalculated = libreOfficeRecalculated(file);
    const host = fixtureHost({ today: () => 45352 });
    await host.evaluate(cells);
    const left = new Map(host.engine.leftForExcel().map((entry) => [entry.cell, entry.why]));
    outcomes = formulas.map((entry: CorpusFormula, index) => {
      const cell = `L${FIRST_ROW + index}`;
      const position = parseCellAddress(cell) ?? { row: 0, col: 0 };
      const why = left.get(cell);
      return {
        cell,
        formula: entry.formula,
        expected: entry.excel ? entry.excel.value : expectedOf(recalculated.get(cell)),
        source: entry.excel ? `Excel (${entry.excel.why})` : "LibreOffice",
        actual: host.engine.value(position.row, position.col),
        ...(why === undefined ? {} : { left: why }),
      };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("the engine corpus against LibreOffice's recalculation (and Excel's documented values where they differ)", () => {
  it("holds at least 500 formulas", () => {
    expect(formulas.length).toBeGreaterThanOrEqual(500);
  });

  it("leaves every formula it does not agree on for Excel: none is silently wrong", () => {
    const silentlyWrong = outcomes
      .filter((outcome) => outcome.left === undefined && !agrees(outcome.expected, outcome.actual))
      .map((outcome) => `${outcome.cell} =${outcome.formula}: ${outcome.source} ${JSON.stringify(outcome.expected)}, engine ${JSON.stringify(outcome.actual)}`);
    expect(silentlyWrong).toEqual([]);
  });

  it("agrees on at least 99 % of the corpus", () => {
    const agreeing = outcomes.filter((outcome) => outcome.left === undefined && agrees(outcome.expected, outcome.actual)).length;
    const leftOut = outcomes.filter((outcome) => outcome.left !== undefined).map((outcome) => `${outcome.cell} =${outcome.formula}: ${outcome.left}`);
    const documented = outcomes.filter((outcome) => outcome.source !== "LibreOffice").length;
    process.stdout.write(`engine corpus: ${agreeing} of ${outcomes.length} agree (${documented} against Excel's documented value), ${leftOut.length} left for Excel${leftOut.map((line) => `\n  ${line}`).join("")}\n`);
    expect(agreeing / outcomes.length).toBeGreaterThanOrEqual(0.99);
  });
});
