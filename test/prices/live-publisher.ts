/**
 * A simulated service that publishes on its own clock, for the live registry's unit tests and `npm run bench:live`:
 * a `fetch` answering latest /Prices and /Instruments with what each instrument has published by `now()`, on its
 * frequency's days at its own time (jittered a few minutes each day), corrections when told. It records every call.
 */
import { addDays, fromEpochDay, isoWeekday, toEpochDay } from "../../src/api/dates";
import { json } from "./fake-service";

export interface PublishedInstrument {
  symbol: string;
  frequency: "Daily" | "Twice weekly" | "Weekly" | "Monthly";
  /** Minutes after midnight UTC of the usual publication (the offset written is +00:00). */
  minuteUtc: number;
  /** The weekday (0 Monday) of a weekly one. */
  weekday?: number;
}

export interface PublisherCall {
  path: string;
  symbols: string[];
  dates: string[];
  at: number;
}

const DAY = 86_400_000;

function lastWeekdayOfMonth(day: string): boolean {
  if (isoWeekday(toEpochDay(day)) >= 5) return false;
  let next = addDays(day, 1);
  while (isoWeekday(toEpochDay(next)) >= 5) next = addDays(next, 1);
  return next.slice(0, 7) !== day.slice(0, 7);
}

function assessedOn(instrument: PublishedInstrument, day: string, skipped: ReadonlySet<string> = new Set()): boolean {
  if (skipped.has(day)) return false;
  const weekday = isoWeekday(toEpochDay(day));
  switch (instrument.frequency) {
    case "Daily":
      return weekday < 5;
    case "Twice weekly":
      return weekday === 1 || weekday === 3;
    case "Weekly":
      return weekday === (instrument.weekday ?? 2);
    case "Monthly":
      return lastWeekdayOfMonth(day);
  }
}

/** 0 to 14 minutes and 0 to 59 seconds after the usual time, fixed per instrument and day, in seconds. */
function jitterSeconds(symbol: string, day: string): number {
  // a mixing hash (murmur3's finaliser), so that symbols sharing a prefix do not share a time
  let hash = toEpochDay(day) ^ 0x9e3779b9;
  for (const char of symbol) hash = Math.imul(hash ^ char.charCodeAt(0), 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  const mixed = hash >>> 0;
  return (mixed % 15) * 60 + ((mixed >>> 8) % 60);
}

const pad = (n: number): string => String(n).padStart(2, "0");
const isoAt = (instant: number): string => {
  const date = new Date(instant);
  return `${fromEpochDay(Math.floor(instant / DAY))}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}+00:00`;
};

/** `skipped`: days nothing is published (a holiday). */
export function livePublisher(instruments: readonly PublishedInstrument[], now: () => number, skipped: ReadonlySet<string> = new Set()) {
  const bySymbol = new Map(instruments.map((instrument) => [instrument.symbol, instrument]));
  const calls: PublisherCall[] = [];
  const corrections: { symbol: string; date: string; at: number }[] = [];

  /** The instant the assessment of a day is published (first value). */
  function publishedAt(instrument: PublishedInstrument, day: string): number {
    return toEpochDay(day) * DAY + instrument.minuteUtc * 60_000 + jitterSeconds(instrument.symbol, day) * 1000;
  }

  /** The latest day assessed and published by `at`. */
  function latestDay(instrument: PublishedInstrument, at: number): string {
    let day = fromEpochDay(Math.floor(at / DAY));
    for (let step = 0; step < 400; step++, day = addDays(day, -1)) if (assessedOn(instrument, day, skipped) && publishedAt(instrument, day) <= at) return day;
    return day;
  }

  function record(instrument: PublishedInstrument, at: number): Record<string, unknown> {
    const day = latestDay(instrument, at);
    const corrected = corrections.filter((c) => c.symbol === instrument.symbol && c.date === day && c.at <= at);
    const last = corrected.at(-1);
    const base = 100 + (toEpochDay(day) % 50);
    const mid = base + corrected.length * 0.25;
    return { date: day, assessmentDate: isoAt(last ? last.at : publishedAt(instrument, day)), revision: corrected.length, low: mid - 1, mid, high: mid + 1 };
  }

  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const params = Object.fromEntries(url.searchParams);
    if (typeof init?.body === "string") Object.assign(params, Object.fromEntries(new URLSearchParams(init.body)));
    const symbols = (params.Symbols ?? "").split(",").filter((s) => s !== "");
    const dates = (params.Dates ?? "").split(",").filter((s) => s !== "");
    const at = now();
    calls.push({ path: url.pathname, symbols, dates, at });
    await Promise.resolve();
    const known = symbols.flatMap((symbol) => {
      const instrument = bySymbol.get(symbol);
      return instrument ? [instrument] : [];
    });
    if (url.pathname.toLowerCase().endsWith("/prices")) {
      return json({
        priceCalculationType: "None",
        instruments: known.map((instrument) => ({ symbol: instrument.symbol, firstDate: "2020-01-01T16:30:00+00:00", lastDate: "2030-01-01T16:30:00+00:00", prices: [record(instrument, at)] })),
      });
    }
    if (url.pathname.toLowerCase().endsWith("/instruments")) {
      return json({
        instruments: known.map((instrument) => ({
          symbol: instrument.symbol,
          productId: `P-${instrument.symbol}`,
          description: instrument.symbol,
          descriptionShort: instrument.symbol,
          commodityId: "C1",
          priceType: "Price",
          locationId: "L1",
          currencyId: "USD",
          unitOfMeasureId: "MT",
          incotermId: "FOB",
          launchDate: "2020-01-01",
          frequency: instrument.frequency,
          sourceId: "S1",
          status: "Active",
          priceCalculationTypeIds: [],
        })),
      });
    }
    return json({ type: "about:blank", title: "Not Found", status: 404, detail: "no such path" }, 404);
  };

  return {
    fetch: fetchImpl as typeof fetch,
    calls,
    publishedAt,
    latestDay,
    /** Publishes a correction of a day's assessment at an instant (revision + 1, mid + 0.25). */
    correct(symbol: string, date: string, at: number): void {
      corrections.push({ symbol, date, at });
    },
    /** Publications between two instants (exclusive, inclusive], each with its instant and the day's usual time. */
    publicationsBetween(from: number, to: number): { symbol: string; day: string; at: number; usualAt: number }[] {
      const out: { symbol: string; day: string; at: number; usualAt: number }[] = [];
      for (const instrument of instruments) {
        for (let day = fromEpochDay(Math.floor(from / DAY) - 1); day <= fromEpochDay(Math.floor(to / DAY)); day = addDays(day, 1)) {
          const at = publishedAt(instrument, day);
          if (assessedOn(instrument, day, skipped) && at > from && at <= to) out.push({ symbol: instrument.symbol, day, at, usualAt: toEpochDay(day) * DAY + instrument.minuteUtc * 60_000 });
        }
      }
      return out.sort((a, b) => a.at - b.at);
    },
  };
}
