/** Epoch-day helpers on the hot paths: searches over a series' days and cached date strings. */
import type { EpochDay } from "../../api";

export { dayString } from "../data/day-strings";

// Held locally: under jest's vm context every global lookup is slow.
const mathRound = Math.round;

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

/** Rounds to `places` decimals; float noise of sums and differences never reaches a response. */
export function round(value: number, places: number): number {
  const factor = 10 ** places;
  const rounded = mathRound(value * factor) / factor;
  return rounded === 0 ? 0 : rounded;
}
