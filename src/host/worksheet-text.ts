/**
 * Text functions, TEXT with Excel's number-format codes (numfmt, MIT, reads them as Excel does; it knows only the
 * 1900 system, so a 1904 serial is moved to its 1900 twin for a date format), and the text-searching family.
 */
import { format, isDateFormat } from "numfmt";
import { toNumber, toText } from "./coerce";
import { LeftForExcelSignal } from "./left-for-excel";
import { wildcardPattern } from "./worksheet-lookup";
import { type Arg, type FunctionSpec, bool, cellsOf, num, scalarOf, spec, str } from "./worksheet-spec";
import type { Value } from "./value-array";
import { cellError, isCellError } from "./values";

/** The most characters a text value holds in Excel. */
const MAX_TEXT = 32_767;

/** Days between 1900-01-01 in the 1900 system and in the 1904 system. */
const DAYS_1904 = 1462;

/** Whether a number format is written with a locale's separators (`#.##0,00`, `#.##0`): its meaning depends on the Excel computing it. */
function localeSeparators(pattern: string): boolean {
  const bare = pattern.replace(/"[^"]*"|\\./g, "");
  return /[#0?]\.[#0?]*,[#0?]/.test(bare) || /[#0]\.##0(?![#0?])/.test(bare);
}

const text = spec("st", (args, env) => {
  const pattern = str(args[1]);
  const value = scalarOf(args[0]);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  const number = value === null ? 0 : typeof value === "number" ? value : toNumber(value, env.dateSystem);
  // text that is not a number goes through the format's text section
  const input = isCellError(number) ? str(value) : number;
  if (localeSeparators(pattern)) throw new LeftForExcelSignal(`TEXT's format ${JSON.stringify(pattern)} uses a locale's separators ("." grouping, "," decimals): its text depends on the Excel that computes it`);
  let date: boolean;
  try {
    date = isDateFormat(pattern);
  } catch {
    return cellError("#VALUE!", `TEXT cannot read the format ${JSON.stringify(pattern)}`);
  }
  if (date && typeof input === "number" && (input < 0 || input >= 2_958_466)) return cellError("#VALUE!", "not a date serial");
  const shifted = date && typeof input === "number" && env.dateSystem === "1904" ? input + DAYS_1904 : input;
  try {
    const shown = format(pattern, shifted, { throws: true, dateErrorThrows: true, dateSpanLarge: false });
    // numfmt writes 21 digits or more as 1.23456e+21 where the format asks for none: Excel writes every digit
    if (/\de[+-]\d/.test(shown) && !/e[+-]/i.test(pattern.replace(/"[^"]*"|\\./g, ""))) throw new LeftForExcelSignal(`TEXT's format ${JSON.stringify(pattern)} shows 21 digits or more of ${String(shifted)}, which the engine writes only with an exponent`);
    return shown;
  } catch (error) {
    if (error instanceof LeftForExcelSignal) throw error;
    return cellError("#VALUE!", `TEXT cannot format with ${JSON.stringify(pattern)}`);
  }
});

function count(value: Arg, fallback: number): number | undefined {
  const n = value === undefined ? fallback : Math.trunc(num(value));
  return n < 0 ? undefined : n;
}

const left = spec(
  "tn",
  (args) => {
    const n = count(args[1], 1);
    return n === undefined ? cellError("#VALUE!", "a negative count") : str(args[0]).slice(0, n);
  },
  1,
);

const right = spec(
  "tn",
  (args) => {
    const n = count(args[1], 1);
    const value = str(args[0]);
    return n === undefined ? cellError("#VALUE!", "a negative count") : n === 0 ? "" : value.slice(Math.max(0, value.length - n));
  },
  1,
);

const mid = spec("tnn", (args) => {
  const start = Math.trunc(num(args[1]));
  const n = Math.trunc(num(args[2]));
  if (start < 1 || n < 0) return cellError("#VALUE!", "MID starts at 1 and takes a count of 0 or more");
  return str(args[0]).slice(start - 1, start - 1 + n);
});

/** SEARCH's pattern: a `~` before anything but `*`, `?` or `~`, or at the end, is dropped (SEARCH("~d", "My dear") is 4). */
function searchPattern(wanted: string): string {
  let kept = "";
  for (let index = 0; index < wanted.length; index += 1) {
    const char = wanted[index] ?? "";
    const next = wanted[index + 1];
    if (char !== "~") kept += char;
    else if (next === "*" || next === "?" || next === "~") {
      kept += `~${next}`;
      index += 1;
    }
  }
  return kept;
}

function find(caseless: boolean): FunctionSpec {
  return spec(
    "ttn",
    (args) => {
      const wanted = str(args[0]);
      const within = str(args[1]);
      const start = args[2] === undefined ? 1 : Math.trunc(num(args[2]));
      if (start < 1 || start > within.length + 1) return cellError("#VALUE!", "the start is outside the text");
      if (!caseless) {
        const at = within.indexOf(wanted, start - 1);
        return at < 0 ? cellError("#VALUE!", `${JSON.stringify(wanted)} not found`) : at + 1;
      }
      const pattern = wildcardPattern(searchPattern(wanted)).source.slice(1, -1);
      const found = new RegExp(pattern, "i").exec(within.slice(start - 1));
      return found ? found.index + start : cellError("#VALUE!", `${JSON.stringify(wanted)} not found`);
    },
    2,
  );
}

const substitute = spec(
  "tttn",
  (args) => {
    const source = str(args[0]);
    const old = str(args[1]);
    const replacement = str(args[2]);
    if (old === "") return source;
    if (args[3] === undefined) return source.split(old).join(replacement);
    const instance = Math.trunc(num(args[3]));
    if (instance < 1) return cellError("#VALUE!", "the instance is 1 or more");
    let at = -1;
    for (let seen = 0; seen < instance; seen += 1) {
      at = source.indexOf(old, at + 1);
      if (at < 0) return source;
    }
    return source.slice(0, at) + replacement + source.slice(at + old.length);
  },
  3,
);

const replace = spec("tnnt", (args) => {
  const source = str(args[0]);
  const start = Math.trunc(num(args[1]));
  const n = Math.trunc(num(args[2]));
  if (start < 1 || n < 0) return cellError("#VALUE!", "REPLACE starts at 1 and takes a count of 0 or more");
  return source.slice(0, start - 1) + str(args[3]) + source.slice(start - 1 + n);
});

/** The texts of CONCAT and TEXTJOIN: every cell of every argument, errors first. */
function texts(args: readonly Arg[], skipEmpty: boolean): string[] | Value {
  const out: string[] = [];
  for (const cell of args.flatMap(cellsOf)) {
    const value = toText(cell);
    if (isCellError(value)) return value;
    if (!skipEmpty || value !== "") out.push(value);
  }
  return out;
}

const concat = spec(
  "v",
  (args) => {
    const parts = texts(args, false);
    return Array.isArray(parts) ? parts.join("") : parts;
  },
  1,
  true,
);

const textjoin = spec(
  "tbv",
  (args) => {
    const parts = texts(args.slice(2), bool(args[1]));
    return Array.isArray(parts) ? parts.join(str(args[0])) : parts;
  },
  3,
  true,
);

function proper(value: string): string {
  return value.toLowerCase().replace(/(^|[^a-z])([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase());
}

export const TEXT_FUNCTIONS: Readonly<Record<string, FunctionSpec>> = {
  TEXT: text,
  LEN: spec("t", (args) => str(args[0]).length),
  LEFT: left,
  RIGHT: right,
  MID: mid,
  UPPER: spec("t", (args) => str(args[0]).toUpperCase()),
  LOWER: spec("t", (args) => str(args[0]).toLowerCase()),
  PROPER: spec("t", (args) => proper(str(args[0]))),
  TRIM: spec("t", (args) => str(args[0]).replace(/ +/g, " ").trim()),
  FIND: find(false),
  SEARCH: find(true),
  SUBSTITUTE: substitute,
  REPLACE: replace,
  REPT: spec("tn", (args) => {
    const count = Math.trunc(num(args[1]));
    if (num(args[1]) < 0) return cellError("#VALUE!", "a negative count");
    // Excel's text holds at most 32,767 characters
    return str(args[0]).length * count > MAX_TEXT ? cellError("#VALUE!", "REPT's text would pass 32,767 characters") : str(args[0]).repeat(count);
  }),
  EXACT: spec("tt", (args) => str(args[0]) === str(args[1])),
  CONCATENATE: spec("t", (args) => args.map((arg) => str(arg)).join(""), 1, true),
  CONCAT: concat,
  TEXTJOIN: textjoin,
  VALUE: spec("s", (args, env) => {
    const value = scalarOf(args[0]);
    if (value === "") return cellError("#VALUE!", "VALUE of empty text");
    return typeof value === "boolean" ? cellError("#VALUE!", "VALUE reads text or a number") : toNumber(value, env.dateSystem);
  }),
  T: spec("e", (args) => (typeof args[0] === "string" || isCellError(args[0]) ? args[0] : "")),
  CHAR: spec("n", (args) => {
    const code = Math.trunc(num(args[0]));
    if (code < 1 || code > 255) return cellError("#VALUE!", "CHAR takes 1 to 255");
    // past ASCII the character is the code page's of the computer running Excel (Windows-1252, Mac Roman)
    if (code > 127) throw new LeftForExcelSignal(`CHAR(${code}) depends on the character set of the computer running Excel`);
    return String.fromCharCode(code);
  }),
  CODE: spec("t", (args) => (str(args[0]) === "" ? cellError("#VALUE!", "CODE of empty text") : str(args[0]).charCodeAt(0))),
};
