/**
 * Data types: plain mode is byte for byte the output from before data types; rich mode returns the JSON of
 * Excel.DoubleCellValue and Excel.EntityCellValue (checked by the compiler against @types/office-js and at run time).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as F from "../../src/functions/functions";
import fc from "fast-check";
import { dateTimeToSerial, isoDateToSerial } from "../../src/formula/excel-dates";
import { isCarriedForward } from "../../src/api/dates";
import {
  ALL_DATA_TYPES,
  NO_DATA_TYPES,
  instrumentEntity,
  recordProperties,
  officeDataTypeSupport,
  priceNumberFormat,
  richPrice,
  type DataTypeSupport,
  type RichDouble,
  type RichEntity,
  type ValueMode,
} from "../../src/functions/data-types";
import { runPlainCases } from "./plain-cases";
import { ASSESSED, SYMBOLS, expectedMid, fakeClient, installCustomFunctionsGlobal } from "./support";

const AL = SYMBOLS.aluminium;
const CU = SYMBOLS.copper;
const LAST = ASSESSED[ASSESSED.length - 1]!;
const OMITTED = null as never;

beforeAll(() => installCustomFunctionsGlobal());

async function use(valueMode: ValueMode, dataTypes: DataTypeSupport | undefined) {
  const fake = fakeClient();
  await globalThis.PricesAddin!.configure({ client: fake.client, recalculate: false, deadlineMs: 2_000, valueMode, ...(dataTypes ? { dataTypes } : {}) });
  return fake;
}

/** Type-level conformance: these assignments compile only if our JSON fits Office's declared types. */
function asExcelDouble(value: RichDouble): Excel.DoubleCellValue {
  return value;
}
function asExcelEntity(value: RichEntity): Excel.EntityCellValue {
  return value;
}

/** Run-time check of a DoubleCellValue as Excel reads it. */
function expectDouble(value: unknown): RichDouble {
  expect(value).toMatchObject({ type: "Double", basicValue: expect.any(Number) });
  const double = value as RichDouble;
  if (double.numberFormat !== undefined) expect(typeof double.numberFormat).toBe("string");
  for (const property of Object.values(double.properties ?? {})) {
    expect(["String", "Double", "Boolean"]).toContain(property.type);
    expect(typeof property.basicValue).toBe(property.type === "String" ? "string" : property.type === "Double" ? "number" : "boolean");
  }
  asExcelDouble(double);
  return double;
}

const golden = JSON.parse(readFileSync(join(__dirname, "fixtures", "plain-outputs.json"), "utf8")) as Record<string, string>;

describe("plain mode", () => {
  it.each<[string, ValueMode, DataTypeSupport | undefined]>([
    ["the default setting on a host without data types", "plain", undefined],
    ["the rich setting on a host without data types (older Excel)", "rich", NO_DATA_TYPES],
    ["the plain setting on a host with data types", "plain", ALL_DATA_TYPES],
  ])("answers byte for byte as before data types with %s", async (_, mode, support) => {
    await use(mode, support);
    expect(await runPlainCases()).toEqual(golden);
  });

  it("sends no request beyond the prices when plain", async () => {
    const { calls } = await use("plain", ALL_DATA_TYPES);
    await F.mid([[AL], [CU]]);
    expect(calls.map((call) => call.method)).toEqual(["price", "price"]);
  });
});

describe("rich prices", () => {
  it("returns numbers that show their currency and unit and carry their record", async () => {
    await use("rich", ALL_DATA_TYPES);
    const [[cell]] = (await F.mid([[AL]], [["2024-01-06"]])) as unknown[][] as [[unknown]];
    const double = expectDouble(cell);
    expect(double.basicValue).toBe(expectedMid(AL, "2024-01-06"));
    expect(double.numberFormat).toBe('#,##0.00##" USD/T"');
    expect(double.properties).toEqual({
      Symbol: { type: "String", basicValue: AL },
      Field: { type: "String", basicValue: "mid" },
      Currency: { type: "String", basicValue: "USD" },
      Unit: { type: "String", basicValue: "T" },
      Date: { type: "Double", basicValue: isoDateToSerial("2024-01-06"), numberFormat: "yyyy-mm-dd" },
      "Assessment date": { type: "Double", basicValue: isoDateToSerial("2024-01-04") + 0.6875, numberFormat: "yyyy-mm-dd hh:mm" },
      Revision: { type: "Double", basicValue: 0 },
      "Carried forward": { type: "Boolean", basicValue: true },
      Conversion: { type: "String", basicValue: "none" },
      Request: { type: "String", basicValue: `symbol=${AL}; date=2024-01-06` },
    });
  });

  it("names the conversion and the target's currency and unit", async () => {
    await use("rich", ALL_DATA_TYPES);
    const [[cell]] = (await F.high([[AL]], [["2024-01-04"]], "eur", OMITTED)) as unknown[][] as [[unknown]];
    const double = expectDouble(cell);
    expect(double.numberFormat).toBe('#,##0.00##" EUR/T"');
    expect(double.properties?.Conversion).toEqual({ type: "String", basicValue: "USD/T to EUR/T" });
    expect(double.properties?.["Carried forward"]).toEqual({ type: "Boolean", basicValue: false });
  });

  it("keeps every basic value equal to the plain one, so a sum is the same", async () => {
    await use("plain", ALL_DATA_TYPES);
    const plain = (await F.mid([[AL], [CU]], [["2024-01-04", "2024-02-01", "latest"]])) as number[][];
    await use("rich", ALL_DATA_TYPES);
    const rich = (await F.mid([[AL], [CU]], [["2024-01-04", "2024-02-01", "latest"]])) as unknown[][];
    expect(rich.map((row) => row.map((cell) => expectDouble(cell).basicValue))).toEqual(plain);
  });

  it("fails only the cells of a symbol whose instrument cannot be read, the others rich", async () => {
    let fake: ReturnType<typeof fakeClient> | undefined;
    const instrumentOf = (call: { method: string; args: unknown[] } | undefined): unknown => (call?.method === "instrument" ? call.args[0] : undefined);
    fake = fakeClient({ fate: () => (instrumentOf(fake?.calls.at(-1)) === CU ? "reject" : "answer") });
    await globalThis.PricesAddin!.configure({ client: fake.client, recalculate: false, deadlineMs: 2_000, valueMode: "rich", dataTypes: ALL_DATA_TYPES });
    const grid = (await F.mid([[AL], [CU]], [["2024-01-04", "2024-02-01"]])) as unknown[][];
    grid[0]!.forEach((cell) => expectDouble(cell));
    expect(grid[1]).toEqual([expect.objectContaining({ message: expect.stringContaining("connection refused") }), expect.objectContaining({ message: expect.stringContaining("connection refused") })]);
  });

  it("follows PRICE's values argument over the setting, and leaves non-amount fields plain", async () => {
    await use("plain", ALL_DATA_TYPES);
    expectDouble(((await F.price([[AL]], OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, F.ValueMode.rich)) as unknown[][])[0]![0]);
    expect(await F.price([[AL]], [["2024-01-04"]], F.PriceField.revision, OMITTED, OMITTED, OMITTED, OMITTED, F.ValueMode.rich)).toEqual([[0]]);
    await use("rich", ALL_DATA_TYPES);
    expect(await F.price([[AL]], OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, F.ValueMode.plain)).toEqual([[expectedMid(AL, LAST)]]);
  });

  it("stays plain where the host shows entities but not formatted numbers (ExcelApi 1.16 without 1.19)", async () => {
    await use("rich", { entities: true, numbers: false });
    expect(await F.mid([[AL]])).toEqual([[expectedMid(AL, LAST)]]);
  });

  it("refuses an unknown values argument with #VALUE!", async () => {
    await use("plain", ALL_DATA_TYPES);
    await expect(F.price([[AL]], OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, "fancy" as F.ValueMode)).rejects.toMatchObject({
      code: "#VALUE!",
      message: "values must be one of plain, rich; got 'fancy'",
    });
  });
});

describe("ENTITY", () => {
  it("returns an entity whose card shows the instrument's full names and its latest low, mid and high", async () => {
    await use("plain", ALL_DATA_TYPES);
    const [[cell]] = (await F.entity([[AL]])) as unknown[][] as [[RichEntity]];
    const entity = asExcelEntity(cell);
    expect(entity.type).toBe("Entity");
    expect(entity.text).toBe(`${AL} Aluminium Rotterdam`);
    const value = (name: string) => (cell.properties[name] as { basicValue: unknown } | undefined)?.basicValue;
    expect(value("Commodity")).toBe("Aluminium");
    expect(value("Location")).toBe("Rotterdam");
    expect(value("Currency")).toBe("US Dollar");
    expect(value("Unit")).toBe("Tonne");
    expect(value("Incoterm")).toBe("In warehouse");
    expect(value("Source")).toBe("Metal Bulletin");
    expect(value("Frequency")).toBe("Twice weekly");
    expect(value("Launch date")).toBe(isoDateToSerial("2005-01-03"));
    expect(value("Mid")).toBe(expectedMid(AL, LAST));
    expect(value("Low")).toBe(expectedMid(AL, LAST) - 1);
    expect(value("High")).toBe(expectedMid(AL, LAST) + 1);
    expect(value("Assessment date")).toBe(isoDateToSerial(LAST) + 0.6875);
    expect(cell.properties.Mid).toMatchObject({ numberFormat: '#,##0.00##" USD/T"' });
    // every property the card names exists, and every property is on the card
    const onCard = cell.layouts.card.sections.flatMap((section) => section.properties);
    expect(new Set(onCard)).toEqual(new Set(Object.keys(cell.properties)));
    expect(cell.layouts.card.sections[0]).toEqual({ layout: "List", title: "Latest price", properties: ["Low", "Mid", "High", "Assessment date", "Price date"] });
  });

  it("answers the entity's text where the host has no entities, and errors in their own cells", async () => {
    const { calls } = await use("rich", NO_DATA_TYPES);
    expect(await F.entity([[AL], ["NOPE"]])).toEqual([[`${AL} Aluminium Rotterdam`], [expect.objectContaining({ code: "#N/A", message: "unknown or not permitted symbol 'NOPE'" })]]);
    expect(calls.every((call) => call.method === "instrument")).toBe(true);
  });
});

describe("builders", () => {
  it("formats prices with the currency and unit, without quotes from the ids", () => {
    expect(priceNumberFormat("USD", "MT")).toBe('#,##0.00##" USD/MT"');
    expect(priceNumberFormat('U"SD', "LB")).toBe('#,##0.00##" USD/LB"');
  });

  it("gives an assessment date the very serial dateTimeToSerial gives, in both date systems", () => {
    const timestamp = fc
      .tuple(fc.integer({ min: 1950, max: 2100 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 999 }), fc.constantFrom("Z", "+00:00", "", "+02:00", "-05:30", "+0800", "-12:00", "+14:00", "z"))
      .map(([y, mo, d, h, mi, s, ms, offset]) => `${y}-${String(mo).padStart(2, "0")}-${String(d).padStart(2, "0")}T${String(h).padStart(2, "0")}:${String(mi).padStart(2, "0")}:${String(s).padStart(2, "0")}.${String(ms).padStart(3, "0")}${offset}`);
    // the clock in every form the service may write (read by hand, not by Date.parse), and forms left to dateTimeToSerial
    const clocks = fc.constantFrom("T16:30Z", "T16:30:05Z", "T16:30:05.5+01:00", "T00:00:00.25-00:30", "T23:59:59.999+14:00", "T24:00:00Z", "T12:60:00Z", "T1:30:00Z", " 16:30:00", "T16:30:00.1234Z");
    const other = fc.tuple(fc.constantFrom("2024-02-29", "1900-02-28", "1900-03-01", "2024-12-31", "1904-01-01"), clocks).map(([day, clock]) => `${day}${clock}`);
    fc.assert(
      fc.property(fc.oneof(timestamp, other), fc.constantFrom("1900" as const, "1904" as const), (text, system) => {
        const property = recordProperties(system).assessmentDate(text);
        const expected = dateTimeToSerial(text, system);
        expect(property.basicValue).toBe(expected ?? text);
      }),
      { numRuns: 500 },
    );
  });

  it("tells a carried-forward value from an assessment of its own day", () => {
    expect(isCarriedForward({ date: "2024-01-05", assessmentDate: "2024-01-04T16:30:00+00:00" })).toBe(true);
    expect(isCarriedForward({ date: "2024-01-04", assessmentDate: "2024-01-04T16:30:00+00:00" })).toBe(false);
  });

  it("builds JSON that Excel's types accept for an instrument without a price", () => {
    const entity = instrumentEntity({ symbol: "X", descriptionShort: "x", description: "Ex", currencyId: "USD", unitOfMeasureId: "MT" } as never, undefined, "1900", false);
    asExcelEntity(entity);
    expect(entity.layouts.card.sections.map((section) => section.title)).toEqual(["Instrument"]);
    asExcelDouble(richPrice(1, { symbol: "X", field: "mid", record: { date: "2024-01-01", assessmentDate: "2024-01-01T00:00:00Z", revision: 0, low: 1, mid: 1, high: 1 }, own: { currency: "USD", unit: "MT" }, target: {}, request: "r", system: "1904" }));
  });

  it("reads Excel's requirement sets: 1.4 of the runtime, then ExcelApi 1.16 for entities and 1.19 for numbers", () => {
    const office = (sets: Record<string, string>) => ({
      context: { requirements: { isSetSupported: (name: string, version: string) => sets[name] !== undefined && Number(sets[name]) >= Number(version) } },
    });
    expect(officeDataTypeSupport(undefined)).toEqual(NO_DATA_TYPES);
    expect(officeDataTypeSupport(office({ CustomFunctionsRuntime: "1.3", ExcelApi: "1.19" }))).toEqual(NO_DATA_TYPES);
    expect(officeDataTypeSupport(office({ CustomFunctionsRuntime: "1.4", ExcelApi: "1.16" }))).toEqual({ entities: true, numbers: false, dates: true });
    // Excel alone declares dates: ALL_DATA_TYPES (the workbench's, the runner's) keeps plain serials
    expect(officeDataTypeSupport(office({ CustomFunctionsRuntime: "1.5", ExcelApi: "1.19" }))).toEqual({ ...ALL_DATA_TYPES, dates: true });
  });
});

describe("dates as formatted numbers", () => {
  const historyArgs = [AL, "2024-01-01", LAST, "date,mid,assessmentDate" as never, 0] as const;
  const run = async (support: DataTypeSupport): Promise<unknown[][]> => {
    await use("plain", support);
    return (await F.history(...historyArgs)) as unknown[][];
  };

  it("carries the date format where Excel keeps a number's format (1.16: FormattedNumber, 1.19: Double), headers off, the serial unchanged", async () => {
    const plain = await run(ALL_DATA_TYPES);
    expect(plain.every((row) => typeof row[0] === "number" && typeof row[2] === "number")).toBe(true);
    const formatted = await run({ entities: true, numbers: false, dates: true });
    const double = await run({ ...ALL_DATA_TYPES, dates: true });
    expect(formatted).toHaveLength(plain.length);
    plain.forEach((row, i) => {
      expect(formatted[i]![0]).toEqual({ type: "FormattedNumber", basicValue: row[0], numberFormat: "yyyy-mm-dd" });
      expect(double[i]![0]).toEqual({ type: "Double", basicValue: row[0], numberFormat: "yyyy-mm-dd" });
      // a price stays a plain number; an assessment date-time carries a date-time format when it has a time of day
      expect(formatted[i]![1]).toBe(row[1]);
      expect(formatted[i]![2]).toMatchObject({ type: "FormattedNumber", basicValue: row[2], numberFormat: Number.isInteger(row[2]) ? "yyyy-mm-dd" : "yyyy-mm-dd hh:mm" });
    });
    // compiles only if the shape is Excel's
    const excel: Excel.FormattedNumberCellValue = formatted[0]![0] as { type: "FormattedNumber"; basicValue: number; numberFormat: string };
    expect(excel.type).toBe("FormattedNumber");
  });

  it("leaves text dates as text, and a header row as names", async () => {
    await use("plain", { entities: true, numbers: false, dates: true });
    const text = (await F.history(AL, "2024-01-01", LAST, "date,mid" as never, 0, OMITTED, OMITTED, OMITTED, F.DateFormat.Text)) as unknown[][];
    expect(typeof text[0]![0]).toBe("string");
    const headed = (await F.history(AL, "2024-01-01", LAST, "date,mid" as never, 1)) as unknown[][];
    expect(headed[0]).toEqual(["date", "mid"]);
    expect(headed[1]![0]).toMatchObject({ type: "FormattedNumber", numberFormat: "yyyy-mm-dd" });
  });

  it("gives PRICE's date the same way, its mid plain", async () => {
    await use("plain", { entities: true, numbers: false, dates: true });
    expect(((await F.price([[AL]], OMITTED, F.PriceField.date)) as unknown[][])[0]![0]).toMatchObject({ type: "FormattedNumber", basicValue: isoDateToSerial(LAST), numberFormat: "yyyy-mm-dd" });
    expect(((await F.price([[AL]], OMITTED, F.PriceField.mid)) as unknown[][])[0]![0]).toBe(expectedMid(AL, LAST));
  });
});
