/**
 * Limits taught by the service (decision 11): the client never relies on its limit settings being the
 * service's. A 400 whose problem body clearly states a limit (symbols, dates or price records per request)
 * lowers that limit for the rest of the session, and the keys of the refused request are planned again
 * within it. What a refusal may teach is bounded by what the session already knows, so no answer can
 * make the client run away:
 * - only a number stated as the limit that was passed ("over the limit of 2,000 price records", "... (maxRecords)");
 * - only when the refused request was over that number (a request at or below it cannot have broken it);
 * - never below the largest request the service accepted in the session;
 * - a limit refused again after it was learned is at least halved, so a service stating "(asked - 1)" each
 *   time reaches the floor in a few rounds;
 * - never below a floor: below it the client stops and the keys fail with the service's own answer.
 */
import type { Limits } from "../api/vocabulary";

export type LimitName = keyof Limits;

/** What one request asked in each of the three limits (dates 0 for a history, records an upper estimate). */
export interface RequestSize {
  symbols: number;
  dates: number;
  records: number;
}

/** The lowest limits the client accepts to learn: a refusal naming less fails its keys instead of splitting them further. */
export const DEFAULT_LIMIT_FLOORS: Readonly<Limits> = Object.freeze({ maxSymbols: 10, maxDates: 10, maxRecords: 500 });

export type Lesson =
  /** The limits lowered as the refusal teaches; plan the refused keys again within them. */
  | { kind: "learned"; limits: Limits }
  /** The refusal names a limit below the floor: stop, and let the keys fail with the service's answer. */
  | { kind: "below-floor"; name: LimitName; value: number; floor: number };

const SIZE_OF: Record<LimitName, keyof RequestSize> = { maxSymbols: "symbols", maxDates: "dates", maxRecords: "records" };

/**
 * A number with thousands separators (",", ".", a space, a no-break or narrow no-break space) or plain
 * digits, not followed by a decimal part ("2.5" states no whole limit).
 */
const NUMBER = String.raw`(\d{1,3}(?:[,. \u00a0\u202f]\d{3})+|\d+)(?![.,]\d)`;
/** "(over) the limit of N" or "the maximum is N", N then its unit or the limit's name. */
const PASSED = String.raw`\b(?:maximum|limit|max)\s+(?:of|is)\s+`;
/** The unit closes the statement: followed by the end, punctuation, "per ..." or the limit's name; "records of type reference" is not this. */
const UNIT = String.raw`(symbols|dates|(?:price\s+)?records)(?=\s*(?:$|[.,;:)(]|per\b|in\s+(?:a|one|each)\b))`;
const WORDED = new RegExp(`${PASSED}${NUMBER}\\s+${UNIT}`, "i");
/** "... over the limit of 2000 (maxRecords)" and "... over the limit of 2000 price records per response (maxRecords)". */
const TAGGED = new RegExp(`${PASSED}${NUMBER}(?:\\s+[a-z ]{0,40}?)?\\s*\\((maxSymbols|maxDates|maxRecords)\\)`, "i");
const BY_WORD: Record<string, LimitName> = { symbols: "maxSymbols", dates: "maxDates", records: "maxRecords" };

/** The limits a text clearly states as passed, by name; nothing for anything less clear. */
export function statedLimits(text: string): [LimitName, number][] {
  const tagged = TAGGED.exec(text);
  if (tagged) return [[canonical(tagged[2] as string), readNumber(tagged[1] as string)]];
  const worded = WORDED.exec(text);
  if (!worded) return [];
  const unit = (worded[2] as string).toLowerCase().split(/\s+/).pop() as string;
  const name = BY_WORD[unit];
  return name ? [[name, readNumber(worded[1] as string)]] : [];
}

function canonical(tag: string): LimitName {
  const lower = tag.toLowerCase();
  return lower === "maxsymbols" ? "maxSymbols" : lower === "maxdates" ? "maxDates" : "maxRecords";
}

/** "2,000", "2.000", "2 000" -> 2000: three-digit groups after a separator are thousands. */
function readNumber(text: string): number {
  return Number(text.replace(/[,. \u00a0\u202f]/g, ""));
}

export interface LessonContext {
  /** The limits the refused request was planned with. */
  plannedWith: Readonly<Limits>;
  /** The client's settings: a limit below them was learned already. */
  settings: Readonly<Limits>;
  /** What the refused request asked. */
  size: Readonly<RequestSize>;
  /** The largest request of each size the service accepted in this session. */
  accepted: Readonly<RequestSize>;
  floors: Readonly<Limits>;
}

/** What a refusal teaches, or undefined when it teaches nothing (the keys then fail with it). */
export function learnLimits(error: unknown, context: LessonContext): Lesson | undefined {
  if (!isBadRequest(error)) return undefined;
  const problem = error.problem;
  const texts = [problem?.detail, ...(problem?.errors ?? []).map((item) => item.message)].filter((text): text is string => typeof text === "string");
  let learned: Limits | undefined;
  let belowFloor: Lesson | undefined;
  for (const text of texts) {
    for (const [name, stated] of statedLimits(text)) {
      const asked = context.size[SIZE_OF[name]];
      // A request already at or below the stated limit cannot have broken it, and no limit is below 1.
      if (!Number.isFinite(stated) || stated < 1 || asked <= stated) continue;
      // Refused again within a limit it taught: its words are not to be trusted to the unit, so at least halve.
      const relearned = context.plannedWith[name] < context.settings[name] ? Math.min(stated, Math.floor(context.plannedWith[name] / 2)) : stated;
      // The service already accepted more than it now states: never go below what it took.
      const value = Math.max(relearned, context.accepted[SIZE_OF[name]]);
      if (value >= asked) continue;
      if (value < context.floors[name]) {
        belowFloor ??= { kind: "below-floor", name, value: stated, floor: context.floors[name] };
        continue;
      }
      const current = (learned ?? context.plannedWith)[name];
      if (value < current) learned = { ...(learned ?? context.plannedWith), [name]: value };
    }
  }
  // One limit the client can work within is enough: it splits along that one.
  return learned ? { kind: "learned", limits: learned } : belowFloor;
}

/** The larger of each size: what the session knows the service accepts. */
export function largest(a: Readonly<RequestSize>, b: Readonly<RequestSize>): RequestSize {
  return { symbols: Math.max(a.symbols, b.symbols), dates: Math.max(a.dates, b.dates), records: Math.max(a.records, b.records) };
}

interface BadRequest {
  status: 400;
  problem?: { detail?: string; errors?: { message: string }[] };
}

function isBadRequest(error: unknown): error is BadRequest {
  return typeof error === "object" && error !== null && (error as { status?: unknown }).status === 400 && (error as { name?: unknown }).name === "HTTPError";
}
