/**
 * A history too long for one response, split by date range and joined again. Each part asks the same
 * symbol, calendar, carry-forward, forecast and fields over a shorter range, so that no request exceeds
 * `maxRecords`; averages are split only at period starts, so every period is averaged whole in one part.
 * The service carries a value forward into a range from before it, so carried-forward days at the start
 * of a part are right too.
 */
import { fromEpochDay, isoWeekday, toEpochDay } from "../api/dates";
import type { CalculationType } from "../api/vocabulary";
import type { Forecast, ForecastPrice } from "../api/schemas";
import { estimateHistoryRecords, type InstrumentCalendar } from "./history-estimate";
import { NoDataError } from "./errors";
import { type NormHistoryKey, normHistoryKey } from "./keys";
import type { SymbolHistory } from "./types";

/**
 * The parts of a history over `maxRecords` (ascending by date), or undefined when it fits one request,
 * sized by the instrument's own calendar when the client knows it (history-estimate.ts). A history of an
 * instrument launched after its start is asked from the launch on: the days before it hold nothing, and
 * asking them costs requests (none at all when it launched after the history's end). No record is dated
 * after today (convention 20), so only the range up to today is split; the last part runs on to the
 * history's end, where a forecast's prices lie. Averages are cut at period starts.
 */
export function historyParts(key: NormHistoryKey, maxRecords: number, today: string, calendar?: InstrumentCalendar): NormHistoryKey[] | undefined {
  const end = key.toDate < today ? key.toDate : today;
  if (end < key.fromDate || estimateHistoryRecords({ ...key, toDate: end }, calendar) <= maxRecords) return undefined;
  const from = calendar && calendar.launchDate > key.fromDate ? calendar.launchDate : key.fromDate;
  if (from > key.toDate) return [];
  if (end < from) return [partKey(key, from, key.toDate)];
  const ranges = splitRange(from, end, key, maxRecords, calendar);
  const last = ranges[ranges.length - 1];
  if (!last || (ranges.length < 2 && from === key.fromDate)) return undefined;
  last[1] = key.toDate;
  return ranges.map(([fromDate, toDate]) => partKey(key, fromDate, toDate));
}

/**
 * The key that fetches a joined history's forecast when no part brought one: the service returns a
 * forecast only with an actual price in range, and the part holding the forecast's dates may hold none.
 * It runs from the newest actual price to the history's end.
 */
export function forecastProbe(key: NormHistoryKey, joined: SymbolHistory): NormHistoryKey | undefined {
  const newest = joined.prices[0];
  if (key.forecastType === undefined || joined.forecast || !newest) return undefined;
  return partKey(key, newest.date, key.toDate);
}

function partKey(key: NormHistoryKey, fromDate: string, toDate: string): NormHistoryKey {
  return normHistoryKey({
    symbol: key.symbol,
    fromDate,
    toDate,
    calendarType: key.calendarType,
    carryForward: key.carryForward,
    calculationType: key.calculationType,
    fields: key.fields,
    ...(key.forecastType !== undefined ? { forecastType: key.forecastType } : {}),
    // Each part converts as the whole asks (convention 21).
    ...(key.currency !== undefined ? { currency: key.currency } : {}),
    ...(key.unit !== undefined ? { unit: key.unit } : {}),
  });
}

/**
 * Consecutive ranges covering [from, to], as few as the estimate allows within `maxRecords` and about equal
 * in size, cut at period starts for averages: a part filled to the limit has no room left when the limit
 * was learned from a refusal that overstated it.
 */
function splitRange(from: string, to: string, key: NormHistoryKey, maxRecords: number, calendar: InstrumentCalendar | undefined): [string, string][] {
  const first = toEpochDay(from);
  const last = toEpochDay(to);
  const estimate = (start: number, end: number): number => estimateHistoryRecords({ ...key, fromDate: fromEpochDay(start), toDate: fromEpochDay(end) }, calendar);
  const total = estimate(first, last);
  const fewest = Math.ceil(total / maxRecords);
  const balanced = greedyRanges(first, last, key.calculationType, (start, end) => estimate(start, end) <= Math.ceil(total / fewest));
  // Cuts coarser than a record (periods) may leave a balanced split one part longer: then fill to the limit.
  return balanced.length <= fewest ? balanced : greedyRanges(first, last, key.calculationType, (start, end) => estimate(start, end) <= maxRecords);
}

/** Ranges grown one cut at a time (a day, or a period) while `fits`; at least one cut per range. */
function greedyRanges(first: number, last: number, calculation: CalculationType, fits: (start: number, end: number) => boolean): [string, string][] {
  const ranges: [string, string][] = [];
  let start = first;
  while (start <= last) {
    let end = Math.min(last, nextCut(start, calculation) - 1);
    for (;;) {
      const further = Math.min(last, nextCut(end + 1, calculation) - 1);
      if (end >= last || !fits(start, further)) break;
      end = further;
    }
    ranges.push([fromEpochDay(start), fromEpochDay(end)]);
    start = end + 1;
  }
  return ranges;
}

/** The first day after `day`'s own cut: the next day, or the start of the next week, month, quarter or year. */
function nextCut(day: number, calculation: CalculationType): number {
  if (calculation === "None") return day + 1;
  if (calculation === "WeeklyAverage") return day + 7 - isoWeekday(day);
  const [year, month] = fromEpochDay(day).split("-").map(Number) as [number, number];
  const startOf = (y: number, m: number): number => toEpochDay(`${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-01`);
  if (calculation === "MonthlyAverage") return month === 12 ? startOf(year + 1, 1) : startOf(year, month + 1);
  if (calculation === "QuarterlyAverage") {
    const nextQuarterMonth = Math.floor((month - 1) / 3) * 3 + 4;
    return nextQuarterMonth > 12 ? startOf(year + 1, 1) : startOf(year, nextQuarterMonth);
  }
  return startOf(year + 1, 1);
}

/**
 * The whole history from its parts (ascending by range): records newest first as served, assessed days
 * and forecast prices united. A part without data (before the instrument's launch) is left out; any other
 * part's error is the whole history's.
 */
export function joinHistories(key: NormHistoryKey, parts: readonly (SymbolHistory | Error)[]): SymbolHistory | Error {
  const found: SymbolHistory[] = [];
  for (const part of parts) {
    if (part instanceof NoDataError) continue;
    if (part instanceof Error) return part;
    found.push(part);
  }
  const newest = found[found.length - 1];
  if (!newest) return new NoDataError(key.symbol, key.toDate, `${key.symbol}: no assessment from ${key.fromDate} to ${key.toDate}`);
  const assessedDates = new Set<string>();
  for (const part of found) for (const date of part.assessedDates) assessedDates.add(date);
  const joined: SymbolHistory = {
    symbol: newest.symbol,
    firstDate: newest.firstDate,
    lastDate: newest.lastDate,
    prices: [...found].reverse().flatMap((part) => part.prices),
    assessedDates,
  };
  const forecast = joinForecasts(found.map((part) => part.forecast));
  if (forecast) joined.forecast = forecast;
  if (newest.currencyId !== undefined) joined.currencyId = newest.currencyId;
  if (newest.unitOfMeasureId !== undefined) joined.unitOfMeasureId = newest.unitOfMeasureId;
  return joined;
}

function joinForecasts(forecasts: readonly (Forecast | undefined)[]): Forecast | undefined {
  const present = forecasts.filter((forecast): forecast is Forecast => forecast !== undefined);
  const base = present[present.length - 1];
  if (!base) return undefined;
  const byDate = new Map<string, ForecastPrice>();
  for (const forecast of present) for (const price of forecast.forecastPrices) byDate.set(price.date, price);
  const list = base.forecastPrices;
  const ascending = list.length < 2 || (list[0] as ForecastPrice).date <= (list[list.length - 1] as ForecastPrice).date;
  const forecastPrices = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) * (ascending ? 1 : -1));
  return { ...base, forecastPrices };
}

