/**
 * The response contract (spec section 2, conventions 6, 7, 13, 17) as JSON Schemas; the TypeScript
 * types derive from them. The sandbox declares them on its routes; the client checks what it reads
 * against the same types.
 */
import { FormatRegistry, Type, type Static } from "@sinclair/typebox";
import { isCalendarDate } from "./dates";

/** The string formats the schemas use, by name: the compiled reader and TypeBox's Value both check them. */
export const FORMATS: Readonly<Record<string, (value: string) => boolean>> = { date: isCalendarDate };
for (const [name, check] of Object.entries(FORMATS)) FormatRegistry.Set(name, check);

/** A day that exists (2024-02-30 does not), written `YYYY-MM-DD`. */
const IsoDate = Type.String({ format: "date", description: "YYYY-MM-DD" });
const DateTimeWithOffset = Type.String({ description: "ISO 8601 date-time with UTC offset" });

export const ForwardCurvePointSchema = Type.Object({
  forwardCode: Type.String({ pattern: "^M\\d+$" }),
  forwardMonth: Type.String({ pattern: "^[A-Z]{3}$" }),
  low: Type.Number(),
  mid: Type.Number(),
  high: Type.Number(),
});
export type ForwardCurvePoint = Static<typeof ForwardCurvePointSchema>;

export const PriceRecordSchema = Type.Object({
  date: IsoDate,
  assessmentDate: DateTimeWithOffset,
  revision: Type.Integer(),
  low: Type.Number(),
  mid: Type.Number(),
  high: Type.Number(),
  forwardCurves: Type.Optional(Type.Array(ForwardCurvePointSchema)),
  appraisalPrice: Type.Optional(Type.Boolean()),
  pricingRationale: Type.Optional(Type.String()),
  assessmentPeriod: Type.Optional(Type.String()),
  evaluationPeriod: Type.Optional(Type.String()),
  lowChangeSincePrevious: Type.Optional(Type.Number()),
  midChangeSincePrevious: Type.Optional(Type.Number()),
  highChangeSincePrevious: Type.Optional(Type.Number()),
  lowChangeSincePreviousProportion: Type.Optional(Type.Number()),
  midChangeSincePreviousProportion: Type.Optional(Type.Number()),
  highChangeSincePreviousProportion: Type.Optional(Type.Number()),
});
export type PriceRecord = Static<typeof PriceRecordSchema>;

export const ForecastPriceSchema = Type.Object({
  date: Type.String({ description: "ISO 8601 UTC date-time with milliseconds" }),
  low: Type.Number(),
  mid: Type.Number(),
  high: Type.Number(),
});
export type ForecastPrice = Static<typeof ForecastPriceSchema>;

export const ForecastSchema = Type.Object({
  symbol: Type.String({ description: "instrument symbol, '.', forecast type id" }),
  version: Type.Integer(),
  publicationDate: Type.String({ description: "ISO 8601 UTC date-time with milliseconds" }),
  forecastPrices: Type.Array(ForecastPriceSchema),
});
export type Forecast = Static<typeof ForecastSchema>;

export const InstrumentPriceBlockSchema = Type.Object({
  symbol: Type.String(),
  /** The currency and unit the values are in, when a conversion was asked (convention 21). */
  currencyId: Type.Optional(Type.String()),
  unitOfMeasureId: Type.Optional(Type.String()),
  firstDate: DateTimeWithOffset,
  lastDate: DateTimeWithOffset,
  prices: Type.Array(PriceRecordSchema),
  forecast: Type.Optional(ForecastSchema),
});
export type InstrumentPriceBlock = Static<typeof InstrumentPriceBlockSchema>;

export const InvalidInstrumentSchema = Type.Object({
  symbol: Type.String(),
  message: Type.String(),
});
export type InvalidInstrument = Static<typeof InvalidInstrumentSchema>;

export const PricesResponseSchema = Type.Object({
  instruments: Type.Array(InstrumentPriceBlockSchema),
  priceCalculationType: Type.String(),
  invalidInstruments: Type.Optional(Type.Array(InvalidInstrumentSchema)),
});
export type PricesResponse = Static<typeof PricesResponseSchema>;

export const CalendarSchema = Type.Object({
  type: Type.String(),
  dates: Type.Array(IsoDate, { description: "descending" }),
});
export type Calendar = Static<typeof CalendarSchema>;

export const HistoryResponseSchema = Type.Object({
  instruments: Type.Array(InstrumentPriceBlockSchema),
  calendar: CalendarSchema,
  priceCalculationType: Type.String(),
  invalidInstruments: Type.Optional(Type.Array(InvalidInstrumentSchema)),
});
export type HistoryResponse = Static<typeof HistoryResponseSchema>;

export const InstrumentRecordSchema = Type.Object({
  symbol: Type.String(),
  productId: Type.String(),
  description: Type.String(),
  descriptionShort: Type.String(),
  commodityId: Type.String(),
  priceType: Type.String(),
  locationId: Type.String(),
  currencyId: Type.String(),
  unitOfMeasureId: Type.String(),
  incotermId: Type.String(),
  launchDate: IsoDate,
  frequency: Type.String(),
  sourceId: Type.String(),
  status: Type.String(),
  priceCalculationTypeIds: Type.Array(Type.String()),
  commodity: Type.Optional(Type.String()),
  location: Type.Optional(Type.String()),
  currency: Type.Optional(Type.String()),
  unitOfMeasure: Type.Optional(Type.String()),
  incoterm: Type.Optional(Type.String()),
  source: Type.Optional(Type.String()),
  forecastTypeIds: Type.Optional(Type.Array(Type.String())),
  hasForwardCurves: Type.Optional(Type.Boolean()),
});
export type InstrumentRecord = Static<typeof InstrumentRecordSchema>;

/** The fields every instrument record carries (spec 2.6), in the schema's order: the optional ones are named by `Fields`. */
export const INSTRUMENT_BASE_FIELDS = [
  "symbol",
  "productId",
  "description",
  "descriptionShort",
  "commodityId",
  "priceType",
  "locationId",
  "currencyId",
  "unitOfMeasureId",
  "incotermId",
  "launchDate",
  "frequency",
  "sourceId",
  "status",
  "priceCalculationTypeIds",
] as const satisfies readonly (keyof InstrumentRecord)[];

export const InstrumentsResponseSchema = Type.Object({
  instruments: Type.Array(InstrumentRecordSchema),
  invalidInstruments: Type.Optional(Type.Array(InvalidInstrumentSchema)),
});
export type InstrumentsResponse = Static<typeof InstrumentsResponseSchema>;

export const ReferenceItemSchema = Type.Object({
  id: Type.String(),
  description: Type.String(),
  sign: Type.String(),
  availableConversionIds: Type.Array(Type.String()),
});
export type ReferenceItem = Static<typeof ReferenceItemSchema>;

export const ReferenceGroupSchema = Type.Object({
  type: Type.String(),
  items: Type.Array(ReferenceItemSchema),
});
export type ReferenceGroup = Static<typeof ReferenceGroupSchema>;

export const ReferencesResponseSchema = Type.Object({
  references: Type.Array(ReferenceGroupSchema),
});
export type ReferencesResponse = Static<typeof ReferencesResponseSchema>;

/** RFC 9457 problem details (convention 7). */
export const ProblemSchema = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  errors: Type.Optional(
    Type.Array(Type.Object({ parameter: Type.String(), message: Type.String() })),
  ),
});
export type Problem = Static<typeof ProblemSchema>;
export const PROBLEM_CONTENT_TYPE = "application/problem+json";
