/**
 * The one response reader (src/prices/parse.ts): compiled from the contract's schemas, it accepts every
 * answer shape of the spec, converts only what the contract tolerates, refuses the rest naming the field,
 * and agrees with TypeBox's own reading of the same schemas on any record.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { Value } from "@sinclair/typebox/value";
import { InstrumentPriceBlockSchema, PriceRecordSchema, type InstrumentRecord } from "../../src/api/schemas";
import { ResponseFormatError } from "../../src/prices/errors";
import { checkCalculationType, readEnvelope, readInstrument, readPriceBlock, readReferences } from "../../src/prices/parse";
import { generateResponseChecks } from "../../scripts/gen-response-checks";

const request = { method: "GET", url: "https://service.test/physical/v2/Prices?Symbols=AAA" };

const record = { date: "2024-03-01", assessmentDate: "2024-03-01T16:30:00+00:00", revision: 0, low: 1, mid: 2.5, high: 3 };
const fullRecord = {
  ...record,
  forwardCurves: [{ forwardCode: "M1", forwardMonth: "APR", low: 10, mid: 11, high: 12 }],
  appraisalPrice: false,
  pricingRationale: "Bids firmed",
  assessmentPeriod: "Mar 2024",
  lowChangeSincePrevious: -1,
  midChangeSincePrevious: 0,
  highChangeSincePrevious: 1.25,
  lowChangeSincePreviousProportion: -0.01,
  midChangeSincePreviousProportion: 0,
  highChangeSincePreviousProportion: 0.0125,
};
const block = (prices: unknown[], extra: Record<string, unknown> = {}) => ({ symbol: "AAA", firstDate: "2020-01-01T16:30:00+00:00", lastDate: "2024-03-01T16:30:00+00:00", prices, ...extra });
const forecast = { symbol: "AAA.F24M", version: 3, publicationDate: "2024-03-01T10:00:00.000Z", forecastPrices: [{ date: "2024-04-01T00:00:00.000Z", low: 1, mid: 2, high: 3 }] };
const instrument: InstrumentRecord = {
  symbol: "AAA",
  productId: "P1",
  description: "Aluminium, P1020, CIF Rotterdam",
  descriptionShort: "Aluminium P1020",
  commodityId: "AL",
  priceType: "Price",
  locationId: "RTM",
  currencyId: "USD",
  unitOfMeasureId: "T",
  incotermId: "CIF",
  launchDate: "2012-02-29",
  frequency: "Weekly",
  sourceId: "S1",
  status: "Active",
  priceCalculationTypeIds: ["MonthlyAverage"],
};
const fullInstrument: InstrumentRecord = { ...instrument, commodity: "Aluminium", location: "Rotterdam", currency: "US dollar", unitOfMeasure: "Tonne", incoterm: "Cost, insurance, freight", source: "Vendor", forecastTypeIds: ["F24M"], hasForwardCurves: true };

/** The first block of a /Prices answer, read as the client reads it. */
function readFirstBlock(body: unknown) {
  const envelope = readEnvelope(body, request);
  const found = envelope.blocks.get("AAA");
  if (!found) throw new Error("no block AAA");
  return readPriceBlock(envelope, found.raw, found.index);
}

function refusal(read: () => unknown): ResponseFormatError {
  try {
    read();
  } catch (error) {
    if (error instanceof ResponseFormatError) return error;
    throw error;
  }
  throw new Error("the reader accepted it");
}

describe("the compiled checks", () => {
  it("are what the schemas give today (npm run gen:checks rewrites them)", () => {
    const generated = generateResponseChecks();
    expect(readFileSync(join(__dirname, "../../src/prices/response-checks.js"), "utf8")).toBe(generated.js);
    expect(readFileSync(join(__dirname, "../../src/prices/response-checks.d.ts"), "utf8")).toBe(generated.dts);
  });

  it("give a pattern's remembered verdict as the pattern would, past the strings they remember", () => {
    // More distinct codes than the checks keep verdicts for, each asked twice, good and bad alike.
    const codes = Array.from({ length: 300 }, (_, index) => [`M${index}`, `Q${index}`]).flat();
    for (const code of [...codes, ...codes]) {
      const body = { instruments: [block([{ ...record, forwardCurves: [{ ...fullRecord.forwardCurves[0], forwardCode: code }] }])] };
      const read = (): unknown => readFirstBlock(body);
      if (/^M\d+$/.test(code)) expect(read()).toBe(body.instruments[0]);
      else expect(refusal(read).field).toBe("instruments[0].prices[0].forwardCurves[0].forwardCode");
    }
  });

  it("carry no TypeBox compiler and no eval: the add-in ships the functions alone", () => {
    const source = readFileSync(join(__dirname, "../../src/prices/response-checks.js"), "utf8");
    expect(source).not.toMatch(/typebox|new Function|eval\(/);
  });
});

describe("the reader accepts every answer shape of the spec", () => {
  it.each([
    ["a record of the always-returned fields", [record]],
    ["a record with every optional field and a forward curve", [fullRecord]],
    ["numbers without a decimal part and an average's revision 1", [{ ...record, revision: 1, low: 100, mid: 101, high: 102 }]],
    ["an empty list of prices", []],
  ])("/Prices with %s, kept as parsed", (_, prices) => {
    const body = { instruments: [block(prices)], priceCalculationType: "None" };
    const read = readFirstBlock(body);
    expect(read).toBe(body.instruments[0]);
    expect(read).toStrictEqual(block(prices));
  });

  it("/Prices with a forecast and the currency and unit of a conversion", () => {
    const served = block([record], { forecast, currencyId: "EUR", unitOfMeasureId: "KG" });
    expect(readFirstBlock({ instruments: [served], priceCalculationType: "None" })).toBe(served);
  });

  it("/Prices with invalid instruments beside the blocks, with or without a message", () => {
    const envelope = readEnvelope({ instruments: [block([record])], priceCalculationType: "None", invalidInstruments: [{ symbol: "zzz", message: "Unknown" }, { symbol: "YYY" }] }, request);
    expect(envelope.invalid).toEqual(new Map([["ZZZ", "Unknown"], ["YYY", ""]]));
    expect([...envelope.blocks.keys()]).toEqual(["AAA"]);
  });

  it("/Prices/History with its calendar, and an average's calculation type", () => {
    const body = { instruments: [block([fullRecord, record])], calendar: { type: "AssessmentDays", dates: ["2024-03-01", "2024-02-29"] }, priceCalculationType: "MonthlyAverage" };
    const envelope = readEnvelope(body, request, "calendar");
    expect(envelope.calendar).toEqual(new Set(["2024-03-01", "2024-02-29"]));
    expect(() => checkCalculationType(envelope, "monthlyaverage", request)).not.toThrow();
    expect(readPriceBlock(envelope, body.instruments[0], 0)).toBe(body.instruments[0]);
  });

  it.each([
    ["the always-returned fields", instrument],
    ["every optional field", fullInstrument],
  ])("/Instruments with %s", (_, served) => {
    const envelope = readEnvelope({ instruments: [served] }, request);
    expect(envelope.calculationType).toBeUndefined();
    expect(readInstrument(envelope, served, 0)).toBe(served);
  });

  it("/References with groups, empty conversion lists included", () => {
    const body = { references: [{ type: "Currency", items: [{ id: "USD", description: "US dollar", sign: "$", availableConversionIds: ["EUR"] }, { id: "XAU", description: "Gold", sign: "", availableConversionIds: [] }] }] };
    const groups = readReferences(body, request);
    expect(groups.get("currency")).toBe(body.references[0]);
  });
});

describe("the reader converts what the contract tolerates, into the contract's own shape", () => {
  it.each([
    ["numbers written as strings", { ...record, revision: "0", low: "1", mid: "2.50", high: " 3e0 " }, record],
    ["a boolean written as a string", { ...record, appraisalPrice: "true" }, { ...record, appraisalPrice: true }],
    ["changes since a previous value that does not exist, as null", { ...record, lowChangeSincePrevious: null, midChangeSincePreviousProportion: null }, record],
    ["null curves", { ...record, forwardCurves: null }, record],
    ["unknown fields, in the record and in a curve point", { ...record, note: 1, forwardCurves: [{ ...fullRecord.forwardCurves[0], extra: true }] }, { ...record, forwardCurves: fullRecord.forwardCurves }],
    ["the period's other spelling", { ...record, evaluationPeriod: "Mar 2024" }, { ...record, assessmentPeriod: "Mar 2024" }],
  ])("%s", (_, served, expected) => {
    expect(readFirstBlock({ instruments: [block([served])], priceCalculationType: "None" }).prices).toStrictEqual([expected]);
  });

  it("copies only what it converted: a neighbour record stays the parsed object", () => {
    const neighbour = { ...record, date: "2024-03-04" };
    const body = { instruments: [block([{ ...record, mid: "2.5" }, neighbour])], priceCalculationType: "None" };
    const read = readFirstBlock(body);
    expect(read.prices[0]).toStrictEqual(record);
    expect(read.prices[1]).toBe(neighbour);
  });

  it("an instrument's optional field as null is left out; unknown fields are dropped", () => {
    const envelope = readEnvelope({ instruments: [{ ...instrument, commodity: null, internalCode: 7 }] }, request);
    const found = envelope.blocks.get("AAA");
    expect(readInstrument(envelope, found?.raw, 0)).toStrictEqual(instrument);
  });

  it("an envelope's null calculation type reads as none given", () => {
    expect(readEnvelope({ instruments: [], priceCalculationType: null }, request).calculationType).toBeUndefined();
  });
});

describe("the reader refuses a malformed answer, naming the field", () => {
  it.each([
    ["a body that is not an object", () => readEnvelope([], request), '"(body)" is not an object'],
    ["a body without instruments", () => readEnvelope({ priceCalculationType: "None" }, request), '"instruments" is missing'],
    ["a block without a symbol", () => readEnvelope({ instruments: [{ prices: [] }] }, request), '"instruments[0].symbol" is missing'],
    ["a history without its calendar", () => readEnvelope({ instruments: [] }, request, "calendar"), '"calendar" is missing'],
    ["a calendar date that does not exist", () => readEnvelope({ instruments: [], calendar: { type: "AssessmentDays", dates: ["2023-02-29"] } }, request, "calendar"), '"calendar.dates[0]" is not a date ("2023-02-29")'],
    ["a record without mid", () => readFirstBlock({ instruments: [block([{ ...record, mid: undefined }])] }), '"instruments[0].prices[0].mid" is missing'],
    ["a mid that is no number", () => readFirstBlock({ instruments: [block([record, { ...record, mid: "n/a" }])] }), '"instruments[0].prices[1].mid" is not a number'],
    ["a mid of null", () => readFirstBlock({ instruments: [block([{ ...record, mid: null }])] }), '"instruments[0].prices[0].mid" is not a number'],
    ["a fractional revision", () => readFirstBlock({ instruments: [block([{ ...record, revision: 1.5 }])] }), '"instruments[0].prices[0].revision" is not an integer'],
    ["a record dated 2024-02-30", () => readFirstBlock({ instruments: [block([{ ...record, date: "2024-02-30" }])] }), '"instruments[0].prices[0].date" is not a date ("2024-02-30")'],
    ["a date not padded", () => readFirstBlock({ instruments: [block([{ ...record, date: "2024-3-1" }])] }), '"instruments[0].prices[0].date" is not a date ("2024-3-1")'],
    ["a curve point's code outside its pattern", () => readFirstBlock({ instruments: [block([{ ...record, forwardCurves: [{ ...fullRecord.forwardCurves[0], forwardCode: "Q1" }] }])] }), '"instruments[0].prices[0].forwardCurves[0].forwardCode" does not match ^M\\d+$ ("Q1")'],
    ["prices that are not a list", () => readFirstBlock({ instruments: [{ ...block([]), prices: {} }] }), '"instruments[0].prices" is not an array'],
    ["a forecast without its version", () => readFirstBlock({ instruments: [block([record], { forecast: { ...forecast, version: undefined } })] }), '"instruments[0].forecast.version" is missing'],
    ["a launch date that does not exist", () => readInstrument(readEnvelope({ instruments: [] }, request), { ...instrument, launchDate: "2013-02-29" }, 4), '"instruments[4].launchDate" is not a date ("2013-02-29")'],
    ["an instrument's list of calculation types as a string", () => readInstrument(readEnvelope({ instruments: [] }, request), { ...instrument, priceCalculationTypeIds: "MonthlyAverage" }, 0), '"instruments[0].priceCalculationTypeIds" is not an array'],
    ["a reference item without its sign", () => readReferences({ references: [{ type: "Currency", items: [{ id: "USD", description: "US dollar", availableConversionIds: [] }] }] }, request), '"references[0].items[0].sign" is missing'],
  ])("%s", (_, read, message) => {
    const error = refusal(read);
    expect(error.message).toContain(`Response field ${message}`);
    expect(error.message).toContain(": GET /Prices");
  });

  it("fails only the block that is malformed: its neighbour in the same answer reads", () => {
    const body = { instruments: [{ ...block([{ ...record, low: "x" }]), symbol: "BBB" }, block([record])], priceCalculationType: "None" };
    const envelope = readEnvelope(body, request);
    expect(refusal(() => readPriceBlock(envelope, body.instruments[0], 0)).field).toBe("instruments[0].prices[0].low");
    expect(readFirstBlock(body)).toBe(body.instruments[1]);
  });
});

describe("one reader, agreeing with the schemas", () => {
  // Values a field may be given: right, wrong, tolerated.
  const anyValue = fc.oneof(
    fc.constantFrom(undefined, null, true, "true", "", "x", "2024-02-29", "2024-02-30", "2023-02-29", "1.5", "M3", "APR", "apr", [], {}),
    fc.double({ noNaN: false }),
    fc.integer({ min: -5, max: 5 }),
  );
  const fieldNames = [...Object.keys(PriceRecordSchema.properties), "note"];
  const mutatedRecord = fc.dictionary(fc.constantFrom(...fieldNames), anyValue, { maxKeys: 4 }).map((changes) => {
    const served: Record<string, unknown> = { ...fullRecord };
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) delete served[name];
      else served[name] = value;
    }
    return served;
  });

  it("accepts a record exactly when the schema does after the contract's conversions, and keeps nothing the schema refuses", () => {
    fc.assert(
      fc.property(mutatedRecord, (served) => {
        const servedBlock = block([served]);
        const body = { instruments: [servedBlock], priceCalculationType: "None" };
        let read: ReturnType<typeof readFirstBlock> | ResponseFormatError;
        try {
          read = readFirstBlock(structuredClone(body));
        } catch (error) {
          if (!(error instanceof ResponseFormatError)) throw error;
          read = error;
        }
        // TypeBox's own reading of the same schema, as the oracle: convert, drop nulls and unknowns, check.
        const converted = Value.Convert(InstrumentPriceBlockSchema, Value.Clean(InstrumentPriceBlockSchema, dropNulls(structuredClone(servedBlock))));
        const schemaAccepts = Value.Check(InstrumentPriceBlockSchema, converted) && convertedOnlyWhatTheContractTolerates(served);
        if (read instanceof ResponseFormatError) {
          expect(schemaAccepts).toBe(false);
          expect(read.field).toMatch(/^instruments\[0\]\.prices\[0\]/);
        } else {
          expect(schemaAccepts).toBe(true);
          expect(Value.Check(InstrumentPriceBlockSchema, read)).toBe(true);
          expect(Value.Clean(InstrumentPriceBlockSchema, structuredClone(read))).toStrictEqual(read);
        }
      }),
      { numRuns: 500 },
    );
  });
});

/** Optional fields given as null are left out, as the reader does; required ones stay null (refused). */
function dropNulls<Block extends { prices: unknown[] }>(value: Block): Block {
  const required = new Set<string>(PriceRecordSchema.required);
  for (const item of value.prices) {
    if (typeof item !== "object" || item === null) continue;
    for (const [name, field] of Object.entries(item)) if (field === null && !required.has(name)) Reflect.deleteProperty(item, name);
  }
  return value;
}

/**
 * Value.Convert converts more than the contract tolerates (an empty string or a boolean to a number, a
 * number to a string): the reader converts numeric strings and "true"/"false" only.
 */
function convertedOnlyWhatTheContractTolerates(served: Record<string, unknown>): boolean {
  const schemas: Record<string, { type?: unknown }> = PriceRecordSchema.properties;
  const required = new Set<string>(PriceRecordSchema.required);
  return Object.entries(served).every(([name, value]) => {
    const type = schemas[name]?.type;
    if (value === null) return !required.has(name);
    if (value === undefined || type === undefined) return true;
    const numeric = typeof value === "number" || (typeof value === "string" && /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value));
    // Value.Convert truncates a fraction given for an integer; the contract refuses it.
    if (type === "integer") return numeric && Number.isInteger(Number(value));
    if (type === "number") return numeric;
    if (type === "boolean") return typeof value === "boolean" || value === "true" || value === "false";
    if (type === "string") return typeof value === "string";
    return true;
  });
}
