/**
 * The structures of the client's hot path: the record finder, the full-grid planner, items passed through
 * the planner, records kept as parsed, and pending asks and lineage kept in one map.
 */
import fc from "fast-check";
import type { PriceRecord } from "../../src/api/schemas";
import { RecordFinder, planRequests, type Keyed } from "../../src/prices/plan-requests";
import { normHistoryKey, normPriceKey, type NormKey } from "../../src/prices/keys";
import { planDateLists, planPairs } from "../../src/prices/plan";
import { addDays } from "./dates";
import { json, midOf } from "./fake-service";
import { flushAll, reasonOf, setup, valueOf } from "./setup";

const record = (date: string, mid: number): PriceRecord => ({ date, assessmentDate: `${date}T16:30:00+00:00`, revision: 0, low: mid - 1, mid, high: mid + 1 });

describe("RecordFinder", () => {
  it("finds every date of records in descending order, and nothing for dates between or outside them", () => {
    const dates = ["2024-03-08", "2024-03-06", "2024-03-05", "2024-03-01", "2024-02-28"];
    const finder = new RecordFinder(dates.map((date, index) => record(date, index)));
    dates.forEach((date, index) => expect(finder.find(date)?.mid).toBe(index));
    for (const absent of ["2024-03-09", "2024-03-07", "2024-03-02", "2024-02-27"]) expect(finder.find(absent)).toBeUndefined();
    expect(finder.latest()?.date).toBe("2024-03-08");
  });

  it("finds every date of records in ascending order (as /Prices answers), and nothing for dates between or outside them", () => {
    const dates = ["2024-02-28", "2024-03-01", "2024-03-05", "2024-03-06", "2024-03-08"];
    const finder = new RecordFinder(dates.map((date, index) => record(date, index)));
    dates.forEach((date, index) => expect(finder.find(date)?.mid).toBe(index));
    for (const absent of ["2024-03-09", "2024-03-07", "2024-03-02", "2024-02-27"]) expect(finder.find(absent)).toBeUndefined();
    expect(finder.latest()?.date).toBe("2024-03-08");
  });

  it("falls back to an index when the records are in neither order; the last of two equal dates wins", () => {
    const prices = [record("2024-03-01", 1), record("2024-03-05", 2), record("2024-03-03", 3), record("2024-03-05", 4)];
    const finder = new RecordFinder(prices);
    expect(finder.find("2024-03-01")?.mid).toBe(1);
    expect(finder.find("2024-03-05")?.mid).toBe(4);
    expect(finder.find("2024-03-03")?.mid).toBe(3);
    expect(finder.find("2024-03-04")).toBeUndefined();
    // The latest is the first record of the greatest date, as a scan from the front finds it.
    expect(finder.latest()?.mid).toBe(2);
  });

  it("agrees with a plain lookup on any list of records, for any sequence of dates asked of one finder", () => {
    const day = fc.integer({ min: 0, max: 40 }).map((offset) => addDays("2024-01-01", offset));
    fc.assert(
      fc.property(fc.array(day, { maxLength: 30 }), fc.constantFrom("ascending", "descending", "as drawn"), fc.array(day, { minLength: 1, maxLength: 20 }), (dates, order, probes) => {
        const sorted = [...new Set(dates)].sort();
        const list = order === "ascending" ? sorted : order === "descending" ? sorted.reverse() : dates;
        const prices = list.map((date, index) => record(date, index));
        const finder = new RecordFinder(prices);
        // Neighbours of the last date found are tried first: walks up, down and jumps all give the plain answer.
        for (const probe of [...probes, ...list, ...[...list].reverse()]) expect(finder.find(probe)).toBe(prices.filter((item) => item.date === probe).pop());
        const greatest = prices.reduce<PriceRecord | undefined>((found, item) => (!found || item.date > found.date ? item : found), undefined);
        expect(finder.latest()).toBe(greatest);
      }),
    );
  });
});

describe("planDateLists on full grids", () => {
  const limitsArb = fc.record({ maxSymbols: fc.integer({ min: 1, max: 12 }), maxDates: fc.integer({ min: 1, max: 12 }), maxRecords: fc.integer({ min: 1, max: 80 }) });

  it("covers every pair of a grid within the limits, in no more than the fewest uniform tiles, and the minimum when records fit", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 15 }), fc.integer({ min: 1, max: 15 }), limitsArb, (symbolCount, dateCount, limits) => {
        const symbols = Array.from({ length: symbolCount }, (_, index) => `S${index}`);
        const dates = Array.from({ length: dateCount }, (_, index) => addDays("2024-01-01", index));
        // Dates given in a shuffled order per symbol: the lists are compared after sorting.
        const lists = new Map(symbols.map((symbol, index) => [symbol, index % 2 === 0 ? [...dates].reverse() : [...dates]]));
        const tiles = planDateLists(lists, limits, 4);
        const seen = new Map<string, number>();
        for (const tile of tiles) {
          expect(tile.symbols.length).toBeLessThanOrEqual(limits.maxSymbols);
          expect(tile.dates.length).toBeLessThanOrEqual(limits.maxDates);
          expect(tile.symbols.length * tile.dates.length).toBeLessThanOrEqual(limits.maxRecords);
          for (const symbol of tile.symbols) for (const date of tile.dates) seen.set(`${symbol}|${date}`, (seen.get(`${symbol}|${date}`) ?? 0) + 1);
        }
        expect(seen.size).toBe(symbolCount * dateCount);
        // No more than the fewest uniform tiles, searched here by brute force over both orientations
        // (packing may merge the smaller tiles of an uneven split), and exactly the minimum when records fit.
        const fewest = (rows: number, cols: number, maxRows: number, maxCols: number): number => {
          let best = Infinity;
          for (let rowChunks = 1; rowChunks <= rows; rowChunks += 1) {
            for (let colChunks = 1; colChunks <= cols; colChunks += 1) {
              const rowSize = Math.ceil(rows / rowChunks);
              const colSize = Math.ceil(cols / colChunks);
              if (rowSize <= maxRows && colSize <= maxCols && rowSize * colSize <= limits.maxRecords) best = Math.min(best, rowChunks * colChunks);
            }
          }
          return best;
        };
        const minimal = Math.min(fewest(symbolCount, dateCount, limits.maxSymbols, limits.maxDates), fewest(dateCount, symbolCount, limits.maxDates, limits.maxSymbols));
        expect(tiles.length).toBeLessThanOrEqual(minimal);
        if (limits.maxRecords >= Math.min(symbolCount, limits.maxSymbols) * Math.min(dateCount, limits.maxDates)) {
          expect(tiles.length).toBe(Math.ceil(symbolCount / limits.maxSymbols) * Math.ceil(dateCount / limits.maxDates));
        }
      }),
    );
  });

  it("plans a grid and the same grid with one pair missing as valid plans (the second takes the general path)", () => {
    const symbols = ["A", "B", "C"];
    const dates = ["2024-03-01", "2024-03-02", "2024-03-03"];
    const full = new Map(symbols.map((symbol) => [symbol, new Set(dates)]));
    expect(planPairs(full, { maxSymbols: 500, maxDates: 250, maxRecords: 100_000 }, 4)).toEqual([{ symbols, dates }]);
    const gap = new Map(symbols.map((symbol) => [symbol, new Set(symbol === "B" ? dates.slice(1) : dates)]));
    const tiles = planPairs(gap, { maxSymbols: 500, maxDates: 250, maxRecords: 100_000 }, 4);
    const covered = new Set(tiles.flatMap((tile) => tile.symbols.flatMap((symbol) => tile.dates.map((date) => `${symbol}|${date}`))));
    for (const [symbol, asked] of gap) for (const date of asked) expect(covered.has(`${symbol}|${date}`)).toBe(true);
  });
});

describe("planRequests", () => {
  const item = (symbol: string, date: string, fields?: string[]): Keyed<NormKey> & { tag: string } => ({ key: normPriceKey({ symbol, date, ...(fields ? { fields } : {}) }), tag: `${symbol}|${date}|${fields?.join(",") ?? ""}` });

  it("hands back the very items given, each in exactly one request, also when tiles overlap and pairs repeat with other fields", () => {
    // Scattered pairs that the packer merges into over-fetching requests, and a pair asked twice with different fields.
    const items = [item("A", "2024-03-01"), item("B", "2024-03-02"), item("C", "2024-03-03"), item("A", "2024-03-03"), item("A", "2024-03-01", ["pricingRationale"]), item("D", "2024-05-01")];
    const requests = planRequests(items, { limits: { maxSymbols: 2, maxDates: 2, maxRecords: 4 }, maxOverfetch: 4 });
    const served = requests.flatMap((request) => request.items);
    expect(served).toHaveLength(items.length);
    expect(new Set(served).size).toBe(items.length);
    for (const given of items) expect(served).toContain(given);
  });
});

describe("planRequests on mixed windows", () => {
  it("hands back every item of a window mixing kinds and calculation types, each once", () => {
    const items: Keyed<NormKey>[] = [
      { key: normPriceKey({ symbol: "A", date: "2024-03-01" }) },
      { key: normPriceKey({ symbol: "B", date: "2024-03-01", calculationType: "MonthlyAverage" }) },
      { key: normPriceKey({ symbol: "A" }) },
      { key: normHistoryKey({ symbol: "A", fromDate: "2024-01-01", toDate: "2024-02-01" }) },
      { key: normPriceKey({ symbol: "C", date: "2024-03-02" }) },
    ];
    const requests = planRequests(items, { limits: { maxSymbols: 500, maxDates: 250, maxRecords: 100_000 }, maxOverfetch: 4 });
    // Dated None, dated MonthlyAverage, latest, history: four requests.
    expect(requests).toHaveLength(4);
    const served = requests.flatMap((request) => request.items);
    expect(served).toHaveLength(items.length);
    expect(new Set(served)).toEqual(new Set(items));
  });
});

describe("records kept as parsed or copied", () => {
  const base = { date: "2024-03-01", assessmentDate: "2024-03-01T16:30:00+00:00", revision: 0, low: 1, mid: 2, high: 3 };
  const answerWith = (prices: unknown[]) => () => json({ priceCalculationType: "None", instruments: [{ symbol: "AAA", firstDate: "x", lastDate: "y", prices }] });

  it("returns a record of known fields as served", async () => {
    const { client, manual, service } = setup();
    const curve = [{ forwardCode: "M1", forwardMonth: "APR", low: 10, mid: 11, high: 12 }];
    service.script.push(answerWith([{ ...base, forwardCurves: curve, appraisalPrice: true, pricingRationale: "why", assessmentPeriod: "Mar 2024", lowChangeSincePrevious: 0.5 }]));
    const [result] = await flushAll(manual, [client.price({ symbol: "AAA", date: "2024-03-01", fields: ["appraisalPrice", "pricingRationale", "assessmentPeriod", "lowChangeSincePrevious"] })]);
    expect(valueOf(result)).toStrictEqual({ ...base, forwardCurves: curve, appraisalPrice: true, pricingRationale: "why", assessmentPeriod: "Mar 2024", lowChangeSincePrevious: 0.5 });
  });

  it.each([
    ["an unknown field", { ...base, note: "x" }, base],
    ["an unknown field among optional ones", { ...base, appraisalPrice: false, extra: 1 }, { ...base, appraisalPrice: false }],
    ["a change that comes as null", { ...base, lowChangeSincePrevious: null }, base],
    ["numbers as strings", { ...base, low: "1", mid: "2.0", high: "3" }, base],
    ["the period under its other name", { ...base, evaluationPeriod: "Mar 2024" }, { ...base, assessmentPeriod: "Mar 2024" }],
    ["null curves", { ...base, forwardCurves: null }, base],
  ])("copies a record with %s, keeping only what the contract says", async (_, served, expected) => {
    const { client, manual, service } = setup();
    service.script.push(answerWith([served]));
    const [result] = await flushAll(manual, [client.price({ symbol: "AAA", date: "2024-03-01", fields: ["appraisalPrice", "assessmentPeriod", "lowChangeSincePrevious"] })]);
    expect(valueOf(result)).toStrictEqual(expected);
  });

  it.each([
    ["alone", [{ ...base, date: "2024-02-30" }]],
    ["after a record kept as parsed", [base, { ...base, date: "2024-02-30" }]],
    ["with a numeric string beside it", [{ ...base, date: "2024-02-30", low: "1" }]],
  ])("refuses a record dated 2024-02-30 %s, naming the field", async (_, prices) => {
    const { client, manual, service } = setup();
    service.script.push(answerWith(prices));
    const [result] = await flushAll(manual, [client.price({ symbol: "AAA", date: "2024-03-01" })]);
    expect(reasonOf(result).name).toBe("ResponseFormatError");
    expect(reasonOf(result).message).toContain(`prices[${prices.length - 1}].date" is not a date`);
  });

  it("finds each asked date in a block served in descending order, and fails only the dates it lacks", async () => {
    const { client, manual, service } = setup();
    const days = ["2024-03-08", "2024-03-06", "2024-03-05", "2024-03-01"];
    service.script.push(() => json({ priceCalculationType: "None", instruments: ["AAA", "BBB"].map((symbol) => ({ symbol, firstDate: "x", lastDate: "y", prices: days.map((date) => ({ ...base, date, mid: midOf(symbol, date) })) })) }));
    // Symbols interleaved, so that one symbol's keys do not come together.
    const asked = ["2024-03-01", "2024-03-07", "2024-03-08", "2024-03-05"].flatMap((date) => ["AAA", "BBB"].map((symbol) => ({ symbol, date })));
    const results = await flushAll(manual, asked.map((key) => client.price(key)));
    asked.forEach((key, index) => {
      if (key.date === "2024-03-07") expect(reasonOf(results[index]).name).toBe("NoDataError");
      else expect(valueOf(results[index]).mid).toBe(midOf(key.symbol, key.date));
    });
  });
});

describe("pending asks and lineage in one map", () => {
  const past = { symbol: "AAA", date: "2024-03-01" };

  it("records a join in the lineage of the pending key, and the request that then serves it", async () => {
    const { client, manual, clock } = setup();
    const first = client.price(past);
    clock.now += 5;
    const joined = client.price({ ...past, symbol: "aaa" });
    expect(client.lineage(past)).toMatchObject({ fromCache: true, askedAt: clock.now, requestId: undefined });
    const results = await flushAll(manual, [first, joined]);
    expect(valueOf(results[0])).toBe(valueOf(results[1]));
    expect(client.stats()).toMatchObject({ keysAsked: 2, joined: 1, requestsSent: 1 });
    expect(client.lineage(past)).toMatchObject({ fromCache: true, requestId: 1 });
  });

  it("keeps keys that are waiting when the lineage bound is passed, so that they are still joined", async () => {
    const { client, manual, calls } = setup({ maxLineageKeys: 2 });
    const keys = ["AAA", "BBB", "CCC", "DDD"].map((symbol) => ({ symbol, date: "2024-03-01" }));
    const firsts = keys.map((key) => client.price(key));
    const again = keys.map((key) => client.price(key));
    expect(client.stats().joined).toBe(4);
    const results = await flushAll(manual, [...firsts, ...again]);
    expect(calls).toHaveLength(1);
    keys.forEach((key, index) => expect(valueOf(results[index + 4]).mid).toBe(midOf(key.symbol, key.date)));
    // Settled keys are then dropped oldest first as new keys come.
    await flushAll(manual, [client.price({ symbol: "EEE", date: "2024-03-01" })]);
    expect(client.lineage({ symbol: "EEE", date: "2024-03-01" })).toMatchObject({ fromCache: false });
    expect(client.lineage(keys[0] as typeof past)).toMatchObject({ fromCache: true });
  });

  it("does not join a key invalidated while pending: the next ask sends a request of its own", async () => {
    const { client, manual, calls } = setup();
    const first = client.price(past);
    client.invalidate();
    const second = client.price(past);
    const results = await flushAll(manual, [first, second]);
    expect(valueOf(results[0]).mid).toBe(midOf("AAA", "2024-03-01"));
    expect(valueOf(results[1]).mid).toBe(midOf("AAA", "2024-03-01"));
    expect(client.stats().joined).toBe(0);
    expect(calls.length).toBeGreaterThanOrEqual(1);
    // Only the second, not invalidated, answer is kept: a third ask is a cache hit.
    await client.price(past);
    expect(client.stats().cacheHits).toBe(1);
  });

  it("gives every ask its own settlers: neighbours asked one after another get their own values", async () => {
    const { client, manual } = setup();
    const keys = Array.from({ length: 50 }, (_, index) => ({ symbol: `S${index % 7}`, date: addDays("2024-03-01", index % 9) }));
    const results = await flushAll(manual, keys.map((key) => client.price(key)));
    keys.forEach((key, index) => expect(valueOf(results[index]).mid).toBe(midOf(key.symbol, key.date)));
  });
});
