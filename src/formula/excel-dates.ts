/**
 * Excel date serials in both of Excel's date systems, the only serial <-> ISO conversion.
 * - 1900 (Windows default): serial 1 is 1900-01-01 and serial 60 is the 29 February 1900 that Excel
 *   counts for Lotus 1-2-3 compatibility although it never existed.
 * - 1904 (older Mac workbooks): serial 0 is 1904-01-01, and there is no fictitious day.
 * A date-time without a UTC offset is read as UTC, as the service's are meant.
 */
import { fromEpochDay, MS_PER_DAY, toEpochDay } from "../api/dates";

export type DateSystem = "1900" | "1904";

/** Epoch day of 1899-12-30: serial 0 for every date from 1900-03-01 on. */
const EPOCH_DAY_OF_SERIAL_ZERO = toEpochDay("1899-12-30");
/** Epoch day of 1904-01-01: serial 0 of the 1904 system. */
const EPOCH_DAY_OF_1904_ZERO = toEpochDay("1904-01-01");
const FIRST_REAL_SERIAL_AFTER_QUIRK = 61;
/** Excel's fictitious 1900-02-29. */
export const LEAP_YEAR_QUIRK_SERIAL = 60;
/** 9999-12-31, the last date Excel shows. */
export const MAX_SERIAL = 2_958_465;
const MAX_SERIAL_1904 = MAX_SERIAL - (EPOCH_DAY_OF_1904_ZERO - EPOCH_DAY_OF_SERIAL_ZERO);

/** The calendar date of a whole serial, or undefined for serials Excel shows no date for (1900: 0, 60, negatives). */
export function serialToIsoDate(serial: number, system: DateSystem = "1900"): string | undefined {
  if (!Number.isFinite(serial)) return undefined;
  const day = Math.floor(serial);
  if (system === "1904") return day < 0 || day > MAX_SERIAL_1904 ? undefined : fromEpochDay(EPOCH_DAY_OF_1904_ZERO + day);
  if (day < 1 || day > MAX_SERIAL || day === LEAP_YEAR_QUIRK_SERIAL) return undefined;
  // Before the quirk Excel's count is one behind the real calendar.
  const offset = day < FIRST_REAL_SERIAL_AFTER_QUIRK ? day + 1 : day;
  return fromEpochDay(EPOCH_DAY_OF_SERIAL_ZERO + offset);
}

/** Canonical `YYYY-MM-DD` to Excel serial. */
export function isoDateToSerial(isoDate: string, system: DateSystem = "1900"): number {
  if (system === "1904") return toEpochDay(isoDate) - EPOCH_DAY_OF_1904_ZERO;
  const offset = toEpochDay(isoDate) - EPOCH_DAY_OF_SERIAL_ZERO;
  return offset < FIRST_REAL_SERIAL_AFTER_QUIRK ? offset - 1 : offset;
}

/** A date-time with an offset, `Z`, or none (then UTC): `YYYY-MM-DDTHH:MM[:SS[.fff]]`. */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO 8601 date-time as a serial with the time of day as the fraction, in UTC; a bare `YYYY-MM-DD`
 * gives the whole serial. Without an offset the time is UTC (never the machine's local time).
 * Undefined when the text is not a date-time.
 */
export function dateTimeToSerial(text: string, system: DateSystem = "1900"): number | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return isoDateToSerial(text, system);
  const parts = DATE_TIME.exec(text.trim());
  if (!parts) return undefined;
  const offset = parts[6] === undefined ? "Z" : parts[6].toUpperCase() === "Z" ? "Z" : `${parts[6].slice(0, 3)}:${parts[6].slice(-2)}`;
  const ms = Date.parse(`${parts[1]}T${parts[2]}:${parts[3]}:${parts[4] ?? "00"}${parts[5] ?? ""}${offset}`);
  if (!Number.isFinite(ms)) return undefined;
  const utc = new Date(ms);
  const whole = isoDateToSerial(utc.toISOString().slice(0, 10), system);
  const sinceMidnight = ms - Date.UTC(utc.getUTCFullYear(), utc.getUTCMonth(), utc.getUTCDate());
  return whole + sinceMidnight / MS_PER_DAY;
}
