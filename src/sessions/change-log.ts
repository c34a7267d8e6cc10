/**
 * What changed in a refresh, and why, per price key: the persistent cache tells this log when an answer replaces a
 * kept one (or a key fails where it had a value), and the log names the reason from the two records: a new
 * assessment, a correction (same day, higher revision), a carried-forward value that became an assessment of its
 * own date, a conversion rate (same assessment, other converted value), an entitlement that now refuses. A history
 * changes row by row: each day whose record changed is a change of its own.
 */
import { isCarriedForward } from "../api/dates";
import type { StoredEntry } from "../prices/cache";
import { isAuthError, isInvalidInstrumentError } from "../prices/errors";
import type { CacheObserver } from "../prices/persistent/persistent-cache";

export const CHANGE_REASONS = ["new assessment", "correction", "carried forward became assessed", "conversion rate", "entitlement now refuses", "now fails", "value changed"] as const;
export type ChangeReason = (typeof CHANGE_REASONS)[number];

/** The parts of a price record a change report names. */
export interface RecordSide {
  readonly date: string;
  readonly assessmentDate: string;
  readonly revision: number;
  readonly low: number;
  readonly mid: number;
  readonly high: number;
}

export interface KeyChange {
  /** The key's normal form (`p|SYM|2024-03-01|None|`). */
  readonly id: string;
  readonly symbol: string;
  /** The date asked, or `latest`. */
  readonly dateAsked: string;
  readonly reason: ChangeReason;
  readonly before: RecordSide;
  /** Undefined when the key now fails (`error` says why). */
  readonly after: RecordSide | undefined;
  readonly error?: string;
  /** For a day of a history, the range the history asked (`2025-06-06..2025-06-20`, as provenance names it). */
  readonly within?: string;
}

function sideOf(record: unknown): RecordSide | undefined {
  if (typeof record !== "object" || record === null) return undefined;
  const { date, assessmentDate, revision, low, mid, high } = record as Record<string, unknown>;
  if (typeof date !== "string" || typeof assessmentDate !== "string" || typeof revision !== "number") return undefined;
  if (typeof low !== "number" || typeof mid !== "number" || typeof high !== "number") return undefined;
  return { date, assessmentDate, revision, low, mid, high };
}

function recordOf(entry: StoredEntry): RecordSide | undefined {
  return entry.kind === "price" ? sideOf(entry.value) : undefined;
}

/** A history's records by day (its stored value: `prices`, one record a day). */
function historyRecords(entry: StoredEntry): Map<string, RecordSide> | undefined {
  if (entry.kind !== "history" || typeof entry.value !== "object" || entry.value === null) return undefined;
  const { prices } = entry.value as { prices?: unknown };
  if (!Array.isArray(prices)) return undefined;
  const byDay = new Map<string, RecordSide>();
  for (const record of prices as unknown[]) {
    const side = sideOf(record);
    if (side) byDay.set(side.date, side);
  }
  return byDay;
}

function sameValues(a: RecordSide, b: RecordSide): boolean {
  return a.low === b.low && a.mid === b.mid && a.high === b.high;
}

/** Whether a key asks for converted values: its id ends with the conversion (`p|SYM|DATE|TYPE|fields|EUR/LB`, `h|…|TYPE|EUR/LB|fields`). */
function converted(id: string): boolean {
  return id.split("|").length > (id.startsWith("h|") ? 9 : 5);
}

/**
 * Why a key's record changed from `before` (fetched on the service's day `fetchedOn`) to `after`, or undefined when
 * it did not. A value carried into a date that had not come yet when it was fetched, now assessed, is a new assessment.
 */
export function changeReason(id: string, before: RecordSide, after: RecordSide, fetchedOn = ""): ChangeReason | undefined {
  const sameAssessment = before.assessmentDate === after.assessmentDate && before.revision === after.revision && before.date === after.date;
  if (sameAssessment && sameValues(before, after)) return undefined;
  // A latest value: another day's assessment.
  if (after.date !== before.date) return after.date > before.date ? "new assessment" : "value changed";
  if (after.revision > before.revision) {
    // A revision published on or after the date asked, where a carried value stood, is most likely the date's own (corrected) assessment.
    if (!isCarriedForward(before) || isCarriedForward(after)) return "correction";
    return before.date > fetchedOn && fetchedOn !== "" ? "new assessment" : "carried forward became assessed";
  }
  if (isCarriedForward(before) && !isCarriedForward(after)) return before.date > fetchedOn && fetchedOn !== "" ? "new assessment" : "carried forward became assessed";
  if (after.assessmentDate > before.assessmentDate) return "new assessment";
  // The same assessment, converted at another rate (convention 21: the rate of the assessment's own day).
  if (sameAssessment && converted(id)) return "conversion rate";
  return "value changed";
}

/** Collects the changes of one refresh; `clear` starts the next. */
export class ChangeLog implements CacheObserver {
  private readonly changes = new Map<string, KeyChange>();

  private readonly fetchedOn = new Map<string, string>();

  replaced(id: string, previous: StoredEntry, next: StoredEntry, previousDay: string): void {
    const before = recordOf(previous);
    const after = recordOf(next);
    if (before && after) this.record(id, id, before, after, previousDay, keyParts(id));
    const days = historyRecords(previous);
    const now = historyRecords(next);
    if (!days || !now) return;
    const [, symbol = "", from = "", to = ""] = id.split("|");
    const within = `${from}..${to}`;
    // A day the history no longer holds has no cell to show it; a day it now holds first is a row the saved file did not have.
    for (const [date, record] of now) {
      const old = days.get(date);
      if (old) this.record(`${id}\n${date}`, id, old, record, previousDay, { symbol, dateAsked: date, within });
    }
  }

  /** One key's (or one history day's) change, against the value the refresh started from. */
  private record(slot: string, id: string, before: RecordSide, after: RecordSide, previousDay: string, parts: { symbol: string; dateAsked: string; within?: string }): void {
    // A second answer in one refresh keeps the first `before`.
    const known = this.changes.get(slot);
    const first = known?.before ?? before;
    const day = known ? (this.fetchedOn.get(slot) ?? previousDay) : previousDay;
    const reason = changeReason(id, first, after, day);
    if (reason === undefined) {
      this.changes.delete(slot);
      return;
    }
    this.fetchedOn.set(slot, day);
    this.changes.set(slot, { ...parts, id, reason, before: first, after });
  }

  failed(id: string, previous: StoredEntry, error: Error): void {
    const before = recordOf(previous);
    if (!before) return;
    const refuses = isInvalidInstrumentError(error) || (isAuthError(error) && error.reason === "forbidden");
    this.changes.set(id, { ...keyParts(id), id, reason: refuses ? "entitlement now refuses" : "now fails", before, after: undefined, error: error.message });
  }

  list(): KeyChange[] {
    return [...this.changes.values()];
  }

  clear(): void {
    this.changes.clear();
    this.fetchedOn.clear();
  }
}

function keyParts(id: string): { symbol: string; dateAsked: string } {
  const [, symbol = "", dateAsked = ""] = id.split("|");
  return { symbol, dateAsked };
}

/** `3 changed: 2 corrections, 1 new assessment`: the runner's and the pane's one line. */
export function summarizeChanges(reasons: readonly ChangeReason[]): string {
  if (reasons.length === 0) return "no PRICES value changed";
  const counts = new Map<ChangeReason, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const parts = CHANGE_REASONS.filter((reason) => counts.has(reason)).map((reason) => `${counts.get(reason) ?? 0} ${reason}`);
  return `${reasons.length} PRICES ${reasons.length === 1 ? "value" : "values"} changed: ${parts.join(", ")}`;
}
