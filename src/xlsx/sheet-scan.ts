/**
 * A quick reader of a worksheet's sheetData for the plain shape every writer gives it (`<row>`, `<c>`, `<f>`, `<v>`,
 * the five predefined entities), ~5x faster than saxes. It accepts only what is surely well-formed and reads the same
 * as saxes would; anything else (a comment, CDATA, a character reference, `<is>`, a carriage return, a character XML
 * forbids...) answers undefined, and the caller reads the whole part with saxes, which decodes or refuses it as before.
 * The rest of the part (before `<sheetData>` and after `</sheetData>`) is still read by saxes: sheet-part.ts.
 */
import { formatCellAddress, readCellReference } from "../formula/a1";
import { type ElementSpan, decodeXstring } from "./xml";

/** What sheet-part.ts's scanSheet hands its caller, as this reader finds it. */
export interface QuickSheetEvents {
  rowOpen(row: { row: number; qualifiedName: string; attributes: Readonly<Record<string, string>>; start: number; openEnd: number; selfClosing: boolean }): void;
  cell(cell: QuickCell): void;
  rowClose(row: number, span: ElementSpan): void;
}

export interface QuickCell {
  row: number;
  col: number;
  address: string;
  qualifiedName: string;
  attributes: Readonly<Record<string, string>>;
  span: ElementSpan;
  formula?: { qualifiedName: string; text: string; attributes: Readonly<Record<string, string>>; span: ElementSpan };
  value?: { text: string; span: ElementSpan };
}

/** The sheetData start tag: where it lies and what it holds. */
export interface SheetDataTag {
  readonly qualifiedName: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly start: number;
  readonly openEnd: number;
}

const UNKNOWN_ENTITY = /&(?!(?:amp|lt|gt|quot|apos);)/;
const ENTITY = /&(amp|lt|gt|quot|apos);/g;
const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
/** A cell's `r` as a sheet writes it (`B7`): its column letters and row, read alike by both scanners of sheet-part.ts. */
export const CELL_REFERENCE = /^([A-Za-z]{1,3})(\d+)$/;
const SHEET_DATA = /<((?:[A-Za-z_][\w.-]*:)?)sheetData(?=[ \t\r\n/>])/g;

/** Space as XML has it between attributes (space, tab, carriage return, line feed). */
function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13;
}

/** A name's first character as this reader takes it (ASCII letter or `_`). */
function isNameStart(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
}

/** A name's other characters (`\w`, `.`, `-`). */
function isNameChar(code: number): boolean {
  return isNameStart(code) || (code >= 48 && code <= 57) || code === 46 || code === 45;
}

/** The end of a name (`[A-Za-z_][\w.-]*`, one `:prefix` allowed) from `at`, or -1. */
function nameEnd(xml: string, at: number): number {
  if (!isNameStart(xml.charCodeAt(at))) return -1;
  let end = at + 1;
  while (isNameChar(xml.charCodeAt(end))) end += 1;
  if (xml.charCodeAt(end) !== 58) return end;
  if (!isNameStart(xml.charCodeAt(end + 1))) return -1;
  end += 2;
  while (isNameChar(xml.charCodeAt(end))) end += 1;
  return end;
}

/** Where a plain attribute value quoted by `quote` and starting at `at` closes, or -1 (`<`, `&`, a control character, a surrogate, U+FFFE/F: left to saxes). */
function valueEnd(xml: string, at: number, quote: number): number {
  for (let end = at; end < xml.length; end += 1) {
    const code = xml.charCodeAt(end);
    if (code === quote) return end;
    if (code < 32 || code === 60 || code === 38 || (code >= 0xd800 && code <= 0xdfff) || code >= 0xfffe) return -1;
  }
  return -1;
}

/**
 * A start tag's attributes and end from `at` (just after its name), or undefined when not plain: a character loop,
 * no regular expression (the 20,050-cell model reads ~60,000 start tags).
 */
function startTagRest(xml: string, at: number): { attributes: Record<string, string>; openEnd: number; selfClosing: boolean } | undefined {
  // a plain object, not Object.create(null)'s dictionary: ~60,000 of them, each kept with its cell (__proto__ is left to saxes)
  const attributes: Record<string, string> = {};
  let cursor = at;
  for (;;) {
    let next = cursor;
    while (isSpace(xml.charCodeAt(next))) next += 1;
    const code = xml.charCodeAt(next);
    if (code === 62) return { attributes, openEnd: next + 1, selfClosing: false };
    if (code === 47) return xml.charCodeAt(next + 1) === 62 ? { attributes, openEnd: next + 2, selfClosing: true } : undefined;
    // an attribute follows space, its name, `=` and a quoted value (space allowed around `=`)
    if (next === cursor) return undefined;
    const end = nameEnd(xml, next);
    if (end < 0) return undefined;
    let equals = end;
    while (isSpace(xml.charCodeAt(equals))) equals += 1;
    if (xml.charCodeAt(equals) !== 61) return undefined;
    let open = equals + 1;
    while (isSpace(xml.charCodeAt(open))) open += 1;
    const quote = xml.charCodeAt(open);
    if (quote !== 34 && quote !== 39) return undefined;
    const close = valueEnd(xml, open + 1, quote);
    if (close < 0) return undefined;
    const name = xml.slice(next, end);
    if (Object.hasOwn(attributes, name) || name === "__proto__") return undefined;
    attributes[name] = xml.slice(open + 1, close);
    cursor = close + 1;
  }
}

function skipSpace(xml: string, at: number): number {
  let next = at;
  while (isSpace(xml.charCodeAt(next))) next += 1;
  return next;
}

/** `</name` then `>` at `at`: the end, or -1. */
function closeTag(xml: string, at: number, qualifiedName: string): number {
  if (xml.charCodeAt(at) !== 60 || xml.charCodeAt(at + 1) !== 47 || !xml.startsWith(qualifiedName, at + 2)) return -1;
  const end = skipSpace(xml, at + 2 + qualifiedName.length);
  return xml.charCodeAt(end) === 62 ? end + 1 : -1;
}

/** An element's start `<name` at `at` (followed by space, `/` or `>`, which startTagRest checks). */
function opens(xml: string, at: number, qualifiedName: string): boolean {
  return xml.charCodeAt(at) === 60 && xml.startsWith(qualifiedName, at + 1);
}

/** The plain text from `at` to the next `<`, decoded, or undefined: one pass over its characters. */
function plainText(xml: string, at: number): { text: string; end: number } | undefined {
  let entities = false;
  for (let end = at; end < xml.length; end += 1) {
    const code = xml.charCodeAt(end);
    if (code === 60) {
      const raw = xml.slice(at, end);
      if (!entities) return { text: raw, end };
      if (UNKNOWN_ENTITY.test(raw)) return undefined;
      return { text: raw.replace(ENTITY, (_, name: string) => ENTITIES[name] ?? ""), end };
    }
    if (code === 38) entities = true;
    // what saxes would decode otherwise than as written (a carriage return, a character XML forbids, `]]>`)
    else if (code < 32 ? code !== 9 && code !== 10 : (code >= 0xd800 && code <= 0xdfff) || code >= 0xfffe) return undefined;
    else if (code === 62 && end >= at + 2 && xml.charCodeAt(end - 1) === 93 && xml.charCodeAt(end - 2) === 93) return undefined;
  }
  return undefined;
}

/** The first `<sheetData ...>` start tag as text finds it (saxes confirms it is one: sheet-part.ts), or undefined. */
export function findSheetData(xml: string): SheetDataTag | undefined {
  SHEET_DATA.lastIndex = 0;
  const match = SHEET_DATA.exec(xml);
  if (match === null) return undefined;
  const qualifiedName = `${match[1] ?? ""}sheetData`;
  const rest = startTagRest(xml, match.index + 1 + qualifiedName.length);
  if (rest === undefined || rest.selfClosing) return undefined;
  return { qualifiedName, attributes: rest.attributes, start: match.index, openEnd: rest.openEnd };
}

interface Child {
  qualifiedName: string;
  text: string;
  attributes: Record<string, string>;
  span: ElementSpan;
}

/** A `<f>` or `<v>` at `at`, or undefined. */
function cellChild(xml: string, at: number, qualifiedName: string): Child | undefined {
  const rest = startTagRest(xml, at + 1 + qualifiedName.length);
  if (rest === undefined) return undefined;
  const { attributes, openEnd } = rest;
  if (rest.selfClosing) return { qualifiedName, text: "", attributes, span: { start: at, openEnd, closeStart: openEnd, end: openEnd } };
  const text = plainText(xml, openEnd);
  if (text === undefined) return undefined;
  const end = closeTag(xml, text.end, qualifiedName);
  return end < 0 ? undefined : { qualifiedName, text: text.text, attributes, span: { start: at, openEnd, closeStart: text.end, end } };
}

/**
 * The cells of sheetData from `tag.openEnd` to its `</sheetData>` (whose start and end it answers), handed to `events`
 * when given; undefined when something is not plain (nothing handed then if run first without events, as sheet-part.ts does).
 */
export function quickSheetData(xml: string, tag: SheetDataTag, events: QuickSheetEvents | undefined): { closeStart: number; end: number } | undefined {
  const prefix = tag.qualifiedName.slice(0, -"sheetData".length);
  const rowName = `${prefix}row`;
  const cellName = `${prefix}c`;
  const formulaName = `${prefix}f`;
  const valueName = `${prefix}v`;
  let at = tag.openEnd;
  let row = -1;
  /** Where the cell being read lies (one object for the whole scan). */
  const position = { row: 0, col: 0 };
  for (;;) {
    at = skipSpace(xml, at);
    const sheetDataEnd = closeTag(xml, at, tag.qualifiedName);
    if (sheetDataEnd >= 0) return { closeStart: at, end: sheetDataEnd };
    if (!opens(xml, at, rowName)) return undefined;
    const rowTag = startTagRest(xml, at + 1 + rowName.length);
    if (rowTag === undefined) return undefined;
    const number = Number(rowTag.attributes.r);
    row = Number.isInteger(number) && number > 0 ? number - 1 : row + 1;
    events?.rowOpen({ row, qualifiedName: rowName, attributes: rowTag.attributes, start: at, openEnd: rowTag.openEnd, selfClosing: rowTag.selfClosing });
    at = rowTag.openEnd;
    if (rowTag.selfClosing) {
      events?.rowClose(row, { start: -1, openEnd: -1, closeStart: at, end: at });
      continue;
    }
    let col = -1;
    for (;;) {
      at = skipSpace(xml, at);
      const rowEnd = closeTag(xml, at, rowName);
      if (rowEnd >= 0) {
        events?.rowClose(row, { start: -1, openEnd: -1, closeStart: at, end: rowEnd });
        at = rowEnd;
        break;
      }
      if (!opens(xml, at, cellName)) return undefined;
      const start = at;
      const cellTag = startTagRest(xml, at + 1 + cellName.length);
      if (cellTag === undefined) return undefined;
      const reference = cellTag.attributes.r;
      const canonical = reference === undefined ? undefined : readCellReference(reference, position);
      if (canonical !== undefined) {
        col = position.col;
        row = position.row;
      } else col += 1;
      at = cellTag.openEnd;
      let formula: Child | undefined;
      let value: Child | undefined;
      let closeStart = at;
      if (!cellTag.selfClosing) {
        for (;;) {
          at = skipSpace(xml, at);
          const cellEnd = closeTag(xml, at, cellName);
          if (cellEnd >= 0) {
            closeStart = at;
            at = cellEnd;
            break;
          }
          const isFormula = opens(xml, at, formulaName);
          if (!isFormula && !opens(xml, at, valueName)) return undefined;
          const read = cellChild(xml, at, isFormula ? formulaName : valueName);
          if (read === undefined) return undefined;
          if (isFormula) formula = read;
          else value = read;
          at = read.span.end;
        }
      }
      if (events) {
        const cell: QuickCell = { row, col, address: canonical === true && reference !== undefined ? reference : formatCellAddress({ row, col }), qualifiedName: cellName, attributes: cellTag.attributes, span: { start, openEnd: cellTag.openEnd, closeStart, end: at } };
        if (formula) cell.formula = formula;
        // a string is an ST_Xstring (`_x0007_` for CHAR(7)); a number, an index or an error code never holds `_x`
        if (value) cell.value = { text: cellTag.attributes.t === "str" ? decodeXstring(value.text) : value.text, span: value.span };
        events.cell(cell);
      }
    }
  }
}

type RowOpened = Parameters<QuickSheetEvents["rowOpen"]>[0];

/** sheetData read once and kept, to be handed on only once the caller knows the whole part is well-formed. */
export interface RecordedSheetData {
  readonly closeStart: number;
  readonly end: number;
  replay(events: QuickSheetEvents): void;
}

/**
 * quickSheetData in one pass instead of two (a check, then a read): the cells kept as read, in their rows, and handed
 * to `replay`'s events after; undefined, with nothing kept, when something is not plain.
 */
export function recordSheetData(xml: string, tag: SheetDataTag): RecordedSheetData | undefined {
  const cells: QuickCell[] = [];
  const rows: { opened: RowOpened; from: number; to: number; closed: number; close: ElementSpan }[] = [];
  let opened: RowOpened | undefined;
  let from = 0;
  const content = quickSheetData(xml, tag, {
    rowOpen: (row) => {
      opened = row;
      from = cells.length;
    },
    cell: (cell) => cells.push(cell),
    // a row closes with the row of its last cell, which may be another than it opened with
    rowClose: (closed, close) => {
      if (opened !== undefined) rows.push({ opened, from, to: cells.length, closed, close });
    },
  });
  if (content === undefined) return undefined;
  return {
    ...content,
    replay: (events) => {
      for (const { opened: row, from: first, to, closed, close } of rows) {
        events.rowOpen(row);
        for (let index = first; index < to; index += 1) events.cell(cells[index] as QuickCell);
        events.rowClose(closed, close);
      }
    },
  };
}
