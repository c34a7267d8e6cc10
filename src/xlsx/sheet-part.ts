/**
 * A worksheet part read and edited as a stream of its cells: the reader sees each `<c>` with its formula, cached value
 * and position; the writer copies the part as it is and replaces only the cells it was asked to, adding the cells a
 * new spill reaches in their row and column order. Every other element (columns, merges, conditional formats,
 * legacyDrawing, tableParts, extLst...) and every untouched cell stays byte for byte.
 */
import { columnIndex, formatCellAddress } from "../formula/a1";
import type { CellValue } from "../host/values";
import { isCellError } from "../host/values";
import { escapeText } from "./escape";
import { CELL_REFERENCE, findSheetData, recordSheetData } from "./sheet-scan";
import { type ElementSpan, decodeXstring, encodeXstring, prefixOf, scanXml, scanXmlAround, startTag } from "./xml";

export interface SheetFormula {
  readonly qualifiedName: string;
  /** As the file holds it (entities decoded), without `=`; "" for a cell of a shared formula other than its first. */
  readonly text: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly span: ElementSpan;
}

export interface SheetCell {
  /** 0-based. */
  readonly row: number;
  readonly col: number;
  readonly address: string;
  readonly qualifiedName: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly span: ElementSpan;
  readonly formula?: SheetFormula;
  /** The `<v>` element and its text (a text result's `_xHHHH_` escapes decoded). */
  readonly value?: { readonly text: string; readonly span: ElementSpan };
  /** An inline string `<is>`: its text (runs joined, phonetic runs left out, `_xHHHH_` escapes decoded). */
  readonly inline?: { readonly text: string; readonly span: ElementSpan };
}

export interface RowStart {
  readonly row: number;
  readonly qualifiedName: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly start: number;
  readonly openEnd: number;
  readonly selfClosing: boolean;
}

export interface SheetEvents {
  sheetDataOpen?(qualifiedName: string): void;
  rowOpen?(row: RowStart): void;
  cell?(cell: SheetCell): void;
  rowClose?(row: number, span: ElementSpan): void;
  sheetDataClose?(element: { readonly qualifiedName: string; readonly attributes: Readonly<Record<string, string>> } & ElementSpan): void;
}

interface CellBuilding {
  row: number;
  col: number;
  qualifiedName: string;
  attributes: Readonly<Record<string, string>>;
  start: number;
  openEnd: number;
  formula?: SheetFormula;
  value?: { text: string; span: ElementSpan };
  inline?: { text: string; span: ElementSpan };
}

/** The cell as read: its parts set one by one (spreads would make three objects for each of a sheet's cells). */
function cellRead(cell: CellBuilding, closeStart: number, end: number): SheetCell {
  const { row, col, qualifiedName, attributes, start, openEnd, formula, value, inline } = cell;
  const read: { -readonly [K in keyof SheetCell]: SheetCell[K] } = { row, col, address: formatCellAddress({ row, col }), qualifiedName, attributes, span: { start, openEnd, closeStart, end } };
  if (formula) read.formula = formula;
  if (value) read.value = value;
  if (inline) read.inline = inline;
  return read;
}

/**
 * The quick read (sheet-scan.ts) when sheetData is plain: its content read by hand, the rest by saxes around it (one
 * document, as strict: the content checked is whole elements with plain text, so the part is well-formed if and only
 * if it is without them); false, with nothing handed to `events`, when the part needs saxes throughout.
 */
function quickScanSheet(xml: string, part: string, events: SheetEvents): boolean {
  // its first pass checks the whole sheetData before any cell is handed on, so no progress line can come from it: a
  // large part (the 100,000-row book's: 3.2 s of silence beside two busy loops) is read by saxes, cell by cell
  if (xml.length > QUICK_READ_LIMIT) return false;
  const tag = findSheetData(xml);
  if (tag === undefined) return false;
  // read once, kept, and handed on after saxes has checked the rest of the part
  const content = recordSheetData(xml, tag);
  if (content === undefined) return false;
  // set by the callbacks below (an object, so the checks after them are not narrowed to the initial values)
  const found = { seen: false, opened: false, closed: false };
  try {
    scanXmlAround(xml, part, tag.openEnd, content.closeStart, {
      open: ({ name, start, openEnd }) => {
        // the first sheetData saxes sees must be the one found (not one in a comment before it)
        if (name !== "sheetData") return;
        // a second sheetData is read by saxes throughout, as before
        found.opened = !found.seen && start === tag.start && openEnd === tag.openEnd;
        found.seen = true;
      },
      close: ({ name, closeStart, end }) => {
        if (name === "sheetData" && found.opened && !found.closed) found.closed = closeStart === content.closeStart && end === content.end;
      },
    });
  } catch {
    // saxes's reading of the whole part names the fault where it lies
    return false;
  }
  if (!found.opened || !found.closed) return false;
  events.sheetDataOpen?.(tag.qualifiedName);
  content.replay({
    rowOpen: (row) => events.rowOpen?.(row),
    cell: (cell) => events.cell?.(cell),
    rowClose: (row, span) => events.rowClose?.(row, span),
  });
  events.sheetDataClose?.({ qualifiedName: tag.qualifiedName, attributes: tag.attributes, start: tag.start, openEnd: tag.openEnd, closeStart: content.closeStart, end: content.end });
  return true;
}

/** The largest part (in characters) the quick read takes: its silent first pass stays well under a second on a busy machine. */
const QUICK_READ_LIMIT = 4 * 1024 * 1024;

/** Reads the sheet's cells in order (rows and cells without `r` counted on from the one before, as Excel does). */
export function scanSheet(xml: string, part: string, events: SheetEvents): void {
  if (!quickScanSheet(xml, part, events)) saxesScanSheet(xml, part, events);
}

/** scanSheet with saxes throughout (any part; the reference the quick read is tested against). */
export function saxesScanSheet(xml: string, part: string, events: SheetEvents): void {
  let inSheetData = false;
  let sheetData: { qualifiedName: string; attributes: Readonly<Record<string, string>>; start: number; openEnd: number } | undefined;
  let row = -1;
  let col = -1;
  let cell: CellBuilding | undefined;
  /** Inside the cell: which child collects text (`is` text comes from its `t`, not from a phonetic `rPh`). */
  let collecting: "f" | "v" | "is" | undefined;
  let phonetic = 0;
  let text = "";
  let childStart: { qualifiedName: string; attributes: Readonly<Record<string, string>>; start: number; openEnd: number } | undefined;
  scanXml(xml, part, {
    open: (tag) => {
      if (!inSheetData) {
        if (tag.name === "sheetData") {
          inSheetData = true;
          sheetData = tag;
          events.sheetDataOpen?.(tag.qualifiedName);
        }
        return;
      }
      if (cell === undefined) {
        if (tag.name === "row") {
          const number = Number(tag.attributes.r);
          row = Number.isInteger(number) && number > 0 ? number - 1 : row + 1;
          col = -1;
          events.rowOpen?.({ row, qualifiedName: tag.qualifiedName, attributes: tag.attributes, start: tag.start, openEnd: tag.openEnd, selfClosing: tag.selfClosing });
        } else if (tag.name === "c") {
          const match = CELL_REFERENCE.exec(tag.attributes.r ?? "");
          if (match) {
            col = columnIndex(match[1] ?? "A");
            row = Number(match[2]) - 1;
          } else col += 1;
          cell = { row, col, qualifiedName: tag.qualifiedName, attributes: tag.attributes, start: tag.start, openEnd: tag.openEnd };
        }
        return;
      }
      if (collecting === undefined && (tag.name === "f" || tag.name === "v" || tag.name === "is")) {
        collecting = tag.name;
        text = "";
        childStart = tag;
      } else if (collecting === "is" && tag.name === "rPh") phonetic += 1;
    },
    text: (chunk) => {
      if (collecting !== undefined && phonetic === 0) text += chunk;
    },
    close: ({ name, closeStart, end }) => {
      if (!inSheetData) return;
      if (cell !== undefined) {
        if (name === "rPh" && collecting === "is") phonetic -= 1;
        else if (collecting !== undefined && name === collecting && childStart) {
          const span = { start: childStart.start, openEnd: childStart.openEnd, closeStart, end };
          if (collecting === "f") cell.formula = { qualifiedName: childStart.qualifiedName, text, attributes: childStart.attributes, span };
          // a string is an ST_Xstring (`_x0007_` for CHAR(7)); a number, an index or an error code never holds `_x`
          else if (collecting === "v") cell.value = { text: cell.attributes.t === "str" ? decodeXstring(text) : text, span };
          else cell.inline = { text: decodeXstring(text), span };
          collecting = undefined;
          childStart = undefined;
        } else if (name === "c" && collecting === undefined) {
          if (events.cell) events.cell(cellRead(cell, closeStart, end));
          cell = undefined;
        }
        return;
      }
      if (name === "row") events.rowClose?.(row, { start: -1, openEnd: -1, closeStart, end });
      else if (name === "sheetData" && sheetData) {
        inSheetData = false;
        events.sheetDataClose?.({ qualifiedName: sheetData.qualifiedName, attributes: sheetData.attributes, start: sheetData.start, openEnd: sheetData.openEnd, closeStart, end });
      }
    },
  });
}

/** What the refresh does to one cell. */
export type CellEdit = (
  /** A formula's fresh result, or a value a spill put there (null: the cell no longer holds one); `ref` is an array formula's new area. */
  | { readonly kind: "result"; readonly value: CellValue; readonly ref?: string }
  /** The formula is dropped and its value kept (`--freeze`). */
  | { readonly kind: "freeze"; readonly value: CellValue }
) & {
  /** A rich price's number format: the cell's style becomes what `restyle` gives for it. */
  readonly numberFormat?: string;
};

/** The style index (`s`) for a cell whose style is `current` showing `numberFormat` (styles-part.ts). */
export type Restyle = (current: string | undefined, numberFormat: string) => string;

/**
 * The error values a file holds as they are: ECMA-376's (the seven and #GETTING_DATA) and those Excel 365 writes in
 * `t="e"` cells of its own files (#SPILL!, #CALC!, and the data-type family); any other code (#BUSY!, a call still
 * pending when the run ended, is no result) is written as #N/A. docs/workbook-runner.md "What the copy writes".
 */
const FILE_ERRORS = new Set(["#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA", "#SPILL!", "#CALC!", "#FIELD!", "#BLOCKED!", "#CONNECT!", "#UNKNOWN!"]);

/** The cell type and content Excel writes for `value`: a formula's text result is `str`, a frozen text an inline string. */
function valueXml(value: CellValue, prefix: string, frozen: boolean): { type?: string; xml: string } {
  if (value === null) return { xml: "" };
  if (isCellError(value)) return valueElement(prefix, "e", FILE_ERRORS.has(value.code) ? value.code : "#N/A");
  if (typeof value === "boolean") return valueElement(prefix, "b", value ? "1" : "0");
  if (typeof value === "number") return Number.isFinite(value) ? valueElement(prefix, undefined, String(value)) : valueElement(prefix, "e", "#NUM!");
  if (!frozen) return valueElement(prefix, "str", encodeXstring(value));
  const space = /^\s|\s$|\n/.test(value) ? ' xml:space="preserve"' : "";
  return { type: "inlineStr", xml: `<${prefix}is><${prefix}t${space}>${escapeText(encodeXstring(value))}</${prefix}t></${prefix}is>` };
}

function valueElement(prefix: string, type: string | undefined, content: string): { type?: string; xml: string } {
  const xml = `<${prefix}v>${escapeText(content)}</${prefix}v>`;
  return type === undefined ? { xml } : { type, xml };
}

/** `attributes` with `name` set (in its place, or after r and s when new) or removed (undefined). */
function withAttribute(attributes: Readonly<Record<string, string>>, name: string, value: string | undefined): Readonly<Record<string, string>> {
  // most rewritten cells keep their attributes as they are (a number stays a number): no copy for them
  if (value === undefined ? !Object.hasOwn(attributes, name) : attributes[name] === value) return attributes;
  const result: Record<string, string> = {};
  let placed = value === undefined || name in attributes;
  for (const [key, current] of Object.entries(attributes)) {
    if (!placed && key !== "r" && key !== "s") {
      result[name] = value ?? "";
      placed = true;
    }
    if (key === name) {
      if (value !== undefined) result[key] = value;
    } else result[key] = current;
  }
  if (!placed && value !== undefined) result[name] = value;
  return result;
}

function rewriteCell(xml: string, cell: SheetCell, edit: CellEdit, prefix: string, restyle: Restyle | undefined): string {
  const frozen = edit.kind === "freeze";
  const content = valueXml(edit.value, prefix, frozen);
  const styled = edit.numberFormat === undefined || restyle === undefined ? cell.attributes : withAttribute(cell.attributes, "s", restyle(cell.attributes.s, edit.numberFormat));
  let attributes = withAttribute(styled, "t", content.type);
  // cm marks a dynamic-array formula; a frozen cell has none
  if (frozen) attributes = withAttribute(attributes, "cm", undefined);
  const { span } = cell;
  if (span.openEnd === span.end) return content.xml === "" ? startTag(cell.qualifiedName, attributes, true) : `${startTag(cell.qualifiedName, attributes)}${content.xml}</${cell.qualifiedName}>`;
  const body = cellBody(xml, cell, edit, content.xml);
  return body === "" ? startTag(cell.qualifiedName, attributes, true) : `${startTag(cell.qualifiedName, attributes)}${body}</${cell.qualifiedName}>`;
}

/** The cell's content with its value replaced by `valueXml` (and for a freeze its formula gone, or an array formula's `ref` renewed). */
function cellBody(xml: string, cell: SheetCell, edit: CellEdit, valueXml: string): string {
  const { span, formula } = cell;
  const old = cell.value?.span ?? cell.inline?.span;
  // The value goes where the old one was, else after the formula (the schema's order: f, v, is, extLst).
  const at = old?.start ?? (formula ? formula.span.end : span.openEnd);
  const formulaKept = formula === undefined || (edit.kind === "result" && (edit.ref === undefined || formula.attributes.t !== "array" || edit.ref === formula.attributes.ref));
  // most cells (the formula as it is, one old value): three slices, no pieces sorted and joined
  if (formulaKept && (cell.value === undefined || cell.inline === undefined)) return xml.slice(span.openEnd, at) + valueXml + xml.slice(old?.end ?? at, span.closeStart);
  const inner: { start: number; end: number; replacement: string }[] = [];
  if (cell.value) inner.push({ start: cell.value.span.start, end: cell.value.span.end, replacement: "" });
  if (cell.inline) inner.push({ start: cell.inline.span.start, end: cell.inline.span.end, replacement: "" });
  if (formula && edit.kind === "freeze") inner.push({ start: formula.span.start, end: formula.span.end, replacement: "" });
  else if (formula && edit.kind === "result" && edit.ref !== undefined && formula.attributes.t === "array" && edit.ref !== formula.attributes.ref) {
    // a dynamic array's new area; a plain formula is never made an array formula (Excel 365 never spills one)
    inner.push({ start: formula.span.start, end: formula.span.openEnd, replacement: startTag(formula.qualifiedName, withAttribute(formula.attributes, "ref", edit.ref), formula.span.openEnd === formula.span.end) });
  }
  inner.push({ start: at, end: at, replacement: valueXml });
  inner.sort((a, b) => a.start - b.start);
  const pieces: string[] = [];
  let cursor = span.openEnd;
  for (const piece of inner) {
    pieces.push(xml.slice(cursor, piece.start), piece.replacement);
    cursor = Math.max(cursor, piece.end);
  }
  pieces.push(xml.slice(cursor, span.closeStart));
  return pieces.join("");
}

function newCell(row: number, col: number, edit: CellEdit, prefix: string, restyle: Restyle | undefined): string {
  const content = valueXml(edit.value, prefix, edit.kind === "freeze");
  if (content.xml === "") return "";
  const style = edit.numberFormat === undefined || restyle === undefined ? "" : ` s="${restyle(undefined, edit.numberFormat)}"`;
  const type = content.type === undefined ? "" : ` t="${content.type}"`;
  return `<${prefix}c r="${formatCellAddress({ row, col })}"${style}${type}>${content.xml}</${prefix}c>`;
}

/** One row's edits, handed out as its cells go by in column order (one pass, whatever the row's length). */
class RowEdits {
  private readonly edits = new Map<number, CellEdit>();
  private columns: number[] | undefined;
  private next = 0;

  set(col: number, edit: CellEdit): void {
    this.edits.set(col, edit);
  }

  get done(): boolean {
    return this.edits.size === 0;
  }

  /** The edit of an existing cell, taken. */
  take(col: number): CellEdit | undefined {
    const edit = this.edits.get(col);
    if (edit !== undefined) this.edits.delete(col);
    return edit;
  }

  /** New cells for the edits still untaken left of `before`, in column order, taken. */
  newCellsBefore(before: number, write: (col: number, edit: CellEdit) => string): string {
    this.columns ??= [...this.edits.keys()].sort((a, b) => a - b);
    let written = "";
    while (this.next < this.columns.length && (this.columns[this.next] ?? Infinity) < before) {
      const col = this.columns[this.next] ?? 0;
      this.next += 1;
      const edit = this.take(col);
      if (edit !== undefined) written += write(col, edit);
    }
    return written;
  }
}

/** The cells of a part as its read found them (by A1 address: the read's records of its formulas), with the prefix its elements carry (`x:` or ""). */
export interface KnownCells {
  readonly prefix: string;
  cell(address: string): SheetCell | undefined;
}

/**
 * The part with `edits` applied when every edit is to a cell the read already found (its position known): those
 * cells rewritten, the rest copied, without reading the part again (the 20,050-cell model's 19,800 formulas); else
 * undefined, and `rewriteSheet` reads it.
 */
export function rewriteKnownCells(xml: string, edits: ReadonlyMap<string, CellEdit>, known: KnownCells, restyle?: Restyle): string | undefined {
  const targets: { cell: SheetCell; edit: CellEdit }[] = [];
  for (const [address, edit] of edits) {
    const cell = known.cell(address);
    if (cell === undefined) return undefined;
    targets.push({ cell, edit });
  }
  targets.sort((a, b) => a.cell.span.start - b.cell.span.start);
  const out: string[] = [];
  let cursor = 0;
  for (const { cell, edit } of targets) {
    out.push(xml.slice(cursor, cell.span.start), rewriteCell(xml, cell, edit, known.prefix, restyle));
    cursor = cell.span.end;
  }
  out.push(xml.slice(cursor));
  return out.join("");
}

/**
 * The part with `edits` (by A1 address) applied: those cells rewritten in place, cells that do not exist yet added in
 * their row (rows added in order), everything else copied as it is. `onProgress` is called every few thousand cells;
 * `restyle` gives the style of a cell whose edit carries a number format.
 */
export function rewriteSheet(xml: string, part: string, edits: ReadonlyMap<string, CellEdit>, onProgress?: (cells: number) => void, restyle?: Restyle): string {
  const pending = new Map<number, RowEdits>();
  for (const [address, edit] of edits) {
    const match = CELL_REFERENCE.exec(address);
    if (!match) continue;
    const row = Number(match[2]) - 1;
    const cols = pending.get(row) ?? new RowEdits();
    cols.set(columnIndex(match[1] ?? "A"), edit);
    pending.set(row, cols);
  }
  const rowsToAdd = [...pending.keys()].sort((a, b) => a - b);
  let nextRow = 0;
  let prefix = "";
  let current: RowEdits | undefined;
  let currentRow = -1;
  let cells = 0;
  const out: string[] = [];
  let cursor = 0;
  const replace = (start: number, end: number, replacement: string): void => {
    out.push(xml.slice(cursor, start), replacement);
    cursor = end;
  };
  const cellsOf = (row: number, edits: RowEdits | undefined, before = Infinity): string => (edits ? edits.newCellsBefore(before, (col, edit) => newCell(row, col, edit, prefix, restyle)) : "");
  const rowsBefore = (row: number): string => {
    const written: string[] = [];
    while (nextRow < rowsToAdd.length && (rowsToAdd[nextRow] ?? Infinity) < row) {
      const number = rowsToAdd[nextRow] ?? 0;
      const content = cellsOf(number, pending.get(number));
      if (content !== "") written.push(`<${prefix}row r="${number + 1}">${content}</${prefix}row>`);
      nextRow += 1;
    }
    if (rowsToAdd[nextRow] === row) nextRow += 1;
    return written.join("");
  };
  scanSheet(xml, part, {
    sheetDataOpen: (qualifiedName) => {
      prefix = prefixOf(qualifiedName);
    },
    rowOpen: (row) => {
      replace(row.start, row.start, rowsBefore(row.row));
      currentRow = row.row;
      current = pending.get(row.row);
      if (row.selfClosing && current !== undefined && !current.done) {
        const content = cellsOf(row.row, current);
        if (content !== "") replace(row.start, row.openEnd, `${startTag(row.qualifiedName, row.attributes)}${content}</${row.qualifiedName}>`);
      }
    },
    cell: (cell) => {
      cells += 1;
      if (cells % 5_000 === 0) onProgress?.(cells);
      if (cell.row !== currentRow) return;
      const before = cellsOf(cell.row, current, cell.col);
      const edit = current?.take(cell.col);
      if (edit === undefined) {
        if (before !== "") replace(cell.span.start, cell.span.start, before);
        return;
      }
      replace(cell.span.start, cell.span.end, before + rewriteCell(xml, cell, edit, prefix, restyle));
    },
    rowClose: (row, span) => {
      if (span.closeStart !== span.end) replace(span.closeStart, span.closeStart, cellsOf(row, current));
      current = undefined;
      currentRow = -1;
    },
    sheetDataClose: (element) => {
      const rows = rowsBefore(Infinity);
      if (rows === "") return;
      if (element.closeStart === element.end) replace(element.start, element.end, `${startTag(element.qualifiedName, element.attributes)}${rows}</${element.qualifiedName}>`);
      else replace(element.closeStart, element.closeStart, rows);
    },
  });
  out.push(xml.slice(cursor));
  return out.join("");
}
