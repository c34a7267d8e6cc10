/**
 * Excel's 1900 date system: serial 1 is 1900-01-01 and serial 60 is the 29 February 1900 that
 * Excel counts for Lotus 1-2-3 compatibility although it never existed.
 */
import { fromEpochDay, toEpochDay } from "../api/dates";

/** Epoch day of 1899-12-30: serial 0 for every date from 1900-03-01 on. */
const EPOCH_DAY_OF_SERIAL_ZERO = toEpochDay("1899-12-30");
const FIRST_REAL_SERIAL_AFTER_QUIRK = 61;
/** Excel's fictitious 1900-02-29. */
export const LEAP_YEAR_QUIRK_SERIAL = 60;
/** 9999-12-31, the last date Excel shows. */
export const MAX_SERIAL = 2_958_465;
const MS_PER_DAY = 86_400_000;

/** The calendar date of a whole serial, or undefined for 0, 60, negatives and serials past 9999-12-31. */
export function serialToIsoDate(serial: number): string | undefined {
  if (!Number.isFinite(serial)) return undefined;
  const day = Math.floor(serial);
  if (day < 1 || day > MAX_SERIAL || day === LEAP_YEAR_QUIRK_SERIAL) return undefined;
  // Before the quirk Excel's count is one behind the real calendar.
  const offset = day < FIRST_REAL_SERIAL_AFTER_QUIRK ? day + 1 : day;
  return fromEpochDay(EPOCH_DAY_OF_SERIAL_ZERO + offset);
}

/** Canonical `YYYY-MM-DD` to Excel serial. */
export function isoDateToSerial(isoDate: string): number {
  const offset = toEpochDay(isoDate) - EPOCH_DAY_OF_SERIAL_ZERO;
  return offset < FIRST_REAL_SERIAL_AFTER_QUIRK ? offset - 1 : offset;
}

/**
 * An ISO 8601 date-time (with offset or `Z`) as a serial with the time of day as the fraction, in UTC;
 * a bare `YYYY-MM-DD` gives the whole serial. Undefined when the text is not a date-time.
 */
export function dateTimeToSerial(text: string): number | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return isoDateToSerial(text);
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) return undefined;
  const utc = new Date(ms);
  const whole = isoDateToSerial(utc.toISOString().slice(0, 10));
  const sinceMidnight = ms - Date.UTC(utc.getUTCFullYear(), utc.getUTCMonth(), utc.getUTCDate());
  return whole + sinceMidnight / MS_PER_DAY;
}
