/**
 * The publication clock (convention 20): the sandbox's "now" is an instant, and an assessment exists from its
 * `assessmentDate` on. `--now` freezes the clock at an instant, `--today D` at the end of D (UTC); without
 * either it is the real time.
 */
import { fromEpochDay, MS_PER_DAY, parseInstant, parseIsoDate, toEpochDay } from "../../api/dates";

/** The contract's instant reader, where the sandbox's options have always found it. */
export { parseInstant };

export interface PublicationClock {
  /** Milliseconds since 1970 (UTC). */
  now(): number;
  /** The UTC date of "now" when the clock was made: the day the data runs to. */
  readonly today: string;
  /** True when `--now` or `--today` froze it. */
  readonly frozen: boolean;
}

/** The last millisecond of a day (UTC): `--today D` shows everything assessed on D. */
export function endOfDay(date: string): number {
  return (toEpochDay(date) + 1) * MS_PER_DAY - 1;
}

export function utcDateOf(ms: number): string {
  return fromEpochDay(Math.floor(ms / MS_PER_DAY));
}

/**
 * The clock for the options: `now` (an ISO date-time) wins over `today` (a date); `realNow` is the time source
 * of an unfrozen clock (tests pass their own).
 */
export function publicationClock(options: { now?: string; today?: string }, realNow: () => number = Date.now): PublicationClock {
  if (options.now !== undefined) {
    const at = parseInstant(options.now);
    if (at === undefined) throw new Error(`now: expected an ISO 8601 date-time with offset such as 2025-06-30T09:25:00Z, got "${options.now}"`);
    return { now: () => at, today: utcDateOf(at), frozen: true };
  }
  if (options.today !== undefined) {
    const today = parseIsoDate(options.today);
    if (today === undefined) throw new Error(`today: expected a date YYYY-MM-DD, got "${options.today}"`);
    const at = endOfDay(today);
    return { now: () => at, today, frozen: true };
  }
  return { now: realNow, today: utcDateOf(realNow()), frozen: false };
}
