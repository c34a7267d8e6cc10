import { toEpochDay } from "../../src/api/dates";
import { addDays } from "./dates";
import { TODAY, json, midOf } from "./fake-service";
import { flushAll, flushUntilSettled, reasonOf, setup, valueOf } from "./setup";
import { InvalidInstrumentError, NoDataError, ResponseFormatError } from "../../src/prices";
import type { PriceRecord, Waiter } from "../../src/prices/types";

const symbols = (count: number): string[] => Array.from({ length: count }, (_, index) => `S${String(index).padStart(3, "0")}`);
const dates = (count: number): string[] => Array.from({ length: count }, (_, index) => addDays("2024-01-01", index));

describe("batching of dated prices", () => {
  it("sends a full grid in exactly ceil(S/maxSymbols) x ceil(D/maxDates) requests with the right values", async () => {
    const { client, manual, calls } = setup({ limits: { maxSymbols: 3, maxDates: 2, maxRecords: 1000 } });
    const grid = symbols(7).flatMap((symbol) => dates(5).map((date) => ({ symbol, date })));
    const results = await flushAll(manual, grid.map((key) => client.price(key)));
    expect(calls).toHaveLength(Math.ceil(7 / 3) * Math.ceil(5 / 2));
    grid.forEach((key, index) => expect(valueOf(results[index]).mid).toBe(midOf(key.symbol, key.date)));
    for (const call of calls) {
      expect(call.symbols.length).toBeLessThanOrEqual(3);
      expect(call.dates.length).toBeLessThanOrEqual(2);
    }
  });

  it("sends a 200 x 50 grid in one request under the default limits", async () => {
    const { client, manual, calls } = setup();
    const grid = symbols(200).flatMap((symbol) => dates(50).map((date) => ({ symbol, date })));
    const results = await flushAll(manual, grid.map((key) => client.price(key)));
    expect(calls).toHaveLength(1);
    expect(results.every((result) => result.status === "fulfilled")).toBe(true);
  });

  it("splits a grid whose records exceed maxRecords into requests that each stay under it", async () => {
    const { client, manual, calls } = setup({ limits: { maxSymbols: 10, maxDates: 10, maxRecords: 6 } });
    const grid = symbols(4).flatMap((symbol) => dates(4).map((date) => ({ symbol, date })));
    const results = await flushAll(manual, grid.map((key) => client.price(key)));
    expect(results.every((result) => result.status === "fulfilled")).toBe(true);
    for (const call of calls) expect(call.symbols.length * call.dates.length).toBeLessThanOrEqual(6);
    // 16 records at 6 a request need at least 3 requests; 2 x 3 tiles do not divide 4 x 4, so 4 is the minimum.
    expect(calls).toHaveLength(4);
  });

  it("chunks latest prices by maxSymbols", async () => {
    const { client, manual, calls } = setup({ limits: { maxSymbols: 3 } });
    const results = await flushAll(manual, symbols(7).map((symbol) => client.price({ symbol })));
    expect(calls.map((call) => call.symbols.length)).toEqual([3, 3, 1]);
    expect(calls.every((call) => call.dates.length === 0)).toBe(true);
    expect(valueOf(results[6]).date).toBe(TODAY);
  });

  it("chunks one symbol's dates by maxDates", async () => {
    const { client, manual, calls } = setup({ limits: { maxDates: 2 } });
    await flushAll(manual, dates(5).map((date) => client.price({ symbol: "AAA", date })));
    expect(calls.map((call) => call.dates.length).sort()).toEqual([1, 2, 2]);
  });

  it("asks once for keys that differ only in letter case, padding or field order", async () => {
    const { client, manual, calls } = setup();
    const asks = [
      client.price({ symbol: "aaa", date: "2024-3-1", fields: ["PricingRationale", "appraisalPrice"] }),
      client.price({ symbol: "AAA ", date: "2024-03-01", fields: ["appraisalprice", "pricingRationale"] }),
    ];
    const results = await flushAll(manual, asks);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.symbols).toEqual(["AAA"]);
    expect(valueOf(results[0])).toBe(valueOf(results[1]));
    expect(client.stats()).toMatchObject({ keysAsked: 2, joined: 1, keysRequested: 1, requestsSent: 1 });
  });

  it("serves keys with different fields from one request with the union, each with only its own fields", async () => {
    const { client, manual, calls } = setup();
    const results = await flushAll(manual, [
      client.price({ symbol: "AAA", date: "2024-03-01" }),
      client.price({ symbol: "AAA", date: "2024-03-01", fields: ["pricingRationale"] }),
      client.price({ symbol: "BBB", date: "2024-03-01", fields: ["appraisalPrice"] }),
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.fields.sort()).toEqual(["appraisalPrice", "pricingRationale"]);
    const plain = valueOf(results[0]);
    expect(plain.pricingRationale).toBeUndefined();
    expect(plain.appraisalPrice).toBeUndefined();
    expect(valueOf(results[1]).pricingRationale).toBe("rationale AAA 2024-03-01");
    expect(valueOf(results[1]).appraisalPrice).toBeUndefined();
    expect(valueOf(results[2]).appraisalPrice).toBe(false);
    expect(Object.keys(plain)).not.toContain("ignoredExtra");
  });

  it("sends one group per calculation type", async () => {
    const { client, manual, calls } = setup();
    await flushAll(manual, [
      client.price({ symbol: "AAA", date: "2024-03-01" }),
      client.price({ symbol: "AAA", date: "2024-03-01", calculationType: "MonthlyAverage" }),
      client.price({ symbol: "BBB", date: "2024-03-01", calculationType: "monthlyaverage" as "MonthlyAverage" }),
    ]);
    expect(calls).toHaveLength(2);
    const monthly = calls.find((call) => call.params.priceCalculationType === "MonthlyAverage");
    expect(monthly?.symbols).toEqual(["AAA", "BBB"]);
    expect(calls.find((call) => call.params.priceCalculationType === undefined)?.symbols).toEqual(["AAA"]);
  });

  it("keeps latest and dated keys apart", async () => {
    const { client, manual, calls } = setup();
    await flushAll(manual, [client.price({ symbol: "AAA" }), client.price({ symbol: "AAA", date: "2024-03-01" })]);
    expect(calls).toHaveLength(2);
  });

  it("batches only the keys of one window; a later ask goes in the next window", async () => {
    const { client, manual, calls } = setup();
    const first = client.price({ symbol: "AAA", date: "2024-03-01" });
    manual.flush();
    const second = client.price({ symbol: "BBB", date: "2024-03-01" });
    expect(manual.pending).toBe(1);
    manual.flush();
    await Promise.all([first, second]);
    expect(calls).toHaveLength(2);
  });
});

describe("per-key results", () => {
  it("fails only the keys of a symbol listed in invalidInstruments", async () => {
    const { client, manual, calls } = setup({ fake: { unknown: ["NOPE"] } });
    const results = await flushAll(manual, [
      client.price({ symbol: "AAA", date: "2024-03-01" }),
      client.price({ symbol: "nope", date: "2024-03-01" }),
      client.price({ symbol: "NOPE", date: "2024-03-04" }),
    ]);
    expect(calls).toHaveLength(1);
    expect(valueOf(results[0]).mid).toBe(midOf("AAA", "2024-03-01"));
    for (const result of results.slice(1)) {
      const error = reasonOf(result);
      expect(error).toBeInstanceOf(InvalidInstrumentError);
      expect(error.message).toContain("NOPE: unknown or not permitted");
    }
  });

  it("hands a key asked into a waiter its answer or failure, batched and joined with the same keys asked for promises", async () => {
    const { client, manual, calls } = setup({ fake: { unknown: ["NOPE"] } });
    const heard: Record<string, unknown> = {};
    const waiter = (name: string): Waiter<PriceRecord> => ({
      answered: (record) => { heard[name] = record.mid; },
      failed: (error) => { heard[name] = error; },
    });
    const priceInto = client.priceInto?.bind(client);
    if (priceInto === undefined) throw new Error("the client asks into waiters");
    priceInto({ symbol: "AAA", date: "2024-03-01" }, undefined, waiter("first"));
    priceInto({ symbol: "NOPE", date: "2024-03-01" }, undefined, waiter("unknown"));
    priceInto({ symbol: "", date: "2024-03-01" }, undefined, waiter("refused"));
    const joined = client.price({ symbol: "aaa", date: "2024-03-01" });
    const results = await flushAll(manual, [joined, client.price({ symbol: "BBB", date: "2024-03-01" })]);
    expect(calls).toHaveLength(1);
    expect(client.stats()).toMatchObject({ keysRequested: 3, joined: 1 });
    expect(heard.first).toBe(midOf("AAA", "2024-03-01"));
    expect(valueOf(results[0]).mid).toBe(midOf("AAA", "2024-03-01"));
    expect(heard.unknown).toBeInstanceOf(InvalidInstrumentError);
    expect(heard.refused).toBeInstanceOf(Error);
  });

  it("fails a date before the instrument's first data with NoDataError naming the date", async () => {
    const { client, manual } = setup({ fake: { firstDate: { LATE: "2024-03-01" } } });
    const results = await flushAll(manual, [client.price({ symbol: "LATE", date: "2024-02-01" }), client.price({ symbol: "LATE", date: "2024-03-02" })]);
    const error = reasonOf(results[0]);
    expect(error).toBeInstanceOf(NoDataError);
    expect(error.message).toBe("LATE: no assessment on or before 2024-02-01");
    expect(valueOf(results[1]).date).toBe("2024-03-02");
  });

  it("fails only the symbol whose block lacks a required field, naming the field", async () => {
    const { client, manual, service } = setup();
    service.script.push((call) => {
      const body = {
        priceCalculationType: "None",
        instruments: call.symbols.map((symbol) => ({
          symbol,
          firstDate: "2020-01-01T00:00:00+00:00",
          lastDate: "2024-06-28T00:00:00+00:00",
          prices: [symbol === "BAD" ? { date: "2024-03-01", assessmentDate: "2024-03-01T16:30:00+00:00", revision: 0, low: 1, high: 3 } : { date: "2024-03-01", assessmentDate: "2024-03-01T16:30:00+00:00", revision: "0", low: "1", mid: 2, high: "3.50" }],
        })),
      };
      return new Response(JSON.stringify(body), { status: 200 });
    });
    const results = await flushAll(manual, [client.price({ symbol: "AAA", date: "2024-03-01" }), client.price({ symbol: "BAD", date: "2024-03-01" })]);
    expect(valueOf(results[0])).toEqual({ date: "2024-03-01", assessmentDate: "2024-03-01T16:30:00+00:00", revision: 0, low: 1, mid: 2, high: 3.5 });
    const error = reasonOf(results[1]);
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect((error as ResponseFormatError).field).toBe("instruments[1].prices[0].mid");
  });

  it("reads forward curves whose numbers come as strings, and drops unknown fields of a record", async () => {
    const { client, manual, service } = setup();
    service.script.push(() => {
      const curve = [{ forwardCode: "M1", forwardMonth: "APR", low: "10", mid: 11, high: "12.25", note: "x" }];
      const record = { date: "2024-03-01", assessmentDate: "2024-03-01T16:30:00+00:00", revision: 0, low: 1, mid: 2, high: 3, forwardCurves: curve, extra: { nested: true } };
      return new Response(JSON.stringify({ priceCalculationType: "None", instruments: [{ symbol: "AAA", firstDate: "x", lastDate: "y", prices: [record] }] }), { status: 200 });
    });
    const [result] = await flushAll(manual, [client.price({ symbol: "AAA", date: "2024-03-01" })]);
    expect(valueOf(result)).toEqual({
      date: "2024-03-01",
      assessmentDate: "2024-03-01T16:30:00+00:00",
      revision: 0,
      low: 1,
      mid: 2,
      high: 3,
      forwardCurves: [{ forwardCode: "M1", forwardMonth: "APR", low: 10, mid: 11, high: 12.25 }],
    });
  });

  it("fails every key of a request whose body has no instruments list", async () => {
    const { client, manual, service } = setup();
    service.script.push(new Response(JSON.stringify({ priceCalculationType: "None" }), { status: 200 }));
    const results = await flushAll(manual, [client.price({ symbol: "AAA", date: "2024-03-01" }), client.price({ symbol: "BBB", date: "2024-03-01" })]);
    for (const result of results) expect((reasonOf(result) as ResponseFormatError).field).toBe("instruments");
  });

  it("fails every key when the answer's priceCalculationType is not the one asked, naming it", async () => {
    const { client, manual, service } = setup();
    // A service that ignored the input: plain assessments labelled "None".
    service.script.push((call) => json({ priceCalculationType: "None", instruments: call.symbols.map((symbol) => ({ symbol, firstDate: "x", lastDate: "y", prices: [{ date: "2024-03-15", assessmentDate: "2024-03-15T16:30:00+00:00", revision: 0, low: 1, mid: 2, high: 3 }] })) }));
    const results = await flushAll(manual, ["AAA", "BBB"].map((symbol) => client.price({ symbol, date: "2024-03-15", calculationType: "MonthlyAverage" })));
    for (const result of results) {
      const error = reasonOf(result) as ResponseFormatError;
      expect(error).toBeInstanceOf(ResponseFormatError);
      expect(error.field).toBe("priceCalculationType");
      expect(error.message).toBe('Response field "priceCalculationType" is "None" where MonthlyAverage was asked: GET /Prices');
    }
  });

  it("accepts the calculation type in any letter case, and plain prices without one", async () => {
    const { client, manual, service } = setup();
    const record = { date: "2024-03-15", assessmentDate: "2024-03-15T16:30:00+00:00", revision: 1, low: 1, mid: 2, high: 3 };
    service.script.push(
      (call) => json({ priceCalculationType: "monthlyaverage", instruments: call.symbols.map((symbol) => ({ symbol, firstDate: "x", lastDate: "y", prices: [record] })) }),
      (call) => json({ instruments: call.symbols.map((symbol) => ({ symbol, firstDate: "x", lastDate: "y", prices: [record] })) }),
    );
    const [monthly] = await flushAll(manual, [client.price({ symbol: "AAA", date: "2024-03-15", calculationType: "MonthlyAverage" })]);
    expect(valueOf(monthly).mid).toBe(2);
    const [plain] = await flushAll(manual, [client.price({ symbol: "AAA", date: "2024-03-15" })]);
    expect(valueOf(plain).mid).toBe(2);
  });

  it("fails average keys whose answer carries no priceCalculationType", async () => {
    const { client, manual, service } = setup();
    service.script.push((call) => json({ instruments: call.symbols.map((symbol) => ({ symbol, firstDate: "x", lastDate: "y", prices: [] })) }));
    const [result] = await flushAll(manual, [client.price({ symbol: "AAA", calculationType: "WeeklyAverage" })]);
    expect((reasonOf(result) as ResponseFormatError).message).toBe('Response field "priceCalculationType" is missing where WeeklyAverage was asked: GET /Prices');
  });

  it("fails history keys whose answer is of another calculation type", async () => {
    const { client, manual, service } = setup();
    service.script.push(json({ priceCalculationType: "None", calendar: { type: "AssessmentDays", dates: [] }, instruments: [] }));
    const [result] = await flushAll(manual, [client.history({ symbol: "AAA", fromDate: "2024-01-01", toDate: "2024-03-31", calculationType: "QuarterlyAverage" })]);
    expect((reasonOf(result) as ResponseFormatError).field).toBe("priceCalculationType");
  });

  it("rejects malformed keys without sending anything", async () => {
    const { client, manual, calls } = setup();
    const results = await flushAll<unknown>(manual, [
      client.price({ symbol: "AAA", date: "2024-02-30" }),
      client.price({ symbol: "", date: "2024-02-01" }),
      client.price({ symbol: "AAA", fields: ["nonsense"] }),
      client.history({ symbol: "AAA", fromDate: "2024-03-01", toDate: "2024-02-01" }),
      client.references("Nope" as "Currency"),
    ]);
    expect(calls).toHaveLength(0);
    for (const result of results) expect(reasonOf(result).name).toBe("InvalidKeyError");
  });
});

describe("history, instruments and references", () => {
  it("shares one history request across symbols with the same options, chunked by the record estimate", async () => {
    const { client, manual, calls } = setup({ limits: { maxRecords: 100 } });
    const range = { fromDate: "2024-03-01", toDate: "2024-03-30" };
    const results = await flushUntilSettled(manual, [
      ...symbols(7).map((symbol) => client.history({ symbol, ...range })),
      client.history({ symbol: "AAA", ...range, calendarType: "Weekdays", carryForward: true }),
    ]);
    // 30 days estimate 30 records a symbol (the fake's calendar is none the client knows): 3 symbols a
    // request of at most 100 records, once the instruments' records said so.
    const plain = calls.filter((call) => call.path.endsWith("/History") && call.params.calendarType === undefined);
    expect(plain.map((call) => call.symbols.length)).toEqual([3, 3, 1]);
    const carried = calls.find((call) => call.params.carryForward === "true");
    expect(carried?.params.calendarType).toBe("Weekdays");
    const history = valueOf(results[0]) as Awaited<ReturnType<typeof client.history>>;
    expect(history.prices.length).toBe(15);
    expect((history.prices[0]?.date ?? "") > (history.prices[1]?.date ?? "")).toBe(true);
    const withCarry = valueOf(results[7]) as Awaited<ReturnType<typeof client.history>>;
    const carriedRecords = withCarry.prices.filter((record) => !withCarry.assessedDates.has(record.date));
    expect(carriedRecords.length).toBe(15);
    expect(withCarry.prices.length).toBe(30);
  });

  it("sizes histories by the frequency instruments state, and plans them again by calendar days when the service refuses that size", async () => {
    const names = symbols(7);
    const { client, manual, calls, service } = setup({ limits: { maxRecords: 100 }, fake: { frequency: Object.fromEntries(names.map((symbol) => [symbol, "Monthly"])) } });
    // The instruments' records come as served; the first history request, sized by "Monthly" (2 records a
    // symbol) though the data is every other day (15), is over the service's 100 records.
    service.script.push(
      () => undefined,
      (call) => (call.symbols.length > 3 ? json({ type: "about:blank", title: "Bad Request", status: 400, detail: `${call.symbols.length * 15} records asked; at most 100` }, 400) : undefined),
    );
    const range = { fromDate: "2024-03-01", toDate: "2024-03-30" };
    const results = await flushUntilSettled(manual, names.map((symbol) => client.history({ symbol, ...range })));
    results.forEach((result) => expect(valueOf(result).prices).toHaveLength(15));
    const histories = calls.filter((call) => call.path.endsWith("/History"));
    expect(histories.map((call) => call.symbols.length)).toEqual([7, 3, 3, 1]);
    expect(calls.filter((call) => call.path.endsWith("/Instruments"))).toHaveLength(1);
  });

  it("asks /Instruments once with the union of fields and projects each record to its own fields", async () => {
    const { client, manual, calls } = setup({ fake: { unknown: ["ZZZ"] } });
    const results = await flushAll<unknown>(manual, [
      client.instrument("AAA", ["currency"]),
      client.instrument("bbb"),
      client.instrument("BBB", ["hasForwardCurves"]),
      client.instrument("ZZZ"),
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.symbols).toEqual(["AAA", "BBB"].concat("ZZZ"));
    expect(calls[0]?.fields.sort()).toEqual(["Currency", "hasForwardCurves"]);
    expect(valueOf(results[0])).toMatchObject({ symbol: "AAA", currency: "US Dollar" });
    expect(valueOf(results[1])).not.toHaveProperty("hasForwardCurves");
    expect(valueOf(results[2])).toMatchObject({ hasForwardCurves: false });
    expect(reasonOf(results[3])).toBeInstanceOf(InvalidInstrumentError);
  });

  it("lists every instrument the caller may see with one call", async () => {
    const { client, manual, calls } = setup();
    const results = await flushAll(manual, [client.instruments(), client.instruments(["Currency"])]);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.symbols).toEqual([]);
    expect(valueOf(results[0]).map((record) => record.symbol)).toEqual(["AAA", "BBB"]);
    expect(valueOf(results[0])[0]).not.toHaveProperty("currency");
    expect(valueOf(results[1])[0]).toHaveProperty("currency", "US Dollar");
  });

  it("asks /References once for every type asked in the window", async () => {
    const { client, manual, calls } = setup();
    const results = await flushAll(manual, [client.references("Currency"), client.references("unitofmeasure" as "UnitOfMeasure"), client.references("Currency")]);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.params.Types).toBe("Currency,UnitOfMeasure");
    expect(valueOf(results[1]).type).toBe("UnitOfMeasure");
    expect(valueOf(results[0])).toBe(valueOf(results[2]));
  });
});


describe("assessed and carried-forward days of a history", () => {
  type History = Awaited<ReturnType<ReturnType<typeof setup>["client"]["history"]>>;
  // The fake assesses a symbol on epoch days divisible by its `every`; the rest are carried forward.
  const every: Record<string, number> = { AAA: 3, BBB: 2, CCC: 5 };
  const range = { fromDate: "2024-03-01", toDate: "2024-03-31", calendarType: "CalendarDays" as const, carryForward: true };
  const inRange = (from: string, to: string): string[] => {
    const out: string[] = [];
    for (let date = from; date <= to; date = addDays(date, 1)) out.push(date);
    return out;
  };
  /** Days a symbol was assessed, from the fake's schedule alone. */
  const scheduled = (symbol: string): string[] => inRange(range.fromDate, range.toDate).filter((date) => toEpochDay(date) % (every[symbol] ?? 2) === 0);
  // Corrections published 2 days later, on days the symbol itself carries forward (and one on the last day).
  const corrected = { AAA: scheduled("AAA").slice(0, 4), BBB: scheduled("BBB").slice(3, 6), CCC: scheduled("CCC") };

  function check(history: History, symbol: string): void {
    const expected = scheduled(symbol);
    expect([...history.assessedDates].sort()).toEqual(expected);
    const carried = history.prices.filter((record) => !history.assessedDates.has(record.date)).map((record) => record.date);
    expect(carried.sort()).toEqual(inRange(range.fromDate, range.toDate).filter((date) => !expected.includes(date)));
    expect(history.prices.filter((record) => record.revision > 0).length).toBeGreaterThan(0);
  }

  it("tells corrected assessments from carried copies for one symbol", async () => {
    const { client, manual, calls } = setup({ fake: { every, corrected } });
    const [result] = await flushAll(manual, [client.history({ symbol: "AAA", ...range })]);
    expect(calls).toHaveLength(1);
    check(valueOf(result), "AAA");
  });

  it("keeps each symbol's own days when symbols with other schedules share one request", async () => {
    const { client, manual, calls } = setup({ fake: { every, corrected } });
    const results = await flushAll(manual, ["AAA", "BBB", "CCC"].map((symbol) => client.history({ symbol, ...range })));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.symbols).toEqual(["AAA", "BBB", "CCC"]);
    ["AAA", "BBB", "CCC"].forEach((symbol, index) => check(valueOf(results[index]), symbol));
  });

  it("counts every record of an average history as assessed (averages are never carried)", async () => {
    const { client, manual } = setup();
    const [result] = await flushAll(manual, [client.history({ symbol: "AAA", fromDate: "2024-03-01", toDate: "2024-03-10", calculationType: "WeeklyAverage" })]);
    const history = valueOf(result);
    expect(history.prices.length).toBeGreaterThan(0);
    expect(history.prices.every((record) => history.assessedDates.has(record.date))).toBe(true);
  });
});
