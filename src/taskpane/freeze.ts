/**
 * Freeze and Unfreeze, without the pane's page: Freeze replaces the PRICES formulas of the selection, the sheet or the
 * workbook by the values they show and lists each value's origin in the `Prices provenance` sheet; Unfreeze writes the
 * formulas named there back (clearing the range each result covered, so it can spill again) and drops their rows.
 * It works against `FreezeWorkbook`: Excel through `excelFreezeWorkbook` (excel-freeze.ts), which the workbench's
 * Excel stand-in also answers.
 */
import { type RangeRef, parseRangeAddress } from "../formula/a1";
import { callsNamespace } from "../formula/functions";
import { FormulaSyntaxError, parseExpression } from "../formula/parse";
import { cellValueText } from "../formula/text";
import { PROVENANCE_SHEET, type ProvenanceCell, type ProvenanceClient, type ProvenanceRow, blankProvenanceRow, frozenFormulas, provenanceTable } from "../prices/provenance";
import { type PricesCallRecord, provenanceOf } from "../functions/frozen-provenance";
import type { DateSystem } from "../formula/excel-dates";
import type { RefreshScope } from "./excel-host";

/** A formula and what its result shows now. */
export interface FormulaResult {
  readonly sheet: string;
  /** The formula's cell, e.g. `C4`. */
  readonly address: string;
  /** The range its result covers, its cell first (`C4:F8`, or `C4`). */
  readonly resultRange: string;
  readonly formula: string;
  readonly values: readonly (readonly unknown[])[];
  /** The result's number formats, kept when it is frozen (so dates stay dates); absent where the host gives none. */
  readonly numberFormats?: readonly (readonly string[])[];
}

export interface FreezeWorkbook {
  /** Every formula whose cell is in the scope, with its result. */
  formulaResults(scope: RefreshScope): Promise<FormulaResult[]>;
  /** Writes values over a range, and its number formats when given. */
  writeValues(sheet: string, range: string, values: readonly (readonly unknown[])[], numberFormats?: readonly (readonly string[])[]): Promise<void>;
  /** Clears `range` and writes `formula` into its first cell. */
  restoreFormula(sheet: string, range: string, formula: string): Promise<void>;
  /** A sheet's used cells from A1, or undefined when there is no such sheet. */
  readSheet(name: string): Promise<unknown[][] | undefined>;
  /** Replaces a sheet's contents (adding the sheet when missing). */
  writeSheet(name: string, rows: readonly (readonly ProvenanceCell[])[]): Promise<void>;
  deleteSheet(name: string): Promise<void>;
  /** Where the scope lies: the selection's sheet and range, the active sheet, or everything. */
  scopeArea(scope: RefreshScope): Promise<{ sheet?: string; range?: RangeRef }>;
}

/** The provenance rows of one frozen formula. */
export type DescribeFormula = (result: FormulaResult) => Promise<ProvenanceRow[]>;

const NAMESPACE = "PRICES";

function callsPrices(formula: string): boolean {
  try {
    return callsNamespace(parseExpression(formula), NAMESPACE);
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return false;
    throw error;
  }
}

function dataRows(table: unknown[][] | undefined): unknown[][] {
  return table === undefined ? [] : table.slice(1);
}

function asCells(rows: readonly (readonly unknown[])[]): ProvenanceCell[][] {
  return rows.map((row) => row.map((cell) => (typeof cell === "number" || typeof cell === "boolean" ? cell : cellValueText(cell))));
}

/** Freezes the scope's PRICES formulas; returns how many formulas became values. */
export async function freeze(workbook: FreezeWorkbook, scope: RefreshScope, describe: DescribeFormula): Promise<number> {
  const results = (await workbook.formulaResults(scope)).filter((result) => result.sheet !== PROVENANCE_SHEET && callsPrices(result.formula));
  if (results.length === 0) return 0;
  const described = (await Promise.all(results.map(describe))).flat();
  const before = dataRows(await workbook.readSheet(PROVENANCE_SHEET));
  for (const result of results) await workbook.writeValues(result.sheet, result.resultRange, result.values, result.numberFormats);
  const [header, ...added] = provenanceTable(described);
  await workbook.writeSheet(PROVENANCE_SHEET, [header ?? [], ...asCells(before), ...added]);
  return results.length;
}

function inScope(area: { sheet?: string; range?: RangeRef }, sheet: string, resultRange: string): boolean {
  if (area.sheet !== undefined && area.sheet !== sheet) return false;
  if (area.range === undefined) return true;
  const result = parseRangeAddress(resultRange);
  if (!result) return false;
  const { range } = area;
  return result.top <= range.bottom && range.top <= result.bottom && result.left <= range.right && range.left <= result.right;
}

/** Writes back the formulas the provenance sheet names inside the scope; returns how many. */
export async function unfreeze(workbook: FreezeWorkbook, scope: RefreshScope): Promise<number> {
  const table = await workbook.readSheet(PROVENANCE_SHEET);
  if (table === undefined) return 0;
  const area = await workbook.scopeArea(scope);
  const restoring = frozenFormulas(table).filter((frozen) => inScope(area, frozen.sheet, frozen.resultRange));
  for (const frozen of restoring) await workbook.restoreFormula(frozen.sheet, frozen.resultRange, frozen.formula);
  const [header = [], ...rows] = table;
  const sheetColumn = header.indexOf("Sheet");
  const rangeColumn = header.indexOf("Result range");
  const restored = new Set(restoring.map((frozen) => `${frozen.sheet}!${frozen.resultRange}`));
  const kept = rows.filter((row) => !restored.has(`${cellValueText(row[sheetColumn])}!${cellValueText(row[rangeColumn])}`));
  if (kept.length === 0) await workbook.deleteSheet(PROVENANCE_SHEET);
  else await workbook.writeSheet(PROVENANCE_SHEET, asCells([header, ...kept]));
  return restoring.length;
}

/**
 * How the pane describes a frozen formula: its PRICES calls as the pane reads them (formula-calls.ts), described by the
 * one provenance implementation the runner uses too (src/functions/frozen-provenance.ts), so both write the same rows.
 */
export function describeWithCalls(options: {
  readonly calls: (formula: string) => Promise<PricesCallRecord[]>;
  readonly client: ProvenanceClient;
  readonly serviceUrl: string;
  readonly system?: DateSystem;
}): DescribeFormula {
  return async (result) => {
    const calls = await options.calls(result.formula);
    const formulas = new Map([[result.address, { text: result.formula, calls, resultRange: result.resultRange, values: result.values }]]);
    const rows = await provenanceOf(result.sheet, formulas, options.client, options.serviceUrl, options.system);
    // A formula whose calls the pane cannot read still gets a row, so Unfreeze can restore it.
    return rows.length > 0
      ? rows
      : [blankProvenanceRow({ sheet: result.sheet, address: result.address, formula: result.formula, resultRange: result.resultRange, serviceUrl: options.serviceUrl })];
  };
}
