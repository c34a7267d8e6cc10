/**
 * What the response reader checks, piece by piece, taken from the contract's schemas (src/api/schemas.ts):
 * the envelope first, then each instrument block on its own, so that one bad block fails only the keys
 * of its symbol. scripts/gen-response-checks.ts compiles each piece into src/prices/response-checks.js.
 * Pieces the client keeps (blocks, instruments, references) are closed: every object in them holds only
 * the fields the contract names, so that an answer the check accepts is kept as parsed, without a copy.
 */
import { Type, type Static, type TProperties, type TSchema } from "@sinclair/typebox";
import { CalendarSchema, InstrumentPriceBlockSchema, InstrumentRecordSchema, InvalidInstrumentSchema, PricesResponseSchema, ReferencesResponseSchema } from "../api/schemas";

export const READ_SCHEMAS = {
  /** The outer object of /Prices, /Prices/History and /Instruments: blocks are read one by one later. */
  Envelope: Type.Object({
    instruments: Type.Array(Type.Object({ symbol: InstrumentPriceBlockSchema.properties.symbol })),
    // /Instruments has none; a missing type is judged against the one asked (checkCalculationType).
    priceCalculationType: Type.Optional(PricesResponseSchema.properties.priceCalculationType),
  }),
  Calendar: CalendarSchema,
  // A note without its message still names the symbol the service refused.
  InvalidInstrument: Type.Object({ symbol: InvalidInstrumentSchema.properties.symbol, message: Type.Optional(InvalidInstrumentSchema.properties.message) }),
  PriceBlock: InstrumentPriceBlockSchema,
  Instrument: InstrumentRecordSchema,
  References: ReferencesResponseSchema,
} as const;

export type ReadPiece = keyof typeof READ_SCHEMAS;
export type ReadValue<Piece extends ReadPiece> = Static<(typeof READ_SCHEMAS)[Piece]>;

const CLOSED: readonly ReadPiece[] = ["PriceBlock", "Instrument", "References"];

/** The schema with `additionalProperties: false` on every object in it. */
function closed(schema: TSchema): TSchema {
  // TypeBox's objects and arrays carry these keywords; other kinds leave them undefined.
  const properties = schema.properties as TProperties | undefined;
  const items = schema.items as TSchema | undefined;
  if (schema.type === "object" && properties) {
    const closedProperties: TProperties = {};
    for (const [name, property] of Object.entries(properties)) closedProperties[name] = closed(property);
    return { ...schema, properties: closedProperties, additionalProperties: false };
  }
  if (schema.type === "array" && items) return { ...schema, items: closed(items) };
  return schema;
}

/** A piece's schema as the reader checks and walks it (closed when the client keeps what it reads). */
export function checkedSchema(piece: ReadPiece): TSchema {
  return CLOSED.includes(piece) ? closed(READ_SCHEMAS[piece]) : READ_SCHEMAS[piece];
}
