import fc from "fast-check";
import { DEFAULT_LIMITS } from "../../../src/api";
import { collectParams } from "../../../src/sandbox/service/params";
import { isProblemError } from "../../../src/sandbox/service/problems";
import {
  parseHistoryRequest,
  parseInstrumentsRequest,
  parsePricesRequest,
  parseReferencesRequest,
} from "../../../src/sandbox/service/requests";

const KNOWN = ["Symbols", "Dates", "Fields", "FromDate", "ToDate", "calendarType", "carryForward", "forecastType", "priceCalculationType", "Types"];

describe("parameter parsing", () => {
  it("reads names in any case, lists comma-separated, repeated or both, dropping blanks and empties", () => {
    const params = collectParams({ SYMBOLS: ["A, B", " ,C"], symbols: "D,," }, { Dates: "2024-3-1" });
    const request = parsePricesRequest(params, DEFAULT_LIMITS);
    expect(request.symbols).toEqual(["A", "B", "C", "D"]);
    expect(request.dates).toEqual(["2024-03-01"]);
    expect(request.priceCalculationType).toBe("None");
  });

  it("keeps the first of symbols equal without regard to case, and distinct dates", () => {
    const request = parsePricesRequest(collectParams({ Symbols: "a,A,b", Dates: "2024-01-02,2024-1-2" }), DEFAULT_LIMITS);
    expect(request.symbols).toEqual(["a", "b"]);
    expect(request.dates).toEqual(["2024-01-02"]);
  });

  it("names every faulty parameter in one problem", () => {
    try {
      parseHistoryRequest(collectParams({ FromDate: "x", carryForward: "maybe" }), DEFAULT_LIMITS);
      throw new Error("no problem thrown");
    } catch (error) {
      expect(isProblemError(error)).toBe(true);
      if (!isProblemError(error)) return;
      expect(error.status).toBe(400);
      expect(error.errors?.map((e) => e.parameter).sort()).toEqual(["FromDate", "Symbols", "ToDate", "carryForward"]);
    }
  });

  it("refuses a single-valued parameter given twice with different values", () => {
    expect(() => parseHistoryRequest(collectParams({ Symbols: "A", FromDate: ["2024-01-01", "2024-01-02"], ToDate: "2024-02-01" }), DEFAULT_LIMITS)).toThrow(/more than once/);
    expect(parseHistoryRequest(collectParams({ Symbols: "A", FromDate: ["2024-01-01", "2024-1-1"], ToDate: "2024-02-01" }), DEFAULT_LIMITS).fromDate).toBe("2024-01-01");
  });

  it("returns a typed request or a 400 problem naming a parameter, for any input", () => {
    const name = fc.oneof(fc.constantFrom(...KNOWN, ...KNOWN.map((n) => n.toUpperCase())), fc.string());
    const value = fc.oneof(fc.string(), fc.constantFrom("2024-02-29", "2023-02-29", "2024-3-1", "true", "FALSE", "MonthlyAverage", "weekdays", "Currency", ",", " "));
    const source = fc.dictionary(name, fc.oneof(value, fc.array(value, { maxLength: 4 }), fc.integer(), fc.constant(null)));
    const limits = fc.record({ maxSymbols: fc.integer({ min: 1, max: 5 }), maxDates: fc.integer({ min: 1, max: 5 }), maxRecords: fc.integer({ min: 1, max: 10 }) });
    fc.assert(
      fc.property(source, source, limits, (query, body, lim) => {
        const params = collectParams(query, body);
        for (const parse of [
          () => parsePricesRequest(params, lim),
          () => parsePricesRequest(params, lim, "WeeklyAverage"),
          () => parseHistoryRequest(params, lim),
          () => parseInstrumentsRequest(params, lim),
          () => parseReferencesRequest(params),
        ]) {
          try {
            const request = parse();
            expect(typeof request).toBe("object");
          } catch (error) {
            expect(isProblemError(error)).toBe(true);
            if (!isProblemError(error)) return;
            expect(error.status).toBe(400);
            expect(error.errors?.length).toBeGreaterThan(0);
            for (const e of error.errors ?? []) expect(KNOWN).toContain(e.parameter);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});
