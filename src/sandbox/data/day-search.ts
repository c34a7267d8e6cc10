/** Binary searches over a series' ascending epoch days (data and service share them). */
import type { EpochDay } from "../../api";

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
