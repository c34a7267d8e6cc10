/** Field access on a data-type cell as Excel writes it, `A2.Mid` or `A2.[Launch date]`: the reference and the field. */
import { readReference } from "./a1";

/** The last `.name` or `.[any text]` (`]]` for a `]` inside brackets); the reference before it is checked apart. */
const FIELD_ACCESS = /^(.+)\.(?:([A-Za-z_][A-Za-z0-9_]*)|\[((?:[^\]]|\]\])+)\])$/;

export interface FieldAccess {
  /** The reference as written, e.g. `Sheet1!A2`. */
  readonly target: string;
  readonly field: string;
}

/** `A2.Mid` read as reference and field; undefined for anything else (a defined name with a dot stays a name). */
export function fieldAccessOf(written: string): FieldAccess | undefined {
  const match = FIELD_ACCESS.exec(written);
  if (!match) return undefined;
  const [, target = "", plain, bracketed] = match;
  const reference = readReference(target, 0);
  if (reference === undefined || reference.text.length !== target.length) return undefined;
  return { target, field: plain ?? (bracketed ?? "").replace(/\]\]/g, "]") };
}
