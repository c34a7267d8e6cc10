/** How workbench cells show values: numbers in Excel's General style, dates for date columns, errors by code. */
import { generalNumber, scalarText } from "../formula/text";
import { serialToIsoDate } from "../formula/excel-dates";
import { isCellError, type CellValue } from "../host/values";
import { canonicalName } from "../formula/functions";
import { type Expression, parseExpression, parseFormula, type FormulaCall } from "../formula/parse";

const DATE_HEADER = /date|month/i;
const MS_PER_DAY = 86_400_000;

/**
 * Excel shows dates through number formats the functions cannot set; the workbench formats a number as a date
 * when its spill column is headed by a date name (HISTORY, FORECAST, CURVE) or its row is named so (INSTRUMENT).
 */
export function isDateCell(header: CellValue, rowName: CellValue): boolean {
  return (typeof header === "string" && DATE_HEADER.test(header)) || (typeof rowName === "string" && DATE_HEADER.test(rowName));
}

/** The date fields of PRICE (argument 3) and INSTRUMENT (argument 2), whose values are serials unless dateFormat is text. */
const DATE_FIELDS: Readonly<Record<string, { field: number; format: number; names: readonly string[] }>> = {
  "PRICES.PRICE": { field: 2, format: 4, names: ["date", "assessmentdate"] },
  "PRICES.INSTRUMENT": { field: 1, format: 2, names: ["launchdate"] },
};

/** Worksheet functions whose result Excel formats as a date by itself. */
const DATE_MAKERS = new Set(["TODAY", "NOW", "DATE"]);

/** `TODAY()`, `DATE(2024,3,1)`, and those plus or minus a number of days (`TODAY()-1`): Excel shows a date. */
function makesDate(expression: Expression): boolean {
  if (expression.kind === "call") return DATE_MAKERS.has(canonicalName(expression.name, "PRICES"));
  if (expression.kind !== "binary" || (expression.operator !== "+" && expression.operator !== "-")) return false;
  const days = (side: Expression): boolean => side.kind === "literal" && typeof side.value === "number";
  return (makesDate(expression.left) && days(expression.right)) || (expression.operator === "+" && days(expression.left) && makesDate(expression.right));
}

/**
 * Whether a formula's values are dates by what it asks (`=PRICES.PRICE(s,,"date")`, `=PRICES.INSTRUMENT(s,"launchDate")`),
 * or as Excel formats `=TODAY()-1` and `=DATE(...)`, where no header names the column: a single value, or a grid of them.
 */
export function formulaShowsDates(formula: string): boolean {
  try {
    if (makesDate(parseExpression(formula))) return true;
  } catch {
    return false;
  }
  let call: FormulaCall;
  try {
    call = parseFormula(formula);
  } catch {
    return false;
  }
  const rule = DATE_FIELDS[call.name.toUpperCase()];
  if (!rule) return false;
  const literal = (index: number): string | undefined => {
    const arg = call.args[index];
    return arg?.kind === "literal" && typeof arg.value === "string" ? arg.value.trim().toLowerCase() : undefined;
  };
  const field = literal(rule.field);
  return field !== undefined && rule.names.includes(field) && literal(rule.format) !== "text";
}

/** HISTORY's date columns by name (the function's own date fields). */
const HISTORY_DATE_FIELDS = new Set(["date", "assessmentdate"]);
const HISTORY_DEFAULT_FIELDS = ["date", "low", "mid", "high"];

/**
 * The columns of a `PRICES.HISTORY` result that hold dates, by its `fields` argument (or the default date, low, mid,
 * high), so a table without a header row still shows its dates as dates; undefined for any other formula, a fields
 * argument that is not a literal, or `dateFormat` "text".
 */
export function dateColumns(formula: string): ReadonlySet<number> | undefined {
  let call: FormulaCall;
  try {
    call = parseFormula(formula);
  } catch {
    return undefined;
  }
  if (call.name.toUpperCase() !== "PRICES.HISTORY") return undefined;
  const fieldsArg = call.args[3];
  const formatArg = call.args[8];
  if (formatArg?.kind === "literal" && typeof formatArg.value === "string" && formatArg.value.trim().toLowerCase() === "text") return undefined;
  let fields = HISTORY_DEFAULT_FIELDS;
  if (fieldsArg !== undefined && fieldsArg.kind !== "missing") {
    if (fieldsArg.kind !== "literal" || typeof fieldsArg.value !== "string") return undefined;
    if (fieldsArg.value.trim() !== "") fields = fieldsArg.value.split(",").map((field) => field.trim());
  }
  const columns = new Set<number>();
  fields.forEach((field, index) => {
    if (HISTORY_DATE_FIELDS.has(field.toLowerCase())) columns.add(index);
  });
  return columns;
}

/** A serial as `YYYY-MM-DD` (with `HH:MM` when it has a time of day), or undefined when it is not a date. */
export function serialText(serial: number): string | undefined {
  if (!Number.isFinite(serial)) return undefined;
  // As Excel shows a date-time: the serial rounded to the millisecond, then cut (not rounded) to the minute, so 23:59:59.136 is 23:59.
  const milliseconds = Math.round(serial * MS_PER_DAY);
  const whole = Math.floor(milliseconds / MS_PER_DAY);
  const day = serialToIsoDate(whole);
  if (day === undefined) return undefined;
  const minutes = Math.floor((milliseconds - whole * MS_PER_DAY) / 60_000);
  if (minutes === 0) return day;
  const hh = String(Math.floor(minutes / 60)).padStart(2, "0");
  const mm = String(minutes % 60).padStart(2, "0");
  return `${day} ${hh}:${mm}`;
}

export function displayText(value: CellValue, asDate = false): string {
  if (value === null) return "";
  if (isCellError(value)) return value.code;
  if (typeof value === "number" && asDate) return serialText(value) ?? generalNumber(value);
  return scalarText(value);
}

/** The full text of an error (`#N/A: unknown or not permitted symbol 'X'`), for tooltips and the status line. */
export function errorText(value: CellValue): string | undefined {
  if (!isCellError(value)) return undefined;
  return value.message ? `${value.code}: ${value.message}` : value.code;
}
