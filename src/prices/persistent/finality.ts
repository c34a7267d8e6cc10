/**
 * When a kept answer can no longer change (decision 23): a record is final once its day lies more than the
 * correction window before the service's today; an average once its period has ended and all its assessments are
 * final. Read from the key id alone (`p|SYM|DATE|TYPE|fields[|CUR/UNIT]`, `h|SYM|FROM|TO|...`), since that is all a
 * storage is handed besides the entry.
 */
import { addDays, daysInMonth, formatIsoDate, isoWeekday, parseIsoDate, toEpochDay } from "../../api/dates";

/** Days within which the service may still publish a correction of a day's assessment (a setting; decision 23). */
export const DEFAULT_CORRECTION_WINDOW_DAYS = 7;

/** The last day whose assessments an average of `type` over the period holding `date` takes. */
export function periodEnd(date: string, type: string): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  switch (type) {
    case "WeeklyAverage":
      return addDays(date, 6 - isoWeekday(toEpochDay(date)));
    case "MonthlyAverage":
      return formatIsoDate(year, month, daysInMonth(year, month));
    case "QuarterlyAverage": {
      const last = Math.ceil(month / 3) * 3;
      return formatIsoDate(year, last, daysInMonth(year, last));
    }
    case "YearlyAverage":
      return formatIsoDate(year, 12, 31);
    default:
      return date;
  }
}

/**
 * The first day on which the answer of key `id` is final, or undefined when it never is: latest values, instruments
 * and references (asked again, they are cheap), histories that carry a forecast. A carried-forward value of a date
 * past the window is final too: the assessment it carries is older still, and no assessment is published for a past day.
 */
export function finalSince(id: string, windowDays: number): string | undefined {
  const parts = id.split("|");
  if (parts[0] === "p") {
    const date = parseIsoDate(parts[2] ?? "");
    return date === undefined ? undefined : addDays(periodEnd(date, parts[3] ?? "None"), windowDays + 1);
  }
  if (parts[0] === "h") {
    const [, , , toDate, , , forecast, type] = parts;
    const to = parseIsoDate(toDate ?? "");
    if (to === undefined || (forecast ?? "") !== "") return undefined;
    return addDays(periodEnd(to, type ?? "None"), windowDays + 1);
  }
  return undefined;
}

/** True when the answer of key `id` can no longer change on `today` (the service's day, YYYY-MM-DD). */
export function isFinal(id: string, today: string, windowDays: number): boolean {
  const since = finalSince(id, windowDays);
  return since !== undefined && since <= today;
}
