/**
 * The /Prices/History family: histories of one signature packed by their estimated records (by each
 * instrument's own calendar when known), and each answer read back to one SymbolHistory or Error per key,
 * with the days that were assessed told apart from carried-forward copies.
 */
import { dateOfTimestamp } from "../api/dates";
import { PATHS } from "../api/vocabulary";
import { encodeParams } from "../api/requests";
import type { PriceRecord } from "../api/schemas";
import { conversionLabel, type ConversionTarget } from "../api/conversion";
import { ConversionError, NoDataError } from "./errors";
import type { NormHistoryKey } from "./keys";
import { type RequestRef, checkCalculationType, projectPrice, readEnvelope } from "./parse";
import { estimateHistoryRecords } from "./history-estimate";
import { type Keyed, type PlanSettings, type PlannedRequest, calcParam, push, unionFields } from "./planned-request";
import { blockReader, countPriceRecords } from "./price-blocks";
import { inTarget, invalidError, refineRefusal, targetOf, targetParams } from "./price-conversion";
import type { SymbolHistory } from "./types";

/**
 * Histories of one signature, as few requests as their estimates allow: symbols are packed in order while
 * their summed estimate (by each instrument's own calendar when the client knows it) fits `maxRecords`.
 */
export function planHistory<T extends Keyed<NormHistoryKey>>(items: readonly T[], settings: PlanSettings): PlannedRequest<T>[] {
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
): { results: unknown[]; records: number } {
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
