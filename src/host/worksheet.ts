/**
 * Excel's worksheet functions for the host: @formulajs/formulajs (MIT) implements them; this module passes it
 * Excel's values (ranges as 2-D arrays, errors as its own error objects, blanks as null) and reads its answers back
 * (dates as serials, errors by their text). XLOOKUP and FILTER, which formulajs lacks, are written here; TEXT gets a
 * date for date formats, as formulajs reads serials there as plain numbers.
 */
import * as formulajs from "@formulajs/formulajs";
import { type ArrayValue, type Value, arrayOf, isArray, toGrid } from "./value-array";
import { type CellError, type CellValue, cellError, isCellError, isErrorText } from "./values";

type Implementation = (...args: unknown[]) => unknown;

const LIBRARY = formulajs as unknown as Record<string, unknown>;
const LIBRARY_ERRORS = formulajs.utils.errors as unknown as Record<string, Error>;
const DATE_UTILS = formulajs.utils.date as unknown as { dateToSerial(date: Date): number; serialToDate(serial: number): Date };

/** Arguments formulajs wants as a flat list where Excel passes a range (the holidays of WORKDAY and NETWORKDAYS). */
const FLAT_ARGUMENTS: Readonly<Record<string, number>> = { WORKDAY: 2, NETWORKDAYS: 2 };

/** Functions the host refuses because they would need what it does not have (other sheets, the file, macros). */
const UNSUPPORTED = new Set(["INDIRECT", "OFFSET", "CELL", "INFO", "RTD", "LAMBDA", "LET"]);

export function callWorksheetFunction(name: string, args: readonly (Value | undefined)[]): Value {
  const own = OWN[name];
  if (own) return own(args);
  const implementation = LIBRARY[name];
  if (UNSUPPORTED.has(name) || typeof implementation !== "function" || name === "utils") {
    return cellError("#NAME?", `unknown function ${name}`);
  }
  let result: unknown;
  try {
    const converted = args.map(toLibrary);
    const flat = FLAT_ARGUMENTS[name];
    if (flat !== undefined && Array.isArray(converted[flat])) converted[flat] = (converted[flat] as unknown[]).flat();
    result = (implementation as Implementation)(...converted);
  } catch (error) {
    return cellError("#VALUE!", `${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return fromLibrary(result);
}

function toLibrary(value: Value | undefined): unknown {
  if (value === undefined) return undefined;
  if (isArray(value)) return value.rows.map((row) => row.map(cellToLibrary));
  return cellToLibrary(value);
}

function cellToLibrary(cell: CellValue): unknown {
  if (!isCellError(cell)) return cell;
  return Object.values(LIBRARY_ERRORS).find((error) => error.message === cell.code) ?? LIBRARY_ERRORS.value;
}

function fromLibrary(result: unknown): Value {
  if (Array.isArray(result)) {
    const rows = result.every((row) => Array.isArray(row)) ? (result as unknown[][]) : [result];
    return arrayOf(rows.map((row) => row.map(cellFromLibrary)));
  }
  return cellFromLibrary(result);
}

function cellFromLibrary(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? cellError("#VALUE!") : DATE_UTILS.dateToSerial(value);
  if (value instanceof Error) return isErrorText(value.message) ? cellError(value.message) : cellError("#VALUE!", value.message);
  if (typeof value === "number") return Number.isFinite(value) ? value : cellError("#NUM!");
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return cellError("#CALC!", "nested arrays aren't supported");
  return cellError("#VALUE!");
}

type OwnFunction = (args: readonly (Value | undefined)[]) => Value;

const OWN: Readonly<Record<string, OwnFunction>> = {
  XLOOKUP: xlookup,
  FILTER: filter,
  TEXT: text,
};

function asArray(value: Value | undefined): ArrayValue {
  if (isArray(value)) return value;
  return arrayOf([[value ?? null]]);
}

function scalar(value: Value | undefined, fallback: CellValue): CellValue {
  if (value === undefined) return fallback;
  if (isArray(value)) return value.rows[0]?.[0] ?? null;
  return value;
}

/** XLOOKUP(lookup, lookup_array, return_array, [if_not_found], [match_mode], [search_mode]); wildcards (match_mode 2) are not supported. */
function xlookup(args: readonly (Value | undefined)[]): Value {
  if (args.length < 3 || args.length > 6) return cellError("#VALUE!", `XLOOKUP takes 3 to 6 arguments, got ${args.length}`);
  const wanted = scalar(args[0], null);
  if (isCellError(wanted)) return wanted;
  const lookup = toGrid(asArray(args[1]));
  const returns = toGrid(asArray(args[2]));
  const matchMode = Number(scalar(args[4], 0) ?? 0);
  const searchMode = Number(scalar(args[5], 1) ?? 1);
  if (![0, -1, 1].includes(matchMode)) return cellError("#VALUE!", "XLOOKUP match_mode must be 0, -1 or 1 (wildcards are not supported)");
  const vertical = (lookup[0]?.length ?? 0) === 1;
  if (!vertical && lookup.length !== 1) return cellError("#VALUE!", "XLOOKUP lookup_array must be one row or one column");
  const keys = vertical ? lookup.map((row) => row[0] ?? null) : (lookup[0] ?? []);
  const span = vertical ? returns.length : (returns[0]?.length ?? 0);
  if (span !== keys.length) return cellError("#VALUE!", "XLOOKUP lookup_array and return_array differ in size");
  const order = keys.map((_, index) => index);
  if (searchMode === -1) order.reverse();
  let best: number | undefined;
  for (const index of order) {
    const key = keys[index] ?? null;
    if (isCellError(key)) continue;
    const versus = compareForLookup(key, wanted);
    if (versus === 0) {
      best = index;
      break;
    }
    if (matchMode === -1 && versus < 0 && (best === undefined || compareForLookup(key, keys[best] ?? null) > 0)) best = index;
    if (matchMode === 1 && versus > 0 && (best === undefined || compareForLookup(key, keys[best] ?? null) < 0)) best = index;
  }
  if (best === undefined) return args[3] === undefined ? cellError("#N/A", "XLOOKUP found no match") : (args[3] ?? null);
  const picked = vertical ? [returns[best] ?? []] : returns.map((row) => [row[best] ?? null]);
  return picked.length === 1 && picked[0]?.length === 1 ? (picked[0][0] ?? null) : arrayOf(picked);
}

function compareForLookup(a: CellValue, b: CellValue): number {
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase().localeCompare(b.toLowerCase());
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  return Number.NaN;
}

/** FILTER(array, include, [if_empty]): include is a column as tall as the array, or a row as wide. */
function filter(args: readonly (Value | undefined)[]): Value {
  if (args.length < 2 || args.length > 3) return cellError("#VALUE!", `FILTER takes 2 or 3 arguments, got ${args.length}`);
  const grid = toGrid(asArray(args[0]));
  const include = toGrid(asArray(args[1]));
  const truth = (cell: CellValue): boolean | CellError => {
    if (isCellError(cell)) return cell;
    if (typeof cell === "number") return cell !== 0;
    if (typeof cell === "boolean") return cell;
    return cell === null ? false : cellError("#VALUE!", "FILTER include must hold TRUE/FALSE or numbers");
  };
  let kept: CellValue[][];
  if ((include[0]?.length ?? 0) === 1 && include.length === grid.length) {
    kept = [];
    for (const [index, row] of grid.entries()) {
      const keep = truth(include[index]?.[0] ?? null);
      if (isCellError(keep)) return keep;
      if (keep) kept.push(row);
    }
  } else if (include.length === 1 && (include[0]?.length ?? 0) === (grid[0]?.length ?? 0)) {
    const columns: number[] = [];
    for (const [index, cell] of (include[0] ?? []).entries()) {
      const keep = truth(cell);
      if (isCellError(keep)) return keep;
      if (keep) columns.push(index);
    }
    kept = columns.length === 0 ? [] : grid.map((row) => columns.map((col) => row[col] ?? null));
  } else {
    return cellError("#VALUE!", "FILTER include must be a column as tall as the array or a row as wide");
  }
  if (kept.length === 0) return args[2] === undefined ? cellError("#CALC!", "FILTER kept nothing") : (args[2] ?? null);
  return arrayOf(kept);
}

/** TEXT(value, format): dates formatted from their serial. */
function text(args: readonly (Value | undefined)[]): Value {
  if (args.length !== 2) return cellError("#VALUE!", `TEXT takes 2 arguments, got ${args.length}`);
  const format = scalar(args[1], "");
  const implementation = LIBRARY.TEXT as Implementation;
  const isDateFormat = typeof format === "string" && /[yd]|h|s/i.test(format.replace(/"[^"]*"/g, ""));
  const one = (cell: CellValue): CellValue => {
    if (isCellError(cell)) return cell;
    const input = isDateFormat && typeof cell === "number" ? DATE_UTILS.serialToDate(cell) : cell;
    return cellFromLibrary(implementation(input, format));
  };
  const value = args[0];
  if (isArray(value)) return arrayOf(value.rows.map((row) => row.map(one)));
  return one(value ?? null);
}
