/**
 * The JSON formats of a data folder (docs/sandbox-data.md) as TypeBox schemas, and the check that turns a file's
 * first mismatch into a `DataError` naming the file, the item and the field and what was expected.
 */
import { Kind, Type, type Static, type TLiteral, type TSchema, type TString, type TUnion } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import { AVERAGE_TYPES, FREQUENCIES, PRICE_TYPES, REFERENCE_TYPES, STATUSES } from "../../api";
import { DataError, describe } from "./data-error";

export const DATA_FORMAT = "physical-prices-sandbox-data/1";
const UTC_MILLIS = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$";

const Text = Type.String({ minLength: 1, description: "a non-empty string" });
const Texts = Type.Array(Type.String({ description: "a string" }), { description: "an array of strings" });
function oneOf<T extends string>(values: readonly T[]): TUnion<TLiteral<T>[]> {
  return Type.Union(values.map((value) => Type.Literal(value)), { description: `one of ${values.join(", ")}` });
}
const UtcMillis = (example: string): TString => Type.String({ pattern: UTC_MILLIS, description: `an ISO 8601 UTC date-time with milliseconds${example}` });

export const DatasetFile = Type.Object(
  { format: Type.Literal(DATA_FORMAT, { description: JSON.stringify(DATA_FORMAT) }), today: Type.String({ description: "a date YYYY-MM-DD" }) },
  { additionalProperties: false, description: 'an object {"format", "today"}' },
);

const ReferenceItemFile = Type.Object(
  { id: Text, description: Text, sign: Type.String({ description: "a string (may be empty)" }), availableConversionIds: Texts },
  { additionalProperties: false, description: 'an object {"id", "description", "sign", "availableConversionIds"}' },
);
const ReferenceGroupFile = Type.Object(
  { type: oneOf(REFERENCE_TYPES), items: Type.Array(ReferenceItemFile, { description: "an array" }) },
  { additionalProperties: false, description: 'an object {"type", "items"}' },
);
export const ReferencesFile = Type.Array(ReferenceGroupFile, { description: 'an array of {"type", "items"}' });

/** An instrument record (spec 2.6): the names of the reference items and the last two fields may be left out. */
const InstrumentFile = Type.Object(
  {
    symbol: Text,
    productId: Text,
    description: Text,
    descriptionShort: Text,
    commodityId: Text,
    priceType: oneOf(PRICE_TYPES),
    locationId: Text,
    currencyId: Text,
    unitOfMeasureId: Text,
    incotermId: Text,
    launchDate: Type.String({ description: "a date YYYY-MM-DD" }),
    frequency: oneOf(FREQUENCIES),
    sourceId: Text,
    status: oneOf(STATUSES),
    priceCalculationTypeIds: Type.Array(oneOf(AVERAGE_TYPES), { description: "an array of strings" }),
    commodity: Type.Optional(Text),
    location: Type.Optional(Text),
    currency: Type.Optional(Text),
    unitOfMeasure: Type.Optional(Text),
    incoterm: Type.Optional(Text),
    source: Type.Optional(Text),
    forecastTypeIds: Type.Optional(Texts),
    hasForwardCurves: Type.Optional(Type.Boolean({ description: "true or false" })),
  },
  { additionalProperties: false, description: "an instrument record object" },
);
export type InstrumentFileRecord = Static<typeof InstrumentFile>;
export const InstrumentsFile = Type.Array(InstrumentFile, { description: "an array of instrument records" });

const ForecastPriceFile = Type.Object(
  { date: UtcMillis(""), low: Type.Number({ description: "a number" }), mid: Type.Number({ description: "a number" }), high: Type.Number({ description: "a number" }) },
  { additionalProperties: false, description: 'an object {"date", "low", "mid", "high"}' },
);
const ForecastFile = Type.Object(
  {
    type: Text,
    version: Type.Integer({ minimum: 0, description: "an integer >= 0" }),
    publicationDate: UtcMillis(" such as 2025-06-02T07:40:00.000Z"),
    prices: Type.Array(ForecastPriceFile, { description: "an array" }),
  },
  { additionalProperties: false, description: 'an object {"type", "version", "publicationDate", "prices"}' },
);
export const ForecastsFile = Type.Record(Type.String(), Type.Array(ForecastFile, { description: "an array of forecasts" }), {
  description: 'an object {"SYMBOL": [forecast, ...]}',
});

/** `/4/currencyId` as `[4].currencyId`, `/MB-AL-0004/0/type` as `.MB-AL-0004[0].type`. */
function fieldPath(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join("");
}

/** What a schema asks for, in words: its description, else its kind. */
function expected(schema: TSchema): string {
  if (typeof schema.description === "string") return schema.description;
  const kind = schema[Kind] as unknown;
  return typeof kind === "string" ? `a ${kind.toLowerCase()}` : "another value";
}

function problemOf(error: ValueError): string {
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    const known = Object.keys((error.schema as { properties?: Record<string, unknown> }).properties ?? {});
    return `is not a field of ${expected(error.schema)} (the fields are ${known.join(", ")})`;
  }
  return `expected ${expected(error.schema)}, got ${describe(error.value)}`;
}

/** A schema compiled once; `check` narrows a parsed file or throws a `DataError` for its first mismatch. */
export class FileFormat<T extends TSchema> {
  private readonly compiled: TypeCheck<T>;

  constructor(schema: T) {
    this.compiled = TypeCompiler.Compile(schema);
  }

  check(value: unknown, file: string): Static<T> {
    if (this.compiled.Check(value)) return value;
    const error = this.compiled.Errors(value).First();
    if (error === undefined) throw new DataError(file, "does not match its format");
    throw new DataError(`${file}${fieldPath(error.path)}`, problemOf(error));
  }
}
