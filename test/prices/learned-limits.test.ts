/**
 * Limits learned from 400s cannot make the client run away: only a number stated as the limit is read
 * (thousands separators as such), only from a request that was over it, never below what the service
 * accepted, never below a floor; and the session's governor bounds requests whatever the answers say.
 */
import fc from "fast-check";
import { addDays } from "./dates";
import { TODAY, fakeService, json } from "./fake-service";
import { createPricesClient, manualScheduler, staticTokenProvider, statedLimits, type Limits, type PricesClientOptions } from "../../src/prices";
import { BASE } from "./setup";

const symbols = (count: number): string[] => Array.from({ length: count }, (_, index) => `S${String(index).padStart(3, "0")}`);
const dates = (count: number): string[] => Array.from({ length: count }, (_, index) => addDays("2024-01-01", index));
const GRID = symbols(100).flatMap((symbol) => dates(50).map((date) => ({ symbol, date })));

interface Asked {
  symbols: number;
  dates: number;
  records: number;
}

/** The fake service behind a gate with real limits: a request over them gets a 400 whose detail `refusal` writes. */
function limitedService(real: Limits, refusal: (asked: Asked, over: keyof Limits) => string) {
  const service = fakeService();
  let requests = 0;
  let refused = 0;
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    requests += 1;
    const url = new URL(String(input));
    const count = (name: string): number => (url.searchParams.get(name) ?? "").split(",").filter((item) => item !== "").length;
    const asked: Asked = { symbols: count("Symbols"), dates: count("Dates"), records: 0 };
    if (url.pathname.endsWith("/History")) {
      const days = (Date.parse(url.searchParams.get("ToDate") ?? "") - Date.parse(url.searchParams.get("FromDate") ?? "")) / 86_400_000 + 1;
      // The fake assesses every other day from 2020-01-01.
      asked.records = asked.symbols * Math.ceil(Math.max(0, days - Math.max(0, (Date.parse("2020-01-01") - Date.parse(url.searchParams.get("FromDate") ?? "")) / 86_400_000)) / 2);
    } else asked.records = asked.symbols * Math.max(1, asked.dates);
    const over: keyof Limits | undefined = asked.symbols > real.maxSymbols ? "maxSymbols" : asked.dates > real.maxDates ? "maxDates" : asked.records > real.maxRecords ? "maxRecords" : undefined;
    if (over) {
      refused += 1;
      return json({ type: "about:blank", title: "Bad Request", status: 400, detail: refusal(asked, over) }, 400);
    }
    return service.fetch(input, init);
  };
  return {
    fetch: fetch as typeof globalThis.fetch,
    get requests() {
      return requests;
    },
    get refused() {
      return refused;
    },
  };
}

function client(fetch: typeof globalThis.fetch, options: Partial<PricesClientOptions> = {}) {
  const manual = manualScheduler();
  const clock = { now: Date.parse(`${TODAY}T12:00:00Z`) };
  const made = createPricesClient({
    baseUrl: BASE,
    tokenProvider: staticTokenProvider("token"),
    fetch,
    scheduler: manual.scheduler,
    now: () => clock.now,
    // The governor's waits move the hand clock: no real time passes.
    sleep: async (ms) => {
      clock.now += ms;
    },
    retry: { backoffBaseMs: 1, backoffMaxMs: 2 },
    ...options,
  });
  return { client: made, manual, clock };
}

async function askGrid(fetch: typeof globalThis.fetch, options: Partial<PricesClientOptions> = {}) {
  const { client: made, manual } = client(fetch, options);
  const asked = GRID.map((key) => made.price(key));
  manual.flush();
  const results = await Promise.allSettled(asked);
  return { results, client: made };
}

describe("reading a limit from a refusal", () => {
  it.each([
    ["over the limit of 2,000 price records per response (maxRecords)", 2000],
    ["over the limit of 2.000 price records per response", 2000],
    ["over the limit of 2 000 price records", 2000],
    ["over the limit of 2\u00a0000 (maxRecords)", 2000],
    ["12 symbols is over the limit of 10 symbols per request (maxSymbols)", 10],
  ])("reads %j as %d", (text, value) => {
    expect(statedLimits(text).map(([, limit]) => limit)).toEqual([value]);
  });

  it.each([
    "the limit of 5 dates was not met",
    "over the limit of 3 records of type reference",
    "has a value of 5000 characters, over the limit of 4096",
    "over the limit of 2.5 price records",
    "limit exceeded",
  ])("reads nothing from %j", (text) => {
    expect(statedLimits(text)).toEqual([]);
  });
});

describe("limits learned from 400s", () => {
  it("learns nothing from 'limit of 1' on a request that held one record", async () => {
    const service = limitedService({ maxSymbols: 500, maxDates: 250, maxRecords: 0 }, () => "over the limit of 1 price records per response (maxRecords)");
    const { client: made, manual } = client(service.fetch);
    const one = made.price({ symbol: "AAA", date: "2024-01-02" });
    manual.flush();
    await expect(one).rejects.toMatchObject({ name: "HTTPError", status: 400 });
    expect(service.requests).toBe(1);
    expect(made.stats().replanned).toBe(0);
  });

  it("reads 'limit of 2.000' as 2000: a 100 x 50 grid takes 3 requests, not 5,000", async () => {
    const service = limitedService({ maxSymbols: 500, maxDates: 250, maxRecords: 2000 }, (asked) => `${asked.records} is over the limit of 2.000 price records per response`);
    const { results } = await askGrid(service.fetch);
    expect(results.filter((result) => result.status === "rejected")).toEqual([]);
    expect(service.requests - service.refused).toBe(3);
  });

  it.each(["the limit of 5 dates was not met", "over the limit of 3 records of type reference"])("learns nothing from %j", async (detail) => {
    const service = limitedService({ maxSymbols: 500, maxDates: 250, maxRecords: 2000 }, () => detail);
    const { results, client: made } = await askGrid(service.fetch);
    expect(service.requests).toBe(1);
    expect(made.stats().replanned).toBe(0);
    expect(results.every((result) => result.status === "rejected")).toBe(true);
  });

  it("stops at the floor and names the service's answer instead of splitting into one request per cell", async () => {
    const service = limitedService({ maxSymbols: 500, maxDates: 250, maxRecords: 1 }, () => "over the limit of 1 price records per response (maxRecords)");
    const { results } = await askGrid(service.fetch);
    expect(service.requests).toBe(1);
    const reason = (results[0] as PromiseRejectedResult).reason as Error;
    expect(reason.name).toBe("RequestLimitError");
    expect(reason.message).toContain("over the limit of 1 price records");
  });

  it("never learns below the largest request the service accepted", async () => {
    // The service takes the first grid (5,000 records), then claims a limit of 600 for a larger one.
    let accepted = false;
    const inner = limitedService({ maxSymbols: 500, maxDates: 250, maxRecords: 5000 }, () => "over the limit of 600 price records (maxRecords)");
    const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      if (accepted) return json({ type: "about:blank", title: "Bad Request", status: 400, detail: "over the limit of 600 price records (maxRecords)" }, 400);
      accepted = true;
      return inner.fetch(input, init);
    }) as typeof globalThis.fetch;
    const { client: made, manual } = client(fetch);
    const first = GRID.map((key) => made.price(key));
    manual.flush();
    await Promise.all(first);
    const wider = symbols(120).flatMap((symbol) => dates(50).map((date) => made.price({ symbol, date: addDays(date, 60) })));
    manual.flush();
    const results = await Promise.allSettled(wider);
    // Learning 600 would have made 10 requests of the 6,000 records; 5,000 accepted caps what it may learn at 5,000.
    expect(made.stats().replanned).toBe(1);
    expect(made.stats().requestsSent).toBeLessThanOrEqual(1 + 1 + 2 + 2);
    expect(results.some((result) => result.status === "rejected")).toBe(true);
  });

  it("a service answering 'limit of (asked - 1)' every time costs a few dozen requests, not hundreds", async () => {
    const service = limitedService({ maxSymbols: 500, maxDates: 250, maxRecords: 0 }, (asked) => `over the limit of ${asked.records - 1} price records per response (maxRecords)`);
    await askGrid(service.fetch);
    // Taken at its word once, then at least halved each time it refuses again, down to the floor of 500 records.
    expect(service.requests).toBeLessThanOrEqual(20);
  });
});

/** Requests a client needs for the 100 x 50 grid with its limits at the floors: ceil(100/10) x ceil(50/10). */
const FLOOR_PLAN_REQUESTS = 50;

const bodyArb = fc.oneof(
  fc.string(),
  fc.tuple(fc.constantFrom("over the limit of", "the limit of", "limit of", "maximum is", "exceeds the limit of"), fc.integer({ min: 0, max: 200_000 }), fc.constantFrom(" price records", " symbols", " dates", " records of type reference", " (maxRecords)", " (maxSymbols)", " (maxDates)", " dates was not met", ""), fc.constantFrom("", " per request", ".", " per response (maxRecords)")).map(
    ([lead, value, unit, tail]) => `${lead} ${value.toLocaleString("de-DE")}${unit}${tail}`,
  ),
  fc.tuple(fc.constantFrom("over the limit of", "limit of"), fc.integer({ min: 0, max: 6000 })).map(([lead, value]) => `${lead} ${value} price records per response (maxRecords)`),
);

describe("the session's governor", () => {
  it("bounds requests per refresh whatever the 400s say (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(bodyArb, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 5000 }), async (bodies, realRecords) => {
        let turn = 0;
        const service = limitedService({ maxSymbols: 500, maxDates: 250, maxRecords: realRecords }, () => bodies[turn++ % bodies.length] as string);
        const { results } = await askGrid(service.fetch, { governor: { maxRequestsPerRefresh: 40 } });
        // Every key settles, and no sequence of answers passes the refresh's bound.
        expect(results).toHaveLength(GRID.length);
        expect(service.requests).toBeLessThanOrEqual(40);
      }),
      { numRuns: 60 },
    );
  });

  it("with the defaults, no sequence of 400s costs more than twice the requests of a plan at the floors (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(bodyArb, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 5000 }), async (bodies, realRecords) => {
        let turn = 0;
        const service = limitedService({ maxSymbols: 500, maxDates: 250, maxRecords: realRecords }, (asked) => (bodies[turn++ % bodies.length] as string).replace("ASKED", String(asked.records)));
        await askGrid(service.fetch);
        expect(service.requests).toBeLessThanOrEqual(2 * FLOOR_PLAN_REQUESTS);
      }),
      { numRuns: 60 },
    );
  });

  it("holds requests to the rate it allows, waiting on the client's clock", async () => {
    const service = fakeService();
    const sentAt: number[] = [];
    let clock = { now: 0 };
    const fetch = ((input: string | URL | Request, init?: RequestInit) => {
      sentAt.push(clock.now);
      return service.fetch(input, init);
    }) as typeof globalThis.fetch;
    const made = client(fetch, { governor: { maxRequestsPerSecond: 2 }, limits: { maxSymbols: 1 }, maxInFlight: 1 });
    clock = made.clock;
    const asked = symbols(8).map((symbol) => made.client.price({ symbol }));
    made.manual.flush();
    await Promise.all(asked);
    expect(sentAt).toHaveLength(8);
    // In any stretch of time, at most a second's burst (2) plus 2 per second passed.
    sentAt.forEach((first, i) => sentAt.slice(i).forEach((last, offset) => expect(offset + 1).toBeLessThanOrEqual(2 + (2 * (last - first)) / 1000)));
    expect((sentAt[7] as number) - (sentAt[0] as number)).toBeGreaterThanOrEqual(3000);
  });
});
