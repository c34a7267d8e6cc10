/**
 * From a window of unique keys to service requests, and from each answer back to one value or Error per
 * key (the dataloader batch contract, applied per request so that cells fill as answers arrive).
 */
import { dateOfTimestamp, toEpochDay } from "../api/dates";
import { PATHS, type CalculationType, type InstrumentFieldName, type Limits } from "../api/vocabulary";
import { encodeParams } from "../api/requests";
import type { InstrumentRecord, PriceRecord } from "../api/schemas";
import { InvalidInstrumentError, NoDataError, PricesError, ResponseFormatError } from "./errors";
import type { NormHistoryKey, NormInstrumentKey, NormInstrumentsKey, NormKey, NormPriceKey, NormReferenceKey } from "./keys";
import { type Envelope, type PriceBlock, type RequestRef, checkCalculationType, projectInstrument, projectPrice, readEnvelope, readInstrument, readPriceBlock, readReferences } from "./parse";
import { chunk, planPairs } from "./plan";
import type { SymbolHistory } from "./types";

export interface PlannedRequest {
  endpoint: string;
  params: URLSearchParams;
  /** The keys this request answers, in the order `answer` returns their results. */
  keys: NormKey[];
  /** Price records asked of the service (symbols x dates, or an estimate for histories). */
  recordsRequested: number;
  /** One value or Error per key, in order. `records` counts what the body held. */
  answer(body: unknown, request: RequestRef): { results: (unknown | Error)[]; records: number };
}

export interface PlanSettings {
  limits: Limits;
  maxOverfetch: number;
}

/** The batch contract's length check: one result per key, or the whole batch fails. */
export function checkBatch(results: unknown, keys: number): (unknown | Error)[] {
  if (!Array.isArray(results) || results.length !== keys) {
    throw new PricesError(`The batch answered ${Array.isArray(results) ? results.length : "no"} results for ${keys} keys`);
  }
  return results as (unknown | Error)[];
}

/** Groups keys by kind and signature and plans the fewest requests for each group. */
export function planRequests(keys: readonly NormKey[], settings: PlanSettings): PlannedRequest[] {
  const dated = new Map<CalculationType, NormPriceKey[]>();
  const latest = new Map<CalculationType, NormPriceKey[]>();
  const histories = new Map<string, NormHistoryKey[]>();
  const instruments: NormInstrumentKey[] = [];
  const lists: NormInstrumentsKey[] = [];
  const references: NormReferenceKey[] = [];
  for (const key of keys) {
    switch (key.kind) {
      case "price":
        push(key.date === undefined ? latest : dated, key.calculationType, key);
        break;
      case "history":
        push(histories, key.options, key);
        break;
      case "instrument":
        instruments.push(key);
        break;
      case "instruments":
        lists.push(key);
        break;
      case "reference":
        references.push(key);
        break;
    }
  }
  const requests: PlannedRequest[] = [];
  for (const group of dated.values()) requests.push(...planDated(group, settings));
  for (const group of latest.values()) requests.push(...planLatest(group, settings.limits));
  for (const group of histories.values()) requests.push(...planHistory(group, settings.limits));
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
function unionFields<F extends string>(keys: readonly { fields: readonly F[] }[]): F[] {
  const union = new Set<F>();
  for (const key of keys) for (const field of key.fields) union.add(field);
  return [...union].sort();
}

function calcParam(type: CalculationType): CalculationType | undefined {
  return type === "None" ? undefined : type;
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

function planDated(keys: readonly NormPriceKey[], settings: PlanSettings): PlannedRequest[] {
  const fields = unionFields(keys);
  const calculationType = keys[0]?.calculationType ?? "None";
  // symbol -> date -> the key asking that pair, or keys when their fields differ
  const byPair = new Map<string, Map<string, NormPriceKey | NormPriceKey[]>>();
  const bySymbol = new Map<string, Set<string>>();
  for (const key of keys) {
    const date = key.date as string;
    let dates = byPair.get(key.symbol);
    if (!dates) {
      dates = new Map();
      byPair.set(key.symbol, dates);
      bySymbol.set(key.symbol, new Set());
    }
    const asking = dates.get(date);
    if (asking === undefined) dates.set(date, key);
    else if (Array.isArray(asking)) asking.push(key);
    else dates.set(date, [asking, key]);
    bySymbol.get(key.symbol)?.add(date);
  }
  const requests: PlannedRequest[] = [];
  for (const tile of planPairs(bySymbol, settings.limits, settings.maxOverfetch)) {
    const served: NormPriceKey[] = [];
    for (const symbol of tile.symbols) {
      const dates = byPair.get(symbol);
      if (!dates) continue;
      for (const date of tile.dates) {
        const asking = dates.get(date);
        if (asking === undefined) continue;
        if (Array.isArray(asking)) served.push(...asking);
        else served.push(asking);
        dates.delete(date);
      }
    }
    if (served.length === 0) continue;
    const params = encodeParams({ symbols: tile.symbols, dates: tile.dates, fields, priceCalculationType: calcParam(calculationType) });
    requests.push({
      endpoint: PATHS.prices,
      params,
      keys: served,
      recordsRequested: tile.symbols.length * tile.dates.length,
      answer: (body, request) => answerPrices(body, request, served, fields.length, calculationType),
    });
  }
  return requests;
}

function answerPrices(body: unknown, request: RequestRef, keys: readonly NormPriceKey[], unionSize: number, calculationType: CalculationType): { results: (unknown | Error)[]; records: number } {
  const envelope = readEnvelope(body, request);
  checkCalculationType(envelope, calculationType, request);
  const block = blockReader(envelope);
  const byDate = new Map<string, Map<string, PriceRecord>>();
  const results = keys.map((key): PriceRecord | Error => {
    const invalid = envelope.invalid.get(key.symbol);
    if (invalid !== undefined) return new InvalidInstrumentError(key.symbol, invalid || undefined);
    const parsed = block(key.symbol);
    if (parsed instanceof Error) return parsed;
    if (!parsed || parsed.prices.length === 0) return new NoDataError(key.symbol, key.date);
    let record: PriceRecord | undefined;
    if (key.date === undefined) {
      record = parsed.prices.reduce((latest, item) => (item.date > latest.date ? item : latest));
    } else {
      let dates = byDate.get(key.symbol);
      if (!dates) {
        dates = new Map();
        for (const item of parsed.prices) dates.set(item.date, item);
        byDate.set(key.symbol, dates);
      }
      record = dates.get(key.date);
    }
    return record ? projectPrice(record, key.fields, unionSize) : new NoDataError(key.symbol, key.date);
  });
  return { results, records: countPriceRecords(envelope) };
}

function planLatest(keys: readonly NormPriceKey[], limits: Limits): PlannedRequest[] {
  const fields = unionFields(keys);
  const calculationType = keys[0]?.calculationType ?? "None";
  const bySymbol = new Map<string, NormPriceKey[]>();
  for (const key of keys) push(bySymbol, key.symbol, key);
  return chunk([...bySymbol.keys()], Math.min(limits.maxSymbols, limits.maxRecords)).map((symbols): PlannedRequest => {
    const served = symbols.flatMap((symbol) => bySymbol.get(symbol) ?? []);
    return {
      endpoint: PATHS.prices,
      params: encodeParams({ symbols, fields, priceCalculationType: calcParam(calculationType) }),
      keys: served,
      recordsRequested: symbols.length,
      answer: (body, request) => answerPrices(body, request, served, fields.length, calculationType),
    };
  });
}

const PERIOD_DAYS: Record<CalculationType, number> = { None: 1, WeeklyAverage: 7, MonthlyAverage: 28, QuarterlyAverage: 90, YearlyAverage: 365 };

/**
 * Upper bound of the records one symbol's history returns: every calendar day in range (assessment
 * days and weekdays are fewer), or one per period, plus one, for averages.
 */
export function estimateHistoryRecords(key: Pick<NormHistoryKey, "fromDate" | "toDate" | "calculationType">): number {
  const days = toEpochDay(key.toDate) - toEpochDay(key.fromDate) + 1;
  return Math.max(1, Math.ceil(days / PERIOD_DAYS[key.calculationType]) + (key.calculationType === "None" ? 0 : 1));
}

function planHistory(keys: readonly NormHistoryKey[], limits: Limits): PlannedRequest[] {
  const first = keys[0] as NormHistoryKey;
  const fields = unionFields(keys);
  const bySymbol = new Map<string, NormHistoryKey[]>();
  for (const key of keys) push(bySymbol, key.symbol, key);
  const perSymbol = estimateHistoryRecords(first);
  const size = Math.max(1, Math.min(limits.maxSymbols, Math.floor(limits.maxRecords / perSymbol)));
  return chunk([...bySymbol.keys()], size).map((symbols): PlannedRequest => {
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
    });
    return {
      endpoint: PATHS.history,
      params,
      keys: served,
      recordsRequested: symbols.length * perSymbol,
      answer: (body, request) => answerHistory(body, request, served, fields.length),
    };
  });
}

function answerHistory(body: unknown, request: RequestRef, keys: readonly NormHistoryKey[], unionSize: number): { results: (unknown | Error)[]; records: number } {
  const envelope = readEnvelope(body, request, "calendar");
  const calculationType = keys[0]?.calculationType ?? "None";
  checkCalculationType(envelope, calculationType, request);
  const calendar = envelope.calendar ?? new Set<string>();
  // With one instrument in the answer the calendar is that instrument's own: exact on its own.
  const alone = envelope.blocks.size === 1;
  const block = blockReader(envelope);
  const results = keys.map((key): SymbolHistory | Error => {
    const invalid = envelope.invalid.get(key.symbol);
    if (invalid !== undefined) return new InvalidInstrumentError(key.symbol, invalid || undefined);
    const parsed = block(key.symbol);
    if (parsed instanceof Error) return parsed;
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
  let ordered = prices;
  for (let index = 1; index < prices.length; index += 1) {
    if ((prices[index - 1] as PriceRecord).date <= (prices[index] as PriceRecord).date) {
      ordered = [...prices].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
      break;
    }
  }
  for (let index = 0; index < ordered.length; index += 1) {
    const record = ordered[index] as PriceRecord;
    if (!calendar.has(record.date)) continue;
    if (!alone) {
      const older = ordered[index + 1];
      if (older ? isCopy(record, older) : dateOfTimestamp(record.assessmentDate) < record.date) continue;
    }
    assessed.add(record.date);
  }
  return assessed;
}

function isCopy(record: PriceRecord, older: PriceRecord): boolean {
  return record.assessmentDate === older.assessmentDate && record.revision === older.revision && record.low === older.low && record.mid === older.mid && record.high === older.high;
}

function planInstruments(keys: readonly NormInstrumentKey[], limits: Limits): PlannedRequest[] {
  const fields = unionFields<InstrumentFieldName>(keys);
  const bySymbol = new Map<string, NormInstrumentKey[]>();
  for (const key of keys) push(bySymbol, key.symbol, key);
  return chunk([...bySymbol.keys()], limits.maxSymbols).map((symbols): PlannedRequest => {
    const served = symbols.flatMap((symbol) => bySymbol.get(symbol) ?? []);
    return {
      endpoint: PATHS.instruments,
      params: encodeParams({ symbols, fields }),
      keys: served,
      recordsRequested: 0,
      answer: (body, request) => {
        const envelope = readEnvelope(body, request);
        const parsed = new Map<string, InstrumentRecord | Error>();
        const results = served.map((key): InstrumentRecord | Error => {
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

function planInstrumentList(keys: readonly NormInstrumentsKey[]): PlannedRequest {
  const fields = unionFields<InstrumentFieldName>(keys);
  return {
    endpoint: PATHS.instruments,
    params: encodeParams({ fields }),
    keys: [...keys],
    recordsRequested: 0,
    answer: (body, request) => {
      const envelope = readEnvelope(body, request);
      const all = [...envelope.blocks.values()].sort((a, b) => a.index - b.index).map(({ raw, index }) => readInstrument(envelope, raw, index));
      const results = keys.map((key) => all.map((record) => projectInstrument(record, key.fields)));
      return { results, records: all.length };
    },
  };
}

function planReferences(keys: readonly NormReferenceKey[]): PlannedRequest {
  const types = [...new Set(keys.map((key) => key.type))].sort();
  return {
    endpoint: PATHS.references,
    params: encodeParams({ types }),
    keys: [...keys],
    recordsRequested: 0,
    answer: (body, request) => {
      const groups = readReferences(body, request);
      const results = keys.map((key) => groups.get(key.type.toLowerCase()) ?? new ResponseFormatError(`references[type=${key.type}]`, "is missing", request));
      return { results, records: groups.size };
    },
  };
}

