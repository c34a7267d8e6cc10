/**
 * The batch function's history parts: a history too long for one request waits for its instrument's
 * calendar (one /Instruments ask for the window), is asked in date-range parts (history-parts.ts), each an
 * ask of its own through the loader, and is settled once the parts are joined. The calendars the client has
 * read size histories (history-estimate.ts) until a refusal shows the service counts otherwise.
 */
import { todayIso } from "../api/dates";
import { PricesError } from "./errors";
import { estimateHistoryRecords, type InstrumentCalendar } from "./history-estimate";
import { forecastProbe, historyParts, joinHistories } from "./history-parts";
import type { Ask } from "./in-flight";
import { type NormHistoryKey, normInstrumentKey } from "./keys";
import type { Loader } from "./loader";
import type { InstrumentRecord, SymbolHistory } from "./types";

/** As many calendars as lineage keeps keys: beyond, they are all forgotten (and asked again when needed). */
const MAX_CALENDARS = 100_000;

export interface HistoryAsks {
  /** An instrument's calendar when the client has read it. */
  calendarOf: (symbol: string) => InstrumentCalendar | undefined;
  /** Forgets the calendars of these asks' symbols: their histories are sized by calendar days from now on. */
  forgetCalendars(asks: readonly Ask[]): void;
  /** The asks that go on now; long histories of unknown calendars wait for them and go to `dispatch` after. */
  awaitCalendars(asked: Ask[], maxRecords: number, dispatch: (asks: Ask[]) => void): Ask[];
  /** The asks that go on whole; histories over `maxRecords` are asked in parts and settled when joined. */
  splitLongHistories(asked: Ask[], maxRecords: number): Ask[];
}

export function createHistoryAsks(loader: Loader, now: () => number): HistoryAsks {
  // Instruments' calendars (frequency, launch) the client has read, by symbol; and the symbols whose record
  // was asked for that, so that a failed lookup is not repeated.
  const calendars = new Map<string, InstrumentCalendar>();
  const calendarsAsked = new Set<string>();

  function learnCalendar(record: InstrumentRecord): void {
    if (calendars.size >= MAX_CALENDARS) calendars.clear();
    calendars.set(record.symbol.toUpperCase(), { frequency: record.frequency, launchDate: record.launchDate });
  }

  /**
   * Histories that would take more than one request by calendar days wait for their instruments' records
   * (one /Instruments request for the window, cached a day; the wait counts against each key's budget),
   * so that they are sized by each instrument's own calendar and launch. The others go on now.
   */
  function awaitCalendars(asked: Ask[], maxRecords: number, dispatch: (asks: Ask[]) => void): Ask[] {
    const unknown = asked.filter((item): item is Ask & { key: NormHistoryKey } => item.key.kind === "history" && !calendars.has(item.key.symbol) && !calendarsAsked.has(item.key.symbol));
    if (unknown.length === 0) return asked;
    const plainRecords = new Map<string, number>();
    for (const { key } of unknown) plainRecords.set(key.options, (plainRecords.get(key.options) ?? 0) + estimateHistoryRecords(key));
    const waits = unknown.filter((item) => (plainRecords.get(item.key.options) ?? 0) > maxRecords);
    if (waits.length === 0) return asked;
    const deadlines = new Map<string, number>();
    for (const item of waits) deadlines.set(item.key.symbol, Math.max(deadlines.get(item.key.symbol) ?? 0, item.deadline));
    const lookups = [...deadlines].map(([symbol, deadline]) => {
      calendarsAsked.add(symbol);
      return loader.ask<InstrumentRecord>(normInstrumentKey(symbol, undefined), false, deadline).then(learnCalendar);
    });
    // A failed lookup leaves the history sized by calendar days.
    void Promise.allSettled(lookups).then(() => { dispatch(waits.filter((item) => item.waiting)); });
    const waiting = new Set<Ask>(waits);
    return asked.filter((item) => !waiting.has(item));
  }

  function splitLongHistories(asked: Ask[], maxRecords: number): Ask[] {
    let whole: Ask[] | undefined;
    asked.forEach((item, index) => {
      const key = item.key;
      const parts = key.kind === "history" ? historyParts(key, maxRecords, todayIso(new Date(now())), calendars.get(key.symbol)) : undefined;
      if (key.kind !== "history" || !parts) {
        whole?.push(item);
        return;
      }
      whole ??= asked.slice(0, index);
      askParts(item, key, parts);
    });
    return whole ?? asked;
  }

  function askParts(item: Ask, key: NormHistoryKey, parts: NormHistoryKey[]): void {
    const answers = parts.map((part) =>
      loader.ask<SymbolHistory>(part, false, item.deadline).then(
        (value): SymbolHistory | Error => value,
        (error: unknown): Error => (error instanceof Error ? error : new PricesError(String(error))),
      ),
    );
    Promise.all(answers)
      .then(async (results) => {
        let joined = joinHistories(key, results);
        const probe = joined instanceof Error ? undefined : forecastProbe(key, joined);
        if (probe && !(joined instanceof Error)) {
          const probed = await loader.ask<SymbolHistory>(probe, false, item.deadline).catch(() => undefined);
          if (probed?.forecast) joined = { ...joined, forecast: probed.forecast };
        }
        const at = now();
        if (joined instanceof Error) loader.settleError(item, joined, at);
        else loader.settleValue(item, joined, at, todayIso(new Date(at)));
      })
      .catch((error: unknown) => { loader.failAll([item], error); });
  }

  return {
    calendarOf: (symbol) => calendars.get(symbol),
    forgetCalendars(asks) {
      for (const { key } of asks) if (key.kind === "history") calendars.delete(key.symbol);
    },
    awaitCalendars,
    splitLongHistories,
  };
}
