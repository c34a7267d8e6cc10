/**
 * What PRICES.INSTRUMENTS and the pane's search match, one rule for both: every word of the search must appear
 * (any case, US or British spelling: aluminum finds aluminium) in the symbol, the product id, the description, the
 * short description or one of the ids (commodity, location, currency, unit, incoterm, source). Not in the frequency, status or price type: "weekly" finds weekly products by
 * their description, not every instrument assessed weekly. When nothing matches, `noMatchReason` says why: a likely
 * typo (with the close words the caller's instruments do hold), or a commodity outside the caller's entitlement.
 */
import type { InstrumentRecord, ReferenceGroup } from "../api";

/** The fields a search looks in, in the words of the documentation. */
export const SEARCHED_FIELDS = ["symbol", "productId", "description", "descriptionShort", "commodityId", "locationId", "currencyId", "unitOfMeasureId", "incotermId", "sourceId"] as const;

export function searchWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter((word) => word !== "");
}

function haystack(record: InstrumentRecord): string {
  return SEARCHED_FIELDS.map((field) => record[field]).join("\n").toLowerCase();
}

/** Spellings that differ between US and British English in commodity names, either way round. */
const SPELLINGS: readonly (readonly [string, string])[] = [
  ["aluminum", "aluminium"],
  ["sulfur", "sulphur"],
  ["fiber", "fibre"],
  ["liter", "litre"],
  ["meter", "metre"],
  ["gray", "grey"],
];

/** The word and its other spellings (aluminum, aluminium). */
export function spellings(word: string): string[] {
  const found = new Set([word]);
  for (const [us, uk] of SPELLINGS) {
    if (word.includes(us)) found.add(word.replace(us, uk));
    if (word.includes(uk)) found.add(word.replace(uk, us));
  }
  return [...found];
}

/** Every word appears in one of the searched fields (in one of its spellings). */
export function matchesWords(record: InstrumentRecord, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const text = haystack(record);
  return words.every((word) => spellings(word).some((spelling) => text.includes(spelling)));
}

/** The family of a symbol-like word (`ag-whe-0058` -> `AG-`), or undefined for another word. */
function symbolFamily(word: string): string | undefined {
  return /^([a-z]{2,4})-[a-z0-9]+-[a-z0-9]+$/.exec(word)?.[1]?.toUpperCase().concat("-");
}

/** Optimal string alignment distance (a swap of two neighbours counts one), stopping early past `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (before[j - 2] ?? 0) + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** How far a word may be from a suggestion: one edit for short words, two from 5 letters, three from 9. */
const tolerance = (word: string): number => (word.length >= 9 ? 3 : word.length >= 5 ? 2 : 1);

/** Close words of the caller's own instruments for a word that finds nothing, nearest first (at most `max`). */
export function closeWords(list: readonly InstrumentRecord[], word: string, max = 3): string[] {
  const vocabulary = new Set<string>();
  for (const record of list) for (const token of haystack(record).split(/[^a-z0-9.-]+/)) if (token.length >= 3) vocabulary.add(token);
  const limit = tolerance(word);
  return [...vocabulary]
    .map((candidate) => ({ candidate, distance: editDistance(word, candidate, limit) }))
    .filter((c) => c.distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, max)
    .map((c) => c.candidate);
}

const quoted = (text: string): string => `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;

function listOf(names: readonly string[], max = 5): string {
  const shown = names.slice(0, max);
  return names.length > max ? `${shown.join(", ")} and ${names.length - max} more` : shown.join(", ");
}

/**
 * Why `query` finds none of `list` (the caller's instruments): words that match nothing, with close words the list
 * holds ("alumnium": did you mean aluminium?); a word naming a commodity the caller does not see (from the Commodity
 * reference list, which lists every commodity); else the fields searched.
 */
export function noMatchReason(list: readonly InstrumentRecord[], query: string, commodities?: ReferenceGroup): string {
  if (list.length === 0) return "no instrument is available to your account";
  const words = searchWords(query);
  const lost = words.filter((word) => !list.some((record) => matchesWords(record, [word])));
  const parts = [`no instrument you may see matches ${quoted(query.trim())}`];
  const seen = new Set(list.map((record) => record.commodityId));
  const nameOf = (id: string): string => commodities?.items.find((item) => item.id === id)?.description ?? id;
  const families = [...new Set(list.map((record) => /^([A-Za-z]{2,4}-)/.exec(record.symbol)?.[1]?.toUpperCase() ?? ""))].filter((f) => f !== "").sort();
  for (const word of lost) {
    const family = symbolFamily(word);
    if (family !== undefined && !families.includes(family)) {
      parts.push(`${quoted(word.toUpperCase())} is a symbol of the ${family} family, outside your account's entitlement: it sees ${listOf(families.map((f) => `${f} instruments`))} only`);
      continue;
    }
    const outside = commodities?.items.find((item) => !seen.has(item.id) && (item.id.toLowerCase().includes(word) || item.description.toLowerCase().includes(word)));
    if (outside) {
      parts.push(`${quoted(word)} is the commodity ${outside.description}, which your account does not see: it sees ${list.length} instruments of ${listOf([...seen].map(nameOf).sort())} only`);
      continue;
    }
    const close = closeWords(list, word);
    parts.push(close.length > 0 ? `nothing holds ${quoted(word)}: did you mean ${close.join(" or ")}?` : `nothing holds ${quoted(word)}`);
  }
  if (lost.length === 0) parts.push("each word is found, but in no one instrument together: use fewer words");
  parts.push("(searched: symbol, description and ids)");
  return parts.join("; ").replace("; (searched", " (searched");
}
