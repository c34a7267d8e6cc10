import { fromEpochDay, isoWeekday, toEpochDay } from "../../src/api/dates";

/** The last `count` Monday-to-Friday dates up to `end`, oldest first (a sheet's row of dates). */
export function weekdays(end: string, count: number): string[] {
  const out: string[] = [];
  for (let day = toEpochDay(end); out.length < count; day -= 1) if (isoWeekday(day) < 5) out.push(fromEpochDay(day));
  return out.reverse();
}
