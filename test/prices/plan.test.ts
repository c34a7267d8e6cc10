import fc from "fast-check";
import { planPairs, type Tile } from "../../src/prices";
import { gridChunks } from "../../src/prices/plan";
import { addDays } from "./dates";
import { flushAll, setup } from "./setup";

type Limits = { maxSymbols: number; maxDates: number; maxRecords: number };

function asMap(pairs: readonly [string, string][]): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const [symbol, date] of pairs) {
    const dates = map.get(symbol) ?? new Set<string>();
    dates.add(date);
    map.set(symbol, dates);
  }
  return map;
}

/**
 * The two simple plans the issue bounds the planner by, counted here from the pairs alone (not by the
 * code under test): one request per distinct date, and one per distinct symbol, each chunked by the limits.
 */
function simplePlans(pairs: readonly (readonly [string, string])[], limits: Limits): { perDate: number; perSymbol: number } {
  const unique = new Set(pairs.map(([symbol, date]) => `${symbol}\u0000${date}`));
  const symbolsOfDate: Record<string, number> = {};
  const datesOfSymbol: Record<string, number> = {};
  for (const pair of unique) {
    const [symbol = "", date = ""] = pair.split("\u0000");
    symbolsOfDate[date] = (symbolsOfDate[date] ?? 0) + 1;
    datesOfSymbol[symbol] = (datesOfSymbol[symbol] ?? 0) + 1;
  }
  // A request for one date carries at most maxSymbols symbols and maxRecords records; likewise per symbol.
  const symbolsPerRequest = Math.min(limits.maxSymbols, limits.maxRecords);
  const datesPerRequest = Math.min(limits.maxDates, limits.maxRecords);
  let perDate = 0;
  for (const count of Object.values(symbolsOfDate)) perDate += Math.ceil(count / symbolsPerRequest);
  let perSymbol = 0;
  for (const count of Object.values(datesOfSymbol)) perSymbol += Math.ceil(count / datesPerRequest);
  return { perDate, perSymbol };
}

function pairsOf(map: Map<string, Set<string>>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [symbol, dates] of map) for (const date of dates) pairs.push([symbol, date]);
  return pairs;
}

function asked(map: Map<string, Set<string>>): number {
  let total = 0;
  for (const dates of map.values()) total += dates.size;
  return total;
}

function checkPlan(map: Map<string, Set<string>>, tiles: Tile[], limits: Limits, overfetch: number): void {
  const over = tiles.filter((tile) => tile.symbols.length > limits.maxSymbols || tile.dates.length > limits.maxDates || tile.symbols.length * tile.dates.length > limits.maxRecords);
  expect(over).toEqual([]);
  const covered = new Set<string>();
  for (const tile of tiles) for (const symbol of tile.symbols) for (const date of tile.dates) covered.add(`${symbol}|${date}`);
  const missing: string[] = [];
  for (const [symbol, dates] of map) for (const date of dates) if (!covered.has(`${symbol}|${date}`)) missing.push(`${symbol}|${date}`);
  expect(missing).toEqual([]);
  const { perDate, perSymbol } = simplePlans(pairsOf(map), limits);
  expect(tiles.length).toBeLessThanOrEqual(Math.min(perDate, perSymbol));
  const fetched = tiles.reduce((sum, tile) => sum + tile.symbols.length * tile.dates.length, 0);
  expect(fetched).toBeLessThanOrEqual(overfetch * asked(map));
}

const limitsArb = fc.record({ maxSymbols: fc.integer({ min: 1, max: 6 }), maxDates: fc.integer({ min: 1, max: 6 }), maxRecords: fc.integer({ min: 1, max: 30 }) });
const symbolArb = fc.integer({ min: 0, max: 11 }).map((index) => `S${index}`);
const dateArb = fc.integer({ min: 0, max: 15 }).map((index) => addDays("2024-01-01", index));

describe("the simple plans the bounds are taken from", () => {
  it("counts one request per date and per symbol, chunked by the limits", () => {
    // 3 symbols on 2024-01-01, 1 on 2024-01-02; S1 asks 3 dates, S2 and S3 one each.
    const pairs: [string, string][] = [["S1", "2024-01-01"], ["S2", "2024-01-01"], ["S3", "2024-01-01"], ["S1", "2024-01-02"], ["S1", "2024-01-03"], ["S1", "2024-01-03"]];
    expect(simplePlans(pairs, { maxSymbols: 2, maxDates: 2, maxRecords: 100 })).toEqual({ perDate: 2 + 1 + 1, perSymbol: 2 + 1 + 1 });
    expect(simplePlans(pairs, { maxSymbols: 500, maxDates: 250, maxRecords: 1 })).toEqual({ perDate: 5, perSymbol: 5 });
  });
});

describe("request planning for dated prices", () => {
  it("covers every pair within the limits, never above the per-date and per-symbol plans, fetching at most 4 records per record asked", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(symbolArb, dateArb), { minLength: 1, maxLength: 80 }), limitsArb, (pairs, limits) => {
        const map = asMap(pairs);
        checkPlan(map, planPairs(map, limits, 4), limits, 4);
      }),
      { numRuns: 400 },
    );
  });

  it("never over-fetches when maxOverfetch is 1", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(symbolArb, dateArb), { minLength: 1, maxLength: 60 }), limitsArb, (pairs, limits) => {
        const map = asMap(pairs);
        checkPlan(map, planPairs(map, limits, 1), limits, 1);
      }),
      { numRuns: 200 },
    );
  });

  it("takes exactly ceil(S/maxSymbols) x ceil(D/maxDates) requests for a full grid whose chunks fit maxRecords", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), limitsArb, (symbolCount, dateCount, limits) => {
        const symbolChunks = Math.ceil(symbolCount / limits.maxSymbols);
        const dateChunks = Math.ceil(dateCount / limits.maxDates);
        fc.pre(Math.ceil(symbolCount / symbolChunks) * Math.ceil(dateCount / dateChunks) <= limits.maxRecords);
        const pairs: [string, string][] = [];
        for (let s = 0; s < symbolCount; s += 1) for (let d = 0; d < dateCount; d += 1) pairs.push([`S${s}`, addDays("2024-01-01", d)]);
        const map = asMap(pairs);
        const tiles = planPairs(map, limits, 4);
        expect(tiles).toHaveLength(symbolChunks * dateChunks);
        checkPlan(map, tiles, limits, 4);
      }),
      { numRuns: 300 },
    );
  });

  it("finds the fewest uniform chunks when records bind", () => {
    // 500 x 250 at 100,000 records: 2 requests of 500 x 125 (or 250 x 250).
    const { rowChunks, colChunks } = gridChunks(500, 250, 500, 250, 100_000);
    expect(rowChunks * colChunks).toBe(2);
  });

  it("merges scattered keys below one request per symbol while keeping the over-fetch bound", () => {
    // 40 symbols, each asking 5 of 400 dates at random: per symbol would be 40 requests.
    const random = fc.sample(fc.integer({ min: 0, max: 399 }), { numRuns: 200, seed: 42 });
    const pairs: [string, string][] = random.map((day, index) => [`S${index % 40}`, addDays("2020-01-01", day)]);
    const map = asMap(pairs);
    const limits = { maxSymbols: 500, maxDates: 250, maxRecords: 100_000 };
    const tiles = planPairs(map, limits, 4);
    checkPlan(map, tiles, limits, 4);
    expect(simplePlans(pairs, limits).perSymbol).toBe(40);
    expect(tiles.length).toBeLessThan(40 / 2);
  });
});

describe("scattered keys through the client", () => {
  it("sends no more requests than the better simple plan and fetches at most 4 records per key", async () => {
    const limits = { maxSymbols: 20, maxDates: 30, maxRecords: 300 };
    const { client, manual, calls } = setup({ limits });
    const pairs = fc.sample(fc.tuple(fc.integer({ min: 0, max: 49 }), fc.integer({ min: 0, max: 199 })), { numRuns: 600, seed: 7 });
    const keys = pairs.map(([symbol, day]) => ({ symbol: `S${symbol}`, date: addDays("2023-01-01", day) }));
    const results = await flushAll(manual, keys.map((key) => client.price(key)));
    expect(results.every((result) => result.status === "fulfilled")).toBe(true);
    const pairList = keys.map((key): [string, string] => [key.symbol, key.date]);
    const map = asMap(pairList);
    const { perDate, perSymbol } = simplePlans(pairList, limits);
    expect(calls.length).toBeLessThanOrEqual(Math.min(perDate, perSymbol));
    expect(client.stats().recordsRequested).toBeLessThanOrEqual(4 * asked(map));
    for (const call of calls) expect(call.symbols.length * call.dates.length).toBeLessThanOrEqual(limits.maxRecords);
  });
});
