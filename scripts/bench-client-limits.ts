/**
 * Parts of `npm run bench:client` that need no sandbox: the requests a 100 x 50 grid and a 10-year daily
 * history take after each hostile 400 of issue 18, against an in-memory service whose real limit is 2,000
 * records; and the cache's byte estimate against the heap its entries really hold (a full collection before
 * and after dropping them).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { fromEpochDay, isoWeekday, toEpochDay } from "../src/api/dates";
import { createPricesClient, staticTokenProvider, type PricesClient } from "../src/prices";

type Case = Record<string, string | number>;
const TODAY = "2024-06-28";
const REAL_MAX_RECORDS = 2_000;
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

interface Asked {
  symbols: string[];
  dates: string[];
  records: number;
  history: boolean;
}

/** Weekdays in [from, to], newest first: the in-memory service's assessment days. */
function weekdaysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = toEpochDay(to); day >= toEpochDay(from); day -= 1) if (isoWeekday(day) <= 4) days.push(fromEpochDay(day));
  return days;
}

/** An in-memory service; `refuse` (when given) answers a request over its real limit with a 400 of its own words. */
function memoryService(options: { curves?: number; rationale?: boolean; refuse?: (asked: Asked) => string | undefined } = {}) {
  let requests = 0;
  let refused = 0;
  const record = (date: string, j: number, k: number): Record<string, unknown> => {
    const item: Record<string, unknown> = { date, assessmentDate: `${date}T16:30:00+00:00`, revision: 0, low: 100 + j + k / 7, mid: 101 + j + k / 7, high: 102 + j + k / 7 };
    if (options.curves) item.forwardCurves = Array.from({ length: options.curves }, (_, m) => ({ forwardCode: `M${m + 1}`, forwardMonth: MONTHS[m % 12], low: 90 + m + j / 3, mid: 91 + m + j / 3, high: 92 + m + j / 3 }));
    if (options.rationale) item.pricingRationale = `Assessed on the day's bids and offers for ${date}, unchanged from the day before.`;
    return item;
  };
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    requests += 1;
    const url = new URL(String(input));
    const params = typeof init?.body === "string" ? new URLSearchParams(init.body) : url.searchParams;
    const symbols = (params.get("Symbols") ?? "").split(",").filter((item) => item !== "");
    if (url.pathname.endsWith("/Instruments")) {
      // Launched before every range asked here: a long history asks its launch first, and is not shortened by it.
      const base = { productId: "P", description: "d", descriptionShort: "d", commodityId: "C", priceType: "Price", locationId: "L", currencyId: "USD", unitOfMeasureId: "MT", incotermId: "FOB", launchDate: "2010-01-01", frequency: "Daily", sourceId: "S", status: "Active", priceCalculationTypeIds: [] };
      return new Response(JSON.stringify({ instruments: symbols.map((symbol) => ({ symbol, ...base })) }), { status: 200, headers: { "content-type": "application/json" } });
    }
    const history = url.pathname.endsWith("/History");
    const dates = history ? weekdaysBetween(params.get("FromDate") ?? TODAY, params.get("ToDate") ?? TODAY) : (params.get("Dates") ?? "").split(",").filter((item) => item !== "");
    const asked: Asked = { symbols, dates, records: symbols.length * dates.length, history };
    const refusal = asked.records > REAL_MAX_RECORDS ? options.refuse?.(asked) : undefined;
    if (refusal !== undefined) {
      refused += 1;
      return new Response(JSON.stringify({ type: "about:blank", title: "Bad Request", status: 400, detail: refusal }), { status: 400, headers: { "content-type": "application/problem+json" } });
    }
    const instruments = symbols.map((symbol, k) => ({ symbol, firstDate: "2010-01-01T16:30:00+00:00", lastDate: `${TODAY}T16:30:00+00:00`, prices: dates.map((date, j) => record(date, j, k)) }));
    const body = history ? { priceCalculationType: "None", calendar: { type: "AssessmentDays", dates }, instruments } : { priceCalculationType: "None", instruments };
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  }) as typeof globalThis.fetch;
  return {
    fetch,
    get requests() {
      return requests;
    },
    get refused() {
      return refused;
    },
  };
}

function client(fetch: typeof globalThis.fetch, maxBytes?: number): PricesClient {
  return createPricesClient({
    baseUrl: "https://memory.test/physical/v2",
    tokenProvider: staticTokenProvider("token"),
    fetch,
    now: () => Date.parse(`${TODAY}T12:00:00Z`),
    ...(maxBytes !== undefined ? { cache: { maxBytes } } : {}),
  });
}

const symbols = (count: number): string[] => Array.from({ length: count }, (_, index) => `SYM-${String(index).padStart(4, "0")}`);

/** The hostile 400s of issue 18, each as the service's words for a request over its real limit of 2,000 records. */
const HOSTILE: [string, (asked: Asked) => string][] = [
  ["'limit of 1' on any request", () => "over the limit of 1 price records per response (maxRecords)"],
  ["'limit of 2.000'", (asked) => `${asked.records} price records is over the limit of 2.000 price records per response`],
  ["'limit of 2 000'", (asked) => `${asked.records} price records is over the limit of 2 000 price records per response`],
  ["'the limit of 5 dates was not met'", () => "the limit of 5 dates was not met"],
  ["'over the limit of 3 records of type reference'", () => "over the limit of 3 records of type reference"],
  ["'limit of (asked - 1)' every time", (asked) => `over the limit of ${asked.records - 1} price records per response (maxRecords)`],
];

export async function hostileCases(): Promise<Case[]> {
  const cases: Case[] = [];
  const gridSymbols = symbols(100);
  const gridDates = weekdaysBetween("2024-01-01", "2024-06-27").slice(0, 50);
  const historyFrom = fromEpochDay(toEpochDay(TODAY) - 3652);
  const historyRecords = weekdaysBetween(historyFrom, TODAY).length;
  const minimal = { grid: Math.ceil((gridSymbols.length * gridDates.length) / REAL_MAX_RECORDS), history: Math.ceil(historyRecords / REAL_MAX_RECORDS) };
  for (const [name, refuse] of HOSTILE) {
    const grid = memoryService({ refuse });
    const gridClient = client(grid.fetch);
    const gridResults = await Promise.allSettled(gridSymbols.flatMap((symbol) => gridDates.map((date) => gridClient.price({ symbol, date }))));
    const history = memoryService({ refuse });
    const historyClient = client(history.fetch);
    const historyResult = await Promise.allSettled([historyClient.history({ symbol: "SYM-0000", fromDate: historyFrom, toDate: TODAY })]);
    const failedReason = [...gridResults, ...historyResult].find((result): result is PromiseRejectedResult => result.status === "rejected")?.reason as Error | undefined;
    cases.push({
      case: "hostile-400",
      answer: name,
      gridRequests: grid.requests,
      gridRefused: grid.refused,
      gridMinimal: minimal.grid,
      gridFailedCells: gridResults.filter((result) => result.status === "rejected").length,
      historyRequests: history.requests,
      historyRefused: history.refused,
      historyMinimal: minimal.history,
      historyFailed: historyResult.filter((result) => result.status === "rejected").length,
      cellsSay: failedReason ? `${failedReason.name}: ${failedReason.message.slice(0, 120)}` : "-",
    });
  }
  return cases;
}

/** A full collection, with time for weak references and finalizers between. */
async function heapAfterCollection(collect: () => void): Promise<number> {
  for (let round = 0; round < 4; round += 1) {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return process.memoryUsage().heapUsed;
}

export async function cacheHeapCases(): Promise<Case[]> {
  setFlagsFromString("--expose-gc");
  const collect = runInNewContext("gc") as () => void;
  const days = weekdaysBetween("2016-01-01", "2024-06-27").reverse();
  const scenarios: [string, { curves?: number; rationale?: boolean }, (made: PricesClient) => Promise<unknown>[]][] = [
    ["prices 100 x 1,000", {}, (made) => symbols(100).flatMap((symbol) => days.slice(0, 1000).map((date) => made.price({ symbol, date })))],
    ["prices with a pricing rationale 100 x 200", { rationale: true }, (made) => symbols(100).flatMap((symbol) => days.slice(0, 200).map((date) => made.price({ symbol, date, fields: ["pricingRationale"] })))],
    ["prices with 12 forward-curve points 100 x 200", { curves: 12 }, (made) => symbols(100).flatMap((symbol) => days.slice(0, 200).map((date) => made.price({ symbol, date })))],
    ["histories of 10 years, 100 symbols", {}, (made) => symbols(100).map((symbol) => made.history({ symbol, fromDate: "2014-06-28", toDate: "2024-06-27" }))],
  ];
  const cases: Case[] = [];
  for (const [name, shape, ask] of scenarios) {
    const made = client(memoryService(shape).fetch, 1e12);
    await Promise.all(ask(made));
    const before = await heapAfterCollection(collect);
    const { cacheBytes, cacheEntries } = made.stats();
    made.invalidate();
    const after = await heapAfterCollection(collect);
    const real = (before - after) / cacheEntries;
    const estimate = cacheBytes / cacheEntries;
    cases.push({ case: "cache-heap", entries: name, keys: cacheEntries, estimateBytesPerKey: Math.round(estimate), realBytesPerKey: Math.round(real), realOverEstimate: Number((real / estimate).toFixed(2)) });
  }
  return cases;
}
