/**
 * Defensive reading of response bodies against the src/api types, by hand (no schema library at run
 * time). Numbers are accepted with or without a decimal part and as numeric strings (some gateways
 * quote decimals); unknown fields are ignored; a missing or mistyped required field is a
 * ResponseFormatError naming its path. Blocks are parsed one instrument at a time, so one bad block
 * fails only the keys of its symbol.
 */
import { daysInMonth, parseIsoDate } from "../api/dates";
import { INSTRUMENT_BASE_FIELDS, type Forecast, type ForwardCurvePoint, type InstrumentRecord, type PriceRecord, type ReferenceGroup, type ReferenceItem } from "../api/schemas";
import { INSTRUMENT_OPTIONAL_FIELDS, PRICE_OPTIONAL_FIELDS, type InstrumentFieldName, type PriceOptionalField } from "../api/vocabulary";
import { ResponseFormatError } from "./errors";

export interface RequestRef {
  method: string;
  url: string;
}

type Json = Record<string, unknown>;

const NUMERIC = /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

class Reader {
  constructor(private readonly request: RequestRef) {}

  fail(path: string, problem: string): never {
    throw new ResponseFormatError(path, problem, this.request);
  }

  object(value: unknown, path: string): Json {
    if (typeof value !== "object" || value === null || Array.isArray(value)) this.fail(path, value === undefined ? "is missing" : "is not an object");
    return value as Json;
  }

  array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) this.fail(path, value === undefined ? "is missing" : "is not an array");
    return value;
  }

  string(value: unknown, path: string): string {
    if (typeof value !== "string") this.fail(path, value === undefined ? "is missing" : "is not a string");
    return value;
  }

  number(value: unknown, path: string): number {
    if (typeof value === "number" && Number.isFinite(value)) return value;
    if (typeof value === "string" && NUMERIC.test(value)) return Number(value);
    return this.fail(path, value === undefined ? "is missing" : "is not a number");
  }

  integer(value: unknown, path: string): number {
    const number = this.number(value, path);
    if (!Number.isInteger(number)) this.fail(path, "is not an integer");
    return number;
  }

  boolean(value: unknown, path: string): boolean {
    if (typeof value === "boolean") return value;
    if (value === "true" || value === "false") return value === "true";
    return this.fail(path, value === undefined ? "is missing" : "is not a boolean");
  }

  date(value: unknown, path: string): string {
    const text = this.string(value, path);
    return parseIsoDate(text) ?? this.fail(path, `is not a date (${JSON.stringify(text)})`);
  }

  strings(value: unknown, path: string): string[] {
    const items = this.array(value, path);
    return items.map((item, index) => this.string(item, `${path}[${index}]`));
  }
}

export interface Envelope {
  /** Raw instrument blocks by upper-case symbol, with their index for error paths. */
  blocks: Map<string, { raw: unknown; index: number }>;
  /** Upper-case symbol -> the service's message. */
  invalid: Map<string, string>;
  reader: Reader;
  /** `priceCalculationType` as served (/Prices and /Prices/History), when present. */
  calculationType?: string;
  /** History only: the days on which at least one returned instrument was assessed (convention 13). */
  calendar?: Set<string>;
}

/** Reads `instruments` and `invalidInstruments` of a /Prices, /Prices/History or /Instruments answer. */
export function readEnvelope(body: unknown, request: RequestRef, extra?: "calendar"): Envelope {
  const reader = new Reader(request);
  const root = reader.object(body, "(body)");
  const instruments = reader.array(root.instruments, "instruments");
  let calendarDates: Set<string> | undefined;
  if (extra === "calendar") {
    const calendar = reader.object(root.calendar, "calendar");
    calendarDates = new Set(reader.array(calendar.dates, "calendar.dates").map((item, index) => reader.date(item, `calendar.dates[${index}]`)));
  }
  const blocks = new Map<string, { raw: unknown; index: number }>();
  instruments.forEach((raw, index) => {
    const symbol = reader.string(reader.object(raw, `instruments[${index}]`).symbol, `instruments[${index}].symbol`);
    blocks.set(symbol.toUpperCase(), { raw, index });
  });
  const invalid = new Map<string, string>();
  if (Array.isArray(root.invalidInstruments)) {
    for (const item of root.invalidInstruments) {
      if (typeof item !== "object" || item === null) continue;
      const { symbol, message } = item as Json;
      if (typeof symbol === "string") invalid.set(symbol.toUpperCase(), typeof message === "string" ? message : "");
    }
  }
  const envelope: Envelope = { blocks, invalid, reader };
  if (root.priceCalculationType !== undefined && root.priceCalculationType !== null) envelope.calculationType = reader.string(root.priceCalculationType, "priceCalculationType");
  if (calendarDates) envelope.calendar = calendarDates;
  return envelope;
}

/**
 * Fails the whole answer when it is not of the calculation type asked (any letter case): a service that
 * ignored the input would otherwise pass plain assessments off as averages. A missing type is accepted
 * only when plain prices were asked, which is what a response without one would hold.
 */
export function checkCalculationType(envelope: Envelope, asked: string, request: RequestRef): void {
  const served = envelope.calculationType;
  if (served === undefined) {
    if (asked.toLowerCase() !== "none") throw new ResponseFormatError("priceCalculationType", `is missing where ${asked} was asked`, request);
    return;
  }
  if (served.toLowerCase() !== asked.toLowerCase()) throw new ResponseFormatError("priceCalculationType", `is ${JSON.stringify(served)} where ${asked} was asked`, request);
}

export interface PriceBlock {
  symbol: string;
  firstDate: string;
  lastDate: string;
  prices: PriceRecord[];
  forecast?: Forecast;
  /** The currency and unit of the values, when the service converted them (convention 21). */
  currencyId?: string;
  unitOfMeasureId?: string;
}

/** Parses one instrument price block, keeping every optional field present (projection is per key). */
export function readPriceBlock(envelope: Envelope, raw: unknown, index: number): PriceBlock {
  const reader = envelope.reader;
  const at = `instruments[${index}]`;
  const block = reader.object(raw, at);
  const items = reader.array(block.prices, `${at}.prices`);
  const prices: PriceRecord[] = new Array<PriceRecord>(items.length);
  for (let position = 0; position < items.length; position += 1) {
    prices[position] = readPriceRecordFast(items[position]) ?? readPriceRecord(reader, items[position], `${at}.prices[${position}]`);
  }
  const result: PriceBlock = {
    symbol: reader.string(block.symbol, `${at}.symbol`),
    firstDate: reader.string(block.firstDate, `${at}.firstDate`),
    lastDate: reader.string(block.lastDate, `${at}.lastDate`),
    prices,
  };
  if (block.forecast !== undefined && block.forecast !== null) result.forecast = readForecast(reader, block.forecast, `${at}.forecast`);
  if (block.currencyId !== undefined) result.currencyId = reader.string(block.currencyId, `${at}.currencyId`);
  if (block.unitOfMeasureId !== undefined) result.unitOfMeasureId = reader.string(block.unitOfMeasureId, `${at}.unitOfMeasureId`);
  return result;
}

const NUMBER_FIELDS = PRICE_OPTIONAL_FIELDS.filter((name) => name !== "appraisalPrice" && name !== "pricingRationale" && name !== "assessmentPeriod");

/** A finite number, or NaN (which JSON cannot carry) when the value is not one. */
function numberOrNaN(value: unknown): number {
  if (typeof value === "number") return Number.isFinite(value) ? value : NaN;
  if (typeof value === "string" && NUMERIC.test(value)) return Number(value);
  return NaN;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/**
 * `YYYY-MM-DD` of a day that exists, as the careful reader's `parseIsoDate` reads it, without a regular
 * expression: both readers refuse 2024-02-30 alike.
 */
function isCalendarDate(text: string): boolean {
  if (text.length !== 10) return false;
  for (let index = 0; index < 10; index += 1) {
    const code = text.charCodeAt(index);
    if (index === 4 || index === 7 ? code !== 45 : code < 48 || code > 57) return false;
  }
  const month = (text.charCodeAt(5) - 48) * 10 + text.charCodeAt(6) - 48;
  const day = (text.charCodeAt(8) - 48) * 10 + text.charCodeAt(9) - 48;
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(Number(text.slice(0, 4)), month);
}

/** Undefined when absent (or null: a change since a value that does not exist), NaN when not a number. */
function optionalNumber(value: unknown): number | undefined {
  return value === undefined || value === null ? undefined : numberOrNaN(value);
}

/**
 * The common case, fast: a well-formed record, read without building paths, each field by name (so
 * every load sees one shape). Anything unusual goes to the careful reader, which names the field. A
 * record holding only known fields, numbers as numbers and no nulls is returned as parsed: a copy and
 * its number boxes would cost five objects per cell, all kept by the cache.
 */
function readPriceRecordFast(value: unknown): PriceRecord | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const raw = value as RawPriceRecord;
  const date = raw.date;
  const assessmentDate = raw.assessmentDate;
  const revision = numberOrNaN(raw.revision);
  const low = numberOrNaN(raw.low);
  const mid = numberOrNaN(raw.mid);
  const high = numberOrNaN(raw.high);
  if (typeof date !== "string" || !isCalendarDate(date) || typeof assessmentDate !== "string" || !Number.isInteger(revision) || low !== low || mid !== mid || high !== high) {
    return undefined;
  }
  let asParsed = typeof raw.revision === "number" && typeof raw.low === "number" && typeof raw.mid === "number" && typeof raw.high === "number";
  // Own fields a record kept as parsed may hold: the six required ones and the optional ones present.
  let known = 6;
  const curves = raw.forwardCurves;
  if (curves !== undefined) {
    if (curves === null) asParsed = false;
    else {
      if (!Array.isArray(curves)) return undefined;
      // Well-formed points are kept as parsed (no copy: they are most of a record's objects).
      for (let index = 0; index < curves.length; index += 1) {
        const point = curves[index] as RawCurvePoint | null;
        if (typeof point !== "object" || point === null) return undefined;
        if (typeof point.forwardCode !== "string" || typeof point.forwardMonth !== "string" || !isFiniteNumber(point.low) || !isFiniteNumber(point.mid) || !isFiniteNumber(point.high)) {
          return undefined;
        }
      }
      known += 1;
    }
  }
  const appraisal = raw.appraisalPrice;
  if (appraisal !== undefined) {
    if (typeof appraisal !== "boolean") return undefined;
    known += 1;
  }
  const rationale = raw.pricingRationale;
  if (rationale !== undefined) {
    if (typeof rationale !== "string") return undefined;
    known += 1;
  }
  const period = raw.assessmentPeriod ?? raw.evaluationPeriod;
  if (period !== undefined) {
    if (typeof period !== "string") return undefined;
    // The alias is renamed in the copy.
    if (raw.assessmentPeriod === undefined) asParsed = false;
    known += 1;
  }
  const lowChange = optionalNumber(raw.lowChangeSincePrevious);
  const midChange = optionalNumber(raw.midChangeSincePrevious);
  const highChange = optionalNumber(raw.highChangeSincePrevious);
  const lowProportion = optionalNumber(raw.lowChangeSincePreviousProportion);
  const midProportion = optionalNumber(raw.midChangeSincePreviousProportion);
  const highProportion = optionalNumber(raw.highChangeSincePreviousProportion);
  const changes = lowChange !== undefined || midChange !== undefined || highChange !== undefined || lowProportion !== undefined || midProportion !== undefined || highProportion !== undefined;
  if (changes) {
    if (lowChange !== lowChange || midChange !== midChange || highChange !== highChange || lowProportion !== lowProportion || midProportion !== midProportion || highProportion !== highProportion) {
      return undefined;
    }
    // Nulls are left out and numeric strings converted: only the copy does that.
    asParsed = false;
  }
  if (asParsed && holdsOnly(raw, known)) return raw as PriceRecord;
  // One literal with the curves, rather than a property added later (which costs an allocation).
  const record: PriceRecord = curves ? { date, assessmentDate, revision, low, mid, high, forwardCurves: curves as ForwardCurvePoint[] } : { date, assessmentDate, revision, low, mid, high };
  if (appraisal !== undefined) record.appraisalPrice = appraisal;
  if (rationale !== undefined) record.pricingRationale = rationale;
  if (period !== undefined) record.assessmentPeriod = period;
  if (changes) {
    if (lowChange !== undefined) record.lowChangeSincePrevious = lowChange;
    if (midChange !== undefined) record.midChangeSincePrevious = midChange;
    if (highChange !== undefined) record.highChangeSincePrevious = highChange;
    if (lowProportion !== undefined) record.lowChangeSincePreviousProportion = lowProportion;
    if (midProportion !== undefined) record.midChangeSincePreviousProportion = midProportion;
    if (highProportion !== undefined) record.highChangeSincePreviousProportion = highProportion;
  }
  return record;
}

/** True when the object has exactly `count` own enumerable keys (the known fields counted by the caller). */
function holdsOnly(raw: object, count: number): boolean {
  let keys = 0;
  for (const name in raw) {
    if (!Object.prototype.hasOwnProperty.call(raw, name) || (keys += 1) > count) return false;
  }
  return keys === count;
}

/** A record as it may come: every field read by name, none trusted. */
interface RawPriceRecord {
  date?: unknown;
  assessmentDate?: unknown;
  revision?: unknown;
  low?: unknown;
  mid?: unknown;
  high?: unknown;
  forwardCurves?: unknown;
  appraisalPrice?: unknown;
  pricingRationale?: unknown;
  assessmentPeriod?: unknown;
  evaluationPeriod?: unknown;
  lowChangeSincePrevious?: unknown;
  midChangeSincePrevious?: unknown;
  highChangeSincePrevious?: unknown;
  lowChangeSincePreviousProportion?: unknown;
  midChangeSincePreviousProportion?: unknown;
  highChangeSincePreviousProportion?: unknown;
}

interface RawCurvePoint {
  forwardCode?: unknown;
  forwardMonth?: unknown;
  low?: unknown;
  mid?: unknown;
  high?: unknown;
}

type NumberField = Exclude<PriceOptionalField, "appraisalPrice" | "pricingRationale" | "assessmentPeriod">;

function readPriceRecord(reader: Reader, value: unknown, at: string): PriceRecord {
  const raw = reader.object(value, at);
  const record: PriceRecord = {
    date: reader.date(raw.date, `${at}.date`),
    assessmentDate: reader.string(raw.assessmentDate, `${at}.assessmentDate`),
    revision: reader.integer(raw.revision, `${at}.revision`),
    low: reader.number(raw.low, `${at}.low`),
    mid: reader.number(raw.mid, `${at}.mid`),
    high: reader.number(raw.high, `${at}.high`),
  };
  if (raw.forwardCurves !== undefined && raw.forwardCurves !== null) {
    record.forwardCurves = reader.array(raw.forwardCurves, `${at}.forwardCurves`).map((item, index) => readCurvePoint(reader, item, `${at}.forwardCurves[${index}]`));
  }
  if (raw.appraisalPrice !== undefined) record.appraisalPrice = reader.boolean(raw.appraisalPrice, `${at}.appraisalPrice`);
  if (raw.pricingRationale !== undefined) record.pricingRationale = reader.string(raw.pricingRationale, `${at}.pricingRationale`);
  const period = raw.assessmentPeriod ?? raw.evaluationPeriod;
  if (period !== undefined) record.assessmentPeriod = reader.string(period, `${at}.assessmentPeriod`);
  for (const name of NUMBER_FIELDS) {
    const field = raw[name];
    // A change since a previous value that does not exist may come as null: leave it out.
    if (field !== undefined && field !== null) record[name as NumberField] = reader.number(field, `${at}.${name}`);
  }
  return record;
}

function readCurvePoint(reader: Reader, value: unknown, at: string): ForwardCurvePoint {
  const raw = reader.object(value, at);
  return {
    forwardCode: reader.string(raw.forwardCode, `${at}.forwardCode`),
    forwardMonth: reader.string(raw.forwardMonth, `${at}.forwardMonth`),
    low: reader.number(raw.low, `${at}.low`),
    mid: reader.number(raw.mid, `${at}.mid`),
    high: reader.number(raw.high, `${at}.high`),
  };
}

function readForecast(reader: Reader, value: unknown, at: string): Forecast {
  const raw = reader.object(value, at);
  return {
    symbol: reader.string(raw.symbol, `${at}.symbol`),
    version: reader.integer(raw.version, `${at}.version`),
    publicationDate: reader.string(raw.publicationDate, `${at}.publicationDate`),
    forecastPrices: reader.array(raw.forecastPrices, `${at}.forecastPrices`).map((item, index) => {
      const point = reader.object(item, `${at}.forecastPrices[${index}]`);
      const path = `${at}.forecastPrices[${index}]`;
      return {
        date: reader.string(point.date, `${path}.date`),
        low: reader.number(point.low, `${path}.low`),
        mid: reader.number(point.mid, `${path}.mid`),
        high: reader.number(point.high, `${path}.high`),
      };
    }),
  };
}

/** The record with only the optional fields a key asked for (neighbours in a batch may have asked more). */
export function projectPrice(record: PriceRecord, fields: readonly PriceOptionalField[], unionSize: number): PriceRecord {
  if (fields.length === unionSize) return record;
  const projected: PriceRecord = {
    date: record.date,
    assessmentDate: record.assessmentDate,
    revision: record.revision,
    low: record.low,
    mid: record.mid,
    high: record.high,
  };
  if (record.forwardCurves) projected.forwardCurves = record.forwardCurves;
  const target = projected as unknown as Json;
  const source = record as unknown as Json;
  for (const name of fields) if (source[name] !== undefined) target[name] = source[name];
  return projected;
}


/** Parses one instrument record with every optional field present. */
export function readInstrument(envelope: Envelope, value: unknown, index: number): InstrumentRecord {
  const reader = envelope.reader;
  const at = `instruments[${index}]`;
  const raw = reader.object(value, at);
  const record = {} as Json;
  for (const name of INSTRUMENT_BASE_FIELDS) {
    const path = `${at}.${name}`;
    record[name] = name === "launchDate" ? reader.date(raw[name], path) : name === "priceCalculationTypeIds" ? reader.strings(raw[name], path) : reader.string(raw[name], path);
  }
  for (const output of Object.values(INSTRUMENT_OPTIONAL_FIELDS)) {
    const field = raw[output];
    if (field === undefined || field === null) continue;
    const path = `${at}.${output}`;
    record[output] = output === "forecastTypeIds" ? reader.strings(field, path) : output === "hasForwardCurves" ? reader.boolean(field, path) : reader.string(field, path);
  }
  return record as unknown as InstrumentRecord;
}

export function projectInstrument(record: InstrumentRecord, fields: readonly InstrumentFieldName[]): InstrumentRecord {
  const projected = { ...record } as Json;
  const wanted = new Set<string>(fields.map((name) => INSTRUMENT_OPTIONAL_FIELDS[name]));
  for (const output of Object.values(INSTRUMENT_OPTIONAL_FIELDS)) if (!wanted.has(output)) delete projected[output];
  return projected as unknown as InstrumentRecord;
}

/** Reference groups by type, each parsed in full. */
export function readReferences(body: unknown, request: RequestRef): Map<string, ReferenceGroup> {
  const reader = new Reader(request);
  const root = reader.object(body, "(body)");
  const groups = new Map<string, ReferenceGroup>();
  reader.array(root.references, "references").forEach((value, index) => {
    const at = `references[${index}]`;
    const raw = reader.object(value, at);
    const type = reader.string(raw.type, `${at}.type`);
    const items = reader.array(raw.items, `${at}.items`).map((item, position): ReferenceItem => {
      const path = `${at}.items[${position}]`;
      const rawItem = reader.object(item, path);
      return {
        id: reader.string(rawItem.id, `${path}.id`),
        description: reader.string(rawItem.description, `${path}.description`),
        sign: reader.string(rawItem.sign, `${path}.sign`),
        availableConversionIds: reader.strings(rawItem.availableConversionIds, `${path}.availableConversionIds`),
      };
    });
    groups.set(type.toLowerCase(), { type, items });
  });
  return groups;
}
