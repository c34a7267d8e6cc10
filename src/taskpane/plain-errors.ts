/** Errors in plain words for the pane, and a short bounded list of the last ones. */
import { isAuthError, isHTTPError, isInvalidInstrumentError, isNetworkError, isNoDataError, isTimeoutError } from "../prices/errors";

export function plainWords(error: unknown): string {
  if (isAuthError(error)) return "You are not signed in, or your sign-in has ended. Sign in again from this pane.";
  if (isInvalidInstrumentError(error)) return `${error.symbol} is not an instrument you can see. Check the symbol in Search.`;
  if (isNoDataError(error)) return error.date ? `${error.symbol} has no assessment on or before ${error.date}.` : `${error.symbol} has no assessment yet.`;
  if (isTimeoutError(error)) return "The service did not answer in time. Try again in a moment.";
  if (isNetworkError(error)) return "The service could not be reached. Check your connection or the service address in Settings.";
  if (isHTTPError(error)) {
    if (error.status === 429) return "The service is busy (too many requests). The add-in waits and retries; try again shortly.";
    if (error.status >= 500) return `The service had a problem (status ${error.status}). Try again later.`;
    return `The service refused the request (status ${error.status}): ${error.problem?.detail ?? error.message}`;
  }
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
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
