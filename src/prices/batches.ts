/**
 * From a window of unique keys to service requests, and from each answer back to one value or Error per
 * key (the dataloader batch contract, applied per request so that cells fill as answers arrive).
 */
import { dateOfTimestamp, toEpochDay } from "../api/dates";
import { PATHS, type CalculationType, type InstrumentFieldName, type Limits } from "../api/vocabulary";
import { encodeParams } from "../api/requests";
import type { InstrumentRecord, PriceRecord } from "../api/schemas";
import { conversionLabel, type ConversionTarget } from "../api/conversion";
import { ConversionError, HTTPError, InvalidInstrumentError, NoDataError, PricesError, ResponseFormatError } from "./errors";
import type { NormHistoryKey, NormInstrumentKey, NormInstrumentsKey, NormKey, NormPriceKey, NormReferenceKey } from "./keys";
import { type Envelope, type PriceBlock, type RequestRef, checkCalculationType, projectInstrument, projectPrice, readEnvelope, readInstrument, readPriceBlock, readReferences } from "./parse";
import type { RequestSize } from "./learned-limits";
import { estimateHistoryRecords, type InstrumentCalendar } from "./history-estimate";
import { chunk, planDateLists } from "./plan";
import type { SymbolHistory } from "./types";

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
  answer(body: unknown, request: RequestRef): { results: (unknown | Error)[]; records: number };
  /** How a failure of the whole request reads for its keys, when it says more than the failure (a refused conversion). */
  refine?(error: unknown): unknown;
}

export interface PlanSettings {
  limits: Limits;
  maxOverfetch: number;
  /** An instrument's calendar when the client knows it (histories are estimated by it). */
  calendarOf?: (symbol: string) => InstrumentCalendar | undefined;
}

/** The batch contract's length check: one result per key, or the whole batch fails. */
export function checkBatch(results: unknown, keys: number): (unknown | Error)[] {
  if (!Array.isArray(results) || results.length !== keys) {
    throw new PricesError(`The batch answered ${Array.isArray(results) ? results.length : "no"} results for ${keys} keys`);
  }
  return results as (unknown | Error)[];
}

/** An item whose key is of one kind (the guard narrows the item, not only its key). */
function keyedAs<K extends NormKey["kind"]>(kind: K) {
  return <T extends Keyed>(item: T): item is T & Keyed<Extract<NormKey, { kind: K }>> => item.key.kind === kind;
}
const isPrice = keyedAs("price");
const isHistory = keyedAs("history");
const isInstrument = keyedAs("instrument");
const isInstrumentList = keyedAs("instruments");
const isReference = keyedAs("reference");

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

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Union of fields over the keys: records are the same count whatever the fields, so one request serves all. */
function unionFields<F extends string>(items: readonly Keyed<NormKey & { fields: readonly F[] }>[]): F[] {
  const union = new Set<F>();
  const add = (field: F): void => void union.add(field);
  items.forEach(({ key }) => key.fields.forEach(add));
  return [...union].sort();
}

function calcParam(type: CalculationType): CalculationType | undefined {
  return type === "None" ? undefined : type;
}

/** The conversion a group of keys asks (all keys of a request ask the same), or undefined. */
function targetOf(key: NormPriceKey | NormHistoryKey | undefined): ConversionTarget | undefined {
  if (key === undefined || (key.currency === undefined && key.unit === undefined)) return undefined;
  const target: ConversionTarget = {};
  if (key.currency !== undefined) target.currency = key.currency;
  if (key.unit !== undefined) target.unit = key.unit;
  return target;
}

function targetParams(target: ConversionTarget | undefined): { targetCurrency?: string; targetUnitOfMeasure?: string } {
  return { targetCurrency: target?.currency, targetUnitOfMeasure: target?.unit };
}

const TARGET_PARAMETERS = ["targetcurrency", "targetunitofmeasure"];

/** A 400 that names the conversion parameters: the service does not offer the conversion at all. */
function refineRefusal(target: ConversionTarget | undefined): ((error: unknown) => unknown) | undefined {
  if (target === undefined) return undefined;
  return (error) => {
    if (!(error instanceof HTTPError) || error.status !== 400) return error;
    const named = (error.problem?.errors ?? []).some((item) => TARGET_PARAMETERS.includes(item.parameter.toLowerCase()));
    const inDetail = /targetCurrency|targetUnitOfMeasure/i.test(error.problem?.detail ?? "");
    return named || inDetail ? new ConversionError(conversionLabel(target)) : error;
  };
}

/** Whether a block is in the target asked: a service that ignores the parameters must not pass unconverted values off as converted. */
function inTarget(block: { currencyId?: string; unitOfMeasureId?: string }, target: ConversionTarget): boolean {
  const same = (given: string | undefined, asked: string | undefined) => asked === undefined || given?.toUpperCase() === asked;
  return same(block.currencyId, target.currency) && same(block.unitOfMeasureId, target.unit) && (block.currencyId !== undefined || block.unitOfMeasureId !== undefined);
}

/** The error of a symbol listed in `invalidInstruments`: a conversion it lacks reads as such. */
function invalidError(symbol: string, message: string, target: ConversionTarget | undefined): Error {
  if (target !== undefined && /conversion/i.test(message)) return new ConversionError(conversionLabel(target), symbol, message);
  return new InvalidInstrumentError(symbol, message || undefined);
}

/** Parses blocks on first use, once, remembering failures so that only that symbol's keys fail. */
function blockReader(envelope: Envelope): (symbol: string) => PriceBlock | Error | undefined {
  const parsed = new Map<string, PriceBlock | Error>();
  return (symbol) => {
    const known = parsed.get(symbol);
    if (known) return known;
    const found = envelope.blocks.get(symbol);
    if (!found) return undefined;
    let result: PriceBlock | Error;
    try {
      result = readPriceBlock(envelope, found.raw, found.index);
    } catch (error) {
      result = error instanceof Error ? error : new Error(String(error));
    }
    parsed.set(symbol, result);
    return result;
  };
}

function countPriceRecords(envelope: Envelope): number {
  let total = 0;
  for (const { raw } of envelope.blocks.values()) {
    const prices = (raw as { prices?: unknown }).prices;
    if (Array.isArray(prices)) total += prices.length;
  }
  return total;
}

/** One symbol's asks in a window of dated keys: a cell per date column, and the distinct dates asked. */
interface DatedRow<T> {
  cells: (T | T[] | undefined)[];
  dates: string[];
}

/**
 * Dates are numbered once per window (a small map of distinct dates), and each symbol keeps its asks in
 * an array indexed by that number: pairs are deduplicated and found again without a map entry per key.
 */
function planDated<T extends Keyed<NormPriceKey>>(items: readonly T[], settings: PlanSettings): PlannedRequest<T>[] {
  const fields = unionFields(items);
  const calculationType = items[0]?.key.calculationType ?? "None";
  const target = targetOf(items[0]?.key);
  const refine = refineRefusal(target);
  const columns = new Map<string, number>();
  const columnDates: string[] = [];
  const rows = new Map<string, DatedRow<T>>();
  const datesBySymbol = new Map<string, string[]>();
  // Cells come row by row or column by column: remembering the last symbol and date saves most lookups.
  let lastSymbol: string | undefined;
  let row: DatedRow<T> | undefined;
  let lastDate: string | undefined;
  let column = 0;
  items.forEach((item) => {
    const symbol = item.key.symbol;
    const date = item.key.date ?? "";
    if (date !== lastDate) {
      lastDate = date;
      // A row asks the dates of the row before, in the same order: the next column is tried before the map (about 30 ns a key).
      const known = columnDates[column + 1] === date ? column + 1 : columns.get(date);
      if (known === undefined) {
        column = columns.size;
        columns.set(date, column);
        columnDates.push(date);
      } else column = known;
    }
    if (symbol !== lastSymbol || !row) {
      lastSymbol = symbol;
      row = rows.get(symbol);
      if (!row) {
        row = { cells: [], dates: [] };
        rows.set(symbol, row);
        datesBySymbol.set(symbol, row.dates);
      }
    }
    const asking = row.cells[column];
    if (asking === undefined) {
      row.cells[column] = item;
      row.dates.push(date);
    } else if (Array.isArray(asking)) asking.push(item);
    else row.cells[column] = [asking, item];
  });
  const requests: PlannedRequest<T>[] = [];
  const tiles = planDateLists(datesBySymbol, settings.limits, settings.maxOverfetch);
  for (const tile of tiles) {
    const tileColumns = tile.dates.map((date) => columns.get(date) ?? -1);
    const served: T[] = [];
    tile.symbols.forEach((symbol) => {
      const cells = rows.get(symbol)?.cells;
      if (!cells) return;
      tileColumns.forEach((index) => {
        const asking = cells[index];
        if (asking === undefined) return;
        if (Array.isArray(asking)) served.push(...asking);
        else served.push(asking);
        // Served once, even when a later (over-fetching) tile covers the pair again.
        if (tiles.length > 1) cells[index] = undefined;
      });
    });
    if (served.length === 0) continue;
    const params = encodeParams({ symbols: tile.symbols, dates: tile.dates, fields, priceCalculationType: calcParam(calculationType), ...targetParams(target) });
    const planned: PlannedRequest<T> = {
      endpoint: PATHS.prices,
      params,
      items: served,
      recordsRequested: tile.symbols.length * tile.dates.length,
      size: { symbols: tile.symbols.length, dates: tile.dates.length, records: tile.symbols.length * tile.dates.length },
      answer: (body, request) => answerPrices(body, request, served, fields.length, calculationType, target),
    };
    if (refine !== undefined) planned.refine = refine;
    requests.push(planned);
  }
  return requests;
}

/**
 * Finds a block's record of a date: by binary search when the records are in strictly ascending or
 * descending date order (/Prices answers in the order of the dates asked, which the planner sorts; a
 * history is served descending), so that no index is built per answer; otherwise through a map (the
 * last record of a date wins).
 */
export class RecordFinder {
  private index: Map<string, PriceRecord> | undefined;
  /** 1 ascending, -1 descending, 0 neither (or fewer than two records: either search works). */
  private readonly order: number;
  /** The index of the record found last. */
  private found = -1;

  constructor(private readonly prices: readonly PriceRecord[]) {
    let ascending = true;
    let descending = true;
    let before: string | undefined;
    for (const { date: after } of prices) {
      if (before !== undefined) {
        if (!(before < after)) ascending = false;
        if (!(before > after)) descending = false;
        if (!ascending && !descending) break;
      }
      before = after;
    }
    this.order = ascending ? 1 : descending ? -1 : 0;
  }

  find(date: string): PriceRecord | undefined {
    const prices = this.prices;
    if (this.order === 0) {
      if (!this.index) {
        this.index = new Map();
        for (const item of prices) this.index.set(item.date, item);
      }
      return this.index.get(date);
    }
    // A row of cells asks its dates in the order of the record before or after the last one found: two
    // comparisons instead of a search (about 0.1 us a key of the 10,000-key sheet).
    if (this.found >= 0 && (this.isAt(this.found + 1, date) || this.isAt(this.found - 1, date))) return prices[this.found];
    let low = 0;
    let high = prices.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const record = prices[middle];
      if (record === undefined) return undefined;
      if (record.date === date) {
        this.found = middle;
        return record;
      }
      // Move towards the date: right when the middle is before it in ascending order, or after it in descending.
      if (record.date < date === (this.order === 1)) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** True, and remembered as found, when the record at `index` is of the date. */
  private isAt(index: number, date: string): boolean {
    if (index < 0 || index >= this.prices.length || this.prices[index]?.date !== date) return false;
    this.found = index;
    return true;
  }

  /** The record of the latest date (the first of the greatest, as a scan from the front finds it). */
  latest(): PriceRecord | undefined {
    if (this.order === 1) return this.prices[this.prices.length - 1];
    if (this.order === -1) return this.prices[0];
    let latest: PriceRecord | undefined;
    for (const item of this.prices) if (!latest || item.date > latest.date) latest = item;
    return latest;
  }
}

/**
 * One result per item. Items of one symbol mostly come together, so the symbol's state (invalid,
 * parsed block, finder) is looked up once per run of items rather than once per item.
 */
function answerPrices(
  body: unknown,
  request: RequestRef,
  items: readonly Keyed<NormPriceKey>[],
  unionSize: number,
  calculationType: CalculationType,
  target: ConversionTarget | undefined,
): { results: (unknown | Error)[]; records: number } {
  const envelope = readEnvelope(body, request);
  checkCalculationType(envelope, calculationType, request);
  const block = blockReader(envelope);
  const finders = new Map<string, RecordFinder>();
  let symbol: string | undefined;
  let invalid: string | undefined;
  let parsed: PriceBlock | Error | undefined;
  let finder: RecordFinder | undefined;
  const results = items.map(({ key }): PriceRecord | Error => {
    if (key.symbol !== symbol) {
      symbol = key.symbol;
      invalid = envelope.invalid.get(symbol);
      parsed = invalid === undefined ? block(symbol) : undefined;
      finder = undefined;
      if (parsed && !(parsed instanceof Error) && parsed.prices.length > 0) {
        finder = finders.get(symbol);
        if (!finder) {
          finder = new RecordFinder(parsed.prices);
          finders.set(symbol, finder);
        }
      }
    }
    if (invalid !== undefined) return invalidError(key.symbol, invalid, target);
    if (parsed instanceof Error) return parsed;
    if (target !== undefined && parsed !== undefined && !inTarget(parsed, target)) return new ConversionError(conversionLabel(target));
    const record = finder === undefined ? undefined : key.date === undefined ? finder.latest() : finder.find(key.date);
    return record ? projectPrice(record, key.fields, unionSize) : new NoDataError(key.symbol, key.date);
  });
  return { results, records: countPriceRecords(envelope) };
}

function planLatest<T extends Keyed<NormPriceKey>>(items: readonly T[], limits: Limits): PlannedRequest<T>[] {
  const fields = unionFields(items);
  const calculationType = items[0]?.key.calculationType ?? "None";
  const target = targetOf(items[0]?.key);
  const refine = refineRefusal(target);
  const bySymbol = new Map<string, T[]>();
  for (const item of items) push(bySymbol, item.key.symbol, item);
  return chunk([...bySymbol.keys()], Math.min(limits.maxSymbols, limits.maxRecords)).map((symbols): PlannedRequest<T> => {
    const served = symbols.flatMap((symbol) => bySymbol.get(symbol) ?? []);
    const planned: PlannedRequest<T> = {
      endpoint: PATHS.prices,
      params: encodeParams({ symbols, fields, priceCalculationType: calcParam(calculationType), ...targetParams(target) }),
      items: served,
      recordsRequested: symbols.length,
      size: { symbols: symbols.length, dates: 0, records: symbols.length },
      answer: (body, request) => answerPrices(body, request, served, fields.length, calculationType, target),
    };
    if (refine !== undefined) planned.refine = refine;
    return planned;
  });
}

/**
 * Histories of one signature, as few requests as their estimates allow: symbols are packed in order while
 * their summed estimate (by each instrument's own calendar when the client knows it) fits `maxRecords`.
 */
function planHistory<T extends Keyed<NormHistoryKey>>(items: readonly T[], settings: PlanSettings): PlannedRequest<T>[] {
  const first = items[0]?.key;
  if (first === undefined) return [];
  const { limits } = settings;
  const fields = unionFields(items);
  const bySymbol = new Map<string, T[]>();
  for (const item of items) push(bySymbol, item.key.symbol, item);
  const target = targetOf(first);
  const refine = refineRefusal(target);
  const packs: { symbols: string[]; records: number; byCalendar: boolean }[] = [];
  for (const symbol of bySymbol.keys()) {
    const calendar = settings.calendarOf?.(symbol);
    const records = estimateHistoryRecords(first, calendar);
    const last = packs[packs.length - 1];
    if (last && last.symbols.length < limits.maxSymbols && last.records + records <= limits.maxRecords) {
      last.symbols.push(symbol);
      last.records += records;
      if (calendar) last.byCalendar = true;
    } else packs.push({ symbols: [symbol], records, byCalendar: calendar !== undefined });
  }
  return packs.map(({ symbols, records, byCalendar }): PlannedRequest<T> => {
    const served = symbols.flatMap((symbol) => bySymbol.get(symbol) ?? []);
    const params = encodeParams({
      symbols,
      fromDate: first.fromDate,
      toDate: first.toDate,
      calendarType: first.calendarType === "AssessmentDays" ? undefined : first.calendarType,
      carryForward: first.carryForward ? true : undefined,
      forecastType: first.forecastType,
      fields,
      priceCalculationType: calcParam(first.calculationType),
      ...targetParams(target),
    });
    const planned: PlannedRequest<T> = {
      endpoint: PATHS.history,
      params,
      items: served,
      recordsRequested: records,
      size: { symbols: symbols.length, dates: 0, records },
      recordsEstimated: true,
      sizedByCalendar: byCalendar,
      answer: (body, request) => answerHistory(body, request, served, fields.length, target),
    };
    if (refine !== undefined) planned.refine = refine;
    return planned;
  });
}

function answerHistory(
  body: unknown,
  request: RequestRef,
  items: readonly Keyed<NormHistoryKey>[],
  unionSize: number,
  target: ConversionTarget | undefined,
): { results: (unknown | Error)[]; records: number } {
  const envelope = readEnvelope(body, request, "calendar");
  const calculationType = items[0]?.key.calculationType ?? "None";
  checkCalculationType(envelope, calculationType, request);
  const calendar = envelope.calendar ?? new Set<string>();
  // With one instrument in the answer the calendar is that instrument's own: exact on its own.
  const alone = envelope.blocks.size === 1;
  const block = blockReader(envelope);
  const results = items.map(({ key }): SymbolHistory | Error => {
    const invalid = envelope.invalid.get(key.symbol);
    if (invalid !== undefined) return invalidError(key.symbol, invalid, target);
    const parsed = block(key.symbol);
    if (parsed instanceof Error) return parsed;
    if (target !== undefined && parsed !== undefined && !inTarget(parsed, target)) return new ConversionError(conversionLabel(target));
    if (!parsed) return new NoDataError(key.symbol, key.toDate, `${key.symbol}: no assessment from ${key.fromDate} to ${key.toDate}`);
    const assessedDates = calculationType === "None" ? assessedDatesOf(parsed.prices, calendar, alone) : new Set(parsed.prices.map((item) => item.date));
    const history: SymbolHistory = {
      symbol: parsed.symbol,
      firstDate: parsed.firstDate,
      lastDate: parsed.lastDate,
      prices: unionSize === key.fields.length ? parsed.prices : parsed.prices.map((item) => projectPrice(item, key.fields, unionSize)),
      assessedDates,
    };
    if (key.forecastType !== undefined && parsed.forecast) history.forecast = parsed.forecast;
    if (parsed.currencyId !== undefined) history.currencyId = parsed.currencyId;
    if (parsed.unitOfMeasureId !== undefined) history.unitOfMeasureId = parsed.unitOfMeasureId;
    return history;
  });
  return { results, records: countPriceRecords(envelope) };
}

/**
 * Days whose record is an assessment, not a carried-forward copy. A record is assessed when its date is
 * in the response's calendar and, when the calendar also covers other instruments, it is not a copy of
 * the same instrument's previous (older) record (same assessment time, revision and values). The oldest
 * record has no previous one in range: it is taken as carried when its assessment was made before its
 * date. Left ambiguous: an oldest record carried from a correction published on or after its date, on a
 * day another instrument of the batch was assessed (it counts as assessed).
 */
export function assessedDatesOf(prices: readonly PriceRecord[], calendar: ReadonlySet<string>, alone: boolean): Set<string> {
  const assessed = new Set<string>();
  const descending = prices.every((record, index) => index === 0 || (prices[index - 1]?.date ?? "") > record.date);
  const ordered = descending ? prices : [...prices].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  ordered.forEach((record, index) => {
    if (!calendar.has(record.date)) return;
    if (!alone) {
      const older = ordered[index + 1];
      if (older ? isCopy(record, older) : dateOfTimestamp(record.assessmentDate) < record.date) return;
    }
    assessed.add(record.date);
  });
  return assessed;
}

function isCopy(record: PriceRecord, older: PriceRecord): boolean {
  return record.assessmentDate === older.assessmentDate && record.revision === older.revision && record.low === older.low && record.mid === older.mid && record.high === older.high;
}

function planInstruments<T extends Keyed<NormInstrumentKey>>(items: readonly T[], limits: Limits): PlannedRequest<T>[] {
  const fields = unionFields<InstrumentFieldName>(items);
  const bySymbol = new Map<string, T[]>();
  for (const item of items) push(bySymbol, item.key.symbol, item);
  return chunk([...bySymbol.keys()], limits.maxSymbols).map((symbols): PlannedRequest<T> => {
    const served = symbols.flatMap((symbol) => bySymbol.get(symbol) ?? []);
    return {
      endpoint: PATHS.instruments,
      params: encodeParams({ symbols, fields }),
      items: served,
      recordsRequested: 0,
      size: { symbols: symbols.length, dates: 0, records: 0 },
      answer: (body, request) => {
        const envelope = readEnvelope(body, request);
        const parsed = new Map<string, InstrumentRecord | Error>();
        const results = served.map(({ key }): InstrumentRecord | Error => {
          const invalid = envelope.invalid.get(key.symbol);
          if (invalid !== undefined) return new InvalidInstrumentError(key.symbol, invalid || undefined);
          const found = envelope.blocks.get(key.symbol);
          if (!found) return new InvalidInstrumentError(key.symbol);
          let record = parsed.get(key.symbol);
          if (!record) {
            try {
              record = readInstrument(envelope, found.raw, found.index);
            } catch (error) {
              record = error instanceof Error ? error : new Error(String(error));
            }
            parsed.set(key.symbol, record);
          }
          return record instanceof Error ? record : projectInstrument(record, key.fields);
        });
        return { results, records: envelope.blocks.size };
      },
    };
  });
}

function planInstrumentList<T extends Keyed<NormInstrumentsKey>>(items: readonly T[]): PlannedRequest<T> {
  const fields = unionFields<InstrumentFieldName>(items);
  return {
    endpoint: PATHS.instruments,
    params: encodeParams({ fields }),
    items: [...items],
    recordsRequested: 0,
    size: { symbols: 0, dates: 0, records: 0 },
    answer: (body, request) => {
      const envelope = readEnvelope(body, request);
      const all = [...envelope.blocks.values()].sort((a, b) => a.index - b.index).map(({ raw, index }) => readInstrument(envelope, raw, index));
      const results = items.map(({ key }) => all.map((record) => projectInstrument(record, key.fields)));
      return { results, records: all.length };
    },
  };
}

function planReferences<T extends Keyed<NormReferenceKey>>(items: readonly T[]): PlannedRequest<T> {
  const types = [...new Set(items.map((item) => item.key.type))].sort();
  return {
    endpoint: PATHS.references,
    params: encodeParams({ types }),
    items: [...items],
    recordsRequested: 0,
    size: { symbols: 0, dates: 0, records: 0 },
    answer: (body, request) => {
      const groups = readReferences(body, request);
      const results = items.map(({ key }) => groups.get(key.type.toLowerCase()) ?? new ResponseFormatError(`references[type=${key.type}]`, "is missing", request));
      return { results, records: groups.size };
    },
  };
}

