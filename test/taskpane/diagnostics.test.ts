import { INSTRUMENT_FIELDS, requestedInstrumentFields } from "../../src/functions/fields";
import { AuthError, InvalidInstrumentError, NetworkError, NoDataError } from "../../src/prices/errors";
import type { PriceRecord } from "../../src/prices/types";
import { assessedOrCarried, cellText, describeConversion, describeLineage, traceElement, traceFormula, type ResolveRef } from "../../src/taskpane/diagnostics";
import { plainWords } from "../../src/taskpane/plain-errors";

const TODAY = "2025-06-30";
/** A sheet of a few cells; anything else reads as one blank. */
const sheet: Record<string, unknown[][]> = {
  A1: [["MB-AL-0004"]],
  "A1:A2": [["MB-AL-0004"], ["MB-CU-0001"]],
  B1: [[45352]], // 2024-03-01 as an Excel serial
  "B1:C1": [[45352, "2024-13-01"]],
  C1: [["2024-13-01"]],
};
const resolve: ResolveRef = async (address) => sheet[address] ?? [[null]];

async function keysOf(formula: string): Promise<unknown[] | undefined> {
  return (await traceFormula(formula, resolve, TODAY))?.keys;
}

describe("traceFormula", () => {
  it("reads dates as the functions do: serials, text, blank for latest", async () => {
    expect(await keysOf("=PRICES.MID(A1,B1)")).toEqual([{ symbol: "MB-AL-0004", date: "2024-03-01" }]);
    expect(await keysOf('=PRICES.MID("MB-AL-0004","2024-3-1")')).toEqual([{ symbol: "MB-AL-0004", date: "2024-03-01" }]);
    expect(await keysOf("=PRICES.MID(A1:A2)")).toEqual([{ symbol: "MB-AL-0004" }, { symbol: "MB-CU-0001" }]);
    expect(await keysOf("=PRICES.LOW(A1,D9)")).toEqual([{ symbol: "MB-AL-0004" }]);
  });

  it("lists no key for a date the functions refuse, and keeps the others of the range", async () => {
    expect(await keysOf("=PRICES.MID(A1,C1)")).toEqual([]);
    expect(await keysOf("=PRICES.MID(A1,B1:C1)")).toEqual([{ symbol: "MB-AL-0004", date: "2024-03-01" }]);
    expect(await keysOf('=PRICES.HISTORY(A1,"2024-02-30")')).toEqual([]);
  });

  it("asks for the calculation and optional field as PRICE and AVERAGE do", async () => {
    expect(await keysOf('=PRICES.PRICE(A1,,"pricingRationale","weekly")')).toEqual([
      { symbol: "MB-AL-0004", calculationType: "WeeklyAverage", fields: ["pricingRationale"] },
    ]);
    expect(await keysOf('=PRICES.AVERAGE(A1,"Monthly",B1)')).toEqual([{ symbol: "MB-AL-0004", date: "2024-03-01", calculationType: "MonthlyAverage" }]);
    expect(await keysOf('=PRICES.PRICE(A1,,"nonsense")')).toEqual([]);
    expect(await keysOf("=PRICES.AVERAGE(A1,,B1)")).toEqual([]);
  });

  it("builds the history key the HISTORY function asks for, today by default", async () => {
    expect(await keysOf('=PRICES.HISTORY(A1,"2025-01-01")')).toEqual([{ symbol: "MB-AL-0004", fromDate: "2025-01-01", toDate: TODAY }]);
    expect(await keysOf('=PRICES.HISTORY(A1,"2025-01-01","2025-02-01","mid,appraisalPrice",,"CalendarDays","weekly")')).toEqual([
      {
        symbol: "MB-AL-0004",
        fromDate: "2025-01-01",
        toDate: "2025-02-01",
        calendarType: "CalendarDays",
        carryForward: true,
        calculationType: "WeeklyAverage",
        fields: ["appraisalPrice"],
      },
    ]);
  });

  it("traces the rolling formulas the builder writes: TODAY() and TODAY()-N read as that day", async () => {
    expect(await keysOf('=PRICES.HISTORY("MB-AL-0004",TODAY()-365)')).toEqual([{ symbol: "MB-AL-0004", fromDate: "2024-06-30", toDate: TODAY }]);
    expect(await keysOf("=PRICES.MID(A1, TODAY() - 1)")).toEqual([{ symbol: "MB-AL-0004", date: "2025-06-29" }]);
    expect(await keysOf("=PRICES.MID(A1, TODAY())")).toEqual([{ symbol: "MB-AL-0004", date: TODAY }]);
    const element = await traceElement('=PRICES.HISTORY("MB-AL-0004",TODAY()-365)', resolve, TODAY, 3, 1);
    expect(element?.key).toEqual({ symbol: "MB-AL-0004", fromDate: "2024-06-30", toDate: TODAY });
    // other arithmetic on TODAY() is still not something the trace reads
    expect(await traceFormula("=PRICES.MID(A1, TODAY()*2)", resolve, TODAY)).toBeUndefined();
    expect(await traceFormula("=PRICES.MID(A1, TODAY()-0.5)", resolve, TODAY)).toBeUndefined();
  });

  it("names curves, instruments and reference lists", async () => {
    expect(await keysOf("=PRICES.CURVE(A1,B1)")).toEqual([{ symbol: "MB-AL-0004", date: "2024-03-01" }]);
    // by the key the function asks: the whole record asks every field, a base field none, CONVERSIONS the plain record
    const all = requestedInstrumentFields(INSTRUMENT_FIELDS);
    expect(await keysOf("=PRICES.INSTRUMENT(A1:A2)")).toEqual([{ instrument: "MB-AL-0004", fields: all }, { instrument: "MB-CU-0001", fields: all }]);
    expect(await keysOf('=PRICES.INSTRUMENT(A1,"currencyId")')).toEqual([{ instrument: "MB-AL-0004" }]);
    expect(await keysOf('=PRICES.INSTRUMENT(A1,"currency")')).toEqual([{ instrument: "MB-AL-0004", fields: ["Currency"] }]);
    expect(await keysOf("=PRICES.CONVERSIONS(A1)")).toEqual([{ instrument: "MB-AL-0004" }]);
    expect(await keysOf('=PRICES.REFERENCE("currency")')).toEqual([{ reference: "Currency" }]);
    expect(await keysOf('=PRICES.REFERENCE("planets")')).toEqual([]);
  });

  it("traces nothing it cannot read", async () => {
    expect(await traceFormula("=SUM(A1:A3)", resolve, TODAY)).toBeUndefined();
    expect(await traceFormula("=PRICES.MID({1,2})", resolve, TODAY)).toBeUndefined();
  });
});

describe("FORECAST", () => {
  it("is traced from the instrument's latest assessment on, as the function asks", async () => {
    const traced = await traceFormula("=PRICES.FORECAST(A1)", resolve, TODAY, 12, "1900", { latestDate: async () => "2024-03-04" });
    expect(traced?.keys).toEqual([{ symbol: "MB-AL-0004", fromDate: "2024-03-04", toDate: "2034-03-12", forecastType: "F24M" }]);
  });
});

describe("cellText", () => {
  it("shows a serial under a date format as the date", () => {
    expect(cellText(45352, "yyyy-mm-dd")).toBe("2024-03-01");
    expect(cellText(45352, "General")).toBe("45352");
  });

  it("shows numbers in General format, booleans in capitals and blanks by name", () => {
    expect(cellText(1 / 3)).toBe("0.3333333333");
    expect(cellText(true)).toBe("TRUE");
    expect(cellText("")).toBe("(blank)");
    expect(cellText(null)).toBe("(blank)");
    expect(cellText("MB-AL-0004")).toBe("MB-AL-0004");
  });

  it("shows an error value Office gives as an object by its code", () => {
    expect(cellText({ type: "Error", errorType: "NotAvailable", basicValue: "#N/A" })).toBe("#N/A");
  });
});

describe("plainWords", () => {
  it("uses the words a cell shows, as a sentence, with the pane's next step", () => {
    expect(plainWords(new InvalidInstrumentError("MB-X"))).toBe("Unknown or not permitted symbol 'MB-X'. Check the symbol in Search.");
    // a known symbol lacking what was asked: the symbol is right, Search would not help
    expect(plainWords(new InvalidInstrumentError("MB-X", "does not have forecast type F24M"))).toBe("'MB-X': does not have forecast type F24M.");
    expect(plainWords(new NoDataError("MB-X", "2001-01-01"))).toBe("No assessment for 'MB-X' on or before 2001-01-01.");
    expect(plainWords(new AuthError({ reason: "not-signed-in" }))).toBe("Sign in from the Prices pane.");
    expect(plainWords(new NetworkError({ method: "GET", url: "https://x/Prices", reason: "refused" }))).toMatch(
      /^Service unreachable: .+ Check your connection or the service address in Settings\.$/,
    );
    expect(plainWords(new Error("boom"))).toBe("Boom.");
  });
});

describe("assessedOrCarried", () => {
  const record = (date: string, assessmentDate: string, revision: number): PriceRecord => ({ date, assessmentDate, revision, low: 1, mid: 2, high: 3 }) as PriceRecord;

  it("says assessed when the assessment was made on the day the value stands for", () => {
    expect(assessedOrCarried(record("2024-03-01", "2024-03-01T16:30:00+00:00", 0))).toBe("assessed on 2024-03-01");
  });

  it("says carried forward when the assessment is older than the day", () => {
    expect(assessedOrCarried(record("2024-03-04", "2024-03-01T16:30:00+00:00", 0))).toBe("carried forward from 2024-03-01 (no assessment on 2024-03-04)");
  });

  it("says corrected, not carried forward, for a revision published days after its day", () => {
    expect(assessedOrCarried(record("2024-03-01", "2024-03-05T10:12:00+00:00", 1))).toBe("assessed on 2024-03-01, corrected on 2024-03-05 (revision 1)");
    expect(assessedOrCarried(record("2024-03-01", "2024-03-08T10:40:00-05:00", 2))).toBe("assessed on 2024-03-01, corrected on 2024-03-08 (revision 2)");
  });

  it("never calls a value published after its day carried forward", () => {
    expect(assessedOrCarried(record("2024-03-01", "2024-03-02T09:00:00+00:00", 0))).toBe("assessed on 2024-03-01, published on 2024-03-02");
  });
});

describe("traceElement", () => {
  const cells: Record<string, unknown[][]> = { "A1:A3": [["MB-X"], ["MB-Y"], ["MB-Z"]], "B1:C1": [["2024-05-01", "2024-05-02"]] };
  const resolveCells: ResolveRef = async (address) => cells[address] ?? [[null]];

  it("finds the (symbol, date) of a price grid cell: symbols down, dates across", async () => {
    const element = await traceElement('=PRICES.MID(A1:A3,B1:C1)', resolveCells, "2024-06-01", 2, 1);
    expect(element?.key).toEqual({ symbol: "MB-Z", date: "2024-05-02" });
    expect(await traceElement('=PRICES.MID(A1:A3,B1:C1)', resolveCells, "2024-06-01", 3, 0)).toMatchObject({ key: undefined });
  });

  it("tells a history's header rows from its data rows, in the order shown", async () => {
    const formula = '=PRICES.HISTORY("MB-X","2024-01-01","2024-02-01",,2,,,"ascending")';
    expect(await traceElement(formula, resolveCells, "2024-06-01", 1, 0)).toMatchObject({ header: true });
    expect(await traceElement(formula, resolveCells, "2024-06-01", 4, 2)).toMatchObject({ header: false, dataRow: 2, order: "ascending", key: { symbol: "MB-X", fromDate: "2024-01-01", toDate: "2024-02-01" } });
  });
});

describe("tracing as the functions read dates", () => {
  // 2024-03-01 is serial 45352 in the 1900 system and 43890 in the 1904 one.
  const cells: Record<string, unknown[][]> = { A1: [["MB-X"]], B1: [[43890]], "B1:D1": [[43890, null, "2024-03-04"]] };
  const resolveCells: ResolveRef = async (address) => cells[address] ?? [[null]];

  it("reads serials in the workbook's date system (1904), in price grids and histories", async () => {
    expect((await traceElement("=PRICES.MID(A1,B1)", resolveCells, TODAY, 0, 0, "1904"))?.key).toEqual({ symbol: "MB-X", date: "2024-03-01" });
    expect((await traceFormula('=PRICES.HISTORY(A1,B1,"2024-03-31")', resolveCells, TODAY, 12, "1904"))?.keys).toEqual([{ symbol: "MB-X", fromDate: "2024-03-01", toDate: "2024-03-31" }]);
    expect((await traceFormula("=PRICES.CURVE(A1,B1)", resolveCells, TODAY, 12, "1904"))?.keys).toEqual([{ symbol: "MB-X", date: "2024-03-01" }]);
  });

  it("traces a blank date inside a range as a blank cell, never as the latest price", async () => {
    expect(await traceElement("=PRICES.MID(A1,B1:D1)", resolveCells, TODAY, 0, 1, "1904")).toMatchObject({ key: undefined });
    expect((await traceElement("=PRICES.MID(A1,B1:D1)", resolveCells, TODAY, 0, 2, "1904"))?.key).toEqual({ symbol: "MB-X", date: "2024-03-04" });
    expect((await traceFormula("=PRICES.MID(A1,B1:D1)", resolveCells, TODAY, 12, "1904"))?.keys).toEqual([
      { symbol: "MB-X", date: "2024-03-01" },
      { symbol: "MB-X", date: "2024-03-04" },
    ]);
  });
});

describe("tracing a converted cell", () => {
  it("puts the currency and unit arguments in the keys, as the functions ask them", async () => {
    expect(await keysOf('=PRICES.MID(A1, B1, "eur", "lb")')).toEqual([{ symbol: "MB-AL-0004", date: "2024-03-01", currency: "EUR", unit: "LB" }]);
    expect(await keysOf('=PRICES.PRICE(A1, , "low", , , "CNY")')).toEqual([{ symbol: "MB-AL-0004", currency: "CNY" }]);
    expect(await keysOf('=PRICES.AVERAGE(A1, "Monthly", B1, , , "KG")')).toEqual([{ symbol: "MB-AL-0004", date: "2024-03-01", calculationType: "MonthlyAverage", unit: "KG" }]);
    expect(await keysOf('=PRICES.HISTORY(A1, B1, "2024-03-31", , , , , , , "GBP")')).toEqual([{ symbol: "MB-AL-0004", fromDate: "2024-03-01", toDate: "2024-03-31", currency: "GBP" }]);
    expect(await keysOf('=PRICES.CURVE(A1, , , "JPY")')).toEqual([{ symbol: "MB-AL-0004", currency: "JPY" }]);
    const element = await traceElement('=PRICES.MID(A1:A2, B1, "EUR")', resolve, TODAY, 1, 0);
    expect(element?.key).toEqual({ symbol: "MB-CU-0001", date: "2024-03-01", currency: "EUR" });
  });

  it("explains the conversion from the instrument's own currency and unit", () => {
    expect(describeConversion({ symbol: "MB-AL-0004", currency: "EUR", unit: "LB" }, { currencyId: "USD", unitOfMeasureId: "MT" })).toBe(
      "from USD/MT to EUR/LB, each value at the rate of its assessment's day (the service states no rate)",
    );
    expect(describeConversion({ symbol: "MB-AL-0004", currency: "EUR" }, { currencyId: "USD", unitOfMeasureId: "MT" })).toMatch(/^from USD\/MT to EUR\/MT/);
    expect(describeConversion({ symbol: "MB-AL-0004" }, { currencyId: "USD", unitOfMeasureId: "MT" })).toBeUndefined();
  });
});

describe("describeLineage", () => {
  const request = { id: 3, endpoint: "/Prices", method: "GET" as const, params: { Symbols: "MB-AL-0004" }, sentAt: 1_000, attempts: 4, retryDelaysMs: [], keys: 1 };
  it("says a last known value came from this computer's cache and when it was fetched, never fresh", () => {
    const line = describeLineage({ key: "p|MB-AL-0004|", kind: "price", fromCache: false, requestId: 3, request: { ...request, error: "network error" }, askedAt: 2_000, cacheNote: "last known value, fetched 2026-11-27T10:00:00.000Z: the service was unreachable" }, 7_000);
    expect(line.source).toBe("this computer's cache: last known value, fetched 2026-11-27T10:00:00.000Z: the service was unreachable");
    expect(line.source).not.toContain("fresh");
    expect(line.request).toContain("(failed: network error)");
    expect(line.age).toBe("");
  });

  it("says a value kept from an earlier session came from this computer's cache, not that its request left the log", () => {
    const line = describeLineage({ key: "p|MB-AL-0004|2024-01-02", kind: "price", fromCache: true, requestId: undefined, request: undefined, askedAt: 2_000, cacheNote: "from the cache, final since 2024-01-09" }, 7_000);
    expect(line).toEqual({ source: "this computer's cache (from the cache, final since 2024-01-09)", request: "asked in an earlier session", age: "" });
  });

  it("says a failed request failed", () => {
    const line = describeLineage({ key: "p|MB-AL-0004|", kind: "price", fromCache: false, requestId: 3, request: { ...request, error: "network error" }, askedAt: 2_000 }, 7_000);
    expect(line.source).toBe("the request failed: network error");
  });

  it("keeps a fresh answer fresh, with its age", () => {
    const line = describeLineage({ key: "p|MB-AL-0004|", kind: "price", fromCache: false, requestId: 3, request: { ...request, status: 200 }, askedAt: 2_000 }, 7_000);
    expect(line).toEqual({ source: "fresh from the service", request: "GET /Prices?Symbols=MB-AL-0004 → 200", age: "fetched 6 s ago" });
  });
});
