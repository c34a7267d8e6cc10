/**
 * A recording fake of the service for unit tests: a `fetch` that answers /Prices, /Prices/History,
 * /Instruments and /References from a tiny deterministic model, and records every call it receives.
 * Tests can put scripted answers in front of it (`script`) to play faults.
 */
import { fromEpochDay, toEpochDay } from "../../src/api/dates";

export const TODAY = "2024-06-28";

export interface RecordedCall {
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
  /** First date of data per symbol (default 2020-01-01). */
  firstDate?: Record<string, string>;
  /** Tokens accepted (default: any). */
  validTokens?: string[];
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

  function record(symbol: string, date: string, fields: string[], assessed = date): Record<string, unknown> {
    const mid = midOf(symbol, assessed);
    const item: Record<string, unknown> = { date, assessmentDate: `${assessed}T16:30:00+00:00`, revision: 0, low: mid - 1, mid, high: mid + 1, ignoredExtra: "x" };
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
    const invalid = call.symbols.filter((symbol) => unknown.has(symbol)).map((symbol) => ({ symbol, message: "Unknown or not permitted" }));
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
      const instruments = known.map((symbol) => {
        const prices: Record<string, unknown>[] = [];
        for (let day = to; day >= from; day -= 1) {
          const date = fromEpochDay(day);
          if (date < firstDate(symbol)) continue;
          // Assessed on even days; odd days carried forward when asked.
          if (day % 2 === 0) prices.push(record(symbol, date, call.fields));
          else if (carry) prices.push(record(symbol, date, call.fields, fromEpochDay(day - 1)));
        }
        return { symbol, firstDate: `${firstDate(symbol)}T16:30:00+00:00`, lastDate: `${TODAY}T16:30:00+00:00`, prices };
      });
      return json({ instruments, calendar: { type: "AssessmentDays", dates: [] }, priceCalculationType: "None", ...(invalid.length ? { invalidInstruments: invalid } : {}) });
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
        frequency: "Weekly",
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
    const call: RecordedCall = {
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

/** A problem response as the service would send it. */
export function problem(status: number, headers: Record<string, string> = {}): Response {
  return json({ type: "about:blank", title: `status ${status}`, status, detail: `failure ${status}` }, status, headers);
}

/** Lets every queued promise callback run (several rounds, for chains of awaits). */
export async function settle(rounds = 20): Promise<void> {
  for (let round = 0; round < rounds; round += 1) await Promise.resolve();
}
