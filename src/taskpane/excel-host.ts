/** The workbook as the pane sees it: a thin adapter over `Excel.run`, so the pane's logic runs in Node tests too. */
import { columnName, sheetPrefix, splitSheet } from "../formula/a1";

export type RefreshScope = "selection" | "sheet" | "workbook";

export interface CellSelection {
  /** Sheet-qualified, e.g. `Sheet1!B2:C4`. */
  address: string;
  /** Top-left cell, sheet-qualified. */
  cell: string;
  rowCount: number;
  columnCount: number;
  values: unknown[][];
  formulas: unknown[][];
  /** Excel's number formats (absent where the host gives none): a date format makes a serial read as a date. */
  numberFormats?: unknown[][];
  /** When the top-left cell is part of a spilled result: the formula that spilled and where the cell sits in it. */
  spill?: SpillPosition;
}

export interface SpillPosition {
  /** The anchor cell holding the formula, sheet-qualified. */
  anchor: string;
  formula: string;
  /** Offset of the selected cell from the anchor (0, 0 is the anchor itself). */
  row: number;
  col: number;
}

export interface WorkbookHost {
  selection(): Promise<CellSelection>;
  /** Writes a formula into the top-left cell of the selection; returns that cell's address. */
  insertFormula(formula: string): Promise<string>;
  /** Formulas in the scope (for finding the symbols a refresh concerns). */
  formulas(scope: RefreshScope): Promise<string[]>;
  /** Values of a referenced range (to resolve references in a formula). */
  values(address: string): Promise<unknown[][]>;
  recalculate(scope: RefreshScope): Promise<void>;
  /** Every formula cell of the workbook, sheet-qualified (to find the cells a change concerns). */
  formulaCells(): Promise<FormulaCell[]>;
  /** Selects a cell (`Sheet1!B2`), activating its sheet: the jump from the list of changes. */
  select(address: string): Promise<void>;
  /** Calls `listener` after each change of selection; resolves to the way to stop. */
  onSelectionChanged(listener: () => void): Promise<() => void>;
}

export interface FormulaCell {
  /** Sheet-qualified, e.g. `Sheet1!B2`. */
  readonly address: string;
  readonly formula: string;
}

function flatFormulas(grid: unknown[][]): string[] {
  return grid.flat().filter((f): f is string => typeof f === "string" && f.startsWith("="));
}

export function excelWorkbookHost(excel: typeof Excel): WorkbookHost {
  return {
    selection: () =>
      excel.run(async (context) => {
        const range = context.workbook.getSelectedRange();
        range.load(["address", "rowCount", "columnCount", "values", "formulas", "numberFormat"]);
        const cell = range.getCell(0, 0);
        cell.load(["address", "rowIndex", "columnIndex"]);
        // ExcelApi 1.12: the anchor of a dynamic array the cell belongs to
        const parent = cell.getSpillParentOrNullObject();
        parent.load(["address", "rowIndex", "columnIndex", "formulas"]);
        await context.sync();
        const parentFormula = parent.isNullObject ? undefined : (parent.formulas as unknown[][])[0]?.[0];
        return {
          address: range.address,
          cell: cell.address,
          rowCount: range.rowCount,
          columnCount: range.columnCount,
          values: range.values as unknown[][],
          formulas: range.formulas as unknown[][],
          ...(Array.isArray(range.numberFormat) ? { numberFormats: range.numberFormat as unknown[][] } : {}),
          ...(typeof parentFormula === "string"
            ? { spill: { anchor: parent.address, formula: parentFormula, row: cell.rowIndex - parent.rowIndex, col: cell.columnIndex - parent.columnIndex } }
            : {}),
        };
      }),
    onSelectionChanged: (listener) =>
      excel.run(async (context) => {
        const handler = context.workbook.onSelectionChanged.add(() => Promise.resolve().then(listener));
        await context.sync();
        return () => {
          void excel.run(handler.context, async (again) => {
            handler.remove();
            await again.sync();
          });
        };
      }),
    insertFormula: (formula) =>
      excel.run(async (context) => {
        const cell = context.workbook.getSelectedRange().getCell(0, 0);
        cell.formulas = [[formula]];
        cell.load("address");
        await context.sync();
        return cell.address;
      }),
    formulas: (scope) =>
      excel.run(async (context) => {
        if (scope === "workbook") {
          const sheets = context.workbook.worksheets;
          sheets.load("items/name");
          await context.sync();
          const ranges = sheets.items.map((sheet) => {
            const used = sheet.getUsedRangeOrNullObject();
            used.load("formulas");
            return used;
          });
          await context.sync();
          return ranges.flatMap((range) => (range.isNullObject ? [] : flatFormulas(range.formulas as unknown[][])));
        }
        const range = scope === "sheet" ? context.workbook.worksheets.getActiveWorksheet().getUsedRangeOrNullObject() : context.workbook.getSelectedRange();
        range.load("formulas");
        await context.sync();
        return range.isNullObject ? [] : flatFormulas(range.formulas as unknown[][]);
      }),
    values: (address) =>
      excel.run(async (context) => {
        const { sheet, area } = splitSheet(address);
        const range =
          sheet !== undefined ? context.workbook.worksheets.getItem(sheet).getRange(area) : context.workbook.worksheets.getActiveWorksheet().getRange(area);
        range.load("values");
        await context.sync();
        return range.values as unknown[][];
      }),
    formulaCells: () =>
      excel.run(async (context) => {
        const sheets = context.workbook.worksheets;
        sheets.load("items/name");
        await context.sync();
        const used = sheets.items.map((sheet) => {
          const range = sheet.getUsedRangeOrNullObject();
          range.load(["formulas", "rowIndex", "columnIndex"]);
          return { name: sheet.name, range };
        });
        await context.sync();
        return used.flatMap(({ name, range }) =>
          range.isNullObject
            ? []
            : (range.formulas as unknown[][]).flatMap((row, r) =>
                row.flatMap((formula, c) => (typeof formula === "string" && formula.startsWith("=") ? [{ address: `${sheetPrefix(name)}${columnName(range.columnIndex + c)}${range.rowIndex + r + 1}`, formula }] : [])),
              ),
        );
      }),
    select: (address) =>
      excel.run(async (context) => {
        const { sheet, area } = splitSheet(address);
        const target = sheet !== undefined ? context.workbook.worksheets.getItem(sheet) : context.workbook.worksheets.getActiveWorksheet();
        target.activate();
        target.getRange(area).select();
        await context.sync();
      }),
    recalculate: (scope) =>
      excel.run(async (context) => {
        if (scope === "selection") context.workbook.getSelectedRange().calculate();
        else if (scope === "sheet") context.workbook.worksheets.getActiveWorksheet().calculate(true);
        else context.workbook.application.calculate(excel.CalculationType.full);
        await context.sync();
      }),
  };
}
