/**
 * .xlsx and .xlsm read for the headless runner (Node only, never bundled): every worksheet becomes a host book;
 * formulas keep the text the file holds (`_xlfn.` prefixes, Excel's `_xldudf_PRICES_MID` form of a JavaScript custom
 * function and its damaged `[2]!_xldudf_` form included), a shared formula is read at each of its cells, and the cells
 * a saved array formula covered are left out so the fresh result can spill there again. Formulas the host cannot read
 * are kept as saved, and so is every formula that reads one. The engine gets the formulas and the cells they read,
 * with the workbook's defined names and tables (whole columns in SUM and its kind, and structured references, are
 * evaluated). The copy is written by refreshed-copy.ts.
 */
import { translateFormulaToA1, translateFormulaToR1C1 } from "@borgar/fx";
import { type CellPosition, type RangeRef, parseCellAddress, parseRangeAddress, rangeContains } from "../formula/a1";
import { callsNamespace } from "../formula/functions";
import { type Expression, FormulaSyntaxError, shapeParser } from "../formula/parse";
import { type DateSystem, dateTimeToSerial } from "../formula/excel-dates";
import type { SheetInput } from "../host/page-api";
import { BookScope } from "../host/book-scope";
import { type StaticContext, whyLeftForExcel } from "../host/why-left-for-excel";
import type { DefinedName, LeftForExcel, TableDefinition } from "../host/book-names";
import { PROVENANCE_SHEET } from "../prices/provenance";
import type { SavedCell } from "../host/book-saved";
import type { ParsedFormula } from "../host/book";
import { type NameReader, type SheetArea, referencesOf } from "./cells-read";
import { savedCellOf, whyNotExcelValues } from "./saved-values";
import { WorkbookFileError, WorkbookPackage } from "./package";
import { type KnownCells, type SheetCell, scanSheet } from "./sheet-part";
import { type WorkbookInfo, readWorkbookInfo } from "./workbook-part";
import { XmlPartError, prefixOf } from "./xml";
import { type ReadFormula, cellsOf, forgetReach, onlyCellsRead, onlyTheCone, parsedFormulas, putSaved, savedBook } from "./engine-book";

export { PROVENANCE_SHEET, WorkbookFileError, cellsOf };

export interface FormulaSource {
  /** As the file holds it, without `=` (a shared formula's text as it reads at this cell). */
  readonly text: string;
  /** Whether it calls a PRICES function anywhere (what `freeze` replaces by values). */
  readonly callsPrices: boolean;
  /** An array formula's saved area (`t="array"`); `dynamic` when Excel 365 spilled it (`cm`), else a fixed legacy `{=...}`. */
  readonly array?: { readonly area: RangeRef; readonly dynamic: boolean };
  /** The shared formula group it belongs to (`si`), and whether this cell holds the group's text. */
  readonly shared?: { readonly index: string; readonly first: boolean };
  /** Its cached value as the book format holds it (what the engine reads when the formula is left for Excel). */
  readonly saved?: SavedLiteral;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A value as a cell of the book holds it; an error cell (`t="e"`) is the book's error literal. */
export type SavedLiteral = NonNullable<SavedCell>;

/** A formula the runner keeps as saved (text and cached value) without asking the engine. */
export interface KeptFormula extends LeftForExcel {
  readonly sheet: string;
}

export interface LoadedWorkbook {
  readonly pkg: WorkbookPackage;
  readonly info: WorkbookInfo;
  readonly sheets: readonly SheetInput[];
  /** Worksheet parts by sheet name. */
  readonly parts: ReadonlyMap<string, string>;
  /** Where each formula cell lies in its part, by sheet name: the copy rewrites them without reading the part again. */
  readonly formulaCells: ReadonlyMap<string, KnownCells>;
  /** Formulas by sheet, then address. */
  readonly formulas: ReadonlyMap<string, ReadonlyMap<string, FormulaSource>>;
  /** What saved array formulas left in their other cells, by sheet, then address (the change report compares them). */
  readonly spilled: ReadonlyMap<string, ReadonlyMap<string, SavedLiteral>>;
  readonly cellCount: number;
  /** Formulas the host cannot read, kept as saved; the sheets' other formulas read their cached values. */
  readonly kept: readonly KeptFormula[];
  readonly dateSystem: DateSystem;
  readonly names: readonly DefinedName[];
  readonly tables: readonly TableDefinition[];
  /** How many formulas are in the price cone (evaluated, or left for Excel by the engine), of how many the sheets hold. */
  readonly cone: { readonly formulas: number; readonly of: number };
  /** The cone's formulas as this read parsed them, by sheet, then address: an engine in this process takes them instead of parsing again. */
  readonly parsed: ReadonlyMap<string, ReadonlyMap<string, ParsedFormula>>;
}

/** How the file writes a formula, read back as Excel shows it: the `[2]!` a lost add-in link leaves before `_xldudf_` dropped. */
export function formulaText(fileText: string): string {
  // no regular expression run over the formulas that hold no `]!` (every formula of most books)
  return `=${fileText.includes("]!") ? fileText.replace(/\[\d+\]!(?=_xldudf_)/gi, "") : fileText}`;
}

/** A cell's cached content as the book format holds it (text that would read as a formula or a quote gets a quote). */
function literalOf(cell: SheetCell, info: WorkbookInfo): SavedLiteral | undefined {
  const type = cell.attributes.t ?? "n";
  const raw = cell.value?.text;
  // an error saved in a cell is that error, not its text (IFERROR and ISNA read it)
  if (type === "e" && raw !== undefined) return { error: (cell.attributes.vm === undefined ? undefined : info.richErrors.get(Number(cell.attributes.vm))) ?? raw.trim() };
  let value: string | number | boolean | undefined;
  if (type === "inlineStr") value = cell.inline?.text ?? raw;
  else if (raw === undefined) return undefined;
  else if (type === "s") value = info.sharedStrings[Number(raw)] ?? "";
  else if (type === "b") value = raw === "1" || raw === "true";
  else if (type === "str") value = raw;
  else if (type === "d") value = dateTimeToSerial(raw, info.dateSystem) ?? raw;
  else {
    const number = Number(raw);
    value = raw.trim() !== "" && Number.isFinite(number) ? number : raw;
  }
  // an empty text (a shared string "") is text, not a blank cell: MATCH("",...) finds it
  if (typeof value === "string" && (value === "" || value.startsWith("=") || value.startsWith("'"))) return `'${value}`;
  return value;
}

/** Reads a shared formula at every cell of its group: its first cell's text moved as Excel moves a copied formula. */
class SharedFormulas {
  private readonly groups = new Map<string, string>();

  first(index: string, address: string, text: string): void {
    this.groups.set(index, translateFormulaToR1C1(`=${text}`, address));
  }

  at(index: string, address: string): string | undefined {
    const relative = this.groups.get(index);
    return relative === undefined ? undefined : translateFormulaToA1(relative, address).replace(/^=/, "");
  }
}

function readSheet(
  loaded: { info: WorkbookInfo; kept: KeptFormula[]; scope: BookScope; sheetNames: ReadonlyMap<string, string> },
  name: string,
  xml: string,
  part: string,
  onProgress: (cells: number) => void,
): { cells: ReadCells; formulas: Map<string, ReadFormula>; spilled: Map<string, SavedLiteral>; saved: Map<string, SavedCell>; count: number; known: KnownCells } {
  const cells: ReadCells = new Map();
  /** Each formula's and each saved spill cell's cached value, errors as errors (the proof's oracle). */
  const saved = new Map<string, SavedCell>();
  const formulas = new Map<string, ReadFormula>();
  const spilled = new Map<string, SavedLiteral>();
  let prefix = "";
  const shared = new SharedFormulas();
  const spills: RangeRef[] = [];
  /** The saved areas of array formulas kept as saved: their other cells keep their cached values as entries. */
  const keptSpills: RangeRef[] = [];
  const parse = shapeParser();
  /** The formula being read: `[@Qty]` and `Table[[#This Row],...]` are read at its cell. */
  let at: CellPosition = { row: 0, col: 0 };
  const scope: StaticContext & NameReader = {
    namespace: "PRICES",
    // a file's call to a function Excel lacks may be an add-in's or a macro's that Excel computed: its value is kept
    unknownFunctions: "left",
    name: (defined) => loaded.scope.name(defined, name),
    structured: (written) => loaded.scope.structured(written, name, at),
  };
  let count = 0;
  const keep = (cell: SheetCell, formula: string, why: string): void => {
    loaded.kept.push({ sheet: name, cell: cell.address, formula, why });
    const saved = literalOf(cell, loaded.info);
    if (saved !== undefined) cells.set(cell.address, saved);
  };
  // a count, not a flag: TypeScript would take a flag set only in the callbacks below as always false
  let hiddenRows = 0;
  scanSheet(xml, part, {
    sheetDataOpen: (qualifiedName) => {
      prefix = prefixOf(qualifiedName);
    },
    rowOpen: (row) => {
      if (/^(1|true)$/i.test(row.attributes.hidden ?? "")) hiddenRows += 1;
    },
    cell: (cell) => {
      count += 1;
      if (count % 5_000 === 0) onProgress(count);
      // Excel writes `<f ca="1"/>` in the other cells of a volatile dynamic array: a cached copy, not a formula
      const inSpill = anyContains(spills, cell.row, cell.col);
      const copied = inSpill || anyContains(keptSpills, cell.row, cell.col);
      const f = cell.formula !== undefined && cell.formula.text === "" && cell.formula.attributes.t === undefined && copied ? undefined : cell.formula;
      if (f === undefined) {
        // What a saved array formula left in its other cells is a cached copy of its result, not an entry.
        const literal = literalOf(cell, loaded.info);
        if (inSpill) {
          if (literal !== undefined) spilled.set(cell.address, literal);
          const savedCell = savedCellOf(literal);
          if (savedCell !== undefined) saved.set(cell.address, savedCell);
          return;
        }
        if (literal !== undefined) cells.set(cell.address, literal);
        return;
      }
      const kind = f.attributes.t ?? "normal";
      let text = f.text;
      let sharedGroup: FormulaSource["shared"];
      if (kind === "shared" && f.attributes.si !== undefined) {
        const index = f.attributes.si;
        const first = text !== "";
        if (first) shared.first(index, cell.address, text);
        const moved = first ? text : shared.at(index, cell.address);
        if (moved === undefined) {
          keep(cell, "", "a shared formula whose first cell is missing");
          return;
        }
        text = moved;
        sharedGroup = { index, first };
      } else if (kind === "dataTable") {
        keep(cell, `TABLE(${f.attributes.r1 ?? ""},${f.attributes.r2 ?? ""})`, "a what-if data table, which only Excel computes");
        return;
      }
      const formula = formulaText(text);
      let expression: Expression;
      try {
        expression = parse(formula);
      } catch (error) {
        if (!(error instanceof FormulaSyntaxError)) throw error;
        keep(cell, text, error.message);
        return;
      }
      // What the engine can only leave for Excel (an external link, a whole column outside SUM and its kind) is kept
      // here with its dependents and its saved spill, names and tables read as the engine reads them: never a guess.
      at = cell;
      const why = whyLeftForExcel(expression, scope, NO_NAMES, NO_NAMES);
      if (why !== undefined) {
        const keptArea = kind === "array" && f.attributes.ref !== undefined ? parseRangeAddress(f.attributes.ref) : undefined;
        if (keptArea) keptSpills.push(keptArea);
        keep(cell, text, why);
        return;
      }
      const area = kind === "array" && f.attributes.ref !== undefined ? parseRangeAddress(f.attributes.ref) : undefined;
      if (area && (area.bottom > area.top || area.right > area.left)) spills.push(area);
      cells.set(cell.address, formula);
      const literal = literalOf(cell, loaded.info);
      const savedCell = savedCellOf(literal);
      if (savedCell !== undefined) saved.set(cell.address, savedCell);
      // one record: the formula's source, where it lies, what it reads, its tree (handed to the engine with the cone:
      // its 20,000 formulas are not parsed twice) and its cell (the copy rewrites it); fields set, not spread
      const record: Mutable<ReadFormula> = { text, callsPrices: callsNamespace(expression, "PRICES"), sheet: name, address: cell.address, row: cell.row, col: cell.col, reach: referencesOf(name, expression, loaded.sheetNames, scope), expression, cell };
      if (literal !== undefined) record.saved = literal;
      if (area !== undefined) record.array = { area, dynamic: cell.attributes.cm !== undefined };
      if (sharedGroup !== undefined) record.shared = sharedGroup;
      formulas.set(cell.address, record);
    },
  });
  // SUBTOTAL and AGGREGATE skip hidden and filtered-out rows, which the engine does not know
  if (hiddenRows > 0) {
    for (const [address, source] of formulas) {
      if (!SKIPS_HIDDEN_ROWS.test(source.text)) continue;
      formulas.delete(address);
      putSaved(cells, address, source.saved);
      loaded.kept.push({ sheet: name, cell: address, formula: source.text, why: "SUBTOTAL or AGGREGATE on a sheet with hidden rows, which only Excel knows" });
    }
  }
  return { cells, formulas, spilled, saved, count, known: knownCells(prefix, formulas) };
}

/**
 * The copy finds each formula's cell through its record (one Map for both); made out here, so the lookup holds the
 * formulas alone and not readSheet's scope (its cells, its parser's shapes: 8 MB of the model kept to the write).
 */
function knownCells(prefix: string, formulas: ReadonlyMap<string, ReadFormula>): KnownCells {
  return { prefix, cell: (address) => formulas.get(address)?.cell };
}

/** No LET names bound, no defined names seen: whyLeftForExcel's defaults, without two Sets made for each formula. */
const NO_NAMES: ReadonlySet<string> = new Set();

/** Whether one of `areas` holds the cell: a loop, not a closure made for each of a sheet's cells. */
function anyContains(areas: readonly RangeRef[], row: number, col: number): boolean {
  for (const area of areas) if (rangeContains(area, row, col)) return true;
  return false;
}

/** A call of a function whose value depends on which rows are hidden. */
const SKIPS_HIDDEN_ROWS = /\b(?:_xlfn\.)?(?:SUBTOTAL|AGGREGATE)\s*\(/i;

export type BookCells = Record<string, SavedLiteral>;

/**
 * A sheet's cells as the read collects them, in the sheet's order: a Map, made the engine's plain object once at the
 * end (engine-book.ts `onlyCellsRead`); 20,000 stores into a dictionary object, each key interned, were a tenth of the read.
 */
export type ReadCells = Map<string, SavedLiteral>;

/**
 * Leaves for Excel every formula that reads a formula the runner keeps as saved, through any chain of formulas: it
 * would otherwise be evaluated from a saved value that is no longer current. It keeps its own saved value and is
 * listed. A formula whose reach only evaluation can tell counts as reading them.
 */
function leaveDependents(book: {
  sheets: Map<string, ReadCells>;
  formulas: Map<string, Map<string, ReadFormula>>;
  kept: KeptFormula[];
}): void {
  if (book.kept.length === 0) return;
  const left = new Map<string, Map<string, CellPosition>>();
  const leave = (sheet: string, area: RangeRef): void => {
    const cells = left.get(sheet) ?? new Map<string, CellPosition>();
    left.set(sheet, cells);
    for (const address of cellsOf(area)) cells.set(address, parseCellAddress(address) ?? { row: 0, col: 0 });
  };
  for (const entry of book.kept) {
    const position = parseCellAddress(entry.cell);
    if (position) leave(entry.sheet, { top: position.row, left: position.col, bottom: position.row, right: position.col });
  }
  /** A cell left for Excel that `area` covers, as `Sheet!A1`. */
  const leftIn = ({ sheet, area }: SheetArea): string | undefined => {
    for (const [address, position] of left.get(sheet) ?? []) if (rangeContains(area, position.row, position.col)) return `${sheet}!${address}`;
    return undefined;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const [sheet, sources] of book.formulas) {
      const cells = book.sheets.get(sheet) ?? new Map<string, SavedLiteral>();
      for (const [address, source] of sources) {
        const areas = source.reach;
        const reason =
          areas === undefined
            ? `reads cells only evaluation can tell, and ${book.kept[0]?.sheet ?? ""}!${book.kept[0]?.cell ?? ""} is left for Excel`
            : areas.map(leftIn).find((cell) => cell !== undefined);
        if (reason === undefined) continue;
        sources.delete(address);
        putSaved(cells, address, source.saved);
        const position = parseCellAddress(address) ?? { row: 0, col: 0 };
        // its saved spill stays in the file too, and what reads it is left as well
        leave(sheet, source.array?.area ?? { top: position.row, left: position.col, bottom: position.row, right: position.col });
        book.kept.push({ sheet, cell: address, formula: source.text, why: areas === undefined ? reason : `depends on ${reason} (left for Excel)` });
        changed = true;
      }
    }
  }
}

function damaged(path: string, error: unknown): never {
  if (error instanceof XmlPartError) throw new WorkbookFileError(`${path} is a damaged workbook: ${error.message}`);
  throw error;
}

/** Which formulas the engine gets: the price cone (the runner), or every formula (the corpus measures the engine itself). */
export interface ReadOptions {
  readonly formulas?: "price cone" | "every formula";
  /** The workbook part, when the caller read it already (`readBookInfo`, the runner's check of its input). */
  readonly info?: WorkbookInfo;
}

/** The workbook part's sheets, names and protection; a part that is not well-formed names the file as a damaged workbook. */
export function readBookInfo(path: string, pkg: WorkbookPackage): WorkbookInfo {
  try {
    return readWorkbookInfo(pkg);
  } catch (error) {
    return damaged(path, error);
  }
}

/** Reads the package (unless given, already read) and every worksheet; `progress` hears how far it got every few thousand cells. */
export function readWorkbookFile(
  path: string,
  progress: (message: string) => void = () => undefined,
  pkg: WorkbookPackage = WorkbookPackage.read(path),
  options: ReadOptions = {},
): LoadedWorkbook {
  const info = options.info ?? readBookInfo(path, pkg);
  const kept: KeptFormula[] = [];
  const read = info.sheets.filter((sheet) => sheet.part !== undefined && sheet.name !== PROVENANCE_SHEET);
  const sheetNames = new Map(read.map((sheet) => [sheet.name.toLowerCase(), sheet.name]));
  const scope = new BookScope(info.names, info.tables);
  const sheets = new Map<string, ReadCells>();
  const parts = new Map<string, string>();
  const formulaCells = new Map<string, KnownCells>();
  const formulas = new Map<string, Map<string, ReadFormula>>();
  const spilled = new Map<string, Map<string, SavedLiteral>>();
  const saved = new Map<string, Map<string, SavedCell>>();
  let cellCount = 0;
  for (const sheet of info.sheets) {
    if (sheet.part === undefined || sheet.name === PROVENANCE_SHEET) continue;
    const part = sheet.part;
    try {
      const read = readSheet({ info, kept, scope, sheetNames }, sheet.name, pkg.text(part), part, (cells) => { progress(`workbook: reading '${sheet.name}', ${cellCount + cells} cells so far`); });
      cellCount += read.count;
      sheets.set(sheet.name, read.cells);
      formulas.set(sheet.name, read.formulas);
      spilled.set(sheet.name, read.spilled);
      saved.set(sheet.name, read.saved);
      parts.set(sheet.name, part);
      formulaCells.set(sheet.name, read.known);
    } catch (error) {
      damaged(path, error);
    }
  }
  if (sheets.size === 0) throw new WorkbookFileError(`${path} has no worksheet`);
  leaveDependents({ sheets, formulas, kept });
  const cone = options.formulas === "every formula" ? formulas : onlyTheCone(sheets, formulas, spilled);
  // this walks every cell once more (500,000 in the bench's large book): progress as it goes, not a silence
  const needed = onlyCellsRead(sheets, cone, (cells) => { progress(`workbook: finding the cells formulas read, ${cells} of ${cellCount}`); });
  const notExcel = whyNotExcelValues(pkg, info.part);
  const books = needed.map(({ name, book }) => ({
    name,
    book: { ...(book as object), saved: savedBook(cone.get(name), saved.get(name)), ...(notExcel === undefined ? {} : { savedUnproven: notExcel }) },
  }));
  const coneSize = [...cone.values()].reduce((sum, sheet) => sum + sheet.size, 0);
  const formulaCount = [...formulas.values()].reduce((sum, sheet) => sum + sheet.size, 0);
  const parsed = new Map([...sheets].map(([name, cells]) => [name, parsedFormulas(cells, cone.get(name))]));
  forgetReach(formulas);
  return { pkg, info, sheets: books, parts, formulaCells, formulas, spilled, cellCount, kept, dateSystem: info.dateSystem, names: info.names, tables: info.tables, cone: { formulas: coneSize, of: formulaCount }, parsed };
}
