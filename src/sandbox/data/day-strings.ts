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
