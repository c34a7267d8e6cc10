/** `YYYY-MM-DD` of epoch days, formatted once: responses and timestamps write the same days many times. */
import { fromEpochDay, type EpochDay } from "../../api";

const CACHE_START = 7305; // 1990-01-01
const CACHE_END = 47482; // 2100-01-01
const dayStrings: (string | undefined)[] = new Array<string | undefined>(CACHE_END - CACHE_START);

export function dayString(day: EpochDay): string {
  if (day < CACHE_START || day >= CACHE_END) return fromEpochDay(day);
  const cached = dayStrings[day - CACHE_START];
  if (cached !== undefined) return cached;
  const text = fromEpochDay(day);
  dayStrings[day - CACHE_START] = text;
  return text;
}

/** 0 = January ... 11 = December, read from the day's text (no Date object). */
export function monthIndexOf(day: EpochDay): number {
  const text = dayString(day);
  return (text.charCodeAt(5) - 48) * 10 + (text.charCodeAt(6) - 48) - 1;
}

/**
 * Epoch day of a canonical `YYYY-MM-DD` (as `toEpochDay`), by arithmetic on the digits: no Date object, so that
 * loading half a million assessments stays quick (days-from-civil, proleptic Gregorian).
 */
export function epochDayOf(date: string): EpochDay {
  const y0 = (date.charCodeAt(0) - 48) * 1000 + (date.charCodeAt(1) - 48) * 100 + (date.charCodeAt(2) - 48) * 10 + (date.charCodeAt(3) - 48);
  const m = (date.charCodeAt(5) - 48) * 10 + (date.charCodeAt(6) - 48);
  const d = (date.charCodeAt(8) - 48) * 10 + (date.charCodeAt(9) - 48);
  const y = m <= 2 ? y0 - 1 : y0;
  const era = (y >= 0 ? y : y - 399) / 400 | 0;
  const yoe = y - era * 400;
  const doy = ((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 | 0) + d - 1;
  const doe = yoe * 365 + (yoe / 4 | 0) - (yoe / 100 | 0) + doy;
  return era * 146097 + doe - 719468;
}
