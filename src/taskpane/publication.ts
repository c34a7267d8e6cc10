/**
 * When an instrument's assessment is due and whether today's is out yet, from its recent assessments (their days
 * and their `assessmentDate`s, which carry the market's own UTC offset) and the instrument's frequency. Pure: the
 * records and the instant come in. The service shows an assessment only once published (convention 20), so before
 * the usual time "latest" is the previous day's: this is what the pane says instead of staying silent.
 */
import { addDays, toEpochDay } from "../api";

/** Days of assessments looked at: enough for a few monthly ones, few enough for one small request. */
export const PUBLICATION_WINDOW_DAYS = 100;

export interface Assessed {
  /** The day the value stands for, YYYY-MM-DD. */
  date: string;
  /** When it was made: ISO 8601 with the market's offset, e.g. 2025-06-27T16:31:00+01:00. */
  assessmentDate: string;
}

export type PublicationState = "published" | "awaiting" | "late" | "not-due" | "unknown";

export interface Publication {
  state: PublicationState;
  /** One or two sentences for the pane. */
  text: string;
}

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const OFFSET = /([+-])(\d{2}):(\d{2})$|Z$/;

/** Minutes east of UTC of an ISO date-time's offset (0 for Z). */
function offsetMinutes(iso: string): number {
  const match = OFFSET.exec(iso);
  if (!match || match[0] === "Z") return 0;
  return (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** Minutes after local midnight of an ISO date-time, read from its text (its own offset). */
function localMinutes(iso: string): number {
  const match = /T(\d{2}):(\d{2})/.exec(iso);
  return match ? Number(match[1]) * 60 + Number(match[2]) : 0;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : Math.round(((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2);
}

const clock = (minutes: number): string => `${String(Math.floor(minutes / 60) % 24).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** ISO weekday index, Monday 0. */
const weekday = (date: string): number => (((toEpochDay(date) + 3) % 7) + 7) % 7;

/** "16:30 London", or "16:10 UTC+08:00 (09:10 London)" for a market elsewhere. */
export function usualTime(minutes: number, offset: number, onDay: string, londonOffset: (date: string) => number): string {
  const london = londonOffset(onDay);
  const sign = offset < 0 ? "-" : "+";
  const zone = `UTC${sign}${clock(Math.abs(offset))}`;
  if (offset === london) return `${clock(minutes)} London`;
  const inLondon = (((minutes - offset + london) % 1440) + 1440) % 1440;
  return `${clock(minutes)} ${zone} (${clock(inLondon)} London)`;
}

/** London's offset from UTC in minutes on a day (BST or GMT), from the platform's time-zone data. */
export function londonOffset(date: string): number {
  const noon = new Date(`${date}T12:00:00Z`);
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(noon);
  const hour = Number(parts.find((p) => p.type === "hour")?.value ?? 12);
  const minute = Number(parts.find((p) => p.type === "minute")?.value ?? 0);
  return (hour - 12) * 60 + minute;
}

const dayName = (date: string): string => `${WEEKDAYS[weekday(date)]} ${date}`;

/**
 * Where `recent` (assessed records, any order) and `now` put the instrument: today's out, awaiting today's (before
 * the usual time), late (after it), or none due today (with the next day due).
 */
export function publicationStatus(recent: readonly Assessed[], frequency: string, now: number, london: (date: string) => number = londonOffset): Publication {
  const records = [...recent].sort((a, b) => (a.date < b.date ? 1 : -1));
  const latest = records[0];
  if (!latest) return { state: "unknown", text: `No assessment in the last ${PUBLICATION_WINDOW_DAYS} days, so no publication time is known (frequency: ${frequency || "not given"}).` };
  const sample = records.slice(0, 10);
  const offset = offsetMinutes(latest.assessmentDate);
  // "around 16:30": the median time of the recent ones, to five minutes
  const usual = Math.round(median(sample.map((r) => localMinutes(r.assessmentDate))) / 5) * 5;
  const localNow = new Date(now + offset * 60_000).toISOString();
  const today = localNow.slice(0, 10);
  const nowMinutes = localMinutes(localNow);
  const at = usualTime(usual, offset, today, london);
  // the time it was published, in the same zone words as the usual time ("16:31 London", "16:10 UTC+08:00 (09:10 London)")
  const publishedAt = usualTime(localMinutes(latest.assessmentDate), offset, latest.assessmentDate.slice(0, 10), london);
  const latestSaid = `The latest is ${latest.date}'s, published ${latest.assessmentDate.slice(0, 10)} at ${publishedAt}.`;
  if (latest.date >= today) return { state: "published", text: `Today's assessment is out: published at ${publishedAt} (usually around ${at}).` };

  const days = sample.map((r) => r.date);
  const gaps = days.slice(1).map((d, i) => toEpochDay(days[i] as string) - toEpochDay(d));
  const gap = gaps.length > 0 ? median(gaps) : /daily/i.test(frequency) ? 1 : 7;
  let dueToday: boolean;
  let next: string;
  // the weekdays it was assessed on, in week order (a twice-weekly Tuesday/Thursday market has a median gap of 2)
  const observed = [...new Set(days.map(weekday))].sort((a, b) => a - b);
  if (gap <= 7) {
    // daily and weekly patterns: the weekdays the instrument is assessed on (every weekday for a daily one)
    const onDays = new Set(gap <= 1 ? [0, 1, 2, 3, 4] : observed);
    dueToday = onDays.has(weekday(today));
    next = addDays(today, 1);
    while (!onDays.has(weekday(next))) next = addDays(next, 1);
  } else {
    // monthly and rarer: the next one about one usual gap after the latest
    const expected = addDays(latest.date, gap);
    dueToday = toEpochDay(today) >= toEpochDay(expected) - 2;
    next = expected > today ? expected : addDays(today, 1);
  }
  if (dueToday && nowMinutes < usual) return { state: "awaiting", text: `Awaiting today's assessment, usually published around ${at}. ${latestSaid}` };
  if (dueToday) return { state: "late", text: `Today's assessment is not out yet, though usually published around ${at}: it may be late or skipped (a holiday). ${latestSaid}` };
  const plural = observed.map((index) => `${WEEKDAYS[index] ?? ""}s`);
  const onWeekdays = plural.length > 1 ? `${plural.slice(0, -1).join(", ")} and ${plural.at(-1) ?? ""}` : (plural[0] ?? "");
  const pattern = gap <= 1 ? "on weekdays" : gap <= 7 ? `on ${onWeekdays}` : `about every ${gap} days`;
  return { state: "not-due", text: `No assessment due today (assessed ${pattern}); the next is due ${gap <= 7 ? dayName(next) : `around ${next}`}, usually around ${at}. ${latestSaid}` };
}
