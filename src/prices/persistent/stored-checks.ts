/**
 * One reader for everything that enters a cell: a value read back from the persistent cache passes the same compiled
 * checks as the service's answers (src/prices/response-checks.js) before a cell sees it. A line edited on disk to
 * `"mid":"abc"` fails here, is dropped and its key asked again, exactly like an answer the reader refuses.
 */
import type { KeyKind } from "../types";
import { checkInstrument, checkPriceBlock, checkReferences } from "../response-checks";

/** A block's dates, for checking a lone price record as the one record of a block (the check reads no more of them). */
const SOME_INSTANT = "2000-01-01T00:00:00Z";
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a stored value of this kind reads as the service's answer would (a price record, a history's block, an instrument, a reference group). */
export function storedValueReads(kind: KeyKind, value: unknown): boolean {
  switch (kind) {
    case "price":
      return isObject(value) && checkPriceBlock({ symbol: "X", firstDate: SOME_INSTANT, lastDate: SOME_INSTANT, prices: [value] });
    case "history": {
      if (!isObject(value)) return false;
      const { assessedDates, ...block } = value;
      return Array.isArray(assessedDates) && assessedDates.every((day) => typeof day === "string" && ISO_DAY.test(day)) && checkPriceBlock(block);
    }
    case "instrument":
      return checkInstrument(value);
    case "instruments":
      return Array.isArray(value) && value.every((item) => checkInstrument(item));
    case "reference":
      return checkReferences({ references: [value] });
  }
}
