/** Epoch-day helpers on the hot paths: searches over a series' days and cached date strings. */
import { fromEpochDay, type EpochDay } from "../../api";

/** Index of the last element <= day, or -1. */
export function lastIndexOnOrBefore(days: Int32Array, day: EpochDay): number {
  let lo = 0;
  let hi = days.length - 1;
  let found = -1;
  while (lo <= hi) {
    const midIndex = (lo + hi) >>> 1;
    if ((days[midIndex] as number) <= day) {
      found = midIndex;
      lo = midIndex + 1;
    } else {
      hi = midIndex - 1;
    }
  }
  return found;
}

/** Index of the first element >= day, or days.length. */
export function firstIndexOnOrAfter(days: Int32Array, day: EpochDay): number {
  let lo = 0;
  let hi = days.length;
  while (lo < hi) {
    const midIndex = (lo + hi) >>> 1;
    if ((days[midIndex] as number) < day) lo = midIndex + 1;
    else hi = midIndex;
  }
  return lo;
}

// Dates from 1990 to 2100 are formatted once; history responses format the same days many times.
const CACHE_START = 7305; // 1990-01-01
const CACHE_END = 47482; // 2100-01-01
const dayStrings: (string | undefined)[] = new Array(CACHE_END - CACHE_START);

export function dayString(day: EpochDay): string {
  if (day < CACHE_START || day >= CACHE_END) return fromEpochDay(day);
  const cached = dayStrings[day - CACHE_START];
  if (cached !== undefined) return cached;
  const text = fromEpochDay(day);
  dayStrings[day - CACHE_START] = text;
  return text;
}

/** Rounds to `places` decimals; float noise of sums and differences never reaches a response. */
export function round(value: number, places: number): number {
  const factor = 10 ** places;
  const rounded = Math.round(value * factor) / factor;
  return rounded === 0 ? 0 : rounded;
}
