/**
 * A value's stored form (format 5). A price record of the usual shape (date, assessment date, revision, low, mid, high,
 * and forward curve points of five fields, in that order) is kept as one flat JSON array without its field names:
 * `["2024-09-24","2024-09-24T17:33:44-05:00",0,458.16,461,463.83,"M1","OCT",462.78,465.65,468.51,…]`. That halves the
 * file and takes about a third off reading every value (docs/persistent-cache.md, "Format 5"). Any other value, or a
 * record with another field, stays as JSON; a stored price value that starts with `{` is one (format 4 wrote only those).
 * The rebuilt record passes the response checks like any other (stored-checks.ts): this form is no reader of its own.
 */
import type { KeyKind } from "../types";

const RECORD_FIELDS = ["date", "assessmentDate", "revision", "low", "mid", "high"] as const;
const POINT_FIELDS = ["forwardCode", "forwardMonth", "low", "mid", "high"] as const;
const RECORD_LENGTH = RECORD_FIELDS.length;
const POINT_LENGTH = POINT_FIELDS.length;

/** The value as stored: JSON text, a usual price record flat. */
export function storedValueText(kind: KeyKind, value: unknown): string {
  const flat = kind === "price" ? flatRecord(value) : undefined;
  return JSON.stringify(flat ?? value);
}

/** The value a stored text holds; throws as `JSON.parse` does on text that does not parse. */
export function storedValue(kind: KeyKind, text: string): unknown {
  const parsed: unknown = JSON.parse(text);
  return kind === "price" && Array.isArray(parsed) ? recordOfFlat(parsed) : parsed;
}

/** `fields` of `value`, in that order, and nothing else: what the flat form can give back exactly. */
function hasFields(value: object, fields: readonly string[], optional?: string): boolean {
  let index = 0;
  // Own keys in order, without an array per record (a cold open stores 20,000).
  for (const key in value) {
    if (index < fields.length ? key !== fields[index] : key !== optional || index !== fields.length) return false;
    index += 1;
  }
  return index >= fields.length;
}

function isScalar(value: unknown): boolean {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** A usual price record as a flat array, else undefined (stored as JSON instead). */
function flatRecord(value: unknown): unknown[] | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value) || !hasFields(value, RECORD_FIELDS, "forwardCurves")) return undefined;
  const record = value as Record<string, unknown>;
  const flat = RECORD_FIELDS.map((field) => record[field]);
  const curves = record.forwardCurves;
  if (curves !== undefined) {
    // An empty list would read back as no list at all.
    if (!Array.isArray(curves) || curves.length === 0) return undefined;
    for (const point of curves as unknown[]) {
      if (typeof point !== "object" || point === null || Array.isArray(point) || !hasFields(point, POINT_FIELDS)) return undefined;
      const fields = point as Record<string, unknown>;
      for (const field of POINT_FIELDS) flat.push(fields[field]);
    }
  }
  // Only strings and finite numbers: anything else would not read back as it was (undefined becomes null in an array).
  return flat.every(isScalar) ? flat : undefined;
}

/** The price record a flat array holds; undefined when its length fits no record (damaged: dropped as any bad line). */
function recordOfFlat(flat: readonly unknown[]): unknown {
  if (flat.length < RECORD_LENGTH || (flat.length - RECORD_LENGTH) % POINT_LENGTH !== 0) return undefined;
  // One literal per object, so that every record has one shape (as the client's own cache builds them).
  const record: Record<string, unknown> = { date: flat[0], assessmentDate: flat[1], revision: flat[2], low: flat[3], mid: flat[4], high: flat[5] };
  if (flat.length > RECORD_LENGTH) {
    const curves: unknown[] = [];
    for (let at = RECORD_LENGTH; at < flat.length; at += POINT_LENGTH) {
      curves.push({ forwardCode: flat[at], forwardMonth: flat[at + 1], low: flat[at + 2], mid: flat[at + 3], high: flat[at + 4] });
    }
    record.forwardCurves = curves;
  }
  return record;
}
