/**
 * .xlsx in and out for the headless runner (Node only, never bundled), with exceljs (MIT).
 *
 * Reading: every sheet becomes a host book; formulas keep the text the file holds (`_xlfn.` prefixes, Excel's
 * `_xldudf_PRICES_MID` form of a JavaScript custom function and its damaged `[2]!_xldudf_` form included), and the
 * cells a saved dynamic array spilled into are left out so the fresh result can spill there again.
 *
 * Writing: each formula keeps its text and gets the fresh value as its cached result; a result that spills is
 * written as an array formula over its area with the values in the other cells. exceljs cannot write Excel's
 * dynamic-array metadata (the `cm` attribute and metadata.xml), so Excel opens such a spill as a legacy array
 * formula `{=...}` of fixed size. With `freeze`, formulas that call PRICES become their values and a sheet
 * `Prices provenance` says where each value came from.
 */
import { closeSync, openSync, readSync, renameSync, rmSync } from "node:fs";
import { dirname, join, basename } from "node:path";
import ExcelJS from "exceljs";
import { type RangeRef, formatCellAddress, parseCellAddress, parseRangeAddress } from "../formula/a1";
import { type Expression, FormulaSyntaxError, parseExpression } from "../formula/parse";
import { whyLeftForExcel } from "../host/evaluate";
import { type DateSystem, isoDateToSerial } from "../functions/excelDates";
import type { SheetInput, WorkbookResult } from "../host/api";
import { callsNamespace } from "../formula/functions";
import { PROVENANCE_SHEET, provenanceTable } from "../prices/provenance";
import { type CellValue, isCellError } from "../host/values";

export { PROVENANCE_SHEET };

/** A file the runner cannot read as a workbook: exit code 2 with this message. */
export class WorkbookFileError extends Error {
  override readonly name = "WorkbookFileError";
}

export interface FormulaSource {
  /** As the file holds it, without `=`. */
  readonly text: string;
  /** Whether it calls a PRICES function anywhere (what `freeze` replaces by values). */
  readonly callsPrices: boolean;
}

/** A formula the host cannot read (a table reference, a whole column, another workbook): kept as saved, its saved result read in its place. */
export interface KeptFormula {
  readonly sheet: string;
  readonly address: string;
  /** Why the host cannot read it. */
  readonly reason: string;
}

export interface LoadedWorkbook {
  readonly workbook: ExcelJS.Workbook;
  readonly sheets: readonly SheetInput[];
  /** Formulas by sheet, then address. */
  readonly formulas: ReadonlyMap<string, ReadonlyMap<string, FormulaSource>>;
  /** The areas saved dynamic arrays covered, by sheet (cleared before the fresh results are written). */
  readonly savedSpills: ReadonlyMap<string, readonly RangeRef[]>;
  readonly cellCount: number;
  /** Formulas left as the file holds them (text and cached result), which the sheets' other formulas read as values. */
  readonly kept: readonly KeptFormula[];
  /** The workbook's date system (`<workbookPr date1904="1"/>` makes it 1904): serials in the file count in it. */
  readonly dateSystem: DateSystem;
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const COMPOUND_FILE = [0xd0, 0xcf, 0x11, 0xe0];

function startsWith(path: string, signature: readonly number[]): boolean {
  const buffer = Buffer.alloc(signature.length);
  const fd = openSync(path, "r");
  try {
    readSync(fd, buffer, 0, signature.length, 0);
  } finally {
    closeSync(fd);
  }
  return signature.every((byte, index) => buffer[index] === byte);
}

/** The checks before exceljs sees the file: an encrypted workbook is an OLE compound file, not a zip. */
function checkSignature(path: string): void {
  try {
    if (startsWith(path, ZIP)) return;
    if (startsWith(path, COMPOUND_FILE)) {
      throw new WorkbookFileError(`${path} is password-protected (encrypted) or an old .xls file: save it in Excel as an .xlsx without a password to open`);
    }
  } catch (error) {
    if (error instanceof WorkbookFileError) throw error;
    throw new WorkbookFileError(`cannot read ${path}`);
  }
  throw new WorkbookFileError(`${path} is not an .xlsx file (an .xlsx is a zip package)`);
}

/** How the file writes a formula, read back as Excel shows it: the `[2]!` a lost add-in link leaves before `_xldudf_` dropped. */
export function formulaText(fileText: string): string {
  return `=${fileText.replace(/\[\d+\]!(?=_xldudf_)/gi, "")}`;
}

function literalOf(value: ExcelJS.CellValue, system: DateSystem): string | number | boolean | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (typeof value === "string") return value.startsWith("=") || value.startsWith("'") ? `'${value}` : value;
  // exceljs turns a date-formatted serial into a Date (in the file's system); back to a serial of that system
  // the time of day counted from midnight before it, also before 1970 where getTime() is negative (i16-engine)
  if (value instanceof Date) return isoDateToSerial(value.toISOString().slice(0, 10), system) + (((value.getTime() % 86_400_000) + 86_400_000) % 86_400_000) / 86_400_000;
  if ("richText" in value) return value.richText.map((part) => part.text).join("");
  if ("error" in value) return value.error;
  if ("text" in value && typeof value.text === "string") return value.text;
  return undefined;
}

export async function readWorkbookFile(path: string): Promise<LoadedWorkbook> {
  checkSignature(path);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.readFile(path);
  } catch (error) {
    throw new WorkbookFileError(`${path} is a corrupt .xlsx file: ${error instanceof Error ? error.message : String(error)}`);
  }
  const dateSystem: DateSystem = workbook.properties.date1904 ? "1904" : "1900";
  const sheets: SheetInput[] = [];
  const formulas = new Map<string, Map<string, FormulaSource>>();
  const kept: KeptFormula[] = [];
  const savedSpills = new Map<string, RangeRef[]>();
  let cellCount = 0;
  for (const worksheet of workbook.worksheets) {
    if (worksheet.name === PROVENANCE_SHEET) continue;
    const cells: Record<string, string | number | boolean> = {};
    const sheetFormulas = new Map<string, FormulaSource>();
    const spills: RangeRef[] = [];
    worksheet.eachRow({ includeEmpty: false }, (row) => {
      row.eachCell({ includeEmpty: false }, (cell) => {
        if (cell.isMerged && cell.master !== cell) return;
        cellCount += 1;
        if (cell.type === ExcelJS.ValueType.Formula) {
          const fileText = cell.formula;
          if (!fileText) return;
          const text = formulaText(fileText);
          let expression: Expression;
          try {
            expression = parseExpression(text, { wholeRowsAndColumns: false });
            // what the engine would leave for Excel is kept as saved here too (i16-engine; the new runner reads leftForExcel)
            const why = whyLeftForExcel(expression, { namespace: "PRICES", name: () => undefined });
            if (why !== undefined) throw new FormulaSyntaxError(text, why);
          } catch (error) {
            if (!(error instanceof FormulaSyntaxError)) throw error;
            // Excel wrote it, so it is a formula the host lacks (=SUM(A:A), =Table1[Price]): the copy keeps it as saved
            // and the rest of the sheet reads its saved result, rather than the whole refresh failing.
            kept.push({ sheet: worksheet.name, address: cell.address, reason: error.message });
            const saved = literalOf(cell.result as ExcelJS.CellValue, dateSystem);
            if (saved !== undefined) cells[cell.address] = saved;
            return;
          }
          cells[cell.address] = text;
          sheetFormulas.set(cell.address, { text: fileText, callsPrices: callsNamespace(expression, "PRICES") });
          const model = cell.value as { shareType?: string; ref?: string };
          const area = model.shareType === "array" && model.ref ? parseRangeAddress(model.ref) : undefined;
          if (area && (area.bottom > area.top || area.right > area.left)) spills.push(area);
          return;
        }
        const literal = literalOf(cell.value, dateSystem);
        if (literal !== undefined) cells[cell.address] = literal;
      });
    });
    // What a saved spill left in its other cells is a cached copy of the anchor's result, not an entry.
    for (const area of spills) {
      for (let row = area.top; row <= area.bottom; row += 1) {
        for (let col = area.left; col <= area.right; col += 1) {
          if (row === area.top && col === area.left) continue;
          delete cells[formatCellAddress({ row, col })];
        }
      }
    }
    sheets.push({ name: worksheet.name, book: { cells } });
    formulas.set(worksheet.name, sheetFormulas);
    savedSpills.set(worksheet.name, spills);
  }
  return { workbook, sheets, formulas, savedSpills, cellCount, kept, dateSystem };
}

function excelValue(value: CellValue | undefined): ExcelJS.CellValue {
  if (value === undefined || value === null) return null;
  if (isCellError(value)) {
    const known = ["#N/A", "#REF!", "#NAME?", "#DIV/0!", "#NULL!", "#VALUE!", "#NUM!"] as const;
    const code = known.find((candidate) => candidate === value.code) ?? "#N/A";
    return { error: code };
  }
  return value;
}

function resultOf(value: CellValue | undefined): ExcelJS.CellFormulaValue["result"] {
  const converted = excelValue(value);
  return converted === null ? undefined : (converted as ExcelJS.CellFormulaValue["result"]);
}

/** Puts the fresh values into the workbook read from the file; with `freeze`, PRICES formulas become values and the provenance sheet is written. */
export function applyResults(loaded: LoadedWorkbook, result: WorkbookResult, options: { freeze: boolean }): { frozen: number } {
  let frozen = 0;
  for (const sheet of result.sheets) {
    const worksheet = loaded.workbook.getWorksheet(sheet.name);
    if (!worksheet) continue;
    for (const area of loaded.savedSpills.get(sheet.name) ?? []) {
      for (let row = area.top; row <= area.bottom; row += 1) {
        for (let col = area.left; col <= area.right; col += 1) worksheet.getCell(row + 1, col + 1).value = null;
      }
    }
    const formulas = loaded.formulas.get(sheet.name) ?? new Map<string, FormulaSource>();
    const areas = new Map(sheet.spills.map((spill) => [spill.anchor, parseRangeAddress(spill.area)]));
    for (const [address, source] of formulas) {
      const anchor = parseCellAddress(address);
      if (!anchor) continue;
      const area = areas.get(address) ?? { top: anchor.row, left: anchor.col, bottom: anchor.row, right: anchor.col };
      const freeze = options.freeze && source.callsPrices;
      if (freeze) frozen += 1;
      for (let row = area.top; row <= area.bottom; row += 1) {
        for (let col = area.left; col <= area.right; col += 1) {
          const here = formatCellAddress({ row, col });
          const value = sheet.values[here];
          const cell = worksheet.getCell(row + 1, col + 1);
          if (here !== address || freeze) {
            cell.value = excelValue(value);
            continue;
          }
          const spills = area.bottom > area.top || area.right > area.left;
          const written: ExcelJS.CellFormulaValue & { shareType?: string; ref?: string } = { formula: source.text };
          const cached = resultOf(value);
          if (cached !== undefined) written.result = cached;
          if (spills) {
            written.shareType = "array";
            written.ref = `${formatCellAddress({ row: area.top, col: area.left })}:${formatCellAddress({ row: area.bottom, col: area.right })}`;
          }
          cell.value = written as ExcelJS.CellFormulaValue;
        }
      }
    }
  }
  if (options.freeze) writeProvenance(loaded.workbook, result);
  return { frozen };
}

function writeProvenance(workbook: ExcelJS.Workbook, result: WorkbookResult): void {
  const existing = workbook.getWorksheet(PROVENANCE_SHEET);
  if (existing) workbook.removeWorksheet(existing.id);
  const sheet = workbook.addWorksheet(PROVENANCE_SHEET);
  // Formulas go in as text (exceljs writes a string as a string): a reader sees them, nothing recalculates them.
  for (const row of provenanceTable(result.provenance)) sheet.addRow(row);
  sheet.getRow(1).font = { bold: true };
  sheet.columns.forEach((column) => {
    column.width = 18;
  });
}

/** Writes next to the target and renames, so a failed write leaves no half file; the input is never the output. */
export async function writeWorkbookFile(loaded: LoadedWorkbook, output: string): Promise<void> {
  const temporary = join(dirname(output), `.${basename(output)}.${process.pid}.tmp`);
  try {
    await loaded.workbook.xlsx.writeFile(temporary);
    renameSync(temporary, output);
  } finally {
    rmSync(temporary, { force: true });
  }
}
