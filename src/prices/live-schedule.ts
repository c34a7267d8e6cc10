/**
 * When a live instrument is asked, as data: its due window from its frequency and its usual publication time, a
 * late assessment with backoff up to a bound, corrections at a low rate within the correction window (decision
 * 23). Pure: the instrument's state and the instant come in, the next instant to ask it goes out. Every instant is
 * on a grid (the poll interval; the correction interval), so instruments due together are asked together.
 */
import { addDays, isoWeekday, MS_PER_DAY, toEpochDay } from "../api/dates";

export interface LivePolicy {
  /** Between polls inside a due window. */
  pollMs: number;
  /** The window opens this long before the usual publication time (the time varies from day to day). */
  leadMs: number;
  /** Polled every `pollMs` until this long after the usual time; after that the assessment is late. */
  onTimeMs: number;
  /** A late assessment is asked after waits that double from `pollMs` up to this. */
  maxBackoffMs: number;
  /** This long after the usual time a day's assessment is taken as skipped (a holiday) and the next day is waited for. */
  lateBoundMs: number;
  /** Days after the day assessed within which a correction may come (decision 23). */
  correctionWindowDays: number;
  /** Between correction checks of a shown record inside its window. */
  correctionCheckMs: number;
}

export const DEFAULT_LIVE_POLICY: LivePolicy = {
  pollMs: 60_000,
  leadMs: 15 * 60_000,
  onTimeMs: 30 * 60_000,
  maxBackoffMs: 30 * 60_000,
  lateBoundMs: 8 * 3_600_000,
  correctionWindowDays: 7,
  correctionCheckMs: 2 * 3_600_000,
};

/** The record a live instrument shows: its day, when it was made (with the market's offset) and its revision. */
export interface ShownRecord {
  date: string;
  assessmentDate: string;
  revision: number;
}

/** What the schedule knows of one instrument. */
export interface LiveInstrumentState {
  frequency: string;
  shown: ShownRecord;
  /** Minutes after local midnight of recent first publications (the usual time is the earliest), and their UTC offset. */
  usualMinutes: readonly number[];
  offsetMinutes: number;
  /** When it was last asked (-Infinity before). */
  lastAskedAt: number;
}

export type LivePhase = "waiting" | "due" | "late" | "correction";

export interface NextAsk {
  at: number;
  phase: LivePhase;
  /** The day whose assessment is awaited, and when it is usually published. */
  day: string;
  dueAt: number;
}

const MINUTE = 60_000;
const OFFSET = /([+-])(\d{2}):?(\d{2})$/;

/** Minutes east of UTC of an ISO date-time (0 for Z or none). */
export function offsetOf(iso: string): number {
  const match = OFFSET.exec(iso);
  if (!match) return 0;
  return (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** Minutes after local midnight, read from the text in its own offset. */
export function localMinuteOf(iso: string): number | undefined {
  const match = /T(\d{2}):(\d{2})/.exec(iso);
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

/** Whether an instrument of this frequency is assessed on a day; a weekly one on the weekday of its shown record. */
export function assessedOn(frequency: string, shownDate: string): (day: string) => boolean {
  const kind = frequency.toLowerCase().replace(/[^a-z]/g, "");
  if (kind === "twiceweekly") return (day) => [1, 3].includes(isoWeekday(toEpochDay(day)));
  if (kind === "weekly") {
    const weekday = isoWeekday(toEpochDay(shownDate));
    return (day) => isoWeekday(toEpochDay(day)) === weekday;
  }
  if (kind === "monthly") return (day) => isLastWeekdayOfMonth(day);
  // daily, and any frequency not known here: every weekday (asking more rather than missing one)
  return (day) => isoWeekday(toEpochDay(day)) < 5;
}

function isLastWeekdayOfMonth(day: string): boolean {
  if (isoWeekday(toEpochDay(day)) >= 5) return false;
  let next = addDays(day, 1);
  while (isoWeekday(toEpochDay(next)) >= 5) next = addDays(next, 1);
  return next.slice(0, 7) !== day.slice(0, 7);
}

/** The instant of a local time of day on a day, in a UTC offset. */
export function instantOn(day: string, localMinute: number, offsetMinutes: number): number {
  return toEpochDay(day) * MS_PER_DAY + (localMinute - offsetMinutes) * MINUTE;
}

const ceilTo = (instant: number, grid: number): number => Math.ceil(instant / grid) * grid;

/**
 * The next instant to ask the instrument, at or after `now`'s grid step: the window of the first assessment day
 * after the shown one that is not yet given up, or a correction check of the shown record, whichever is first.
 */
export function nextAsk(state: LiveInstrumentState, now: number, policy: LivePolicy = DEFAULT_LIVE_POLICY): NextAsk {
  const onDay = assessedOn(state.frequency, state.shown.date);
  // unknown usual time: the window is the whole day from midnight UTC, asked with backoff
  const usual = state.usualMinutes.length > 0 ? Math.min(...state.usualMinutes) : undefined;
  const last = state.lastAskedAt;
  let publication: NextAsk | undefined;
  let day = state.shown.date;
  for (let step = 0; step < 400 && publication === undefined; step++) {
    day = addDays(day, 1);
    if (!onDay(day)) continue;
    const dueAt = usual === undefined ? instantOn(day, 0, 0) : instantOn(day, usual, state.offsetMinutes);
    const opensAt = usual === undefined ? dueAt : dueAt - policy.leadMs;
    const onTimeUntil = usual === undefined ? dueAt : dueAt + policy.onTimeMs;
    const giveUpAt = dueAt + policy.lateBoundMs;
    let at: number;
    let phase: LivePhase;
    if (last < opensAt) {
      at = opensAt;
      phase = "waiting";
    } else if (last < onTimeUntil) {
      at = last + policy.pollMs;
      phase = "due";
    } else {
      // waits double with lateness: asked 1, 2, 4, 8 ... poll intervals after the window, up to the bound
      at = last + Math.min(policy.maxBackoffMs, Math.max(policy.pollMs, last - onTimeUntil));
      phase = "late";
    }
    at = ceilTo(Math.max(at, now), policy.pollMs);
    if (phase === "waiting" && at > opensAt) phase = at >= onTimeUntil ? "late" : "due";
    if (at < giveUpAt) publication = { at, phase, day, dueAt };
  }
  const fallback: NextAsk = publication ?? { at: Number.POSITIVE_INFINITY, phase: "waiting", day, dueAt: Number.POSITIVE_INFINITY };
  // corrections of the shown record, while its day is within the window
  const windowEnds = (toEpochDay(state.shown.date) + policy.correctionWindowDays + 1) * MS_PER_DAY;
  // the grid step after the last ask: every instrument in its window is checked together, at most once a step
  const correctionAt = Math.max(ceilTo(now, policy.correctionCheckMs), Math.floor(last / policy.correctionCheckMs + 1) * policy.correctionCheckMs);
  if (correctionAt < windowEnds && correctionAt < fallback.at) return { ...fallback, at: correctionAt, phase: "correction" };
  return fallback;
}

/** The usual-time sample after a newly shown record: first values only (a correction comes at another hour), the last five. */
export function learnUsualTime(state: Pick<LiveInstrumentState, "usualMinutes" | "offsetMinutes">, record: ShownRecord): Pick<LiveInstrumentState, "usualMinutes" | "offsetMinutes"> {
  const minute = localMinuteOf(record.assessmentDate);
  if (record.revision > 0 || minute === undefined || !record.assessmentDate.startsWith(record.date)) return state;
  return { usualMinutes: [...state.usualMinutes, minute].slice(-5), offsetMinutes: offsetOf(record.assessmentDate) };
}
