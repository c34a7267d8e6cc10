/**
 * A quick reader of a worksheet's sheetData for the plain shape every writer gives it (`<row>`, `<c>`, `<f>`, `<v>`,
 * the five predefined entities), ~5x faster than saxes. It accepts only what is surely well-formed and reads the same
 * as saxes would; anything else (a comment, CDATA, a character reference, `<is>`, a carriage return, a character XML
 * forbids...) answers undefined, and the caller reads the whole part with saxes, which decodes or refuses it as before.
 * The rest of the part (before `<sheetData>` and after `</sheetData>`) is still read by saxes: sheet-part.ts.
 */
import { columnIndex, formatCellAddress } from "../formula/a1";
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

const SPACE = /[ \t\r\n]*/y;
// names as Excel writes them (ASCII); a value with a control character (tab, line feed: normalised by XML) or `&` is left to saxes
// eslint-disable-next-line no-control-regex -- the control characters are what a plain value must not hold
const ATTRIBUTE = /[ \t\r\n]+([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)[ \t\r\n]*=[ \t\r\n]*(?:"([^"<&\u0000-\u001f\ud800-\udfff\ufffe\uffff]*)"|'([^'<&\u0000-\u001f\ud800-\udfff\ufffe\uffff]*)')/y;
const TAG_END = /[ \t\r\n]*(\/?)>/y;
const CLOSE_END = /[ \t\r\n]*>/y;
/** Text saxes would decode otherwise than as written (a carriage return, a forbidden character, `]]>`): left to saxes. */
// eslint-disable-next-line no-control-regex -- the control characters XML forbids are what this finds
const UNPLAIN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\r\ud800-\udfff\ufffe\uffff]|\]\]>/;
const UNKNOWN_ENTITY = /&(?!(?:amp|lt|gt|quot|apos);)/;
const ENTITY = /&(amp|lt|gt|quot|apos);/g;
const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
/** A cell's `r` as a sheet writes it (`B7`): its column letters and row, read alike by both scanners of sheet-part.ts. */
export const CELL_REFERENCE = /^([A-Za-z]{1,3})(\d+)$/;
const SHEET_DATA = /<((?:[A-Za-z_][\w.-]*:)?)sheetData(?=[ \t\r\n/>])/g;

/** A start tag's attributes and end from `at` (just after its name), or undefined when not plain. */
function startTagRest(xml: string, at: number): { attributes: Record<string, string>; openEnd: number; selfClosing: boolean } | undefined {
  const attributes = Object.create(null) as Record<string, string>;
  let cursor = at;
  for (;;) {
    ATTRIBUTE.lastIndex = cursor;
    const match = ATTRIBUTE.exec(xml);
    if (match === null) break;
    const name = match[1] ?? "";
    if (name in attributes) return undefined;
    attributes[name] = match[2] ?? match[3] ?? "";
    cursor = ATTRIBUTE.lastIndex;
  }
  TAG_END.lastIndex = cursor;
  const end = TAG_END.exec(xml);
  if (end === null) return undefined;
  return { attributes, openEnd: TAG_END.lastIndex, selfClosing: end[1] === "/" };
}

function skipSpace(xml: string, at: number): number {
  SPACE.lastIndex = at;
  SPACE.exec(xml);
  return SPACE.lastIndex;
}

/** `</name` then `>` at `at`: the end, or -1. */
function closeTag(xml: string, at: number, qualifiedName: string): number {
  if (!xml.startsWith(`</${qualifiedName}`, at)) return -1;
  CLOSE_END.lastIndex = at + 2 + qualifiedName.length;
  return CLOSE_END.exec(xml) === null ? -1 : CLOSE_END.lastIndex;
}

/** An element's start `<name` at `at` (followed by space, `/` or `>`, which startTagRest checks). */
function opens(xml: string, at: number, qualifiedName: string): boolean {
  return xml.charCodeAt(at) === 60 && xml.startsWith(qualifiedName, at + 1);
}

/** The plain text from `at` to the next `<`, decoded, or undefined. */
function plainText(xml: string, at: number): { text: string; end: number } | undefined {
  const end = xml.indexOf("<", at);
  if (end < 0) return undefined;
  const raw = xml.slice(at, end);
  if (UNPLAIN_TEXT.test(raw)) return undefined;
  if (!raw.includes("&")) return { text: raw, end };
  if (UNKNOWN_ENTITY.test(raw)) return undefined;
  return { text: raw.replace(ENTITY, (_, name: string) => ENTITIES[name] ?? ""), end };
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
      const match = CELL_REFERENCE.exec(cellTag.attributes.r ?? "");
      if (match) {
        col = columnIndex(match[1] ?? "A");
        row = Number(match[2]) - 1;
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
        const cell: QuickCell = { row, col, address: formatCellAddress({ row, col }), qualifiedName: cellName, attributes: cellTag.attributes, span: { start, openEnd: cellTag.openEnd, closeStart, end: at } };
        if (formula) cell.formula = formula;
        // a string is an ST_Xstring (`_x0007_` for CHAR(7)); a number, an index or an error code never holds `_x`
        if (value) cell.value = { text: cellTag.attributes.t === "str" ? decodeXstring(value.text) : value.text, span: value.span };
        events.cell(cell);
      }
    }
  }
}
