/**
 * Excel's day-count and week functions: YEARFRAC in its five bases (US 30/360 with its February rules,
 * actual/actual averaged over the years spanned, actual/360, actual/365, European 30/360), DATEDIF's units,
 * DAYS360's US and European methods, WEEKNUM/ISOWEEKNUM, and NETWORKDAYS/WORKDAY with their weekend-mask INTL forms.
 */
import { daysInMonth } from "../api/dates";
import type { DateSystem } from "../formula/excel-dates";
import { calendarOf, dayOfWeek, holidays, serialOf } from "./worksheet-dates";
import { type Arg, type FunctionSpec, num, spec, str } from "./worksheet-spec";
import { type CellError, type CellValue, cellError, isCellError } from "./values";

interface Day {
  readonly serial: number;
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/** A whole-day date argument, or #NUM! for a serial outside Excel's dates. */
function dayOf(value: number, system: DateSystem): Day | CellError {
  const serial = Math.floor(value);
  const date = serial < 0 ? undefined : calendarOf(serial, system);
  return date ? { serial, ...date } : cellError("#NUM!", "not a date serial");
}

const isLeap = (year: number): boolean => daysInMonth(year, 2) === 29;
const lastOfFebruary = (date: Day): boolean => date.month === 2 && date.day === daysInMonth(date.year, 2);
const thirty360 = (start: Day, d1: number, end: Day, d2: number): number => (end.year - start.year) * 360 + (end.month - start.month) * 30 + d2 - d1;

/** Whether a 29 February lies between two dates at most a year apart (the start's own included). */
function leapDayBetween(start: Day, end: Day, system: DateSystem): boolean {
  for (let year = start.year; year <= end.year; year += 1) {
    if (!isLeap(year)) continue;
    const leapDay = serialOf(year, 2, 29, system) ?? Number.NaN;
    if (leapDay >= start.serial && leapDay <= end.serial) return true;
  }
  return false;
}

function yearfrac(args: readonly Arg[], env: { dateSystem: DateSystem }): CellValue {
  const basis = Math.trunc(num(args[2]));
  if (basis < 0 || basis > 4) return cellError("#NUM!", "YEARFRAC's basis is 0 to 4");
  let start = dayOf(num(args[0]), env.dateSystem);
  let end = dayOf(num(args[1]), env.dateSystem);
  if (isCellError(start)) return start;
  if (isCellError(end)) return end;
  if (start.serial > end.serial) [start, end] = [end, start];
  const days = end.serial - start.serial;
  switch (basis) {
    case 0: {
      let [d1, d2] = [start.day, end.day];
      if (d1 === 31 && d2 === 31) [d1, d2] = [30, 30];
      else if (d1 === 31) d1 = 30;
      else if (d1 === 30 && d2 === 31) d2 = 30;
      else if (lastOfFebruary(start) && lastOfFebruary(end)) [d1, d2] = [30, 30];
      else if (lastOfFebruary(start)) d1 = 30;
      return thirty360(start, d1, end, d2) / 360;
    }
    case 1: {
      const withinAYear = start.year === end.year || (end.year === start.year + 1 && (start.month > end.month || (start.month === end.month && start.day >= end.day)));
      if (withinAYear) {
        const length = (start.year === end.year && isLeap(start.year)) || leapDayBetween(start, end, env.dateSystem) || (end.month === 2 && end.day === 29) ? 366 : 365;
        return days / length;
      }
      const first = serialOf(start.year, 1, 1, env.dateSystem) ?? 0;
      const afterLast = serialOf(end.year + 1, 1, 1, env.dateSystem) ?? 0;
      return days / ((afterLast - first) / (end.year - start.year + 1));
    }
    case 2:
      return days / 360;
    case 3:
      return days / 365;
    default:
      return thirty360(start, Math.min(start.day, 30), end, Math.min(end.day, 30)) / 360;
  }
}

function datedif(args: readonly Arg[], env: { dateSystem: DateSystem }): CellValue {
  const start = dayOf(num(args[0]), env.dateSystem);
  const end = dayOf(num(args[1]), env.dateSystem);
  if (isCellError(start)) return start;
  if (isCellError(end)) return end;
  if (start.serial > end.serial) return cellError("#NUM!", "DATEDIF's start is after its end");
  const months = (end.year - start.year) * 12 + end.month - start.month - (end.day < start.day ? 1 : 0);
  switch (str(args[2]).toUpperCase()) {
    case "D":
      return end.serial - start.serial;
    case "M":
      return months;
    case "Y":
      return Math.floor(months / 12);
    case "YM":
      return months % 12;
    case "MD": {
      if (end.day >= start.day) return end.day - start.day;
      // days past the last monthly anniversary, counted in the month before the end's (negative where Excel's is)
      const before = end.month === 1 ? daysInMonth(end.year - 1, 12) : daysInMonth(end.year, end.month - 1);
      return before - start.day + end.day;
    }
    case "YD": {
      let anniversary = serialOf(end.year, start.month, start.day, env.dateSystem) ?? 0;
      if (anniversary > end.serial) anniversary = serialOf(end.year - 1, start.month, start.day, env.dateSystem) ?? 0;
      return end.serial - anniversary;
    }
    default:
      return cellError("#NUM!", 'DATEDIF\'s unit is "Y", "M", "D", "MD", "YM" or "YD"');
  }
}

/** A serial at its nearest whole second: DAYS360 reads 46000.999999 (a tenth of a second before midnight) as the next day (measured). */
const toTheSecond = (serial: number): number => Math.round(serial * 86_400) / 86_400;

function days360(args: readonly Arg[], env: { dateSystem: DateSystem }): CellValue {
  const start = dayOf(toTheSecond(num(args[0])), env.dateSystem);
  const end = dayOf(toTheSecond(num(args[1])), env.dateSystem);
  if (isCellError(start)) return start;
  if (isCellError(end)) return end;
  if (args[2] === true) return thirty360(start, Math.min(start.day, 30), end, Math.min(end.day, 30));
  // US: a start on its month's last day is the 30th; an end on the 31st is the 30th, or the next month's 1st when the start is before the 30th
  const d1 = start.day === daysInMonth(start.year, start.month) ? 30 : start.day;
  if (end.day === 31 && d1 < 30) return thirty360(start, d1, { ...end, month: end.month + 1 }, 1);
  return thirty360(start, d1, end, end.day === 31 ? 30 : end.day);
}

/** WEEKNUM's return types: the weekday (0 Sunday .. 6 Saturday) its weeks start on. */
const WEEK_STARTS: Readonly<Record<number, number>> = { 1: 0, 2: 1, 11: 1, 12: 2, 13: 3, 14: 4, 15: 5, 16: 6, 17: 0 };

function isoWeek(date: Day, system: DateSystem): number {
  const weekday = ((dayOfWeek(date.serial, system) ?? 0) + 6) % 7; // Monday 0
  const thursday = date.serial - weekday + 3;
  const thursdayDate = calendarOf(thursday, system);
  const firstOfYear = serialOf(thursdayDate?.year ?? date.year, 1, 1, system) ?? 0;
  return Math.floor((thursday - firstOfYear) / 7) + 1;
}

function weeknum(args: readonly Arg[], env: { dateSystem: DateSystem }): CellValue {
  const date = dayOf(num(args[0]), env.dateSystem);
  if (isCellError(date)) return date;
  const type = args[1] === undefined ? 1 : Math.trunc(num(args[1]));
  if (type === 21) return isoWeek(date, env.dateSystem);
  const start = WEEK_STARTS[type];
  if (start === undefined) return cellError("#NUM!", "WEEKNUM's return type is 1, 2, 11-17 or 21");
  const first = serialOf(date.year, 1, 1, env.dateSystem) ?? 0;
  const offset = ((dayOfWeek(first, env.dateSystem) ?? 0) - start + 7) % 7;
  return Math.floor((date.serial - first + offset) / 7) + 1;
}

/** The weekend of the INTL forms as seven flags, Monday first: a number 1-7 or 11-17, or a mask such as "0000011". */
function weekendOf(value: Arg): boolean[] | CellError {
  if (value === undefined || value === null) return [false, false, false, false, false, true, true];
  if (typeof value === "string") {
    if (!/^[01]{7}$/.test(value) || value === "1111111") return cellError("#VALUE!", 'a weekend mask is seven 0s and 1s from Monday, not all 1s, e.g. "0000011"');
    return Array.from(value, (flag) => flag === "1");
  }
  const code = typeof value === "number" ? Math.trunc(value) : Number.NaN;
  const flags = new Array<boolean>(7).fill(false);
  if (code >= 1 && code <= 7) {
    // 1 Saturday-Sunday, 2 Sunday-Monday, ... 7 Friday-Saturday (Monday first: index 0)
    flags[(code + 4) % 7] = true;
    flags[(code + 5) % 7] = true;
  } else if (code >= 11 && code <= 17) flags[(code - 11 + 6) % 7] = true;
  else return cellError("#NUM!", "the weekend is 1-7, 11-17 or a seven-day mask");
  return flags;
}

function isOff(serial: number, system: DateSystem, weekend: readonly boolean[], off: Set<number>): boolean {
  const monday0 = ((dayOfWeek(serial, system) ?? 0) + 6) % 7;
  return weekend[monday0] === true || off.has(serial);
}

function networkdaysIntl(args: readonly Arg[], env: { dateSystem: DateSystem }): CellValue {
  const weekend = weekendOf(args[2]);
  if (isCellError(weekend)) return weekend;
  const off = holidays(args[3], env.dateSystem);
  if (!(off instanceof Set)) return off;
  const start = Math.floor(num(args[0]));
  const end = Math.floor(num(args[1]));
  if (start < 0 || end < 0) return cellError("#NUM!", "not a date serial");
  const [low, high] = start <= end ? [start, end] : [end, start];
  let count = 0;
  for (let serial = low; serial <= high; serial += 1) if (!isOff(serial, env.dateSystem, weekend, off)) count += 1;
  return start <= end ? count : -count;
}

function workdayIntl(args: readonly Arg[], env: { dateSystem: DateSystem }): CellValue {
  const weekend = weekendOf(args[2]);
  if (isCellError(weekend)) return weekend;
  const off = holidays(args[3], env.dateSystem);
  if (!(off instanceof Set)) return off;
  let serial = Math.floor(num(args[0]));
  let left = Math.trunc(num(args[1]));
  const step = left < 0 ? -1 : 1;
  while (left !== 0) {
    serial += step;
    if (serial < 0) return cellError("#NUM!", "outside Excel's dates");
    if (!isOff(serial, env.dateSystem, weekend, off)) left -= step;
  }
  return serial;
}

export const DAY_COUNTS: Readonly<Record<string, FunctionSpec>> = {
  YEARFRAC: spec("nnn", yearfrac, 2),
  DATEDIF: spec("nnt", datedif),
  DAYS360: spec("nnb", days360, 2),
  WEEKNUM: spec("nn", weeknum, 1),
  ISOWEEKNUM: spec("n", (args, env) => {
    const date = dayOf(num(args[0]), env.dateSystem);
    return isCellError(date) ? date : isoWeek(date, env.dateSystem);
  }),
  "NETWORKDAYS.INTL": spec("nnsv", networkdaysIntl, 2),
  "WORKDAY.INTL": spec("nnsv", workdayIntl, 2),
  // the classic forms are the INTL ones with Saturday and Sunday off
  NETWORKDAYS: spec("nnv", (args, env) => networkdaysIntl([args[0], args[1], undefined, args[2]], env), 2),
  WORKDAY: spec("nnv", (args, env) => workdayIntl([args[0], args[1], undefined, args[2]], env), 2),
};
