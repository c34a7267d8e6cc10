/**
 * How many records a history of one symbol returns at most, which the planner sizes requests by. Without
 * the instrument's data it is every calendar day in range; with its record (frequency and launch date) it
 * is the days its own calendar assesses from its launch on, so that a weekly or monthly history, or one
 * starting before the launch, is not asked in more requests than it needs.
 */
import { isoWeekday, toEpochDay } from "../api/dates";
import type { InstrumentRecord } from "../api/schemas";
import type { CalculationType } from "../api/vocabulary";
import type { NormHistoryKey } from "./keys";

/** What the planner knows of an instrument's calendar, from its record. */
export type InstrumentCalendar = Pick<InstrumentRecord, "frequency" | "launchDate">;

export type EstimatedKey = Pick<NormHistoryKey, "fromDate" | "toDate" | "calculationType"> & Partial<Pick<NormHistoryKey, "calendarType" | "carryForward">>;

const PERIOD_DAYS: Record<CalculationType, number> = { None: 1, WeeklyAverage: 7, MonthlyAverage: 28, QuarterlyAverage: 90, YearlyAverage: 365 };

const MONDAY_TO_FRIDAY = [0, 1, 2, 3, 4];
/** Weekdays (0 = Monday) an assessment may fall on, by frequency (spec 2.6 values, any letter case). */
const ASSESSED_WEEKDAYS: Record<string, readonly number[]> = { daily: MONDAY_TO_FRIDAY, "twice weekly": [1, 3] };

/** Days in [first, last] (epoch days) whose ISO weekday is one of `weekdays`. */
function countWeekdays(first: number, last: number, weekdays: readonly number[]): number {
  if (last < first) return 0;
  let count = 0;
  for (const weekday of weekdays) {
    const firstOn = first + ((weekday - isoWeekday(first) + 7) % 7);
    if (firstOn <= last) count += Math.floor((last - firstOn) / 7) + 1;
  }
  return count;
}

/** Calendar months [first, last] meets. */
function monthsMet(fromDate: string, toDate: string): number {
  const months = (date: string): number => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7));
  return months(toDate) - months(fromDate) + 1;
}

/** Upper bound of the days an instrument of this frequency is assessed on in [fromDate, toDate]; undefined for a frequency not known. */
function assessmentDays(frequency: string, fromDate: string, toDate: string): number | undefined {
  const first = toEpochDay(fromDate);
  const last = toEpochDay(toDate);
  const name = frequency.trim().toLowerCase();
  const weekdays = ASSESSED_WEEKDAYS[name];
  if (weekdays) return countWeekdays(first, last, weekdays);
  // One day a week (which one is not said): no weekday comes more often in the range.
  if (name === "weekly") return Math.ceil((last - first + 1) / 7);
  if (name === "monthly") return monthsMet(fromDate, toDate);
  return undefined;
}

/**
 * Upper bound of the records one symbol's history returns (at least 1): per assessment day of its own
 * calendar from its launch on (every weekday or calendar day when carried forward on that calendar), or one
 * per period, plus one, for averages; every calendar day when the instrument's calendar is not known.
 */
export function estimateHistoryRecords(key: EstimatedKey, calendar?: InstrumentCalendar): number {
  const fromDate = calendar && calendar.launchDate > key.fromDate ? calendar.launchDate : key.fromDate;
  if (key.toDate < fromDate) return 1;
  const days = toEpochDay(key.toDate) - toEpochDay(fromDate) + 1;
  const periods = key.calculationType === "None" ? days : Math.ceil(days / PERIOD_DAYS[key.calculationType]) + 1;
  if (calendar === undefined) return Math.max(1, periods);
  if (key.calculationType === "None" && key.carryForward && key.calendarType !== "AssessmentDays") {
    // Carried forward, every day of the calendar asked holds a record, whatever the instrument's calendar.
    return Math.max(1, key.calendarType === "Weekdays" ? countWeekdays(toEpochDay(fromDate), toEpochDay(key.toDate), MONDAY_TO_FRIDAY) : days);
  }
  const assessed = assessmentDays(calendar.frequency, fromDate, key.toDate);
  return Math.max(1, assessed === undefined ? periods : Math.min(periods, assessed));
}
