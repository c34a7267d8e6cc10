/** Every PRICES.* function through functions.ts, against the recording fake client. */
import * as F from "../../src/functions/functions";
import { isoDateToSerial } from "../../src/formula/excel-dates";
import { ASSESSED, FakeFunctionError, SYMBOLS, expectedMid, fakeClient, installCustomFunctionsGlobal, type FakeOptions } from "./support";

const AL = SYMBOLS.aluminium;
const CU = SYMBOLS.copper;
const LAST = ASSESSED[ASSESSED.length - 1]!;
/** Excel passes null for an omitted optional argument, which the parameter types do not say. */
const OMITTED = null as never;

beforeAll(() => installCustomFunctionsGlobal());

async function use(options: FakeOptions = {}) {
  const fake = fakeClient(options);
  await globalThis.PricesAddin!.configure({ client: fake.client, recalculate: false, deadlineMs: 2_000 });
  return fake;
}

/** The error a call rejects with (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<FakeFunctionError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`expected an error, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(FakeFunctionError);
  return outcome.error as FakeFunctionError;
}

describe("before sign-in", () => {
  it("answers #N/A 'sign in from the Prices pane' from every function", async () => {
    await globalThis.PricesAddin!.reset({ recalculate: false });
    const calls = [
      F.low([[AL]]),
      F.price([[AL]]),
      F.history(AL, "2024-01-01"),
      F.average([[AL]], F.AveragePeriod.Monthly),
      F.curve(AL),
      F.forecast(AL),
      F.instrument([[AL]]),
      F.instruments(),
      F.reference(F.ReferenceList.Currency),
    ];
    for (const call of calls) {
      const error = await rejection(call);
      expect(error).toEqual(new FakeFunctionError("#N/A", "sign in from the Prices pane"));
    }
  });

  it("tells onConfigured listeners when a client arrives", async () => {
    const seen: boolean[] = [];
    const stop = globalThis.PricesAddin!.onConfigured((client) => seen.push(client !== undefined));
    await use();
    await globalThis.PricesAddin!.reset({ recalculate: false });
    stop();
    await use();
    expect(seen).toEqual([true, false]);
  });

  it("maps a token provider's AuthError to the sign-in message", async () => {
    await use({ signedOut: true });
    // marked as no answer about the cell: a runner keeps the cell's saved value (Excel reads the code and message alone)
    expect(await rejection(F.mid([[AL]]))).toEqual(Object.assign(new FakeFunctionError("#N/A", "sign in from the Prices pane"), { unanswered: "refused" }));
  });
});

describe("LOW, MID, HIGH", () => {
  it("returns the latest values as a single cell", async () => {
    const { calls } = await use();
    const mid = expectedMid(AL, LAST);
    expect(await F.low([[AL]])).toEqual([[mid - 1]]);
    expect(await F.mid([[AL]])).toEqual([[mid]]);
    expect(await F.high([[AL]], OMITTED)).toEqual([[mid + 1]]);
    expect(calls.map((call) => call.args[0])).toEqual([{ symbol: AL }, { symbol: AL }, { symbol: AL }]);
  });

  it("gives an empty result for a referenced empty date cell, as for a blank inside a range (=PRICES.MID($A2, B$1), B1 empty)", async () => {
    const { calls } = await use();
    expect(await F.mid([[AL]], [[null]])).toEqual([[""]]);
    expect(await F.mid([[AL]], [[""]])).toEqual([[""]]);
    expect(await F.mid([[AL]], [["2024-01-04", null]])).toEqual([[expectedMid(AL, "2024-01-04"), ""]]);
    expect(calls.map((call) => call.args[0])).toEqual([{ symbol: AL, date: "2024-01-04" }]);
  });

  it("reads dates as serials, YYYY-MM-DD text and 'latest', and returns the latest earlier assessment", async () => {
    const { calls } = await use();
    // 2024-03-02 is a Saturday: the Thursday before stands for it.
    const serial = isoDateToSerial("2024-03-02");
    expect(await F.mid([[AL]], [[serial]])).toEqual([[expectedMid(AL, "2024-02-29")]]);
    expect(await F.mid([[AL]], [["2024-3-2"]])).toEqual([[expectedMid(AL, "2024-02-29")]]);
    expect(await F.mid([[AL]], [["Latest"]])).toEqual([[expectedMid(AL, LAST)]]);
    expect(calls.map((call) => call.args[0])).toEqual([
      { symbol: AL, date: "2024-03-02" },
      { symbol: AL, date: "2024-03-02" },
      { symbol: AL },
    ]);
  });

  it("spills symbols down and dates across", async () => {
    await use();
    const dates = ["2024-01-04", "2024-02-01"];
    expect(await F.mid([[AL], [CU]], [dates])).toEqual([
      [expectedMid(AL, dates[0]!), expectedMid(AL, dates[1]!)],
      [expectedMid(CU, dates[0]!), expectedMid(CU, dates[1]!)],
    ]);
  });

  it("keeps the shape of a symbols row when there is one date, and of a dates column when there is one symbol", async () => {
    await use();
    expect(await F.mid([[AL, CU]])).toEqual([[expectedMid(AL, LAST), expectedMid(CU, LAST)]]);
    expect(await F.mid([[AL]], [["2024-01-04"], ["2024-01-08"]])).toEqual([[expectedMid(AL, "2024-01-04")], [expectedMid(AL, "2024-01-08")]]);
  });

  it("fills only their own cells with the errors of an unknown symbol, a bad date and a date before the data", async () => {
    await use();
    const grid = await F.mid([[AL], ["PA-FE-0001"], [""]], [["2024-01-04", "2024-13-01", "2023-06-01"]]);
    expect(grid[0]).toEqual([
      expectedMid(AL, "2024-01-04"),
      new FakeFunctionError("#VALUE!", "date must be a date or YYYY-MM-DD, got '2024-13-01'"),
      new FakeFunctionError("#N/A", `no assessment for '${AL}' on or before 2023-06-01`),
    ]);
    expect(grid[1]).toEqual([
      new FakeFunctionError("#N/A", "unknown or not permitted symbol 'PA-FE-0001'"),
      new FakeFunctionError("#VALUE!", "date must be a date or YYYY-MM-DD, got '2024-13-01'"),
      new FakeFunctionError("#N/A", "unknown or not permitted symbol 'PA-FE-0001'"),
    ]);
    expect(grid[2]).toEqual(["", "", ""]);
  });

  it("reads one symbol and one date alike as plain values, [[x]] as Excel passes them, and [x]", async () => {
    const { calls } = await use();
    const expected = [[expectedMid(AL, "2024-01-04")]];
    expect(await F.mid(AL as never, "2024-01-04" as never)).toEqual(expected);
    expect(await F.mid([[AL]], [["2024-01-04"]])).toEqual(expected);
    expect(await F.mid([AL] as never, ["2024-01-04"] as never)).toEqual(expected);
    expect(await F.mid([[AL]], [[null]])).toEqual([[""]]);
    expect(await rejection(F.mid([[AL]], "2024-13-01" as never))).toEqual(new FakeFunctionError("#VALUE!", "date must be a date or YYYY-MM-DD, got '2024-13-01'"));
    expect(await rejection(F.mid(42 as never))).toEqual(new FakeFunctionError("#VALUE!", "symbol must be an instrument symbol such as 'MB-AL-0004', got 42"));
    expect(calls.map((call) => call.args[0])).toEqual([0, 1, 2].map(() => ({ symbol: AL, date: "2024-01-04" })));
  });

  it("throws the error of a single cell with its message", async () => {
    await use();
    expect(await rejection(F.mid([["PA-FE-0001"]]))).toEqual(new FakeFunctionError("#N/A", "unknown or not permitted symbol 'PA-FE-0001'"));
    expect(await rejection(F.mid([[AL]], [["2024-13-01"]]))).toEqual(
      new FakeFunctionError("#VALUE!", "date must be a date or YYYY-MM-DD, got '2024-13-01'"),
    );
    expect((await rejection(F.mid([[""]]))).code).toBe("#VALUE!");
    expect((await rejection(F.mid([[42]]))).message).toBe("symbol must be an instrument symbol such as 'MB-AL-0004', got 42");
    expect((await rejection(F.mid([[AL]], [[60]]))).message).toBe("date must be a date or YYYY-MM-DD, got 60");
    expect((await rejection(F.mid([[AL]], [[true]]))).message).toBe("date must be a date or YYYY-MM-DD, got TRUE");
  });

  it("checks one cell in a grid's order, asking nothing: a referenced blank date first, then the symbol, then the date", async () => {
    const { calls } = await use();
    expect(await F.mid([[42]], [[null]])).toEqual([[""]]);
    expect((await rejection(F.mid([[42]], [["2024-13-01"]]))).message).toBe("symbol must be an instrument symbol such as 'MB-AL-0004', got 42");
    expect((await rejection(F.mid([[null]], [["2024-01-04"]]))).message).toBe("symbol is required: give an instrument symbol such as 'MB-AL-0004'");
    expect((await rejection(F.mid([[null]], [["2024-13-01"]]))).message).toBe("date must be a date or YYYY-MM-DD, got '2024-13-01'");
    expect(calls).toEqual([]);
  });

  it("answers #N/A with the cause when the service cannot be reached", async () => {
    await use({ fate: () => "reject" });
    const error = await rejection(F.mid([[AL]]));
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/^service unreachable: Request failed \(connection refused\)/);
  });

  it("settles as #N/A when the client never answers", async () => {
    const fake = fakeClient({ fate: () => "hang" });
    await globalThis.PricesAddin!.configure({ client: fake.client, recalculate: false, deadlineMs: 20 });
    const error = await rejection(F.mid([[AL]]));
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/no answer from the service/);
  });

  it("refuses an argument over 100,000 cells and a result over 100,000 cells with #VALUE!", async () => {
    const { calls } = await use();
    const big = Array.from({ length: 1000 }, () => Array.from({ length: 101 }, () => AL));
    expect(await rejection(F.mid(big))).toEqual(new FakeFunctionError("#VALUE!", "symbols has 101,000 cells; the limit is 100,000"));
    const column = Array.from({ length: 400 }, () => [AL]);
    const row = [Array.from({ length: 300 }, () => "2024-01-04")];
    expect(await rejection(F.mid(column, row))).toEqual(new FakeFunctionError("#VALUE!", "the result would have 120,000 cells; the limit is 100,000"));
    expect(calls).toHaveLength(0);
  });
});

describe("PRICE", () => {
  it("returns any field, optional ones requested by name", async () => {
    const { calls } = await use();
    expect(await F.price([[AL]], [["2024-01-04"]], F.PriceField.pricingRationale)).toEqual([["rationale 2024-01-04"]]);
    expect(calls[0]!.args[0]).toEqual({ symbol: AL, date: "2024-01-04", fields: ["pricingRationale"] });
    expect(await F.price([[AL]], [["2024-01-04"]], F.PriceField.appraisalPrice)).toEqual([[false]]);
    expect(await F.price([[AL]], [["2024-01-08"]], F.PriceField.midChangeSincePrevious)).toEqual([[1]]);
    expect(await F.price([[AL]], [["2024-01-08"]], F.PriceField.revision)).toEqual([[0]]);
    expect(await F.price([[AL]], OMITTED, "HIGH" as F.PriceField)).toEqual([[expectedMid(AL, LAST) + 1]]);
  });

  it("returns dates as serials by default and as text on request", async () => {
    await use();
    expect(await F.price([[AL]], [["2024-01-06"]], F.PriceField.date)).toEqual([[isoDateToSerial("2024-01-06")]]);
    expect(await F.price([[AL]], [["2024-01-06"]], F.PriceField.date, undefined, F.DateFormat.Text)).toEqual([["2024-01-06"]]);
    // 16:30 UTC is 0.6875 of a day.
    expect(await F.price([[AL]], [["2024-01-06"]], F.PriceField.assessmentDate)).toEqual([[isoDateToSerial("2024-01-04") + 0.6875]]);
    expect(await F.price([[AL]], [["2024-01-06"]], F.PriceField.assessmentDate, undefined, F.DateFormat.Text)).toEqual([["2024-01-04T16:30:00+00:00"]]);
  });

  it("asks for averages by calculation type, accepting short names", async () => {
    const { calls } = await use();
    expect(await F.price([[AL]], [["2024-02-15"]], undefined, F.Calculation.MonthlyAverage)).toEqual([[expectedMid(AL, "2024-02-15") + 0.5]]);
    expect(await F.price([[AL]], [["2024-02-15"]], F.PriceField.assessmentPeriod, "weekly" as F.Calculation)).toEqual([["WeeklyAverage:2024-02-15"]]);
    expect(calls.map((call) => call.args[0])).toEqual([
      { symbol: AL, date: "2024-02-15", calculationType: "MonthlyAverage" },
      { symbol: AL, date: "2024-02-15", calculationType: "WeeklyAverage", fields: ["assessmentPeriod"] },
    ]);
  });

  it("refuses unknown fields and calculation types with #VALUE!", async () => {
    await use();
    expect((await rejection(F.price([[AL]], undefined, "close" as F.PriceField))).message).toMatch(/^field must be one of low, mid, high, date/);
    expect((await rejection(F.price([[AL]], undefined, undefined, "Daily" as F.Calculation))).message).toBe(
      "calculation must be one of None, WeeklyAverage, MonthlyAverage, QuarterlyAverage, YearlyAverage; got 'Daily'",
    );
    expect((await rejection(F.price([[AL]], undefined, F.PriceField.assessmentPeriod))).code).toBe("#N/A");
  });
});

describe("HISTORY", () => {
  const JANUARY = ASSESSED.filter((day) => day >= "2024-01-01" && day <= "2024-01-31");

  it("lists dates and low, mid, high ascending under a row of names by default", async () => {
    const { calls } = await use();
    const table = await F.history(AL, "2024-01-01", "2024-01-31");
    expect(table[0]).toEqual(["date", "low", "mid", "high"]);
    expect(table.slice(1)).toEqual(JANUARY.map((day) => [isoDateToSerial(day), expectedMid(AL, day) - 1, expectedMid(AL, day), expectedMid(AL, day) + 1]));
    expect(calls[0]!.args[0]).toEqual({ symbol: AL, fromDate: "2024-01-01", toDate: "2024-01-31" });
  });

  it("takes fields as text or a range, descending order, no headers, or symbol and names", async () => {
    await use();
    const descending = await F.history(AL, isoDateToSerial("2024-01-01"), "2024-01-31", [["mid"], ["date"]], F.Headers.None, undefined, undefined, F.SortOrder.Descending, F.DateFormat.Text);
    expect(descending).toEqual([...JANUARY].reverse().map((day) => [expectedMid(AL, day), day]));
    const titled = await F.history(AL, "2024-01-01", "2024-01-31", [["date, pricingRationale"]], F.Headers.SymbolAndNames);
    expect(titled.slice(0, 2)).toEqual([[AL, ""], ["date", "pricingRationale"]]);
    expect(titled[2]).toEqual([isoDateToSerial(JANUARY[0]!), `rationale ${JANUARY[0]}`]);
  });

  it("asks for weekdays with carry-forward and marks carried days", async () => {
    const { calls } = await use();
    const table = await F.history(AL, "2024-01-01", "2024-01-05", [["date,mid,assessed"]], F.Headers.None, F.HistoryCalendar.Weekdays, undefined, undefined, F.DateFormat.Text);
    expect(calls[0]!.args[0]).toEqual({ symbol: AL, fromDate: "2024-01-01", toDate: "2024-01-05", calendarType: "Weekdays", carryForward: true });
    expect(table).toEqual([
      ["2024-01-01", expectedMid(AL, "2024-01-01"), true],
      ["2024-01-02", expectedMid(AL, "2024-01-01"), false],
      ["2024-01-03", expectedMid(AL, "2024-01-01"), false],
      ["2024-01-04", expectedMid(AL, "2024-01-04"), true],
      ["2024-01-05", expectedMid(AL, "2024-01-04"), false],
    ]);
  });

  it("passes the calculation type and ends at today when to is blank", async () => {
    const { calls } = await use();
    await F.history(AL, "2024-01-01", OMITTED, OMITTED, OMITTED, OMITTED, "Monthly" as F.Calculation, OMITTED);
    const key = calls[0]!.args[0] as { toDate: string; calculationType: string };
    expect(key.calculationType).toBe("MonthlyAverage");
    expect(key.toDate).toBe(new Date().toISOString().slice(0, 10));
  });

  it("refuses a missing from, from after to, unknown fields, headers, calendars and orders", async () => {
    await use();
    expect((await rejection(F.history(AL, null))).message).toBe("from is required: give a date or YYYY-MM-DD");
    expect((await rejection(F.history(AL, "2024-02-01", "2024-01-01"))).message).toBe("from (2024-02-01) is after to (2024-01-01)");
    expect((await rejection(F.history(AL, "2024-01-01", null, [["close"]]))).message).toMatch(/^fields must name low, mid, high, date, .*assessed; got .close.$/);
    expect((await rejection(F.history(AL, "2024-01-01", OMITTED, OMITTED, 3 as F.Headers))).message).toBe("headers must be 0 (none), 1 (names) or 2 (symbol and names), got 3");
    expect((await rejection(F.history(AL, "2024-01-01", OMITTED, OMITTED, OMITTED, "Hourly" as F.HistoryCalendar))).code).toBe("#VALUE!");
    expect((await rejection(F.history(AL, "2024-01-01", OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, "up" as F.SortOrder))).message).toBe(
      "order must be one of ascending, descending; got 'up'",
    );
    expect((await rejection(F.history([[AL, CU]], "2024-01-01"))).message).toBe("symbol must be one value, got a range of 1 x 2");
  });

  it("answers #N/A for an empty range and for an unknown symbol", async () => {
    await use();
    expect(await rejection(F.history(AL, "2024-01-02", "2024-01-03"))).toEqual(new FakeFunctionError("#N/A", `no assessment for '${AL}' from 2024-01-02 to 2024-01-03`));
    expect((await rejection(F.history("XX-NONE", "2024-01-01"))).message).toBe("unknown or not permitted symbol 'XX-NONE'");
  });
});

describe("AVERAGE", () => {
  it("returns the period average of a field", async () => {
    const { calls } = await use();
    expect(await F.average([[AL]], F.AveragePeriod.Quarterly, [["2024-05-01"]])).toEqual([[expectedMid(AL, "2024-05-01") + 0.5]]);
    expect(await F.average([[AL]], "yearly" as F.AveragePeriod, OMITTED, F.PriceField.low)).toEqual([[expectedMid(AL, LAST) - 1]]);
    expect(calls.map((call) => call.args[0])).toEqual([
      { symbol: AL, date: "2024-05-01", calculationType: "QuarterlyAverage" },
      { symbol: AL, calculationType: "YearlyAverage" },
    ]);
  });

  it("requires a period", async () => {
    await use();
    expect((await rejection(F.average([[AL]], null as unknown as F.AveragePeriod))).message).toBe("period is required: WeeklyAverage, MonthlyAverage, QuarterlyAverage or YearlyAverage");
    expect((await rejection(F.average([[AL]], "None" as F.AveragePeriod))).code).toBe("#VALUE!");
  });
});

describe("CURVE", () => {
  it("returns code, month, low, mid, high per forward month", async () => {
    await use();
    const mid = expectedMid(AL, "2024-01-04");
    expect(await F.curve(AL, "2024-01-04")).toEqual([
      ["code", "month", "low", "mid", "high"],
      ["M1", "FEB", mid, mid + 1, mid + 2],
      ["M2", "MAR", mid + 1, mid + 2, mid + 3],
      ["M3", "APR", mid + 2, mid + 3, mid + 4],
    ]);
    expect((await F.curve(AL, null, F.Headers.SymbolAndNames))[0]).toEqual([`${AL} ${LAST}`, "", "", "", ""]);
  });

  it("answers #N/A for an instrument without curves", async () => {
    await use();
    expect(await rejection(F.curve(CU))).toEqual(new FakeFunctionError("#N/A", `'${CU}' has no forward curve`));
  });
});

describe("FORECAST", () => {
  it("asks for the forecast from the latest assessment on and lists its prices", async () => {
    const { calls } = await use();
    expect(await F.forecast(AL, undefined, F.Headers.None)).toEqual([
      [isoDateToSerial("2024-07-31"), 150, 151, 152],
      [isoDateToSerial("2024-08-31"), 153, 154, 155],
    ]);
    expect(calls[1]!.args[0]).toEqual({ symbol: AL, fromDate: LAST, toDate: "2034-07-05", forecastType: "F24M" });
    expect((await F.forecast(AL, F.ForecastType.F24M, F.Headers.SymbolAndNames, F.DateFormat.Text)).slice(0, 3)).toEqual([
      [`${AL}.F24M`, "", "", ""],
      ["date", "low", "mid", "high"],
      ["2024-07-31", 150, 151, 152],
    ]);
  });

  it("answers #N/A when there is no forecast of the type", async () => {
    await use();
    expect(await rejection(F.forecast(CU))).toEqual(new FakeFunctionError("#N/A", `no forecast 'F24M' for '${CU}'`));
  });
});

describe("INSTRUMENT", () => {
  it("returns one field, full names requested by their Fields name", async () => {
    const { calls } = await use();
    expect(await F.instrument([[AL]], F.InstrumentField.currency)).toEqual([["US Dollar"]]);
    expect(calls[0]!.args).toEqual([AL, ["Currency"]]);
    expect(await F.instrument([[AL], [CU]], F.InstrumentField.descriptionShort)).toEqual([["Aluminium Rotterdam"], ["Copper Shanghai"]]);
    expect(await F.instrument([[AL]], F.InstrumentField.launchDate)).toEqual([[isoDateToSerial("2005-01-03")]]);
    expect(await F.instrument([[AL]], F.InstrumentField.priceCalculationTypeIds)).toEqual([["WeeklyAverage, MonthlyAverage"]]);
    expect(await F.instrument([[AL]], F.InstrumentField.hasForwardCurves)).toEqual([[true]]);
  });

  it("returns the whole record as name/value rows without a field", async () => {
    await use();
    const table = await F.instrument([[AL]]);
    expect(table.every((row) => row.length === 2)).toBe(true);
    expect(table).toContainEqual(["currency", "US Dollar"]);
    expect(table).toContainEqual(["launchDate", isoDateToSerial("2005-01-03")]);
    expect(table).toHaveLength(23);
  });

  it("returns one row per symbol under the field names for a range without a field, errors in their own rows", async () => {
    await use();
    const table = await F.instrument([[AL], ["PA-FE-0001"]]);
    expect(table).toHaveLength(3);
    expect(table[0]![0]).toBe("symbol");
    expect(table[1]![0]).toBe(AL);
    expect(table[2]!.every((cell) => cell instanceof FakeFunctionError && cell.code === "#N/A")).toBe(true);
  });

  it("refuses unknown fields and answers #N/A for an unknown symbol", async () => {
    await use();
    expect((await rejection(F.instrument([[AL]], "colour" as F.InstrumentField))).message).toMatch(/^field must be one of symbol, productId/);
    expect((await rejection(F.instrument([["XX-NONE"]], F.InstrumentField.status))).code).toBe("#N/A");
  });
});

describe("INSTRUMENTS", () => {
  it("lists the visible instruments with default columns under names", async () => {
    await use();
    expect(await F.instruments()).toEqual([
      ["symbol", "description", "currencyId", "unitOfMeasureId", "frequency"],
      [AL, "Aluminium P1020 ingot, in-whs Rotterdam", "USD", "T", "Twice weekly"],
      [CU, "Copper cathode grade A, cif Shanghai", "USD", "T", "Twice weekly"],
    ]);
  });

  it("filters by every word, any case, and takes chosen fields", async () => {
    const { calls } = await use();
    expect(await F.instruments("copper SHANGHAI", [["symbol", "commodity"]], F.Headers.None)).toEqual([[CU, "Aluminium"]]);
    expect(calls[0]!.args).toEqual([["Commodity"]]);
    expect(await rejection(F.instruments("zinc"))).toEqual(new FakeFunctionError("#N/A", "no instrument you may see matches 'zinc'; nothing holds 'zinc' (searched: symbol, description and ids)"));
  });

  it("matches the symbol, descriptions and ids, not the frequency; a typo gets the close word", async () => {
    await use();
    expect(await F.instruments("NL-RTM", [["symbol"]], F.Headers.None)).toEqual([[AL]]);
    expect((await rejection(F.instruments("weekly"))).code).toBe("#N/A");
    expect((await rejection(F.instruments("alumnium"))).message).toBe("no instrument you may see matches 'alumnium'; nothing holds 'alumnium': did you mean aluminium? (searched: symbol, description and ids)");
  });
});

describe("REFERENCE", () => {
  it("lists a reference type, or describes ids", async () => {
    await use();
    expect(await F.reference(F.ReferenceList.Currency)).toEqual([
      ["id", "description", "sign", "conversions"],
      ["USD", "US Dollar", "$", "EUR"],
      ["EUR", "Euro", "€", ""],
    ]);
    expect(await F.reference("currency" as F.ReferenceList, [["usd"]])).toEqual([["US Dollar"]]);
    const grid = await F.reference(F.ReferenceList.Currency, [["EUR"], ["GBP"]]);
    expect(grid).toEqual([["Euro"], [new FakeFunctionError("#N/A", "no Currency with id 'GBP'")]]);
  });

  it("refuses a missing or unknown type", async () => {
    await use();
    expect((await rejection(F.reference(null as unknown as F.ReferenceList))).message).toBe(
      "type is required: one of Currency, UnitOfMeasure, PriceCalculationType, Incoterm, Commodity, Source",
    );
    expect((await rejection(F.reference("Colour" as F.ReferenceList))).code).toBe("#VALUE!");
    expect(await rejection(F.reference(F.ReferenceList.Incoterm))).toEqual(new FakeFunctionError("#N/A", "the Incoterm list is empty"));
  });
});

describe("field names that are Object.prototype members", () => {
  const PROTOTYPE_NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"];

  it.each(PROTOTYPE_NAMES)("PRICE refuses the field %s with #VALUE!", async (name) => {
    await use();
    const error = await rejection(F.price([[AL]], undefined, name as F.PriceField));
    expect(error.code).toBe("#VALUE!");
    expect(error.message).toMatch(/^field must be one of low, mid, high, date/);
  });

  it.each(PROTOTYPE_NAMES)("HISTORY refuses the column %s instead of putting a function in a header", async (name) => {
    await use();
    const error = await rejection(F.history(AL, "2024-01-01", "2024-01-31", [[`date,${name}`]]));
    expect(error.code).toBe("#VALUE!");
    expect(error.message).toMatch(/^fields must name low, mid, high, date, /);
  });

  it.each(PROTOTYPE_NAMES)("INSTRUMENT and INSTRUMENTS refuse the field %s with #VALUE!", async (name) => {
    await use();
    expect((await rejection(F.instrument([[AL]], name as F.InstrumentField))).code).toBe("#VALUE!");
    expect((await rejection(F.instruments(OMITTED, [["symbol", name]]))).code).toBe("#VALUE!");
  });
});
