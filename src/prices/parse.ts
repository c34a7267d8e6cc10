/**
 * The one response reader. Every piece of an answer is checked by a function compiled from the contract's
 * schemas (src/prices/response-checks.js, from src/api/schemas.ts); an answer the check accepts as it is
 * is kept as parsed, without a copy. Otherwise the same schemas guide one walk that converts what the
 * contract tolerates (numbers written as strings, as some gateways quote decimals; `"true"`; null for an
 * optional field), drops unknown fields and names the first field it cannot read; what the walk gives is
 * checked again by the compiled function, so that nothing passes that the schemas refuse. Blocks are read
 * one instrument at a time, so one bad block fails only the keys of its symbol.
 */
import { FORMATS, type InstrumentPriceBlock, type InstrumentRecord, type PriceRecord, type ReferenceGroup } from "../api/schemas";
import { ASSESSMENT_PERIOD_ALIAS, INSTRUMENT_OPTIONAL_FIELDS, type InstrumentFieldName, type PriceOptionalField } from "../api/vocabulary";
import { ResponseFormatError } from "./errors";
import { checkCalendar, checkEnvelope, checkInstrument, checkInvalidInstrument, checkPriceBlock, checkReferences } from "./response-checks";
import { checkedSchema, type ReadPiece, type ReadValue } from "./response-schemas";

export interface RequestRef {
  method: string;
  url: string;
}

type Json = Record<string, unknown>;

/** The parts of a JSON Schema (as TypeBox writes them) the walk follows. */
interface SchemaNode {
  readonly [keyword: string]: unknown;
  type?: string;
  properties?: Record<string, SchemaNode>;
  required?: readonly string[];
  items?: SchemaNode;
  pattern?: string;
  format?: string;
  /** False on the objects of a closed piece: fields it does not name are dropped. */
  additionalProperties?: unknown;
}

const CHECKS: { [Piece in ReadPiece]: (value: unknown) => value is ReadValue<Piece> } = {
  Envelope: checkEnvelope,
  Calendar: checkCalendar,
  InvalidInstrument: checkInvalidInstrument,
  PriceBlock: checkPriceBlock,
  Instrument: checkInstrument,
  References: checkReferences,
};

const walked = new Map<ReadPiece, SchemaNode>();
function schemaOf(piece: ReadPiece): SchemaNode {
  const schema = walked.get(piece) ?? checkedSchema(piece);
  walked.set(piece, schema);
  return schema;
}

const NUMERIC = /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const patterns = new Map<string, RegExp>();

function isJson(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const child = (path: string, name: string): string => (path === "" ? name : `${path}.${name}`);

class Reader {
  constructor(private readonly request: RequestRef) {}

  fail(path: string, problem: string): never {
    throw new ResponseFormatError(path === "" ? "(body)" : path, problem, this.request);
  }

  /**
   * A piece of the answer as its schema reads it: closed pieces hold only the fields the contract names,
   * open ones (the envelope) keep the others as they are.
   */
  read<Piece extends ReadPiece>(piece: Piece, value: unknown, path: string): ReadValue<Piece> {
    const check = CHECKS[piece];
    if (check(value)) return value;
    const read = this.walk(schemaOf(piece), value, path);
    // The walk refuses what the check refuses; this names a disagreement instead of passing it on.
    return check(read) ? read : this.fail(path, `does not match the contract's ${piece} schema`);
  }

  /**
   * The value as its schema reads it, or a failure naming the field. Returns the value itself when
   * nothing had to change, so that a copy is made only of what was converted or dropped.
   */
  private walk(schema: SchemaNode, value: unknown, path: string): unknown {
    switch (schema.type) {
      case "object":
        return this.walkObject(schema, value, path);
      case "array": {
        if (!Array.isArray(value)) return this.fail(path, value === undefined ? "is missing" : "is not an array");
        const items = schema.items ?? {};
        const list: readonly unknown[] = value;
        let changed = false;
        const result: unknown[] = [];
        for (const item of list) {
          const read = this.walk(items, item, `${path}[${result.length}]`);
          changed ||= read !== item;
          result.push(read);
        }
        return changed ? result : value;
      }
      case "string":
        return this.string(schema, value, path);
      case "number":
        return this.number(value, path);
      case "integer": {
        const number = this.number(value, path);
        return Number.isInteger(number) ? number : this.fail(path, "is not an integer");
      }
      case "boolean":
        if (typeof value === "boolean") return value;
        if (value === "true" || value === "false") return value === "true";
        return this.fail(path, value === undefined ? "is missing" : "is not a boolean");
      default:
        return value;
    }
  }

  private walkObject(schema: SchemaNode, value: unknown, path: string): Json {
    if (!isJson(value)) return this.fail(path, value === undefined ? "is missing" : "is not an object");
    const properties = schema.properties ?? {};
    const required = schema.required ?? [];
    let changed = false;
    const result: Json = {};
    for (const [name, property] of Object.entries(properties)) {
      const field = value[name];
      // An optional field may come as null (a change since a value that does not exist): left out.
      if (field === undefined || (field === null && !required.includes(name))) {
        if (required.includes(name)) this.fail(child(path, name), "is missing");
        changed ||= field === null;
        continue;
      }
      const read = this.walk(property, field, child(path, name));
      changed ||= read !== field;
      result[name] = read;
    }
    for (const name in value) {
      if (Object.prototype.hasOwnProperty.call(properties, name)) continue;
      if (schema.additionalProperties === false) changed = true;
      else result[name] = value[name];
    }
    return changed ? result : value;
  }

  private string(schema: SchemaNode, value: unknown, path: string): string {
    if (typeof value !== "string") return this.fail(path, value === undefined ? "is missing" : "is not a string");
    const format = schema.format === undefined ? undefined : FORMATS[schema.format];
    if (format && !format(value)) this.fail(path, `is not a ${schema.format ?? ""} (${JSON.stringify(value)})`);
    if (schema.pattern !== undefined) {
      const pattern = patterns.get(schema.pattern) ?? new RegExp(schema.pattern);
      patterns.set(schema.pattern, pattern);
      if (!pattern.test(value)) this.fail(path, `does not match ${schema.pattern} (${JSON.stringify(value)})`);
    }
    return value;
  }

  private number(value: unknown, path: string): number {
    if (typeof value === "number" && Number.isFinite(value)) return value;
    if (typeof value === "string" && NUMERIC.test(value)) return Number(value);
    return this.fail(path, value === undefined ? "is missing" : "is not a number");
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
  const root = reader.read("Envelope", body, "");
  const blocks = new Map<string, { raw: unknown; index: number }>();
  root.instruments.forEach((raw, index) => blocks.set(raw.symbol.toUpperCase(), { raw, index }));
  const invalid = new Map<string, string>();
  const notes: unknown = isJson(body) ? body.invalidInstruments : undefined;
  if (Array.isArray(notes)) {
    notes.forEach((note: unknown, index) => {
      // A malformed note about refused symbols does not fail the blocks that came.
      try {
        const { symbol, message } = reader.read("InvalidInstrument", note, `invalidInstruments[${index}]`);
        invalid.set(symbol.toUpperCase(), message ?? "");
      } catch (error) {
        if (!(error instanceof ResponseFormatError)) throw error;
      }
    });
  }
  const envelope: Envelope = { blocks, invalid, reader };
  if (root.priceCalculationType !== undefined) envelope.calculationType = root.priceCalculationType;
  if (extra === "calendar") envelope.calendar = new Set(reader.read("Calendar", isJson(body) ? body.calendar : undefined, "calendar").dates);
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

/** One instrument's block: its records hold every optional field that came (projection is per key). */
export type PriceBlock = InstrumentPriceBlock;

/** Parses one instrument price block; the period's other spelling (spec 2.5) is renamed. */
export function readPriceBlock(envelope: Envelope, raw: unknown, index: number): PriceBlock {
  const block = envelope.reader.read("PriceBlock", raw, `instruments[${index}]`);
  if (!block.prices.some((record) => record[ASSESSMENT_PERIOD_ALIAS] !== undefined)) return block;
  return { ...block, prices: block.prices.map(renamePeriod) };
}

function renamePeriod(record: PriceRecord): PriceRecord {
  const { evaluationPeriod, ...rest } = record;
  return evaluationPeriod === undefined || rest.assessmentPeriod !== undefined ? rest : { ...rest, assessmentPeriod: evaluationPeriod };
}

function copyField<Name extends keyof PriceRecord>(target: PriceRecord, source: Pick<PriceRecord, Name>, name: Name): void {
  if (source[name] !== undefined) target[name] = source[name];
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
  for (const name of fields) copyField(projected, record, name);
  return projected;
}

/** Parses one instrument record with every optional field present. */
export function readInstrument(envelope: Envelope, value: unknown, index: number): InstrumentRecord {
  return envelope.reader.read("Instrument", value, `instruments[${index}]`);
}

export function projectInstrument(record: InstrumentRecord, fields: readonly InstrumentFieldName[]): InstrumentRecord {
  const wanted = new Set<string>(fields.map((name) => INSTRUMENT_OPTIONAL_FIELDS[name]));
  const unwanted = new Set<string>(Object.values(INSTRUMENT_OPTIONAL_FIELDS).filter((output) => !wanted.has(output)));
  // only optional fields are left out, so what remains is still an instrument record
  return Object.fromEntries(Object.entries(record).filter(([name]) => !unwanted.has(name))) as InstrumentRecord;
}

/** Reference groups by type, each parsed in full. */
export function readReferences(body: unknown, request: RequestRef): Map<string, ReferenceGroup> {
  const { references } = new Reader(request).read("References", body, "");
  return new Map(references.map((group) => [group.type.toLowerCase(), group]));
}
