/** Names and values of the Physical Prices v2 contract (spec sections 2 to 4, conventions 8 to 17). */

export const API_BASE_PATH = "/physical/v2";

/** The scope is `<vendor>.physicalprices.api` (spec 5.2); the sandbox's vendor is `sandbox`. */
export const SCOPE_SUFFIX = "physicalprices.api";
export const DEFAULT_VENDOR = "sandbox";
export function scopeFor(vendor: string): string {
  return `${vendor}.${SCOPE_SUFFIX}`;
}

export const PATHS = {
  prices: "/Prices",
  history: "/Prices/History",
  instruments: "/Instruments",
  references: "/References",
} as const;

export const CALCULATION_TYPES = [
  "None",
  "WeeklyAverage",
  "MonthlyAverage",
  "QuarterlyAverage",
  "YearlyAverage",
] as const;
export type CalculationType = (typeof CALCULATION_TYPES)[number];
export type AverageType = Exclude<CalculationType, "None">;
export const AVERAGE_TYPES: readonly AverageType[] = [
  "WeeklyAverage",
  "MonthlyAverage",
  "QuarterlyAverage",
  "YearlyAverage",
];

export const CALENDAR_TYPES = ["AssessmentDays", "Weekdays", "CalendarDays"] as const;
export type CalendarType = (typeof CALENDAR_TYPES)[number];

export const REFERENCE_TYPES = [
  "Currency",
  "UnitOfMeasure",
  "PriceCalculationType",
  "Incoterm",
  "Commodity",
  "Source",
] as const;
export type ReferenceType = (typeof REFERENCE_TYPES)[number];

/** Optional price fields (spec 2.5), as they appear in responses. */
export const PRICE_OPTIONAL_FIELDS = [
  "appraisalPrice",
  "pricingRationale",
  "assessmentPeriod",
  "lowChangeSincePrevious",
  "midChangeSincePrevious",
  "highChangeSincePrevious",
  "lowChangeSincePreviousProportion",
  "midChangeSincePreviousProportion",
  "highChangeSincePreviousProportion",
] as const;
export type PriceOptionalField = (typeof PRICE_OPTIONAL_FIELDS)[number];
/** Second spelling of `assessmentPeriod` seen in one language version of the reference (spec 2.5). */
export const ASSESSMENT_PERIOD_ALIAS = "evaluationPeriod";

/** Optional instrument fields (spec 2.6, convention 17): the name in `Fields` and the response field it adds. */
export const INSTRUMENT_OPTIONAL_FIELDS = {
  Commodity: "commodity",
  Location: "location",
  Currency: "currency",
  UnitOfMeasure: "unitOfMeasure",
  Incoterm: "incoterm",
  Source: "source",
  forecastTypeIds: "forecastTypeIds",
  hasForwardCurves: "hasForwardCurves",
} as const;
export type InstrumentFieldName = keyof typeof INSTRUMENT_OPTIONAL_FIELDS;
export type InstrumentOptionalField = (typeof INSTRUMENT_OPTIONAL_FIELDS)[InstrumentFieldName];
export const INSTRUMENT_FIELD_NAMES = Object.keys(INSTRUMENT_OPTIONAL_FIELDS) as InstrumentFieldName[];

export const FREQUENCIES = ["Daily", "Twice weekly", "Weekly", "Monthly"] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export const STATUSES = ["Active", "Discontinued"] as const;
export type InstrumentStatus = (typeof STATUSES)[number];

export const PRICE_TYPES = ["Price", "Premium/Discount"] as const;

export const FORECAST_TYPES = ["F24M"] as const;

/** Request limits (convention 11). Server options in the sandbox, settings in the client. */
export interface Limits {
  maxSymbols: number;
  maxDates: number;
  maxRecords: number;
}
export const DEFAULT_LIMITS: Readonly<Limits> = { maxSymbols: 500, maxDates: 250, maxRecords: 100_000 };

/** Finds a canonical name without regard to letter case (conventions 3 and 17). */
export function matchName<T extends string>(names: readonly T[], given: string): T | undefined {
  const wanted = given.toLowerCase();
  return names.find((name) => name.toLowerCase() === wanted);
}
