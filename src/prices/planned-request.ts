/**
 * What a planner hands the batch function: a request with the very keys it answers, in order, and how its
 * answer becomes one value or Error per key (the dataloader batch contract); and the helpers every planner
 * of an endpoint family (prices-requests.ts, history-requests.ts, metadata-requests.ts) shares.
 */
import type { CalculationType, Limits } from "../api/vocabulary";
import { PricesError } from "./errors";
import type { NormKey } from "./keys";
import type { RequestSize } from "./learned-limits";
import type { InstrumentCalendar } from "./history-estimate";
import type { RequestRef } from "./parse";

/** What the planner groups: anything that carries a key (the client passes its pending asks, so no lookup maps them back). */
export interface Keyed<K extends NormKey = NormKey> {
  readonly key: K;
}

export interface PlannedRequest<T extends Keyed = Keyed> {
  endpoint: string;
  params: URLSearchParams;
  /** The items (keys) this request answers, in the order `answer` returns their results; the very objects planned. */
  items: T[];
  /** Price records asked of the service (symbols x dates, or an estimate for histories). */
  recordsRequested: number;
  /** What the request asks in each of the service's three limits (learned-limits.ts). */
  size: RequestSize;
  /** True when `size.records` is an upper estimate (a history), not a count. */
  recordsEstimated?: boolean;
  /** True when an instrument's own calendar sized it (history-estimate.ts): a refusal may mean the service counts otherwise. */
  sizedByCalendar?: boolean;
  /** One value or Error per key, in order. `records` counts what the body held. */
  answer(body: unknown, request: RequestRef): { results: unknown[]; records: number };
  /** How a failure of the whole request reads for its keys, when it says more than the failure (a refused conversion). */
  refine?(error: unknown): unknown;
}

export interface PlanSettings {
  limits: Limits;
  maxOverfetch: number;
  /** An instrument's calendar when the client knows it (histories are estimated by it). */
  calendarOf?: (symbol: string) => InstrumentCalendar | undefined;
}

/** The batch contract's length check: one result (a value or an Error) per key, or the whole batch fails. */
export function checkBatch(results: unknown, keys: number): unknown[] {
  if (!Array.isArray(results) || results.length !== keys) {
    throw new PricesError(`The batch answered ${Array.isArray(results) ? results.length : "no"} results for ${keys} keys`);
  }
  return results as unknown[];
}

/** An item whose key is of one kind (the guard narrows the item, not only its key). */
export function keyedAs<K extends NormKey["kind"]>(kind: K) {
  return <T extends Keyed>(item: T): item is T & Keyed<Extract<NormKey, { kind: K }>> => item.key.kind === kind;
}
export const isPrice = keyedAs("price");
export const isHistory = keyedAs("history");
export const isInstrument = keyedAs("instrument");
export const isInstrumentList = keyedAs("instruments");
export const isReference = keyedAs("reference");

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Union of fields over the keys: records are the same count whatever the fields, so one request serves all. */
export function unionFields<F extends string>(items: readonly Keyed<NormKey & { fields: readonly F[] }>[]): F[] {
  const union = new Set<F>();
  const add = (field: F): void => void union.add(field);
  items.forEach(({ key }) => { key.fields.forEach(add); });
  return [...union].sort();
}

export function calcParam(type: CalculationType): CalculationType | undefined {
  return type === "None" ? undefined : type;
}
