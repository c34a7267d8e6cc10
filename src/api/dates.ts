/** Calendar dates of the contract: `YYYY-MM-DD`, with non-padded input accepted (convention 4). */

const DATE_INPUT = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
/** The one day length: a UTC day has no leap seconds in JavaScript's clock. */
export const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 (UTC); the sandbox stores dates this way and the client uses it for arithmetic. */
export type EpochDay = number;

/** Reads `2025-03-01` or `2025-3-1` into the canonical padded form, or undefined if not a real date. */
export function parseIsoDate(text: string): string | undefined {
  const match = DATE_INPUT.exec(text.trim());
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return formatIsoDate(year, month, day);
}

/**
 * `YYYY-MM-DD` of a day that exists, padded as the service writes it (no trimming, no regular expression:
 * the response reader calls it once per record).
 */
export function isCalendarDate(text: string): boolean {
  if (text.length !== 10) return false;
  for (let index = 0; index < 10; index += 1) {
    const code = text.charCodeAt(index);
    if (index === 4 || index === 7 ? code !== 45 : code < 48 || code > 57) return false;
  }
  const month = (text.charCodeAt(5) - 48) * 10 + text.charCodeAt(6) - 48;
  const day = (text.charCodeAt(8) - 48) * 10 + text.charCodeAt(9) - 48;
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(digitsAt(text, 0, 4), month);
}

/** The number written by `length` ASCII digits from `start` (checked by the caller), without a substring. */
function digitsAt(text: string, start: number, length: number): number {
  let value = 0;
  for (let index = start; index < start + length; index += 1) value = value * 10 + text.charCodeAt(index) - 48;
  return value;
}

export function formatIsoDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Proleptic Gregorian, every year alike: Date.UTC would read years 0 to 99 as 1900 to 1999. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (MONTH_DAYS[month - 1] ?? Number.NaN);
}

/**
 * Canonical `YYYY-MM-DD` to epoch day. The input must already be canonical. Arithmetic on the digits
 * (days from civil, proleptic Gregorian), so that years 0000 to 0099 are themselves and not 1900 to 1999.
 */
export function toEpochDay(isoDate: string): EpochDay {
  const month = Number(isoDate.slice(5, 7));
  const day = Number(isoDate.slice(8, 10));
  // Years counted from March, so that a leap day ends its year.
  const year = Number(isoDate.slice(0, 4)) - (month <= 2 ? 1 : 0);
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export function fromEpochDay(day: EpochDay): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Canonical `YYYY-MM-DD` moved by whole days (negative goes back), across months and years. */
export function addDays(isoDate: string, days: number): string {
  return fromEpochDay(toEpochDay(isoDate) + days);
}

/** 0 = Monday ... 6 = Sunday (ISO). */
export function isoWeekday(day: EpochDay): number {
  return (((day + 3) % 7) + 7) % 7;
}

/** The calendar date of an ISO 8601 date-time with offset (`2024-03-01T16:30:00+00:00` -> `2024-03-01`), as written. */
export function dateOfTimestamp(timestamp: string): string {
  return timestamp.slice(0, 10);
}

/**
 * A day filled from an earlier assessment: the assessment was made before the day it stands for (an assessment
 * is published on its day, a correction later). A record assessed on its own day answers without a substring.
 */
export function isCarriedForward(record: { date: string; assessmentDate: string }): boolean {
  return !record.assessmentDate.startsWith(record.date) && dateOfTimestamp(record.assessmentDate) < record.date;
}

/** Today's date in UTC, or the frozen date given. */
export function todayIso(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The one reader of ISO 8601 instants (a date-time with `Z` or a UTC offset, seconds and fractions optional). An
 * HTTP-date (`Date`, `Retry-After`: RFC 9110's IMF-fixdate) is another form, read by the platform's `Date.parse`
 * where the client reads those headers; the contract's instants are read here only.
 */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The instant (ms since 1970, UTC) of an ISO 8601 date-time with offset, or undefined when it is not one or its day does not exist. */
export function parseInstant(text: string): number | undefined {
  // Date.parse alone takes `2024-02-30T00:00Z` as March 1st: the day must exist.
  if (!INSTANT.test(text) || !isCalendarDate(text.slice(0, 10))) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
