/** `FreezeWorkbook` over `Excel.run` (ExcelApi 1.12 for spills); the workbench's Excel stand-in answers the same calls. */
import { formatRangeAddress, parseRangeAddress, splitSheet } from "../formula/a1";
import { PROVENANCE_SHEET, type ProvenanceCell } from "../prices/provenance";
import type { RefreshScope } from "./excel-host";
import type { FormulaResult, FreezeWorkbook } from "./freeze";

type Context = Excel.RequestContext;

function areaOf(address: string): string {
  return splitSheet(address).area.replace(/\$/g, "");
}

/** The ranges a scope covers: the selection, the active sheet's used range, or every sheet's but the provenance sheet. */
async function scopeRanges(context: Context, scope: RefreshScope): Promise<Excel.Range[]> {
  if (scope === "selection") return [context.workbook.getSelectedRange()];
  if (scope === "sheet") return [context.workbook.worksheets.getActiveWorksheet().getUsedRangeOrNullObject()];
  const sheets = context.workbook.worksheets;
  sheets.load("items/name");
  await context.sync();
  return sheets.items.filter((sheet) => sheet.name !== PROVENANCE_SHEET).map((sheet) => sheet.getUsedRangeOrNullObject());
}

function sheetRange(context: Context, sheet: string, range: string): Excel.Range {
  return context.workbook.worksheets.getItem(sheet).getRange(range);
}

export function excelFreezeWorkbook(excel: typeof Excel): FreezeWorkbook {
  return {
    formulaResults: (scope) =>
      excel.run(async (context) => {
        const ranges = await scopeRanges(context, scope);
        for (const range of ranges) range.load(["address", "formulas"]);
        await context.sync();
        const found: { sheet: string; cell: Excel.Range; spill: Excel.Range; formula: string }[] = [];
        for (const range of ranges) {
          if (range.isNullObject) continue;
          const { sheet = "" } = splitSheet(range.address);
          for (const [r, row] of (range.formulas as unknown[][]).entries()) {
            for (const [c, formula] of row.entries()) {
              if (typeof formula !== "string" || !formula.startsWith("=")) continue;
              const cell = range.getCell(r, c);
              cell.load(["address", "values", "numberFormat"]);
              const spill = cell.getSpillingToRangeOrNullObject();
              spill.load(["address", "values", "numberFormat"]);
              found.push({ sheet, cell, spill, formula });
            }
          }
        }
        await context.sync();
        return found.map(({ sheet, cell, spill, formula }): FormulaResult => {
          const source = spill.isNullObject ? cell : spill;
          const formats: unknown = source.numberFormat;
          const numberFormats = Array.isArray(formats) ? (formats as string[][]) : undefined;
          return { sheet, address: areaOf(cell.address), resultRange: areaOf(source.address), formula, values: source.values as unknown[][], ...(numberFormats ? { numberFormats } : {}) };
        });
      }),
    writeValues: (sheet, range, values, numberFormats) =>
      excel.run(async (context) => {
        const target = sheetRange(context, sheet, range);
        target.values = values.map((row) => [...row]) as (string | number | boolean)[][];
        // a frozen date keeps its date format (the host may have shown it through the format of its result)
        if (numberFormats) target.numberFormat = numberFormats.map((row) => [...row]);
        await context.sync();
      }),
    restoreFormula: (sheet, range, formula) =>
      excel.run(async (context) => {
        const target = sheetRange(context, sheet, range);
        target.clear(excel.ClearApplyTo.contents);
        target.getCell(0, 0).formulas = [[formula]];
        await context.sync();
      }),
    readSheet: (name) =>
      excel.run(async (context) => {
        const sheet = context.workbook.worksheets.getItemOrNullObject(name);
        sheet.load("name");
        await context.sync();
        if (sheet.isNullObject) return undefined;
        // from A1, so the header is row 0 however the used range starts
        const used = sheet.getUsedRangeOrNullObject(true);
        used.load("address");
        await context.sync();
        if (used.isNullObject) return [];
        const area = parseRangeAddress(areaOf(used.address));
        if (!area) return [];
        const fromA1 = sheet.getRange(formatRangeAddress({ top: 0, left: 0, bottom: area.bottom, right: area.right }));
        fromA1.load("values");
        await context.sync();
        return fromA1.values as unknown[][];
      }),
    writeSheet: (name, rows) =>
      excel.run(async (context) => {
        const existing = context.workbook.worksheets.getItemOrNullObject(name);
        existing.load("name");
        await context.sync();
        const sheet = existing.isNullObject ? context.workbook.worksheets.add(name) : existing;
        if (!existing.isNullObject) sheet.getUsedRangeOrNullObject().clear(excel.ClearApplyTo.contents);
        const width = Math.max(1, ...rows.map((row) => row.length));
        const grid: ProvenanceCell[][] = rows.map((row) => Array.from({ length: width }, (_, col) => row[col] ?? ""));
        if (grid.length > 0) sheet.getRange(formatRangeAddress({ top: 0, left: 0, bottom: grid.length - 1, right: width - 1 })).values = grid;
        await context.sync();
      }),
    deleteSheet: (name) =>
      excel.run(async (context) => {
        const sheet = context.workbook.worksheets.getItemOrNullObject(name);
        sheet.load("name");
        await context.sync();
        if (!sheet.isNullObject) sheet.delete();
        await context.sync();
      }),
    scopeArea: (scope) =>
      excel.run(async (context) => {
        if (scope === "workbook") return {};
        const range = scope === "selection" ? context.workbook.getSelectedRange() : undefined;
        const active = context.workbook.worksheets.getActiveWorksheet();
        active.load("name");
        range?.load("address");
        await context.sync();
        const area = range ? parseRangeAddress(areaOf(range.address)) : undefined;
        return area ? { sheet: active.name, range: area } : { sheet: active.name };
      }),
  };
}
