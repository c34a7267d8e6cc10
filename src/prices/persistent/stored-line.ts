/**
 * The stored form of one persistent cache entry: the key id as a JSON string, the service's day it was fetched, when it
 * was stored (epoch ms), a digest of the rest of the line, and the value as JSON, apart by tabs (JSON text never holds a
 * raw tab). Kind and symbol are read back from the id. Opening reads the plain fields before the value without a parser
 * (a JSON head per line was a sixth of the read, profiled); the value and its digest are checked when first read.
 */
import type { KeyKind } from "../types";
import { isCalendarDate } from "../../api/dates";

export const KINDS: Readonly<Record<string, KeyKind>> = { p: "price", h: "history", i: "instrument", l: "instruments", r: "reference" };

/** What opening reads of a line: its key, day fetched, time stored, and where its digest and its value begin. */
export interface LineHead {
  readonly id: string;
  readonly day: string;
  readonly storedAt: number;
  readonly digestAt: number;
  readonly valueAt: number;
}

/**
 * The whole line of an entry, its digest over every other field. ASCII only (format 5): a character past ASCII, which
 * JSON holds only inside a string, is written as its `\u` escape, so that a line's UTF-8 size is its length and a file
 * decodes as Latin-1 (utf8Length was a tenth of opening, the UTF-8 decoding another, profiled).
 */
export function storedLine(id: string, day: string, storedAt: number, valueJson: string): string {
  const head = `${asciiJson(JSON.stringify(id))}\t${day}\t${storedAt}\t`;
  const value = asciiJson(valueJson);
  return `${head}${digest(head, head.length, value, 0)}\t${value}`;
}

// a code unit of 128 or more: a string without one is its own UTF-8 (a search that stops at the first is twice as fast as matching the whole)
const NOT_ASCII = /[^\0-\x7f]/;
const NOT_ASCII_EVERY = /[^\0-\x7f]/g;

/** JSON text with every character past ASCII escaped (the same value to a JSON reader). */
function asciiJson(json: string): string {
  return NOT_ASCII.test(json) ? json.replace(NOT_ASCII_EVERY, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`) : json;
}

/** A line's head, or undefined for a damaged line (then left out). */
export function readHead(line: string): LineHead | undefined {
  const first = line.indexOf("\t");
  const second = first < 0 ? -1 : line.indexOf("\t", first + 1);
  const third = second < 0 ? -1 : line.indexOf("\t", second + 1);
  const fourth = third < 0 ? -1 : line.indexOf("\t", third + 1);
  if (fourth < 0) return undefined;
  const id = readId(line.slice(0, first));
  const day = line.slice(first + 1, second);
  const storedAt = third > second + 1 ? Number(line.slice(second + 1, third)) : Number.NaN;
  if (id === undefined || KINDS[id.slice(0, 1)] === undefined || !isCalendarDate(day) || !Number.isFinite(storedAt)) return undefined;
  return { id, day, storedAt, digestAt: third + 1, valueAt: fourth + 1 };
}

/** The line is as the cache wrote it: an edited value, day or key (by hand, or damage on disk) changes its digest. */
export function digestHolds(line: string, head: Pick<LineHead, "digestAt" | "valueAt">): boolean {
  return line.slice(head.digestAt, head.valueAt - 1) === digest(line, head.digestAt, line, head.valueAt);
}

/** A JSON string: its text between the quotes when it escapes nothing (a key id never needs to), else as JSON reads it. */
function readId(quoted: string): string | undefined {
  if (quoted.length < 2 || !quoted.startsWith('"') || !quoted.endsWith('"')) return undefined;
  if (!quoted.includes("\\")) return quoted.indexOf('"', 1) === quoted.length - 1 ? quoted.slice(1, -1) : undefined;
  try {
    const id: unknown = JSON.parse(quoted);
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A 53-bit digest (cyrb53's mixing) of `a` up to `aEnd` and `b` from `bFrom`, in base 36. It finds a line edited or
 * damaged; it is no signature (whoever can write the file can compute it again), which is why the service, not the
 * file, says what a session may see (entitlement.ts). Synchronous, as the cache's reads are.
 */
function digest(a: string, aEnd: number, b: string, bFrom: number): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  // Two plain loops: a shared closure updating h1 and h2 made the digest 10 times slower than the JSON parse (profiled).
  for (let index = 0; index < aEnd; index += 1) {
    const code = a.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  for (let index = bFrom; index < b.length; index += 1) {
    const code = b.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** The instrument a key id names, upper case; null for a key of no instrument (the instrument list, a reference). */
export function idSymbol(id: string): string | null {
  const kind = KINDS[id.slice(0, 1)];
  if (kind === "instruments" || kind === "reference") return null;
  const end = id.indexOf("|", 2);
  return (end < 0 ? id.slice(2) : id.slice(2, end)).toUpperCase();
}


/** UTF-8 length of a string, without encoding it. */
export function utf8Length(text: string): number {
  if (!NOT_ASCII.test(text)) return text.length;
  let length = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) length += 1;
    else if (code < 0x800) length += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      length += 4;
      index += 1;
    } else length += 3;
  }
  return length;
}
