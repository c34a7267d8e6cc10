/**
 * Date and time functions in the book's date system (1900 with its fictitious 29 February, or 1904), computed on
 * the calendar in UTC so neither the machine's time zone nor dates before 1970 shift a day.
 */
import { type DateSystem, isoDateToSerial, serialToIsoDate } from "../formula/excel-dates";
import { formatIsoDate, daysInMonth } from "../api/dates";
import { leaveLocaleDates, textToNumber } from "./coerce";
import { type Arg, type FunctionSpec, type WorksheetEnv, asArray, cellsOf, num, spec, str } from "./worksheet-spec";
import type { Value } from "./value-array";
import { type CellValue, cellError, isCellError } from "./values";

interface CalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/** The calendar date of a serial, with 1900's serial 60 as 1900-02-29 and 0 as 1900-01-00, as Excel shows them. */
export function calendarOf(serial: number, system: DateSystem): CalendarDate | undefined {
  const whole = Math.floor(serial);
  if (system === "1900" && whole === 60) return { year: 1900, month: 2, day: 29 };
  if (system === "1900" && whole === 0) return { year: 1900, month: 1, day: 0 };
  const iso = serialToIsoDate(whole, system);
  if (iso === undefined) return undefined;
  const [year, month, day] = iso.split("-").map(Number);
  return { year: year ?? 0, month: month ?? 0, day: day ?? 0 };
}

/** DATE's arithmetic: months and days past their ends roll over; years 0-1899 count from 1900. */
export function serialOf(year: number, month: number, day: number, system: DateSystem): number | undefined {
  let y = Math.trunc(year);
  if (y < 0 || y > 9999) return undefined;
  if (y < 1900) y += 1900;
  const months = y * 12 + Math.trunc(month) - 1;
  const firstYear = Math.floor(months / 12);
  const firstMonth = months - firstYear * 12 + 1;
  if (firstYear < 1900 || firstYear > 9999) return undefined;
  const serial = isoDateToSerial(formatIsoDate(firstYear, firstMonth, 1), system) + Math.trunc(day) - 1;
  return serial < 0 ? undefined : serial;
}

function dateArg(value: number, system: DateSystem): CalendarDate | undefined {
  return value < 0 ? undefined : calendarOf(value, system);
}

function part(pick: (date: CalendarDate) => number): FunctionSpec {
  return spec("n", (args, env) => {
    const date = dateArg(num(args[0]), env.dateSystem);
    return date ? pick(date) : cellError("#NUM!", "not a date serial");
  });
}

function timePart(unit: "hour" | "minute" | "second"): FunctionSpec {
  return spec("n", (args) => {
    const value = num(args[0]);
    if (value < 0) return cellError("#NUM!", "a negative time");
    const seconds = Math.round((value - Math.floor(value)) * 86_400) % 86_400;
    if (unit === "hour") return Math.floor(seconds / 3600);
    if (unit === "minute") return Math.floor((seconds % 3600) / 60);
    return seconds % 60;
  });
}

/** Day of the week, 0 Sunday .. 6 Saturday. */
export function dayOfWeek(serial: number, system: DateSystem): number | undefined {
  const date = calendarOf(serial, system);
  if (!date) return undefined;
  if (system === "1900" && Math.floor(serial) <= 60) return ((Math.floor(serial) % 7) + 6) % 7;
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
}

const WEEKDAY_START: Readonly<Record<number, [number, number]>> = {
  // return type -> [weekday numbered 1 (0 Sunday .. 6 Saturday), number it gets]
  1: [0, 1],
  2: [1, 1],
  3: [1, 0],
  11: [1, 1],
  12: [2, 1],
  13: [3, 1],
  14: [4, 1],
  15: [5, 1],
  16: [6, 1],
  17: [0, 1],
};

const weekday = spec(
  "nn",
  (args, env) => {
    const day = dayOfWeek(num(args[0]), env.dateSystem);
    const start = WEEKDAY_START[args[1] === undefined ? 1 : Math.trunc(num(args[1]))];
    if (day === undefined || num(args[0]) < 0) return cellError("#NUM!", "not a date serial");
    if (!start) return cellError("#NUM!", "WEEKDAY's return type is 1, 2, 3 or 11-17");
    return ((day - start[0] + 7) % 7) + start[1];
  },
  1,
);

function addMonths(serial: number, months: number, system: DateSystem, endOfMonth: boolean): CellValue {
  const date = dateArg(serial, system);
  if (!date) return cellError("#NUM!", "not a date serial");
  const total = date.year * 12 + date.month - 1 + Math.trunc(months);
  const year = Math.floor(total / 12);
  const month = total - year * 12 + 1;
  if (year < (system === "1904" ? 1904 : 1900) || year > 9999) return cellError("#NUM!", "outside Excel's dates");
  const last = daysInMonth(year, month);
  const day = endOfMonth ? last : Math.min(date.day, last);
  return isoDateToSerial(formatIsoDate(year, month, day), system);
}

/** The whole serials of the holidays argument; an error in it is the answer. */
export function holidays(value: Arg, system: DateSystem): Set<number> | CellValue {
  const days = new Set<number>();
  for (const cell of cellsOf(value === undefined ? undefined : asArray(value))) {
    if (isCellError(cell)) return cell;
    if (typeof cell === "number") days.add(Math.floor(cell));
    else if (typeof cell === "string") {
      leaveLocaleDates(cell);
      const serial = textToNumber(cell, system);
      if (serial === undefined) return cellError("#VALUE!", `not a date: ${cell}`);
      days.add(Math.floor(serial));
    }
  }
  return days;
}

function datevalue(args: readonly Arg[], env: WorksheetEnv): Value {
  leaveLocaleDates(str(args[0]));
  const serial = textToNumber(str(args[0]), env.dateSystem);
  return serial === undefined || serial < 1 ? cellError("#VALUE!", `not a date: ${JSON.stringify(str(args[0]))}`) : Math.floor(serial);
}

export const DATES: Readonly<Record<string, FunctionSpec>> = {
  DATE: spec("nnn", (args, env) => serialOf(num(args[0]), num(args[1]), num(args[2]), env.dateSystem) ?? cellError("#NUM!", "outside Excel's dates")),
  TIME: spec("nnn", (args) => {
    const seconds = Math.trunc(num(args[0])) * 3600 + Math.trunc(num(args[1])) * 60 + Math.trunc(num(args[2]));
    if (seconds < 0) return cellError("#NUM!", "a negative time");
    // Excel takes the fraction of the days, not the days of the remainder: TIME(24,2,3) is 0.0014236111111110006
    const days = seconds / 86_400;
    return days - Math.floor(days);
  }),
  YEAR: part((date) => date.year),
  MONTH: part((date) => date.month),
  DAY: part((date) => date.day),
  HOUR: timePart("hour"),
  MINUTE: timePart("minute"),
  SECOND: timePart("second"),
  WEEKDAY: weekday,
  EDATE: spec("nn", (args, env) => addMonths(num(args[0]), num(args[1]), env.dateSystem, false)),
  EOMONTH: spec("nn", (args, env) => addMonths(num(args[0]), num(args[1]), env.dateSystem, true)),
  DAYS: spec("nn", (args) => (num(args[0]) < 0 || num(args[1]) < 0 ? cellError("#NUM!", "DAYS of a negative date") : Math.floor(num(args[0])) - Math.floor(num(args[1])))),
  DATEVALUE: spec("t", datevalue),
};
