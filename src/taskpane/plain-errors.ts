/** Errors in plain words for the pane (the words a cell shows, from the functions, with what to do next), and a short bounded list of the last ones. */
import { describeFailure } from "../functions/errors";

/** What the pane can add to a cell's message: where to go next. */
const NEXT_STEP: ReadonlyMap<string, string> = new Map([
  ["InvalidInstrumentError", "Check the symbol in Search."],
  ["NetworkError", "Check your connection or the service address in Settings."],
  ["TimeoutError", "Try again in a moment."],
]);

/** Errors of a family that concern other things than the one the next step names (a known symbol lacking a calculation type). */
const NEXT_STEP_ONLY_WHEN: ReadonlyMap<string, RegExp> = new Map([["InvalidInstrumentError", /unknown or not permitted symbol/i]]);

export function plainWords(error: unknown): string {
  const { message } = describeFailure(error);
  const sentence = `${message.charAt(0).toUpperCase()}${message.slice(1)}${/[.!?]$/.test(message) ? "" : "."}`;
  const name = error instanceof Error ? error.name : undefined;
  const next = name === undefined ? undefined : NEXT_STEP.get(name);
  const applies = name === undefined || (NEXT_STEP_ONLY_WHEN.get(name)?.test(message) ?? true);
  return next === undefined || !applies ? sentence : `${sentence} ${next}`;
}

export interface ErrorEntry {
  /** The last time it happened. */
  at: number;
  where: string;
  text: string;
  /** How many times it happened (a cell recalculated, a cached error answered again). */
  count: number;
}

/** The last errors, newest first, each listed once: the same error again moves to the top and counts. */
export class ErrorLog {
  private readonly entries: ErrorEntry[] = [];
  constructor(private readonly max = 10) {}
  add(where: string, error: unknown, at = Date.now()): ErrorEntry {
    const text = plainWords(error);
    const index = this.entries.findIndex((e) => e.where === where && e.text === text);
    const earlier = index >= 0 ? this.entries.splice(index, 1)[0] : undefined;
    const entry = { at, where, text, count: (earlier?.count ?? 0) + 1 };
    this.entries.unshift(entry);
    this.entries.length = Math.min(this.entries.length, this.max);
    return entry;
  }
  list(): readonly ErrorEntry[] {
    return this.entries;
  }
  clear(): void {
    this.entries.length = 0;
  }
}
