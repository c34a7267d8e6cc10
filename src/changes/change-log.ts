/**
 * What changed in a refresh, and why, per price key: the persistent cache tells this log when an answer replaces a
 * kept one (or a key fails where it had a value), and the log names the reason from the two records: a new
 * assessment, a correction (same day, higher revision), a carried-forward value that became an assessment of its
 * own date, a conversion rate (same assessment, other converted value), an entitlement that now refuses.
 */
import { dateOfTimestamp } from "../api/dates";
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
}

function recordOf(entry: StoredEntry): RecordSide | undefined {
  if (entry.kind !== "price" || typeof entry.value !== "object" || entry.value === null) return undefined;
  const { date, assessmentDate, revision, low, mid, high } = entry.value as Record<string, unknown>;
  if (typeof date !== "string" || typeof assessmentDate !== "string" || typeof revision !== "number") return undefined;
  if (typeof low !== "number" || typeof mid !== "number" || typeof high !== "number") return undefined;
  return { date, assessmentDate, revision, low, mid, high };
}

function sameValues(a: RecordSide, b: RecordSide): boolean {
  return a.low === b.low && a.mid === b.mid && a.high === b.high;
}

/** Carried forward: published before the record's date (an assessment is published on its day, a correction later). */
function carried(record: RecordSide): boolean {
  return dateOfTimestamp(record.assessmentDate) < record.date;
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
    if (!carried(before) || dateOfTimestamp(after.assessmentDate) < after.date) return "correction";
    return before.date > fetchedOn && fetchedOn !== "" ? "new assessment" : "carried forward became assessed";
  }
  if (carried(before) && !carried(after)) return before.date > fetchedOn && fetchedOn !== "" ? "new assessment" : "carried forward became assessed";
  if (after.assessmentDate > before.assessmentDate) return "new assessment";
  // The same assessment, converted at another rate (convention 21: the rate of the assessment's own day).
  if (sameAssessment && id.split("|").length > 5) return "conversion rate";
  return "value changed";
}

/** Collects the changes of one refresh; `clear` starts the next. */
export class ChangeLog implements CacheObserver {
  private readonly changes = new Map<string, KeyChange>();

  private readonly fetchedOn = new Map<string, string>();

  replaced(id: string, previous: StoredEntry, next: StoredEntry, previousDay: string): void {
    const before = recordOf(previous);
    const after = recordOf(next);
    if (!before || !after) return;
    // Against the value the refresh started from: a second answer in one refresh keeps the first `before`.
    const known = this.changes.get(id);
    const first = known?.before ?? before;
    const day = known ? (this.fetchedOn.get(id) ?? previousDay) : previousDay;
    const reason = changeReason(id, first, after, day);
    if (reason === undefined) {
      this.changes.delete(id);
      return;
    }
    this.fetchedOn.set(id, day);
    this.changes.set(id, { ...keyParts(id), id, reason, before: first, after });
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
