/** The PRICES.* functions the builder knows (issue 4), with their parameters in order. */
import { AVERAGE_TYPES, CALCULATION_TYPES, CALENDAR_TYPES, FORECAST_TYPES, REFERENCE_TYPES } from "../api";

export const NAMESPACE = "PRICES";

export type ParameterKind = "symbol" | "symbols" | "date" | "text" | "number" | "choice" | "fields" | "currency" | "unit";

export interface ParameterSpec {
  name: string;
  kind: ParameterKind;
  optional: boolean;
  help: string;
  /** Allowed values for `choice` parameters (numbers are written as numbers). */
  choices?: readonly (string | number)[];
}

export interface FunctionSpec {
  name: string;
  help: string;
  parameters: readonly ParameterSpec[];
}

const symbols: ParameterSpec = { name: "symbols", kind: "symbols", optional: false, help: "Instrument symbol, or a range of symbols" };
const symbol: ParameterSpec = { name: "symbol", kind: "symbol", optional: false, help: "Instrument symbol" };
const dates: ParameterSpec = { name: "dates", kind: "date", optional: true, help: "Date (YYYY-MM-DD) or range of dates (blank = latest)" };
const date: ParameterSpec = { name: "date", kind: "date", optional: true, help: "Date, YYYY-MM-DD (blank = latest)" };
const headers: ParameterSpec = { name: "headers", kind: "choice", optional: true, help: "0 none, 1 names, 2 symbol and names", choices: [0, 1, 2] };
/** Convention 21: the builder offers the conversions of the instrument in the first argument. */
const currency: ParameterSpec = { name: "currency", kind: "currency", optional: true, help: "Currency to convert into (blank = the instrument's own)" };
const unit: ParameterSpec = { name: "unit", kind: "unit", optional: true, help: "Unit of measure to convert into (blank = the instrument's own)" };
const calculation: ParameterSpec = { name: "calculation", kind: "choice", optional: true, help: "Calculation type (averages)", choices: CALCULATION_TYPES };

export const PRICE_FIELD_CHOICES = [
  "mid", "low", "high", "date", "assessmentDate", "revision", "appraisalPrice", "pricingRationale", "assessmentPeriod",
  "lowChangeSincePrevious", "midChangeSincePrevious", "highChangeSincePrevious",
  "lowChangeSincePreviousProportion", "midChangeSincePreviousProportion", "highChangeSincePreviousProportion",
] as const;

/**
 * History columns in the order HISTORY shows them by default (date, low, mid, high), then the other price fields and
 * `assessed` (FALSE on a carried-forward day); the builder writes ticked fields in this order.
 */
export const HISTORY_FIELD_CHOICES = ["date", "low", "mid", "high", ...PRICE_FIELD_CHOICES.filter((f) => !["date", "low", "mid", "high"].includes(f)), "assessed"] as const;

/** Instrument fields of spec 2.6 as the INSTRUMENT and INSTRUMENTS functions name them (full names included). */
export const INSTRUMENT_FIELD_CHOICES = [
  "symbol", "productId", "description", "descriptionShort", "commodityId", "priceType", "locationId", "currencyId",
  "unitOfMeasureId", "incotermId", "launchDate", "frequency", "sourceId", "status", "priceCalculationTypeIds",
  "commodity", "location", "currency", "unitOfMeasure", "incoterm", "source", "forecastTypeIds", "hasForwardCurves",
] as const;

/** Issue 21: plain numbers (default) or numbers that carry their record where Excel has data types. */
const values: ParameterSpec = { name: "values", kind: "choice", optional: true, help: "plain numbers, or rich ones that carry their record (blank = the setting)", choices: ["plain", "rich"] };

const dateFormat: ParameterSpec = { name: "dateFormat", kind: "choice", optional: true, help: "Dates as serial (Excel dates) or text", choices: ["serial", "text"] };

export const FUNCTIONS: readonly FunctionSpec[] = [
  { name: "MID", help: "Mid price: one value, or a grid of symbols down and dates across", parameters: [symbols, dates, currency, unit] },
  { name: "LOW", help: "Low price", parameters: [symbols, dates, currency, unit] },
  { name: "HIGH", help: "High price", parameters: [symbols, dates, currency, unit] },
  {
    name: "PRICE",
    help: "Any price field, optional fields included, and averages",
    parameters: [symbols, dates, { name: "field", kind: "choice", optional: true, help: "Price field", choices: PRICE_FIELD_CHOICES }, calculation, dateFormat, currency, unit, values],
  },
  {
    name: "LIVE",
    help: "The latest price field, updated in the cell when a new assessment or a correction is published",
    parameters: [symbols, { name: "field", kind: "choice", optional: true, help: "Price field", choices: PRICE_FIELD_CHOICES }, currency, unit],
  },
  {
    name: "HISTORY",
    help: "A table of dates and fields, like STOCKHISTORY",
    parameters: [
      symbol,
      { name: "from", kind: "date", optional: false, help: "First date: YYYY-MM-DD, or TODAY()-365 to roll forward" },
      { name: "to", kind: "date", optional: true, help: "Last date (blank = today, so the table rolls forward)" },
      { name: "fields", kind: "fields", optional: true, help: "Columns, comma-separated (default date,low,mid,high)", choices: HISTORY_FIELD_CHOICES },
      headers,
      { name: "calendar", kind: "choice", optional: true, help: "Calendar", choices: CALENDAR_TYPES },
      calculation,
      { name: "order", kind: "choice", optional: true, help: "Order of rows", choices: ["ascending", "descending"] },
      dateFormat,
      currency,
      unit,
    ],
  },
  {
    name: "AVERAGE",
    help: "Weekly, monthly, quarterly or yearly average",
    parameters: [
      symbols,
      { name: "period", kind: "choice", optional: false, help: "Average type", choices: AVERAGE_TYPES },
      dates,
      { name: "field", kind: "choice", optional: true, help: "Price field (default mid)", choices: PRICE_FIELD_CHOICES },
      currency,
      unit,
    ],
  },
  { name: "CURVE", help: "Forward curve: code, month, low, mid, high", parameters: [symbol, date, headers, currency, unit] },
  {
    name: "FORECAST",
    help: "Forecast prices: date, low, mid, high",
    parameters: [symbol, { name: "type", kind: "choice", optional: true, help: "Forecast type", choices: FORECAST_TYPES }, headers, dateFormat, currency, unit],
  },
  {
    name: "INSTRUMENT",
    help: "One metadata field, or the whole record as a table",
    parameters: [symbols, { name: "field", kind: "choice", optional: true, help: "Instrument field (blank = whole record)", choices: INSTRUMENT_FIELD_CHOICES }, dateFormat, currency, unit],
  },
  { name: "ENTITY", help: "An instrument as a data type with a card (=A1.Mid reads a field)", parameters: [symbols] },
  { name: "CONVERSIONS", help: "The currencies and units an instrument's values convert to", parameters: [symbol, headers] },
  {
    name: "INSTRUMENTS",
    help: "The instruments you may see, filtered by text",
    parameters: [
      { name: "search", kind: "text", optional: true, help: "Words to find in symbol, description or ids" },
      { name: "fields", kind: "fields", optional: true, help: "Columns, comma-separated", choices: INSTRUMENT_FIELD_CHOICES },
      headers,
      dateFormat,
    ],
  },
  {
    name: "REFERENCE",
    help: "A reference list, or one item's description",
    parameters: [
      { name: "type", kind: "choice", optional: false, help: "Reference type", choices: REFERENCE_TYPES },
      { name: "id", kind: "text", optional: true, help: "Item id (blank = whole list)" },
      headers,
    ],
  },
];

export function findFunction(name: string): FunctionSpec | undefined {
  const wanted = name.toUpperCase();
  return FUNCTIONS.find((f) => f.name === wanted);
}
