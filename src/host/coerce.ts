/**
 * Excel's conversions between cell values, the one place the host coerces: text to number (decimal, thousands,
 * percent, ISO dates and times; never `0x10`), number to text (15 significant digits), truth values, and the
 * comparison order with equality at 15 significant digits (`0.1+0.2=0.3` is TRUE).
 */
import { parseIsoDate } from "../api/dates";
import { type DateSystem, isoDateToSerial } from "../formula/excel-dates";
import { LeftForExcelSignal } from "./left-for-excel";
import { type CellError, type CellValue, cellError, isCellError } from "./values";

/** A decimal as Excel reads typed text: optional sign, thousands groups, fraction, exponent, a trailing %. */
const DECIMAL = /^([+-])?\$?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?(%)?$/;
const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
/** Dates as en-US Excel reads typed text: `June 9, 1969`, `Jun 9 1969`, `9 June 1969`, `9-Jun-1969`, `6/9/1969`, `2006/1/2`. */
const MONTH_FIRST = /^([a-z]{3,9})\.?[\s-]+(\d{1,2}),?[\s-]+(\d{2}|\d{4})$/i;
const DAY_FIRST = /^(\d{1,2})[\s-]+([a-z]{3,9})\.?,?[\s-]+(\d{2}|\d{4})$/i;
const SLASHED = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/;
const YEAR_FIRST = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?\s*(AM|PM)?$/i;

/** Text that reads as a number with another locale's currency, or as a day-first date with dashes. */
const LOCALE_NUMBER = /^(?:[€£¥]\s?[+-]?[\d.,]+|[+-]?[\d.,]+\s?[€£¥]|\d{1,2}[-.]\d{1,2}[-.](?:\d{2}|\d{4}))$/;

/** Text Excel reads as a number, or undefined. */
export function textToNumber(text: string, system: DateSystem = "1900"): number | undefined {
  const trimmed = text.trim();
  const decimal = DECIMAL.exec(trimmed);
  if (decimal) {
    const magnitude = Number(`${(decimal[2] ?? "").replace(/,/g, "")}${decimal[3] === undefined ? "" : `e${decimal[3]}`}`);
    const signed = decimal[1] === "-" ? -magnitude : magnitude;
    const value = decimal[4] === undefined ? signed : signed / 100;
    return Number.isFinite(value) ? value : undefined;
  }
  // a date or time with spaces around it is text to Excel (" 2024-01-10 " is #VALUE!), a number is not
  if (trimmed !== text) return undefined;
  const day = dateSerial(trimmed, system);
  if (day !== undefined) return day;
  // a date and a time of day: "2024-02-29 06:00"
  const dated = DATE_THEN_TIME.exec(trimmed);
  const datePart = dated ? dateSerial(dated[1] ?? "", system) : undefined;
  const timePart = dated && datePart !== undefined ? textToNumber(dated[2] ?? "", system) : undefined;
  if (datePart !== undefined && timePart !== undefined) return datePart + timePart;
  const time = TIME.exec(trimmed);
  if (time) {
    let hours = Number(time[1]);
    const meridiem = time[4]?.toUpperCase();
    if (meridiem !== undefined && (hours < 1 || hours > 12)) return undefined;
    if (meridiem === "AM" && hours === 12) hours = 0;
    if (meridiem === "PM" && hours !== 12) hours += 12;
    const seconds = hours * 3600 + Number(time[2]) * 60 + Number(time[3] ?? 0);
    return Number(time[2]) < 60 && Number(time[3] ?? 0) < 60 ? seconds / 86_400 : undefined;
  }
  return undefined;
}

/** A date with a time of day after it. */
const DATE_THEN_TIME = /^(.*\S)\s+(\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:AM|PM)?)$/i;

/** The serial of a date written as Excel reads typed dates (ISO or en-US), 29 February 1900 included in the 1900 system. */
function dateSerial(text: string, system: DateSystem): number | undefined {
  const iso = parseIsoDate(text);
  if (iso !== undefined) return isoDateToSerial(iso, system);
  const date = typedDate(text);
  if (date === FICTITIOUS_LEAP_DAY) return system === "1900" ? 60 : undefined;
  return date === undefined ? undefined : isoDateToSerial(date, system);
}

/** The day the 1900 system counts (serial 60) that no calendar has. */
const FICTITIOUS_LEAP_DAY = "1900-02-29";

function monthNumber(name: string): number | undefined {
  const lower = name.toLowerCase();
  // a full name or its first three letters ("Sept" too), nothing else
  const index = MONTHS.findIndex((month) => month === lower || month.slice(0, 3) === lower || (lower === "sept" && month === "september"));
  return index < 0 ? undefined : index + 1;
}

/** The ISO date of an en-US typed date, or undefined; a two-digit year is 1930-2029 as Excel reads it. */
function typedDate(text: string): string | undefined {
  let parts: [number | undefined, number, string] | undefined;
  const monthFirst = MONTH_FIRST.exec(text);
  const dayFirst = DAY_FIRST.exec(text);
  const slashed = SLASHED.exec(text);
  const yearFirst = YEAR_FIRST.exec(text);
  if (monthFirst) parts = [monthNumber(monthFirst[1] ?? ""), Number(monthFirst[2]), monthFirst[3] ?? ""];
  else if (dayFirst) parts = [monthNumber(dayFirst[2] ?? ""), Number(dayFirst[1]), dayFirst[3] ?? ""];
  else if (slashed) parts = [Number(slashed[1]), Number(slashed[2]), slashed[3] ?? ""];
  else if (yearFirst) parts = [Number(yearFirst[2]), Number(yearFirst[3]), yearFirst[1] ?? ""];
  if (!parts) return undefined;
  const [month, day, yearText] = parts;
  const short = Number(yearText);
  const year = yearText.length === 2 ? (short < 30 ? 2000 + short : 1900 + short) : short;
  if (month === undefined || month < 1 || month > 12 || year < 1900 || day < 1) return undefined;
  const iso = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return iso === FICTITIOUS_LEAP_DAY ? iso : parseIsoDate(iso);
}

/**
 * Whether text reads as a date whose day and month an Excel of a day-first locale takes the other way round
 * ("2/3/2023": 3 February to an en-US Excel, 2 March to an en-GB one; "13/2/2023" a date only to the latter).
 */
export function slashedDateDependsOnLocale(text: string): boolean {
  const slashed = SLASHED.exec(text.trim());
  if (!slashed) return false;
  const [first, second] = [Number(slashed[1]), Number(slashed[2])];
  const valid = (month: number, day: number): boolean => month >= 1 && month <= 12 && day >= 1 && day <= (LONGEST_MONTHS[month - 1] ?? 0);
  return first !== second && (valid(first, second) || valid(second, first));
}

/** The most days of each month (February's in a leap year). */
const LONGEST_MONTHS: readonly number[] = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Leaves the formula for Excel where text is a date only the file's locale, which the engine cannot see, settles. */
export function leaveLocaleDates(text: string): void {
  if (slashedDateDependsOnLocale(text)) throw new LeftForExcelSignal(`${JSON.stringify(text)} is a different date (or none) in a day-first locale, which the engine cannot see`);
}

/** Excel's number coercion of one value: blank 0, TRUE 1, numeric text its number; other text #VALUE!. */
export function toNumber(value: CellValue, system: DateSystem = "1900"): number | CellError {
  if (isCellError(value)) return value;
  if (value === null) return 0;
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  leaveLocaleDates(value);
  const number = textToNumber(value, system);
  if (number !== undefined) return number;
  // "€100", "23 €", "10-12-1999": a number or a date to an Excel of some locale, text to another
  if (LOCALE_NUMBER.test(value.trim())) throw new LeftForExcelSignal(`${JSON.stringify(value)} reads as a number only in some of Excel's locales`);
  return cellError("#VALUE!", `expected a number, got ${JSON.stringify(value)}`);
}

/** A number as a formula turns it into text (`=1/3&""`): up to 15 significant digits, no trailing zeros. */
export function numberText(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
  const text = String(Number(value.toPrecision(15)));
  // JavaScript writes 1e21 and 1e-7; Excel writes 1E+21 and 1E-07
  return text.replace(/e([+-])(\d)$/, "E$10$2").replace(/e/, "E");
}

export function toText(value: CellValue): string | CellError {
  if (isCellError(value)) return value;
  if (value === null) return "";
  if (typeof value === "number") return numberText(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return value;
}

export function toBoolean(value: CellValue): boolean | CellError {
  if (isCellError(value)) return value;
  if (value === null) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (/^true$/i.test(value.trim())) return true;
  if (/^false$/i.test(value.trim())) return false;
  return cellError("#VALUE!", `expected TRUE or FALSE, got ${JSON.stringify(value)}`);
}

/** A number rounded to the 15 significant digits Excel keeps, so sums that differ past them compare equal. */
export function significant(value: number): number {
  return value === 0 || !Number.isFinite(value) ? value : Number(value.toPrecision(15));
}

/** Excel's comparison of two numbers (the proof's, src/host/proof.ts): equal at 15 significant digits, or within 1E-15 of each other relatively. */
export function sameNumber(a: number, b: number): boolean {
  return significant(a) === significant(b) || Math.abs(a - b) <= 1e-15 * Math.max(Math.abs(a), Math.abs(b));
}

/** Excel's order: numbers < text (without case) < FALSE < TRUE; a blank compares as 0, "" or FALSE. */
/** Whether an order from `compare` satisfies a comparison operator (`=`, `<>`, `<`, `>`, `<=`, `>=`). */
export function compareWith(operator: string, order: number): boolean {
  switch (operator) {
    case "=":
      return order === 0;
    case "<>":
      return order !== 0;
    case "<":
      return order < 0;
    case ">":
      return order > 0;
    case "<=":
      return order <= 0;
    default:
      return order >= 0;
  }
}

export function compare(left: CellValue, right: CellValue): number {
  const rank = (value: CellValue): number => (typeof value === "number" ? 0 : typeof value === "string" ? 1 : 2);
  const a = left === null ? blankLike(right) : left;
  const b = right === null ? blankLike(left) : right;
  if (isCellError(a) || isCellError(b)) return 0;
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === "string" && typeof b === "string") {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === "number" && typeof b === "number") return significant(a) - significant(b);
  return Number(a) - Number(b);
}

function blankLike(other: CellValue): CellValue {
  if (typeof other === "string") return "";
  if (typeof other === "boolean") return false;
  return 0;
}
