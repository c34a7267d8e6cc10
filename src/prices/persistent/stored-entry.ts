/**
 * The entry a loaded line reads back as, when a cell first reads it: the line's own digest (unless the file's digest
 * over every line held), its value from its stored form (stored-value.ts), and the same checks as the service's answers
 * (stored-checks.ts). A line that fails any of them reads as nothing: the cache drops it, counts it and asks again.
 */
import type { StoredEntry } from "../cache";
import { storedValueReads } from "./stored-checks";
import { KINDS, digestHolds } from "./stored-line";
import { storedValue } from "./stored-value";

/** What opening kept of a line: when it was stored, where its digest and value begin, whether the file vouched for it. */
export interface LineFields {
  readonly storedAt: number;
  readonly digestAt: number;
  readonly valueAt: number;
  readonly intact?: boolean;
}

/** The entry of line `id`; undefined when the line was edited, or its value does not parse or read. */
export function readEntry(id: string, line: string, loaded: LineFields, expiresAt: number): StoredEntry | undefined {
  if (loaded.intact !== true && !digestHolds(line, loaded)) return undefined;
  const kind = KINDS[id.slice(0, 1)] ?? "price";
  let value: unknown;
  try {
    value = storedValue(kind, line.slice(loaded.valueAt));
  } catch {
    return undefined;
  }
  if (!storedValueReads(kind, value)) return undefined;
  const entry: StoredEntry = { kind, value, storedAt: loaded.storedAt, expiresAt, bytes: 0 };
  if (kind !== "instruments" && kind !== "reference") {
    const end = id.indexOf("|", 2);
    entry.symbol = end < 0 ? id.slice(2) : id.slice(2, end);
  }
  return entry;
}
