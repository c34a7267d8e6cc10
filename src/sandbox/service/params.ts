/**
 * Request parameters (conventions 2 to 5): names without regard to case, lists comma-separated,
 * repeated or both, blanks and empty items dropped. Query and form body are merged.
 */

/** Values of one parameter as received, before splitting. */
export interface RawParameter {
  /** The name as the caller first spelled it. */
  name: string;
  values: string[];
}

/** Parameters by lower-cased name. */
export type RawParams = Map<string, RawParameter>;

/** Reads fastify's query or a parsed body (`{ name: string | string[] }`) into `params`; anything else is skipped. */
export function addParams(params: RawParams, source: unknown): RawParams {
  if (source === null || typeof source !== "object") return params;
  for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (typeof item !== "string") continue;
      const key = name.toLowerCase();
      const entry = params.get(key);
      if (entry) entry.values.push(item);
      else params.set(key, { name, values: [item] });
    }
  }
  return params;
}

export function collectParams(...sources: unknown[]): RawParams {
  const params: RawParams = new Map();
  for (const source of sources) addParams(params, source);
  return params;
}

/** Every item of a list parameter: split on commas, trimmed, empties dropped (order kept, duplicates kept). */
export function listValues(params: RawParams, canonical: string): string[] {
  const entry = params.get(canonical.toLowerCase());
  if (!entry) return [];
  const items: string[] = [];
  for (const value of entry.values) {
    for (const part of value.split(",")) {
      const item = part.trim();
      if (item !== "") items.push(item);
    }
  }
  return items;
}

/** A single-valued parameter: trimmed, empties dropped; `conflict` when given twice with values that differ once normalised. */
export function singleValue(
  params: RawParams,
  canonical: string,
  normalise: (value: string) => string = (value) => value,
): { value: string | undefined; conflict: boolean } {
  const entry = params.get(canonical.toLowerCase());
  if (!entry) return { value: undefined, conflict: false };
  const distinct = new Set(entry.values.map((v) => v.trim()).filter((v) => v !== "").map(normalise));
  const [first] = distinct;
  return { value: first, conflict: distinct.size > 1 };
}

/** Keeps the first of items equal under `key`, in order. */
export function dedupe<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  const kept: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    kept.push(item);
  }
  return kept;
}

/** Longest single value (one item of a list) read at all (convention 8a). */
export const MAX_VALUE_LENGTH = 4096;
/** Most values of a single-valued parameter, and the floor of "far over" a list's limit. */
const MAX_REPEATS = 100;

/** Items a list may hold before it is refused unread: far over its limit (the limit is checked after reading). */
export function farOver(limit: number): number {
  return limit * 4 + MAX_REPEATS;
}

export interface OversizedParameter {
  parameter: string;
  message: string;
}

/**
 * Parameters too large to read, found by scanning the raw text once (no split, no copies): an item over
 * MAX_VALUE_LENGTH, or more items than `maxItems(name)` allows (lists; single-valued parameters count values).
 * Convention 8a: such a request is refused before any other work.
 */
export function oversizedParameters(params: RawParams, maxItems: (lowerName: string) => number): OversizedParameter[] {
  const found: OversizedParameter[] = [];
  for (const [key, entry] of params) {
    const limit = maxItems(key);
    let items = 0;
    let longest = 0;
    for (const value of entry.values) {
      let start = 0;
      for (let i = 0; i <= value.length; i++) {
        if (i < value.length && value.charCodeAt(i) !== 0x2c) continue;
        const length = i - start;
        if (length > longest) longest = length;
        if (length > 0) items++;
        start = i + 1;
      }
    }
    const name = key.length > 40 ? `${entry.name.slice(0, 40)}...` : entry.name;
    if (longest > MAX_VALUE_LENGTH) found.push({ parameter: name, message: `has a value of ${longest} characters, over the limit of ${MAX_VALUE_LENGTH}` });
    else if (items > limit) found.push({ parameter: name, message: `has ${items} items, far over what a request may hold (${limit})` });
  }
  return found;
}
