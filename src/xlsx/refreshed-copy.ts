/**
 * The refreshed copy: the input package with only what the refresh changed. Each evaluated formula keeps its element
 * as written and gets its fresh result as the cached value; a dynamic array (`cm`) gets its new area in `ref` and its
 * values in the cells it covers, as Excel writes them; a legacy array formula keeps its area. A formula left for Excel
 * keeps its cached value. With `freeze`, the formulas that call PRICES become their values (the cell's style kept, so
 * a date stays a date), a sheet `Prices provenance` says where each value came from, and the calculation chain goes
 * (Excel rebuilds it). Every other part is copied as it is, and `calcPr fullCalcOnLoad` makes Excel recalculate on open.
 */
import { type RangeRef, formatCellAddress, formatRangeAddress, parseCellAddress, parseRangeAddress, rangeContains } from "../formula/a1";
import type { WorkbookResult } from "../host/page-api";
import { isCellError, printValue } from "../host/values";
import { PROVENANCE_COLUMNS, PROVENANCE_SHEET, provenanceTable, type ProvenanceCell } from "../prices/provenance";
import { type WorkbookPackage, WorkbookFileError } from "./package";
import { type CellEdit, rewriteKnownCells, rewriteSheet } from "./sheet-part";
import { numberFormatStyles } from "./styles-part";
import { type FormulaSource, type KeptFormula, type LoadedWorkbook, cellsOf } from "./workbook-file";
import { addWorksheet, dropWorkbookPart, withFullCalcOnLoad } from "./workbook-part";
import { escapeText } from "./escape";
import { encodeXstring } from "./xml";

function area(anchor: string, spill: string | undefined): RangeRef | undefined {
  if (spill !== undefined) return parseRangeAddress(spill);
  const position = parseCellAddress(anchor);
  return position === undefined ? undefined : { top: position.row, left: position.col, bottom: position.row, right: position.col };
}

/** A shared formula's first cell holds the group's text: it is frozen only when every other cell of the group is. */
function sharedGroupsKept(formulas: ReadonlyMap<string, FormulaSource>, frozen: (address: string, source: FormulaSource) => boolean): Set<string> {
  const kept = new Set<string>();
  for (const [address, source] of formulas) {
    if (source.shared !== undefined && !frozen(address, source)) kept.add(source.shared.index);
  }
  return kept;
}

export interface RefreshedSheet {
  readonly edits: Map<string, CellEdit>;
  /** Addresses of the formulas frozen, with their text. */
  readonly frozen: Map<string, string>;
  /** PRICES formulas `freeze` kept as formulas: address -> the formula and why. */
  readonly notFrozen: Map<string, { readonly formula: string; readonly why: string }>;
  /** Cells frozen holding an error (in a frozen spill): address -> its formula, the area frozen and the error with its message. */
  readonly frozenErrors: Map<string, FrozenError>;
}

/** An error frozen into a cell: the file keeps its code only, the provenance sheet its message. */
export interface FrozenError {
  readonly formula: string;
  readonly area: string;
  readonly error: string;
}

/** What the refresh changes in one sheet: the cells to rewrite, and which formulas `freeze` turned into values. */
export function sheetEdits(formulas: ReadonlyMap<string, FormulaSource>, result: WorkbookResult["sheets"][number], freeze: boolean): RefreshedSheet {
  const leftWhy = new Map((result.leftForExcel ?? []).map((entry) => [entry.cell, entry.why]));
  const left = new Set(leftWhy.keys());
  const evaluated = result.evaluated === undefined ? undefined : new Set(result.evaluated);
  // only a spill beyond its anchor's own cell: a one-cell result (19,800 of the model's) is written alike without one
  const spills = new Map<string, string>();
  for (const { anchor, area: spilled } of result.spills) if (spilled !== anchor) spills.set(anchor, spilled);
  const value = (address: string): CellEdit["value"] => result.values[address] ?? null;
  const freezes = (address: string, source: FormulaSource): boolean => freeze && source.callsPrices && !left.has(address);
  const fails = (address: string, source: FormulaSource): boolean => freezes(address, source) && isCellError(value(address));
  // only a freeze keeps a shared group's text (holdsGroup below): no pass over the formulas without one
  const keptGroups = freeze ? sharedGroupsKept(formulas, (address, source) => freezes(address, source) && !fails(address, source)) : new Set<string>();
  const edits = new Map<string, CellEdit>();
  const frozen = new Map<string, string>();
  const notFrozen = new Map<string, { formula: string; why: string }>();
  const frozenErrors = new Map<string, FrozenError>();
  // a rich price is written as its number showing its unit and currency, as the cell showed it (one object per
  // cell, no spread of a second: the model writes 19,800 of them)
  const editOf = (kind: CellEdit["kind"], here: string, cellValue: CellEdit["value"], ref?: string): CellEdit => {
    const numberFormat = typeof cellValue === "number" ? result.dataTypes[here]?.numberFormat : undefined;
    if (ref !== undefined && kind === "result") return numberFormat === undefined ? { kind, value: cellValue, ref } : { kind, value: cellValue, ref, numberFormat };
    return numberFormat === undefined ? { kind, value: cellValue } : { kind, value: cellValue, numberFormat };
  };
  for (const [address, source] of formulas) {
    if (left.has(address)) {
      if (freeze && source.callsPrices) notFrozen.set(address, { formula: source.text, why: `left for Excel: ${leftWhy.get(address) ?? ""}` });
      continue;
    }
    // an error is no value to share: the formula stays, so nothing is lost (a #NAME? from a name the engine lacks)
    const failed = fails(address, source);
    if (failed) notFrozen.set(address, { formula: source.text, why: `its result is an error, ${String(printValue(value(address)))}: the formula is kept` });
    const holdsGroup = freezes(address, source) && !failed && source.shared?.first === true && keptGroups.has(source.shared.index);
    if (holdsGroup) notFrozen.set(address, { formula: source.text, why: `it holds the text of a shared formula (si ${source.shared.index}) whose other cells stay formulas` });
    const isFrozen = freezes(address, source) && !failed && !holdsGroup;
    // a formula outside the price cone was not evaluated: its cell stays as saved
    if (evaluated !== undefined && !evaluated.has(address)) continue;
    const spill = spills.get(address);
    if (spill === undefined && source.array === undefined) {
      // one value in its own cell, as most formulas give (its one-cell area is its own address: nothing to parse)
      if (isFrozen) frozen.set(address, source.text);
      edits.set(address, editOf(isFrozen ? "freeze" : "result", address, value(address)));
      continue;
    }
    const fresh = area(address, spill);
    if (fresh === undefined) continue;
    // A legacy array formula keeps its fixed area: its cells beyond the result show #N/A, as in Excel.
    const covered = source.array !== undefined && !source.array.dynamic ? source.array.area : fresh;
    const ref = source.array !== undefined || covered.bottom > covered.top || covered.right > covered.left ? formatRangeAddress(covered) : undefined;
    if (isFrozen) frozen.set(address, source.text);
    if (ref === undefined && source.array === undefined) {
      // one value in its own cell, as most formulas give
      edits.set(address, editOf(isFrozen ? "freeze" : "result", address, value(address)));
      continue;
    }
    for (const here of cellsOf(covered)) {
      const position = parseCellAddress(here);
      const inResult = position !== undefined && rangeContains(fresh, position.row, position.col);
      const cellValue = inResult ? value(here) : { kind: "error" as const, code: "#N/A" as const };
      if (isFrozen && isCellError(cellValue)) frozenErrors.set(here, { formula: source.text, area: ref ?? address, error: String(printValue(cellValue)) });
      edits.set(here, editOf(isFrozen ? "freeze" : "result", here, cellValue, here === address ? ref : undefined));
    }
    // What the saved spill covered beyond the fresh one is empty now.
    if (source.array?.dynamic) {
      for (const here of cellsOf(source.array.area)) if (!edits.has(here)) edits.set(here, { kind: "result", value: null });
    }
  }
  return { edits, frozen, notFrozen, frozenErrors };
}

/**
 * The provenance table with a row for every frozen formula, so each frozen cell's formula text is kept somewhere, and
 * every error frozen in a cell with its message (on the cell's own row, or a row of its own).
 */
function provenanceRows(result: WorkbookResult, frozen: ReadonlyMap<string, ReadonlyMap<string, string>>, errors: ReadonlyMap<string, ReadonlyMap<string, FrozenError>>): ProvenanceCell[][] {
  const rows = result.provenance.filter((row) => frozen.get(row.sheet)?.has(row.address) === true);
  const table = provenanceTable(rows);
  const described = new Set(rows.map((row) => `${row.sheet}!${row.address}`));
  for (const [sheet, cells] of frozen) {
    for (const [address, text] of cells) {
      if (described.has(`${sheet}!${address}`)) continue;
      const row: ProvenanceCell[] = PROVENANCE_COLUMNS.map(() => "");
      row[0] = sheet;
      row[1] = address;
      row[2] = `=${text}`;
      row[RANGE_COLUMN] = address;
      table.push(row);
    }
  }
  for (const [sheet, cells] of errors) {
    for (const [address, { formula, area, error }] of cells) {
      const own = table.find((row) => row[0] === sheet && row[1] === address);
      if (own !== undefined) own[ERROR_COLUMN] = error;
      else {
        const row: ProvenanceCell[] = PROVENANCE_COLUMNS.map(() => "");
        [row[0], row[1], row[2], row[RANGE_COLUMN], row[ERROR_COLUMN]] = [sheet, address, `=${formula}`, area, error];
        table.push(row);
      }
    }
  }
  return table;
}

const RANGE_COLUMN = PROVENANCE_COLUMNS.indexOf("Result range");
const ERROR_COLUMN = PROVENANCE_COLUMNS.indexOf("Error");

function provenanceSheetXml(table: readonly (readonly ProvenanceCell[])[]): string {
  const rows = table.map((cells, index) => {
    const written = cells.map((value, col) => {
      const address = formatCellAddress({ row: index, col });
      if (value === "") return "";
      if (typeof value === "number") return `<c r="${address}"><v>${value}</v></c>`;
      if (typeof value === "boolean") return `<c r="${address}" t="b"><v>${value ? 1 : 0}</v></c>`;
      return `<c r="${address}" t="inlineStr"><is><t xml:space="preserve">${escapeText(encodeXstring(value))}</t></is></c>`;
    });
    return `<row r="${index + 1}">${written.join("")}</row>`;
  });
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    `<cols><col min="1" max="${PROVENANCE_COLUMNS.length}" width="18" customWidth="1"/></cols>` +
    `<sheetData>${rows.join("")}</sheetData></worksheet>`
  );
}

function newPartName(pkg: WorkbookPackage): string {
  let number = 1;
  while (pkg.has(`xl/worksheets/sheet${number}.xml`)) number += 1;
  return `xl/worksheets/sheet${number}.xml`;
}

export interface RefreshedPackage {
  /** Every entry of the copy, in the input's order (a new provenance sheet last). */
  readonly entries: Map<string, Uint8Array>;
  readonly frozen: number;
  /** Every formula whose cached value was kept: the ones the runner could not read and those the engine left for Excel. */
  readonly leftForExcel: readonly KeptFormula[];
  /** With `freeze`: every formula that calls PRICES and stays a formula, with why (an error result, left for Excel...). */
  readonly notFrozen: readonly KeptFormula[];
  /** Rich prices written as plain numbers with their number format (in the styles part). */
  readonly formatted: number;
  /** Rich prices written as plain numbers without their format: the package has no styles part to hold it. */
  readonly unformatted: number;
}

/**
 * Why `--freeze` cannot write this book's copy, or undefined: it adds the sheet `Prices provenance`, which a workbook
 * whose structure is protected forbids (Excel would refuse the same edit); a copy refrozen replaces its own sheet.
 */
export function freezeRefusal(loaded: Pick<LoadedWorkbook, "info" | "pkg">): string | undefined {
  if (!loaded.info.structureLocked || loaded.info.sheets.some((sheet) => sheet.name === PROVENANCE_SHEET)) return undefined;
  return `${loaded.pkg.path}: --freeze adds the sheet '${PROVENANCE_SHEET}', but the workbook's structure is protected (Review > Protect Workbook, workbookProtection lockStructure): unprotect it in Excel, or refresh without --freeze`;
}

/** A formula the reader kept as saved (it could not parse it) that calls PRICES, as Excel shows or saves the name. */
const CALLS_PRICES = /(?:^|[^\w.])(?:PRICES\.|_xldudf_PRICES_)/i;

/** The copy: the input's entries with the refreshed sheets, `fullCalcOnLoad`, and for `freeze` the provenance sheet. */
export function refreshedPackage(loaded: LoadedWorkbook, result: WorkbookResult, options: { freeze: boolean }, progress: (message: string) => void = () => undefined): RefreshedPackage {
  const { pkg } = loaded;
  const refusal = options.freeze ? freezeRefusal(loaded) : undefined;
  if (refusal !== undefined) throw new WorkbookFileError(refusal);
  const changed = new Map<string, string>();
  const frozenBySheet = new Map<string, Map<string, string>>();
  const errorsBySheet = new Map<string, Map<string, FrozenError>>();
  const leftForExcel: KeptFormula[] = [...loaded.kept];
  const notFrozen: KeptFormula[] = options.freeze ? loaded.kept.filter((entry) => CALLS_PRICES.test(entry.formula)).map((entry) => ({ ...entry, why: `left for Excel: ${entry.why}` })) : [];
  let frozen = 0;
  const styles = numberFormatStyles(pkg, loaded.info.part);
  let formatted = 0;
  let unformatted = 0;
  for (const sheet of result.sheets) {
    const part = loaded.parts.get(sheet.name);
    const formulas = loaded.formulas.get(sheet.name);
    if (part === undefined || formulas === undefined) continue;
    leftForExcel.push(...(sheet.leftForExcel ?? []).map((entry) => ({ sheet: sheet.name, ...entry })));
    const { edits, frozen: sheetFrozen, notFrozen: sheetNotFrozen, frozenErrors } = sheetEdits(formulas, sheet, options.freeze);
    if (frozenErrors.size > 0) errorsBySheet.set(sheet.name, frozenErrors);
    for (const [cell, { formula, why }] of sheetNotFrozen) notFrozen.push({ sheet: sheet.name, cell, formula, why });
    frozen += sheetFrozen.size;
    if (sheetFrozen.size > 0) frozenBySheet.set(sheet.name, sheetFrozen);
    const rich = [...edits.values()].filter((edit) => edit.numberFormat !== undefined).length;
    if (styles === undefined) unformatted += rich;
    else formatted += rich;
    const restyle = styles === undefined ? undefined : (current: string | undefined, format: string): string => styles.styles.styleFor(current, format);
    if (edits.size === 0) continue;
    const xml = pkg.text(part);
    const known = loaded.formulaCells.get(sheet.name);
    const rewritten = known === undefined ? undefined : rewriteKnownCells(xml, edits, known, restyle);
    changed.set(part, rewritten ?? rewriteSheet(xml, part, edits, (cells) => { progress(`workbook: writing '${sheet.name}', ${cells} cells so far`); }, restyle));
  }
  if (formatted > 0 && styles?.styles.changed === true) changed.set(styles.part, styles.styles.text());
  const added = new Map<string, string>();
  const current = (part: string): string => changed.get(part) ?? pkg.text(part);
  const dropped = new Set<string>();
  if (frozen > 0) {
    const chain = dropWorkbookPart(current, loaded.info.part, "/calcChain");
    if (chain) {
      dropped.add(chain.part);
      for (const [edited, text] of chain.changed) changed.set(edited, text);
    }
  }
  if (options.freeze) {
    const xml = provenanceSheetXml(provenanceRows(result, frozenBySheet, errorsBySheet));
    const existing = loaded.info.sheets.find((sheet) => sheet.name === PROVENANCE_SHEET)?.part;
    if (existing !== undefined) changed.set(existing, xml);
    else {
      const part = newPartName(pkg);
      added.set(part, xml);
      for (const [edited, text] of addWorksheet(current, loaded.info.part, PROVENANCE_SHEET, part)) changed.set(edited, text);
    }
  }
  // a copy with nothing changed keeps calcPr too: every entry byte for byte when no price moved anything
  const workbookXml = current(loaded.info.part);
  const recalculating = changed.size > 0 || added.size > 0 ? withFullCalcOnLoad(workbookXml, loaded.info.part) : workbookXml;
  if (recalculating !== workbookXml) changed.set(loaded.info.part, recalculating);
  const encoder = new TextEncoder();
  const entries = new Map<string, Uint8Array>();
  for (const [name, bytes] of pkg.entries) {
    if (dropped.has(name)) continue;
    const text = changed.get(name);
    entries.set(name, text === undefined ? bytes : encoder.encode(text));
  }
  for (const [name, text] of added) entries.set(name, encoder.encode(text));
  return { entries, frozen, leftForExcel, notFrozen, formatted, unformatted };
}
