/**
 * The /Prices family: dated keys planned into the fewest requests within the limits (plan.ts packs the date
 * lists), "latest" keys by symbol, and each answer read back to one record or Error per key.
 */
import { PATHS, type CalculationType, type Limits } from "../api/vocabulary";
import { encodeParams } from "../api/requests";
import type { PriceRecord } from "../api/schemas";
import { conversionLabel, type ConversionTarget } from "../api/conversion";
import { ConversionError, NoDataError } from "./errors";
import type { NormPriceKey } from "./keys";
import { type PriceBlock, type RequestRef, checkCalculationType, projectPrice, readEnvelope } from "./parse";
import { chunk, planDateLists } from "./plan";
import { type Keyed, type PlanSettings, type PlannedRequest, calcParam, push, unionFields } from "./planned-request";
import { blockReader, countPriceRecords } from "./price-blocks";
import { inTarget, invalidError, refineRefusal, targetOf, targetParams } from "./price-conversion";

/** One symbol's asks in a window of dated keys: a cell per date column, and the distinct dates asked. */
interface DatedRow<T> {
  cells: (T | T[] | undefined)[];
  dates: string[];
}

/**
 * Dates are numbered once per window (a small map of distinct dates), and each symbol keeps its asks in
 * an array indexed by that number: pairs are deduplicated and found again without a map entry per key.
 */
export function planDated<T extends Keyed<NormPriceKey>>(items: readonly T[], settings: PlanSettings): PlannedRequest<T>[] {
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
): { results: unknown[]; records: number } {
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

export function planLatest<T extends Keyed<NormPriceKey>>(items: readonly T[], limits: Limits): PlannedRequest<T>[] {
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
