/**
 * A formula's shape read straight off its text, before any tokenizer: `C3/B3-1` and `C4/B4-1` are one key,
 * `\u0001/\u0001-1`, with the cell references `C3`, `B3` as its open slots. Only a cell reference the tokenizer can
 * read as nothing else is opened: `$A$2` between operators, commas, parentheses or a sheet's `!`, never a function's
 * name (`LOG10(`), a sheet's name (`Q1!`), a part of a name or number (`1E5`, `A1.B`) or text in quotes. So two
 * formulas with one key tokenize alike, and differ only in those references (parse.ts `shapeParser` keeps, per key,
 * how each reference token of the first is made of slots and text, and checks that it is).
 */
import { type CellPosition, parseCellAddress } from "./a1";

/** Where each open slot lies in the formula's body (the text after `=`). */
export interface QuickShape {
  readonly key: string;
  readonly slots: readonly (readonly [start: number, end: number])[];
  /** The cell each slot names, by slot: a reference made of one slot needs no reading again. */
  readonly cells: readonly CellPosition[];
}

/** What a reference token is made of: text kept as is, and slot numbers. */
export type Template = readonly (string | number)[];

const SLOT = "\u0001";
/** Characters that come before a reference (`(`, `=`, an operator, `,`, `;`, `:`, `!`, a space), by char code. */
const BEFORE = codes("(=+-*/^&<>,;:! ");
/** Characters that end a reference (an operator, `,`, `;`, `)`, `:`, `%`), by char code. */
const AFTER = codes("+-*/^&=<>,;):%");

function codes(chars: string): Set<number> {
  return new Set(Array.from({ length: chars.length }, (_, index) => chars.charCodeAt(index)));
}

/** A character of a name, a number or a reference (`[A-Za-z0-9_$\\.?]`): a run of them is one word. */
function isWordChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36 || code === 92 || code === 46 || code === 63;
}

/** Whether the word ending at `end` is followed by what only follows a reference (a space, unless a call's `(` comes next). */
function closesReference(body: string, end: number): boolean {
  if (end === body.length) return true;
  const next = body.charCodeAt(end);
  if (AFTER.has(next)) return true;
  if (next !== 32) return false;
  let after = end;
  while (body.charCodeAt(after) === 32) after += 1;
  return body.charCodeAt(after) !== 40;
}

/** The end of a quoted run starting at `start` (`"text"` or `'sheet'`, its quote doubled inside), or -1 when it never closes. */
function quotedEnd(body: string, start: number): number {
  const quote = body.charCodeAt(start);
  for (let at = start + 1; at < body.length; at += 1) {
    if (body.charCodeAt(at) !== quote) continue;
    if (body.charCodeAt(at + 1) !== quote) return at + 1;
    at += 1;
  }
  return -1;
}

/**
 * The shape of `body`; undefined where this reader does not vouch for one (brackets, braces, an unclosed quote). The
 * key is the body with each slot's text replaced by SLOT, so it is built from slices at the slots, not char by char.
 */
export function quickShape(body: string): QuickShape | undefined {
  if (body.includes(SLOT)) return undefined;
  let key = "";
  /** Where the text not yet added to the key starts. */
  let copied = 0;
  const slots: (readonly [number, number])[] = [];
  const cells: CellPosition[] = [];
  let at = 0;
  while (at < body.length) {
    const code = body.charCodeAt(at);
    if (code === 34 || code === 39) {
      const end = quotedEnd(body, at);
      if (end < 0) return undefined;
      at = end;
    } else if (code === 91 || code === 123) {
      return undefined;
    } else if (isWordChar(code)) {
      let end = at + 1;
      while (end < body.length && isWordChar(body.charCodeAt(end))) end += 1;
      // a cell reference ends with a digit: a function's or a name's word is no slot, and needs no parse
      const last = body.charCodeAt(end - 1);
      const cell = last >= 48 && last <= 57 && (at === 0 || BEFORE.has(body.charCodeAt(at - 1))) && closesReference(body, end) ? parseCellAddress(body.slice(at, end)) : undefined;
      if (cell !== undefined) {
        key += body.slice(copied, at) + SLOT;
        copied = end;
        slots.push([at, end]);
        cells.push(cell);
      }
      at = end;
    } else {
      at += 1;
    }
  }
  return { key: copied === 0 ? body : key + body.slice(copied), slots, cells };
}

/**
 * How each reference token (at `tokens`, by position in the body) is made of the shape's slots and text; undefined
 * when a slot lies outside every reference token (the tokenizer read it as something else: no shape is vouched for).
 */
export function templatesOf(shape: QuickShape, body: string, tokens: readonly (readonly [start: number, end: number])[]): Template[] | undefined {
  const used = new Set<number>();
  const templates = tokens.map(([start, end]) => {
    const template: (string | number)[] = [];
    let at = start;
    shape.slots.forEach(([slotStart, slotEnd], index) => {
      if (slotStart < start || slotEnd > end) return;
      if (slotStart > at) template.push(body.slice(at, slotStart));
      template.push(index);
      used.add(index);
      at = slotEnd;
    });
    if (at < end) template.push(body.slice(at, end));
    return template;
  });
  return used.size === shape.slots.length ? templates : undefined;
}

/** A template filled with another formula's slots (one of the same key). */
export function filled(template: Template, shape: QuickShape, body: string): string {
  let text = "";
  for (const piece of template) {
    if (typeof piece === "string") text += piece;
    else {
      const slot = shape.slots[piece];
      if (slot) text += body.slice(slot[0], slot[1]);
    }
  }
  return text;
}
