/**
 * A recording fake of the service for unit tests: a `fetch` that answers /Prices, /Prices/History,
 * /Instruments and /References from a tiny deterministic model, and records every call it receives.
 * Tests can put scripted answers in front of it (`script`) to play faults.
 */
import { STATUS_CODES } from "node:http";
import { fromEpochDay, toEpochDay } from "../../src/api/dates";

export const TODAY = "2024-06-28";

export interface RecordedCall {
  method: string;
  path: string;
  params: Record<string, string>;
  authorization: string | null;
  /** Lists split on commas. */
  symbols: string[];
  dates: string[];
  fields: string[];
}

export type Scripted = Response | "hang" | "throw" | ((call: RecordedCall, signal: AbortSignal | undefined) => Response | Promise<Response> | undefined);

export interface FakeOptions {
  /** Symbols the service does not know (answered in invalidInstruments). */
  unknown?: string[];
  /** The service's message for an unknown symbol (default "Unknown or not permitted"). */
  invalidMessage?: string;
  /** First date of data per symbol (default 2020-01-01). */
  firstDate?: Record<string, string>;
  /** Tokens accepted (default: any). */
  validTokens?: string[];
  /** History: a symbol is assessed on epoch days divisible by this (default 2: even days). */
  every?: Record<string, number>;
  /** The frequency an instrument's record states (default: `Every N days`, as the fake assesses it). */
  frequency?: Record<string, string>;
  /** Assessed dates whose record is a correction: revision 1, published 2 days later, mid + 0.25. */
  corrected?: Record<string, string[]>;
}

/** Mid price of a symbol on a date: a function tests can apply on their own. */
export function midOf(symbol: string, date: string): number {
  let sum = 0;
  for (const char of symbol) sum += char.charCodeAt(0);
  return sum + (toEpochDay(date) % 100) + 0.5;
}

export function fakeService(options: FakeOptions = {}) {
  const calls: RecordedCall[] = [];
  const script: Scripted[] = [];
  let active = 0;
  let maxActive = 0;
  const unknown = new Set((options.unknown ?? []).map((symbol) => symbol.toUpperCase()));
  const firstDate = (symbol: string): string => options.firstDate?.[symbol] ?? "2020-01-01";

  const isCorrected = (symbol: string, date: string): boolean => options.corrected?.[symbol]?.includes(date) ?? false;

  function record(symbol: string, date: string, fields: string[], assessed = date): Record<string, unknown> {
    const corrected = isCorrected(symbol, assessed);
    const mid = midOf(symbol, assessed) + (corrected ? 0.25 : 0);
    const assessmentDate = corrected ? `${fromEpochDay(toEpochDay(assessed) + 2)}T09:00:00+00:00` : `${assessed}T16:30:00+00:00`;
    const item: Record<string, unknown> = { date, assessmentDate, revision: corrected ? 1 : 0, low: mid - 1, mid, high: mid + 1, ignoredExtra: "x" };
    for (const field of fields) {
      if (field.toLowerCase() === "pricingrationale") item.pricingRationale = `rationale ${symbol} ${assessed}`;
      if (field.toLowerCase() === "appraisalprice") item.appraisalPrice = false;
      if (field.toLowerCase() === "lowchangesinceprevious") item.lowChangeSincePrevious = 0.5;
    }
    return item;
  }

  function split(value: string | undefined): string[] {
    return value ? value.split(",").filter((item) => item !== "") : [];
  }

  function answer(call: RecordedCall): Response {
    if (options.validTokens && !options.validTokens.includes((call.authorization ?? "").replace(/^Bearer /, ""))) {
      return json({ type: "about:blank", title: "Unauthorized", status: 401, detail: "token expired" }, 401);
    }
    const invalid = call.symbols.filter((symbol) => unknown.has(symbol)).map((symbol) => ({ symbol, message: options.invalidMessage ?? "Unknown or not permitted" }));
    const known = call.symbols.filter((symbol) => !unknown.has(symbol));
    const path = call.path.toLowerCase();
    if (path.endsWith("/prices")) {
      const instruments = known.map((symbol) => {
        const dates = call.dates.length > 0 ? call.dates : [TODAY];
        const prices = dates.filter((date) => date >= firstDate(symbol)).map((date) => record(symbol, date, call.fields));
        return { symbol, firstDate: `${firstDate(symbol)}T16:30:00+00:00`, lastDate: `${TODAY}T16:30:00+00:00`, prices };
      });
      return json({ instruments, priceCalculationType: call.params.priceCalculationType ?? "None", ...(invalid.length ? { invalidInstruments: invalid } : {}) });
    }
    if (path.endsWith("/prices/history")) {
      const from = toEpochDay(call.params.FromDate ?? TODAY);
      const to = toEpochDay(call.params.ToDate ?? TODAY);
      const carry = call.params.carryForward === "true";
      const calendar = new Set<number>();
      const instruments = known.map((symbol) => {
        const every = options.every?.[symbol] ?? 2;
        const first = toEpochDay(firstDate(symbol));
        const prices: Record<string, unknown>[] = [];
        for (let day = to; day >= from; day -= 1) {
          if (day < first) continue;
          // Assessed on days divisible by `every`; the others carried forward from the last one when asked.
          const lastAssessed = day - (((day % every) + every) % every);
          if (lastAssessed === day) {
            calendar.add(day);
            prices.push(record(symbol, fromEpochDay(day), call.fields));
          } else if (carry && lastAssessed >= first) {
            prices.push(record(symbol, fromEpochDay(day), call.fields, fromEpochDay(lastAssessed)));
          }
        }
        return { symbol, firstDate: `${firstDate(symbol)}T16:30:00+00:00`, lastDate: `${TODAY}T16:30:00+00:00`, prices };
      });
      const dates = [...calendar].sort((a, b) => b - a).map(fromEpochDay);
      return json({ instruments, calendar: { type: "AssessmentDays", dates }, priceCalculationType: call.params.priceCalculationType ?? "None", ...(invalid.length ? { invalidInstruments: invalid } : {}) });
    }
    if (path.endsWith("/instruments")) {
      const symbols = call.symbols.length > 0 ? known : ["AAA", "BBB"];
      const instruments = symbols.map((symbol) => ({
        symbol,
        productId: `P-${symbol}`,
        description: `Instrument ${symbol}`,
        descriptionShort: symbol,
        commodityId: "C1",
        priceType: "Price",
        locationId: "L1",
        currencyId: "USD",
        unitOfMeasureId: "MT",
        incotermId: "FOB",
        launchDate: "2020-01-01",
        // As the fake assesses (every other day by default): a calendar the client's estimate does not know.
        frequency: options.frequency?.[symbol] ?? `Every ${options.every?.[symbol] ?? 2} days`,
        sourceId: "S1",
        status: "Active",
        priceCalculationTypeIds: ["WeeklyAverage"],
        ...(call.fields.includes("Currency") ? { currency: "US Dollar" } : {}),
        ...(call.fields.includes("hasForwardCurves") ? { hasForwardCurves: false } : {}),
      }));
      return json({ instruments, ...(invalid.length ? { invalidInstruments: invalid } : {}) });
    }
    if (path.endsWith("/references")) {
      const types = split(call.params.Types);
      return json({ references: types.map((type) => ({ type, items: [{ id: `${type}-1`, description: `First ${type}`, sign: "", availableConversionIds: [] }] })) });
    }
    return json({ type: "about:blank", title: "Not Found", status: 404, detail: "no such path" }, 404);
  }

  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const params = Object.fromEntries(url.searchParams);
    const headers = new Headers(init?.headers);
    // A form body carries the same parameters as a query (convention 2).
    if (typeof init?.body === "string" && headers.get("content-type") === "application/x-www-form-urlencoded") Object.assign(params, Object.fromEntries(new URLSearchParams(init.body)));
    const call: RecordedCall = {
      method: init?.method ?? "GET",
      path: url.pathname,
      params,
      authorization: headers.get("authorization"),
      symbols: split(params.Symbols),
      dates: split(params.Dates),
      fields: split(params.Fields),
    };
    calls.push(call);
    active += 1;
    maxActive = Math.max(maxActive, active);
    try {
      await Promise.resolve();
      const next = script.shift();
      if (next === "hang") return await new Promise<Response>(() => undefined);
      if (next === "throw") throw new TypeError("fetch failed");
      if (typeof next === "function") {
        const scripted = await next(call, init?.signal ?? undefined);
        if (scripted) return scripted;
      } else if (next) {
        return next;
      }
      return answer(call);
    } finally {
      active -= 1;
    }
  };

  return {
    fetch: fetchImpl as typeof fetch,
    calls,
    /** Answers for the next calls, in order; then the model answers. */
    script,
    get maxActive() {
      return maxActive;
    },
  };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": status >= 400 ? "application/problem+json" : "application/json", ...headers } });
}

/** A problem response as the service would send it over HTTP/2: no reason phrase, the status's title in the body. */
export function problem(status: number, headers: Record<string, string> = {}): Response {
  return json({ type: "about:blank", title: STATUS_CODES[status] ?? "Error", status, detail: `failure ${status}` }, status, headers);
}

/** Lets every queued promise callback run (several rounds, for chains of awaits). */
export async function settle(rounds = 20): Promise<void> {
  for (let round = 0; round < rounds; round += 1) await Promise.resolve();
}
