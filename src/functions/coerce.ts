/**
 * Arguments as Excel passes them (numbers, text, booleans, null or undefined for omitted optional
 * arguments, two-dimensional arrays for ranges) read into the values the functions work with.
 * Every refusal is an ArgumentError whose message says what to fix.
 */
import { parseIsoDate } from "../api/dates";
import { ArgumentError } from "./errors";
import { serialToIsoDate, type DateSystem } from "../formula/excel-dates";

export type Matrix = readonly (readonly unknown[])[];

/** More cells than this in one argument or one result is refused with #VALUE!. */
export const MAX_CELLS = 100_000;

export function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === "string" && value.trim() === "");
}

/** How a value is quoted in messages: text in quotes, booleans as Excel writes them. */
export function show(value: unknown): string {
  if (typeof value === "string") return `'${value.length > 40 ? `${value.slice(0, 40)}...` : value}'`;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number") return String(value);
  if (value === null || value === undefined) return "a blank";
  if (Array.isArray(value)) return "a range";
  return "a value of an unsupported kind";
}

export function formatCount(count: number): string {
  return count.toLocaleString("en-US");
}

/** A scalar becomes a 1 x 1 matrix; a ragged or oversized range is refused. */
export function toMatrix(value: unknown, name: string): Matrix {
  if (!Array.isArray(value)) return [[value]];
  if (value.length === 0) return [[null]];
  const rows: unknown[][] = [];
  let cells = 0;
  const allRows = value.every((row) => Array.isArray(row));
  // A one-dimensional array (not what Excel sends, but cheap to accept) is one row.
  const source: unknown[][] = allRows ? (value as unknown[][]) : [value as unknown[]];
  const width = source[0]?.length ?? 0;
  for (const row of source) {
    if (row.length !== width || width === 0) throw new ArgumentError(`${name} must be a rectangular range`);
    cells += row.length;
    if (cells > MAX_CELLS) {
      throw new ArgumentError(
        `${name} has ${formatCount(source.length * width)} cells; the limit is ${formatCount(MAX_CELLS)}`,
      );
    }
    rows.push(row);
  }
  return rows;
}

export function isSingleCell(matrix: Matrix): boolean {
  return matrix.length === 1 && matrix[0]?.length === 1;
}

export function flatten(matrix: Matrix): unknown[] {
  const out: unknown[] = [];
  for (const row of matrix) for (const cell of row) out.push(cell);
  return out;
}

/** One value: a 1 x 1 range is unwrapped, a bigger one refused. */
export function scalar(value: unknown, name: string): unknown {
  if (!Array.isArray(value)) return value;
  const matrix = toMatrix(value, name);
  if (!isSingleCell(matrix)) {
    throw new ArgumentError(`${name} must be one value, got a range of ${matrix.length} x ${matrix[0]?.length ?? 0}`);
  }
  return matrix[0]?.[0];
}

/** Text, or undefined when blank; numbers are read as their text (Excel may pass `2024` for a typed id). */
export function optionalText(value: unknown, name: string): string | undefined {
  const single = scalar(value, name);
  if (isBlank(single)) return undefined;
  if (typeof single === "string") return single.trim();
  if (typeof single === "number" && Number.isFinite(single)) return String(single);
  throw new ArgumentError(`${name} must be text, got ${show(single)}`);
}

/** One instrument symbol, or undefined for a blank cell. */
export function symbolOf(value: unknown, name = "symbol"): string | undefined {
  if (isBlank(value)) return undefined;
  if (typeof value === "string") return value.trim();
  throw new ArgumentError(`${name} must be an instrument symbol such as 'MB-AL-0004', got ${show(value)}`);
}

export function requiredSymbol(value: unknown, name = "symbol"): string {
  const symbol = symbolOf(scalar(value, name), name);
  if (symbol === undefined) throw new ArgumentError(`${name} is required: give an instrument symbol such as 'MB-AL-0004'`);
  return symbol;
}

/**
 * A date from a cell: an Excel serial, `YYYY-MM-DD` text (or `2024-3-1`), or blank / "latest" which
 * give undefined (the latest assessment).
 */
export function dateOf(value: unknown, name = "date", system: DateSystem = "1900"): string | undefined {
  if (isBlank(value)) return undefined;
  const wrong = (): ArgumentError => new ArgumentError(`${name} must be a date or YYYY-MM-DD, got ${show(value)}`);
  if (typeof value === "number") {
    const iso = serialToIsoDate(value, system);
    if (iso === undefined) throw wrong();
    return iso;
  }
  if (typeof value === "string") {
    // a model's header row gives its 50 dates to 10,000 calls: each text read once
    const known = ISO_OF_TEXT.get(value);
    if (known !== undefined) return known;
    const text = value.trim();
    if (text.toLowerCase() === "latest") return undefined;
    const iso = parseIsoDate(text);
    if (iso === undefined) throw wrong();
    if (ISO_OF_TEXT.size >= MAX_KNOWN_DATE_TEXTS) ISO_OF_TEXT.clear();
    ISO_OF_TEXT.set(value, iso);
    return iso;
  }
  throw wrong();
}

/** Date texts already read, and their `YYYY-MM-DD` (only good ones: a bad one throws its message each time). */
const ISO_OF_TEXT = new Map<string, string>();
const MAX_KNOWN_DATE_TEXTS = 4096;

export function requiredDate(value: unknown, name: string, system: DateSystem = "1900"): string {
  const single = scalar(value, name);
  const iso = dateOf(single, name, system);
  if (iso === undefined) {
    if (isBlank(single)) throw new ArgumentError(`${name} is required: give a date or YYYY-MM-DD`);
    throw new ArgumentError(`${name} must be a date or YYYY-MM-DD, got ${show(single)}`);
  }
  return iso;
}

export interface Choice<T> {
  value: T;
  /** Accepted spellings besides the value itself, compared without case, blanks or underscores. */
  aliases?: readonly string[];
}

/** A name as compared with another: without case, blanks, underscores or hyphens. */
export function squash(text: string): string {
  return text.toLowerCase().replace(/[\s_-]+/g, "");
}

/** One of a fixed set of options, matched without regard to case; blank gives the default. */
export function choiceOf<T extends string | number>(
  value: unknown,
  name: string,
  choices: readonly Choice<T>[],
  fallback: T,
): T {
  const single = scalar(value, name);
  if (isBlank(single)) return fallback;
  const given = typeof single === "string" || typeof single === "number" ? squash(String(single)) : undefined;
  if (given !== undefined) {
    for (const choice of choices) {
      if (squash(String(choice.value)) === given) return choice.value;
      if (choice.aliases?.some((alias) => squash(alias) === given)) return choice.value;
    }
  }
  const names = choices.map((choice) => String(choice.value)).join(", ");
  throw new ArgumentError(`${name} must be one of ${names}; got ${show(single)}`);
}

/** A list of names: comma- or semicolon-separated text, or a range of texts (blank cells skipped). */
export function nameList(value: unknown, name: string): string[] | undefined {
  const cells = flatten(toMatrix(value, name));
  const names: string[] = [];
  for (const cell of cells) {
    if (isBlank(cell)) continue;
    if (typeof cell !== "string") throw new ArgumentError(`${name} must be names as text, got ${show(cell)}`);
    for (const part of cell.split(/[,;]/)) {
      const trimmed = part.trim();
      if (trimmed !== "") names.push(trimmed);
    }
  }
  return names.length > 0 ? names : undefined;
}

export type HeaderMode = 0 | 1 | 2;

/** 0 no headers, 1 field names, 2 the symbol above the field names; TRUE/FALSE read as 1/0. */
export function headersOf(value: unknown, fallback: HeaderMode = 1): HeaderMode {
  const single = scalar(value, "headers");
  if (isBlank(single)) return fallback;
  if (typeof single === "boolean") return single ? 1 : 0;
  const number = typeof single === "string" ? Number(single.trim()) : single;
  if (number === 0 || number === 1 || number === 2) return number;
  throw new ArgumentError(`headers must be 0 (none), 1 (names) or 2 (symbol and names), got ${show(single)}`);
}

export type DateFormat = "serial" | "text";

export function dateFormatOf(value: unknown): DateFormat {
  return choiceOf<DateFormat>(
    value,
    "dateFormat",
    [
      { value: "serial", aliases: ["number", "date", "0"] },
      { value: "text", aliases: ["iso", "string", "1"] },
    ],
    "serial",
  );
}
