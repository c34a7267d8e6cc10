/** Which days an instrument is assessed on, by frequency; never on 25 December or 1 January. */
import type { EpochDay, Frequency } from "../../api";
import { fromEpochDay, MS_PER_DAY } from "../../api/dates";

// Math functions held locally: under jest's vm context every global lookup is slow, and these run millions of times.
const { floor } = Math;

/** 0 = Monday ... 6 = Sunday; local so the generator's inner loop stays cheap. */
function weekdayOf(day: EpochDay): number {
  return (((day + 3) % 7) + 7) % 7;
}

/** Month (1-12) times 32 plus day of month, by arithmetic (Howard Hinnant's civil_from_days). */
export function monthDayCode(day: EpochDay): number {
  const z = day + 719468;
  const era = floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = floor((doe - floor(doe / 1460) + floor(doe / 36524) - floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + floor(yoe / 4) - floor(yoe / 100));
  const mp = floor((5 * doy + 2) / 153);
  return (mp < 10 ? mp + 3 : mp - 9) * 32 + doy - floor((153 * mp + 2) / 5) + 1;
}

const CHRISTMAS = 12 * 32 + 25;
const NEW_YEAR = 1 * 32 + 1;

// Holidays of 1970-2199 as a bitmap: the generator's daily loop asks for every day since 2005.
const TABLE_YEARS = 230;
const HOLIDAYS = new Uint8Array(TABLE_YEARS * 366);
for (let year = 1970; year < 1970 + TABLE_YEARS; year++) {
  HOLIDAYS[Date.UTC(year, 0, 1) / MS_PER_DAY] = 1;
  HOLIDAYS[Date.UTC(year, 11, 25) / MS_PER_DAY] = 1;
}

/** 25 December or 1 January: no assessments anywhere. */
export function isHoliday(day: EpochDay): boolean {
  if (day >= 0 && day < HOLIDAYS.length) return HOLIDAYS[day] === 1;
  const code = monthDayCode(day);
  return code === CHRISTMAS || code === NEW_YEAR;
}

/** The last Monday-to-Friday of the day's month. */
function isLastWeekdayOfMonth(day: EpochDay, weekday: number): boolean {
  const next = weekday === 4 ? day + 3 : day + 1;
  return monthDayCode(next) >> 5 !== monthDayCode(day) >> 5;
}

/**
 * `Daily`: Monday to Friday; `Twice weekly`: Tuesday and Thursday; `Weekly`: the instrument's weekday
 * (`weeklyDay`, 0 = Monday); `Monthly`: the last weekday of the month.
 */
export function isAssessmentDay(frequency: Frequency, weeklyDay: number, day: EpochDay): boolean {
  const weekday = weekdayOf(day);
  const scheduled = frequency === "Weekly" ? weekday === weeklyDay : weekday < 5 && scheduledWeekday(frequency, weekday, day);
  return scheduled && !isHoliday(day);
}

/**
 * Every assessment day from `from` to `to` (both included), ascending: isAssessmentDay's days, found by stepping the
 * weekday (a weekly instrument's by weeks) instead of testing every calendar day from scratch.
 */
export function assessmentDays(frequency: Frequency, weeklyDay: number, from: EpochDay, to: EpochDay): Int32Array {
  const found = new Int32Array(Math.max(0, to - from + 1));
  let n = 0;
  if (frequency === "Weekly") {
    for (let d = from + ((weeklyDay - weekdayOf(from) + 7) % 7); d <= to; d += 7) if (!isHoliday(d)) found[n++] = d;
    return found.slice(0, n);
  }
  let weekday = weekdayOf(from);
  for (let d = from; d <= to; d++) {
    if (weekday < 5 && scheduledWeekday(frequency, weekday, d) && !isHoliday(d)) found[n++] = d;
    weekday = weekday === 6 ? 0 : weekday + 1;
  }
  return found.slice(0, n);
}

/** Whether a Monday-to-Friday `day` (its `weekday`) is one of a daily, twice-weekly or monthly schedule's. */
function scheduledWeekday(frequency: Frequency, weekday: number, day: EpochDay): boolean {
  if (frequency === "Daily") return true;
  if (frequency === "Twice weekly") return weekday === 1 || weekday === 3;
  return frequency === "Monthly" && isLastWeekdayOfMonth(day, weekday);
}

/** The first assessment day on or after `day` (within a year, which every frequency meets). */
export function firstAssessmentDayFrom(frequency: Frequency, weeklyDay: number, day: EpochDay): EpochDay {
  for (let d = day; d < day + 366; d++) if (isAssessmentDay(frequency, weeklyDay, d)) return d;
  throw new Error(`no ${frequency} assessment day within a year of ${fromEpochDay(day)}`);
}
