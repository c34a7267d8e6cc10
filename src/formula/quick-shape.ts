/**
 * A formula's shape read straight off its text, before any tokenizer: `C3/B3-1` and `C4/B4-1` are one key,
 * `\u0001/\u0001-1`, with the cell references `C3`, `B3` as its open slots. Only a cell reference the tokenizer can
 * read as nothing else is opened: `$A$2` between operators, commas, parentheses or a sheet's `!`, never a function's
 * name (`LOG10(`), a sheet's name (`Q1!`), a part of a name or number (`1E5`, `A1.B`) or text in quotes. So two
 * formulas with one key tokenize alike, and differ only in those references (parse.ts `shapeParser` keeps, per key,
 * how each reference token of the first is made of slots and text, and checks that it is).
 */
import { parseCellAddress } from "./a1";

/** Where each open slot lies in the formula's body (the text after `=`). */
export interface QuickShape {
  readonly key: string;
  readonly slots: readonly (readonly [start: number, end: number])[];
}

/** What a reference token is made of: text kept as is, and slot numbers. */
export type Template = readonly (string | number)[];

const SLOT = "\u0001";
/** Characters of a name, a number or a reference: a run of them is one word. */
const WORD = /[A-Za-z0-9_$\\.?]/;
const BEFORE = new Set(["(", "=", "+", "-", "*", "/", "^", "&", "<", ">", ",", ";", ":", "!", " "]);
const AFTER = new Set(["+", "-", "*", "/", "^", "&", "=", "<", ">", ",", ";", ")", ":", "%"]);

/** Whether the word ending at `end` is followed by what only follows a reference (a space, unless a call's `(` comes next). */
function closesReference(body: string, end: number): boolean {
  if (end === body.length) return true;
  const next = body.charAt(end);
  if (AFTER.has(next)) return true;
  if (next !== " ") return false;
  let after = end;
  while (body.charAt(after) === " ") after += 1;
  return body.charAt(after) !== "(";
}

/** The end of a quoted run starting at `start` (`"text"` or `'sheet'`, its quote doubled inside), or -1 when it never closes. */
function quotedEnd(body: string, start: number): number {
  const quote = body.charAt(start);
  for (let at = start + 1; at < body.length; at += 1) {
    if (body.charAt(at) !== quote) continue;
    if (body.charAt(at + 1) !== quote) return at + 1;
    at += 1;
  }
  return -1;
}

/** The shape of `body`; undefined where this reader does not vouch for one (brackets, braces, an unclosed quote). */
export function quickShape(body: string): QuickShape | undefined {
  if (body.includes(SLOT)) return undefined;
  let key = "";
  const slots: (readonly [number, number])[] = [];
  let at = 0;
  while (at < body.length) {
    const char = body.charAt(at);
    if (char === '"' || char === "'") {
      const end = quotedEnd(body, at);
      if (end < 0) return undefined;
      key += body.slice(at, end);
      at = end;
    } else if (char === "[" || char === "{") {
      return undefined;
    } else if (WORD.test(char)) {
      let end = at + 1;
      while (end < body.length && WORD.test(body.charAt(end))) end += 1;
      const word = body.slice(at, end);
      if (parseCellAddress(word) !== undefined && (at === 0 || BEFORE.has(body.charAt(at - 1))) && closesReference(body, end)) {
        key += SLOT;
        slots.push([at, end]);
      } else {
        key += word;
      }
      at = end;
    } else {
      key += char;
      at += 1;
    }
  }
  return { key, slots };
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
