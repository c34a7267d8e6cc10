/** The one JSON guard: an object read from JSON (not null, not an array), its fields still to be checked. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
