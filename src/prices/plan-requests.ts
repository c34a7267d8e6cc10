/**
 * From a window of unique keys to service requests: keys grouped by kind and signature, each group planned by
 * its endpoint family (prices-requests.ts, history-requests.ts, metadata-requests.ts). Every request's
 * answer settles one value or Error per key (planned-request.ts), so that cells fill as answers arrive.
 */
import type { NormHistoryKey, NormInstrumentKey, NormInstrumentsKey, NormPriceKey, NormReferenceKey } from "./keys";
import { planHistory } from "./history-requests";
import { planInstrumentList, planInstruments, planReferences } from "./metadata-requests";
import { type Keyed, type PlanSettings, type PlannedRequest, isHistory, isInstrument, isInstrumentList, isPrice, isReference, push } from "./planned-request";
import { planDated, planLatest } from "./prices-requests";

export { type Keyed, type PlanSettings, type PlannedRequest, checkBatch } from "./planned-request";
export { RecordFinder } from "./prices-requests";
export { assessedDatesOf } from "./history-requests";

/** Groups keys by kind and signature and plans the fewest requests for each group; hands back the items given. */
export function planRequests<T extends Keyed>(items: readonly T[], settings: PlanSettings): PlannedRequest<T>[] {
  // The common window, a sheet of dated prices of one calculation type, is planned as given (no grouping).
  const first = items[0];
  if (first === undefined) return [];
  const group = isPrice(first) ? first.key.group : undefined;
  const sameGroup = (item: T): item is T & Keyed<NormPriceKey> => isPrice(item) && item.key.date !== undefined && item.key.group === group;
  if (group !== undefined && items.every(sameGroup)) return planDated(items, settings);
  // Price keys group by date or none, then by calculation type and conversion (`group`).
  const dated = new Map<string, (T & Keyed<NormPriceKey>)[]>();
  const latest = new Map<string, (T & Keyed<NormPriceKey>)[]>();
  const histories = new Map<string, (T & Keyed<NormHistoryKey>)[]>();
  const instruments: (T & Keyed<NormInstrumentKey>)[] = [];
  const lists: (T & Keyed<NormInstrumentsKey>)[] = [];
  const references: (T & Keyed<NormReferenceKey>)[] = [];
  for (const item of items) {
    if (isPrice(item)) push(item.key.date === undefined ? latest : dated, item.key.group, item);
    else if (isHistory(item)) push(histories, item.key.options, item);
    else if (isInstrument(item)) instruments.push(item);
    else if (isInstrumentList(item)) lists.push(item);
    else if (isReference(item)) references.push(item);
  }
  // Every request's items are objects of `items`, passed through untouched.
  const requests: PlannedRequest<T>[] = [];
  for (const group of dated.values()) requests.push(...planDated(group, settings));
  for (const group of latest.values()) requests.push(...planLatest(group, settings.limits));
  for (const group of histories.values()) requests.push(...planHistory(group, settings));
  if (instruments.length > 0) requests.push(...planInstruments(instruments, settings.limits));
  if (lists.length > 0) requests.push(planInstrumentList(lists));
  if (references.length > 0) requests.push(planReferences(references));
  return requests;
}
