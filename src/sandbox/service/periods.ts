/** Averaging periods (convention 10): ISO weeks Monday to Sunday, calendar months, quarters and years. */
import { formatIsoDate, fromEpochDay, isoWeekday, toEpochDay, type AverageType, type EpochDay } from "../../api";

export interface Period {
  start: EpochDay;
  /** Inclusive. */
  end: EpochDay;
}

function ymd(day: EpochDay): [number, number] {
  const text = fromEpochDay(day);
  return [Number(text.slice(0, 4)), Number(text.slice(5, 7))];
}

/** The epoch day of a month's first day; `month` may run past 12 into the next year. Not Date.UTC: it reads years 0-99 as 1900-1999. */
function monthStart(year: number, month: number): EpochDay {
  return toEpochDay(formatIsoDate(year + Math.floor((month - 1) / 12), ((month - 1) % 12) + 1, 1));
}

export function periodOf(type: AverageType, day: EpochDay): Period {
  switch (type) {
    case "WeeklyAverage": {
      const start = day - isoWeekday(day);
      return { start, end: start + 6 };
    }
    case "MonthlyAverage": {
      const [year, month] = ymd(day);
      return { start: monthStart(year, month), end: monthStart(year, month + 1) - 1 };
    }
    case "QuarterlyAverage": {
      const [year, month] = ymd(day);
      const first = month - ((month - 1) % 3);
      return { start: monthStart(year, first), end: monthStart(year, first + 3) - 1 };
    }
    case "YearlyAverage": {
      const [year] = ymd(day);
      return { start: monthStart(year, 1), end: monthStart(year + 1, 1) - 1 };
    }
  }
}

/** `2024-05-01/2024-05-31`: the ISO 8601 interval of the whole period. */
export function periodInterval(period: Period): string {
  return `${fromEpochDay(period.start)}/${fromEpochDay(period.end)}`;
}
