/** Instant instrument search on the cached list: text as PRICES.INSTRUMENTS matches it, plus facet filters. */
import type { InstrumentRecord, ReferenceGroup } from "../api";
import { matchesWords, searchWords } from "../functions/instrument-search";

export const FILTER_KEYS = ["commodityId", "locationId", "currencyId", "unitOfMeasureId", "frequency", "status"] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type Filters = Partial<Record<FilterKey, string>>;

export const FILTER_LABELS: Record<FilterKey, string> = {
  commodityId: "Commodity",
  locationId: "Location",
  currencyId: "Currency",
  unitOfMeasureId: "Unit",
  frequency: "Frequency",
  status: "Status",
};

/** The full-name field that goes with each id filter (convention 17). */
const NAME_FIELD: Partial<Record<FilterKey, keyof InstrumentRecord>> = {
  commodityId: "commodity",
  locationId: "location",
  currencyId: "currency",
  unitOfMeasureId: "unitOfMeasure",
};

/** Reference type that names the ids of a filter, when there is one (locations have none). */
const REFERENCE_OF: Partial<Record<FilterKey, string>> = {
  commodityId: "Commodity",
  currencyId: "Currency",
  unitOfMeasureId: "UnitOfMeasure",
};

/** The rule of PRICES.INSTRUMENTS: every word in the symbol, the descriptions or an id (functions/instrument-search.ts). */
export function matchesText(instrument: InstrumentRecord, query: string): boolean {
  return matchesWords(instrument, searchWords(query));
}

export function matchesFilters(instrument: InstrumentRecord, filters: Filters): boolean {
  return FILTER_KEYS.every((key) => {
    const wanted = filters[key];
    return wanted === undefined || wanted === "" || instrument[key] === wanted;
  });
}

/** Filters and ranks: symbols starting with the query first, then alphabetical by symbol. */
export function searchInstruments(list: readonly InstrumentRecord[], query: string, filters: Filters, limit = Infinity): InstrumentRecord[] {
  const first = searchWords(query)[0] ?? "";
  const found = list.filter((i) => matchesText(i, query) && matchesFilters(i, filters));
  found.sort((a, b) => {
    const pa = first !== "" && a.symbol.toLowerCase().startsWith(first) ? 0 : 1;
    const pb = first !== "" && b.symbol.toLowerCase().startsWith(first) ? 0 : 1;
    return pa - pb || a.symbol.localeCompare(b.symbol);
  });
  return found.slice(0, limit);
}

export interface FacetOption {
  value: string;
  label: string;
  count: number;
}

/** The values a filter can take in the list, each with a readable label and how many instruments have it. */
export function facetOptions(list: readonly InstrumentRecord[], key: FilterKey, references: readonly ReferenceGroup[] = []): FacetOption[] {
  const group = references.find((g) => g.type === REFERENCE_OF[key]);
  const counts = new Map<string, { count: number; label: string }>();
  for (const instrument of list) {
    const value = instrument[key];
    const nameField = NAME_FIELD[key];
    const fullName = nameField ? instrument[nameField] : undefined;
    const refName = group?.items.find((item) => item.id === value)?.description;
    const label = typeof fullName === "string" ? fullName : refName ?? value;
    const entry = counts.get(value);
    if (entry) entry.count++;
    else counts.set(value, { count: 1, label: label === value ? value : `${label} (${value})` });
  }
  return [...counts.entries()]
    .map(([value, { count, label }]) => ({ value, label, count }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Reference items matching text in id or description. */
export function searchReferences(group: ReferenceGroup, query: string): ReferenceGroup["items"] {
  const words = searchWords(query);
  return group.items.filter((item) => {
    const haystack = `${item.id}\n${item.description}\n${item.sign}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}
