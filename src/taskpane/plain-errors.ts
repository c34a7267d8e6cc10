/** Errors in plain words for the pane (the words a cell shows, from the functions, with what to do next), and a short bounded list of the last ones. */
import { describeFailure } from "../functions/errors";

/** What the pane can add to a cell's message: where to go next. */
const NEXT_STEP: ReadonlyMap<string, string> = new Map([
  ["InvalidInstrumentError", "Check the symbol in Search."],
  ["NetworkError", "Check your connection or the service address in Settings."],
  ["TimeoutError", "Try again in a moment."],
]);

export function plainWords(error: unknown): string {
  const { message } = describeFailure(error);
  const sentence = `${message.charAt(0).toUpperCase()}${message.slice(1)}${/[.!?]$/.test(message) ? "" : "."}`;
  const name = error instanceof Error ? error.name : undefined;
  const next = name === undefined ? undefined : NEXT_STEP.get(name);
  return next === undefined ? sentence : `${sentence} ${next}`;
}

export interface ErrorEntry {
  at: number;
  where: string;
  text: string;
}

export class ErrorLog {
  private readonly entries: ErrorEntry[] = [];
  constructor(private readonly max = 10) {}
  add(where: string, error: unknown, at = Date.now()): ErrorEntry {
    const entry = { at, where, text: plainWords(error) };
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
