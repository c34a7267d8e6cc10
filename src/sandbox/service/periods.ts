/** Averaging periods (convention 10): ISO weeks Monday to Sunday, calendar months, quarters and years. */
import { fromEpochDay, isoWeekday, type AverageType, type EpochDay } from "../../api";

export interface Period {
  start: EpochDay;
  /** Inclusive. */
  end: EpochDay;
}

function ymd(day: EpochDay): [number, number] {
  const text = fromEpochDay(day);
  return [Number(text.slice(0, 4)), Number(text.slice(5, 7))];
}

function epoch(year: number, month: number, dayOfMonth: number): EpochDay {
  return Math.floor(Date.UTC(year, month - 1, dayOfMonth) / 86_400_000);
}

export function periodOf(type: AverageType, day: EpochDay): Period {
  switch (type) {
    case "WeeklyAverage": {
      const start = day - isoWeekday(day);
      return { start, end: start + 6 };
    }
    case "MonthlyAverage": {
      const [year, month] = ymd(day);
      return { start: epoch(year, month, 1), end: epoch(year, month + 1, 1) - 1 };
    }
    case "QuarterlyAverage": {
      const [year, month] = ymd(day);
      const first = month - ((month - 1) % 3);
      return { start: epoch(year, first, 1), end: epoch(year, first + 3, 1) - 1 };
    }
    case "YearlyAverage": {
      const [year] = ymd(day);
      return { start: epoch(year, 1, 1), end: epoch(year + 1, 1, 1) - 1 };
    }
  }
}

/** `2024-05-01/2024-05-31`: the ISO 8601 interval of the whole period. */
export function periodInterval(period: Period): string {
  return `${fromEpochDay(period.start)}/${fromEpochDay(period.end)}`;
}
