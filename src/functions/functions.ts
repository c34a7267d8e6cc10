/**
 * The PRICES.* custom functions. Every @customfunction lives in this file because the metadata
 * generator reads only it; each one is a thin wrapper over the pure modules beside it (the hook and
 * the cells' context they share are made in addin-setup.ts).
 */
import { context, liveRegistry } from "./addin-setup";
import { forInvocation } from "./context";
import * as tables from "./history-functions";
import * as metadata from "./metadata-functions";
import * as prices from "./price-functions";
import * as liveFunctions from "./live";
import * as cards from "./instrument-card";

/**
 * A price field.
 * @customenum {string}
 */
export enum PriceField {
  /** Low price. */
  low = "low",
  /** Mid price (default). */
  mid = "mid",
  /** High price. */
  high = "high",
  /** The date the value stands for. */
  date = "date",
  /** When the assessment was made (UTC). */
  assessmentDate = "assessmentDate",
  /** Revision number: 0 first value, 1 for averages. */
  revision = "revision",
  /** TRUE when an appraisal was in progress. */
  appraisalPrice = "appraisalPrice",
  /** The price reporter's explanation. */
  pricingRationale = "pricingRationale",
  /** The averaged period, e.g. 2024-05-01/2024-05-31 (averages only). */
  assessmentPeriod = "assessmentPeriod",
  /** This low minus the previous one. */
  lowChangeSincePrevious = "lowChangeSincePrevious",
  /** This mid minus the previous one. */
  midChangeSincePrevious = "midChangeSincePrevious",
  /** This high minus the previous one. */
  highChangeSincePrevious = "highChangeSincePrevious",
  /** Low change as a fraction of the previous low. */
  lowChangeSincePreviousProportion = "lowChangeSincePreviousProportion",
  /** Mid change as a fraction of the previous mid. */
  midChangeSincePreviousProportion = "midChangeSincePreviousProportion",
  /** High change as a fraction of the previous high. */
  highChangeSincePreviousProportion = "highChangeSincePreviousProportion",
}

/**
 * Assessed values or an average.
 * @customenum {string}
 */
export enum Calculation {
  /** The assessed value (default). */
  None = "None",
  /** Average over the ISO week (Monday to Sunday) to date. */
  WeeklyAverage = "WeeklyAverage",
  /** Average over the calendar month to date. */
  MonthlyAverage = "MonthlyAverage",
  /** Average over the quarter to date. */
  QuarterlyAverage = "QuarterlyAverage",
  /** Average over the year to date. */
  YearlyAverage = "YearlyAverage",
}

/**
 * An averaging period.
 * @customenum {string}
 */
export enum AveragePeriod {
  /** ISO week, Monday to Sunday. */
  Weekly = "WeeklyAverage",
  /** Calendar month. */
  Monthly = "MonthlyAverage",
  /** Calendar quarter. */
  Quarterly = "QuarterlyAverage",
  /** Calendar year. */
  Yearly = "YearlyAverage",
}

/**
 * Header rows above a table.
 * @customenum {number}
 */
export enum Headers {
  /** No header row. */
  None = 0,
  /** One row of column names (default). */
  Names = 1,
  /** A title row (what the table is of), then the column names. */
  SymbolAndNames = 2,
}

/**
 * Which days a history lists.
 * @customenum {string}
 */
export enum HistoryCalendar {
  /** Only days with an assessment (default). */
  AssessmentDays = "AssessmentDays",
  /** Monday to Friday; days without an assessment repeat the latest earlier one. */
  Weekdays = "Weekdays",
  /** Every day; days without an assessment repeat the latest earlier one. */
  CalendarDays = "CalendarDays",
}

/**
 * Row order of a history.
 * @customenum {string}
 */
export enum SortOrder {
  /** Oldest first (default). */
  Ascending = "ascending",
  /** Newest first. */
  Descending = "descending",
}

/**
 * How dates are returned.
 * @customenum {string}
 */
export enum DateFormat {
  /** Excel date serial numbers, ready to format and chart (default). */
  Serial = "serial",
  /** YYYY-MM-DD text. */
  Text = "text",
}

/**
 * A forecast type.
 * @customenum {string}
 */
export enum ForecastType {
  /** The 24-month forecast (default). */
  F24M = "F24M",
}

/**
 * An instrument field.
 * @customenum {string}
 */
export enum InstrumentField {
  symbol = "symbol",
  productId = "productId",
  description = "description",
  descriptionShort = "descriptionShort",
  commodityId = "commodityId",
  priceType = "priceType",
  locationId = "locationId",
  currencyId = "currencyId",
  unitOfMeasureId = "unitOfMeasureId",
  incotermId = "incotermId",
  launchDate = "launchDate",
  frequency = "frequency",
  sourceId = "sourceId",
  status = "status",
  priceCalculationTypeIds = "priceCalculationTypeIds",
  /** Full name of the commodity. */
  commodity = "commodity",
  /** Full name of the location. */
  location = "location",
  /** Full name of the currency. */
  currency = "currency",
  /** Full name of the unit of measure. */
  unitOfMeasure = "unitOfMeasure",
  /** Full name of the incoterm. */
  incoterm = "incoterm",
  /** Full name of the source. */
  source = "source",
  /** Forecast types available, e.g. F24M. */
  forecastTypeIds = "forecastTypeIds",
  /** TRUE when forward curves exist. */
  hasForwardCurves = "hasForwardCurves",
}

/**
 * Plain numbers or numbers that carry their record.
 * @customenum {string}
 */
export enum ValueMode {
  /** Plain numbers, as before data types (default unless the add-in's setting says rich). */
  plain = "plain",
  /** Numbers showing their currency and unit and carrying date, revision, carry-forward, conversion and request. */
  rich = "rich",
}

/**
 * A reference list.
 * @customenum {string}
 */
export enum ReferenceList {
  Currency = "Currency",
  UnitOfMeasure = "UnitOfMeasure",
  PriceCalculationType = "PriceCalculationType",
  Incoterm = "Incoterm",
  Commodity = "Commodity",
  Source = "Source",
}

/**
 * Low price of instruments on dates. Symbols run down and dates across; a range of one gives the shape of the other.
 * @customfunction LOW
 * @param symbols Instrument symbol, or a range of symbols, e.g. "MB-AL-0004".
 * @param [dates] Date, YYYY-MM-DD text or a range of them; omitted or "latest" for the latest assessment (default); a blank date cell, alone or in a range, gives a blank. A date without assessment gives the latest earlier one.
 * @param [currency] Currency to convert into, e.g. EUR (any case); blank for the instrument's own (default). PRICES.CONVERSIONS lists what an instrument converts to.
 * @param [unit] Unit of measure to convert into, e.g. LB (any case); blank for the instrument's own (default).
 * @returns The low price, or a grid of them.
 */
export function low(symbols: unknown[][], dates?: unknown[][], currency?: string, unit?: string, invocation?: CustomFunctions.Invocation): Promise<unknown[][]> {
  return prices.fixedField(forInvocation(context, invocation), "low", symbols, dates, currency, unit);
}

/**
 * Mid price of instruments on dates. Symbols run down and dates across; a range of one gives the shape of the other.
 * @customfunction MID
 * @param symbols Instrument symbol, or a range of symbols, e.g. "MB-AL-0004".
 * @param [dates] Date, YYYY-MM-DD text or a range of them; omitted or "latest" for the latest assessment (default); a blank date cell, alone or in a range, gives a blank. A date without assessment gives the latest earlier one.
 * @param [currency] Currency to convert into, e.g. EUR (any case); blank for the instrument's own (default). PRICES.CONVERSIONS lists what an instrument converts to.
 * @param [unit] Unit of measure to convert into, e.g. LB (any case); blank for the instrument's own (default).
 * @returns The mid price, or a grid of them.
 */
export function mid(symbols: unknown[][], dates?: unknown[][], currency?: string, unit?: string, invocation?: CustomFunctions.Invocation): Promise<unknown[][]> {
  return prices.fixedField(forInvocation(context, invocation), "mid", symbols, dates, currency, unit);
}

/**
 * High price of instruments on dates. Symbols run down and dates across; a range of one gives the shape of the other.
 * @customfunction HIGH
 * @param symbols Instrument symbol, or a range of symbols, e.g. "MB-AL-0004".
 * @param [dates] Date, YYYY-MM-DD text or a range of them; omitted or "latest" for the latest assessment (default); a blank date cell, alone or in a range, gives a blank. A date without assessment gives the latest earlier one.
 * @param [currency] Currency to convert into, e.g. EUR (any case); blank for the instrument's own (default). PRICES.CONVERSIONS lists what an instrument converts to.
 * @param [unit] Unit of measure to convert into, e.g. LB (any case); blank for the instrument's own (default).
 * @returns The high price, or a grid of them.
 */
export function high(symbols: unknown[][], dates?: unknown[][], currency?: string, unit?: string, invocation?: CustomFunctions.Invocation): Promise<unknown[][]> {
  return prices.fixedField(forInvocation(context, invocation), "high", symbols, dates, currency, unit);
}

/**
 * Any price field of instruments on dates, assessed or averaged. Symbols run down and dates across.
 * @customfunction PRICE
 * @param symbols Instrument symbol, or a range of symbols.
 * @param [dates] Date, YYYY-MM-DD text or a range of them; omitted or "latest" for the latest assessment (default); a blank date cell, alone or in a range, gives a blank.
 * @param [field] low, mid (default), high, date, assessmentDate, revision, appraisalPrice, pricingRationale, assessmentPeriod or a change field.
 * @param [calculation] None (assessed value, default), WeeklyAverage, MonthlyAverage, QuarterlyAverage or YearlyAverage (period to date).
 * @param [dateFormat] For date fields: serial (Excel dates, default) or text (YYYY-MM-DD).
 * @param [currency] Currency to convert into, e.g. EUR (any case); blank for the instrument's own (default). PRICES.CONVERSIONS lists what an instrument converts to.
 * @param [unit] Unit of measure to convert into, e.g. LB (any case); blank for the instrument's own (default).
 * @param [values] plain (numbers) or rich (numbers showing their currency and unit and carrying their record, where Excel has data types); blank for the add-in's setting, plain unless changed.
 * @returns The field's value, or a grid of them.
 */
export function price(
  symbols: unknown[][],
  dates?: unknown[][],
  field?: PriceField,
  calculation?: Calculation,
  dateFormat?: DateFormat,
  currency?: string,
  unit?: string,
  values?: ValueMode,
  invocation?: CustomFunctions.Invocation,
): Promise<unknown[][]> {
  return prices.price(forInvocation(context, invocation), symbols, dates, field, calculation, dateFormat, currency, unit, values);
}

/**
 * The latest value of a price field, updated in the cell when the service publishes a newer assessment or corrects the shown one.
 * @customfunction LIVE
 * @streaming
 * @param symbols Instrument symbol, or a range of symbols, e.g. "MB-AL-0004".
 * @param [field] low, mid (default), high, date, assessmentDate, revision, appraisalPrice, pricingRationale or a change field.
 * @param [currency] Currency to convert into, e.g. EUR (any case); blank for the instrument's own (default). PRICES.CONVERSIONS lists what an instrument converts to.
 * @param [unit] Unit of measure to convert into, e.g. LB (any case); blank for the instrument's own (default).
 * @returns The latest value, or a grid of them, kept up to date.
 */
// Optional by the JSDoc brackets: a streaming function's invocation comes last, so TypeScript cannot mark them `?` (omitted ones arrive as null).
export function live(symbols: unknown[][], field: PriceField, currency: string, unit: string, invocation: CustomFunctions.StreamingInvocation<unknown[][]>): void {
  liveFunctions.live(context, liveRegistry, symbols, field, currency, unit, invocation);
}

/**
 * Price history as a table: one row per date, the chosen fields as columns (like STOCKHISTORY).
 * @customfunction HISTORY
 * @param symbol One instrument symbol.
 * @param from First date (Excel date or YYYY-MM-DD).
 * @param [to] Last date; blank for today (default).
 * @param [fields] Columns, as text "date,low,mid,high" (default) or a range of names: date, low, mid, high, assessmentDate, revision, assessed (FALSE for a carried-forward day), appraisalPrice, pricingRationale, assessmentPeriod, change fields.
 * @param [headers] 0 none, 1 column names (default), 2 symbol and column names.
 * @param [calendar] AssessmentDays (default), Weekdays or CalendarDays; the last two fill days without assessment with the latest earlier one.
 * @param [calculation] None (default), or WeeklyAverage, MonthlyAverage, QuarterlyAverage, YearlyAverage for one row per period.
 * @param [order] ascending (oldest first, default) or descending.
 * @param [dateFormat] serial (Excel dates, default) or text (YYYY-MM-DD).
 * @param [currency] Currency to convert into, e.g. EUR (any case); blank for the instrument's own (default); each day converts at its own rate.
 * @param [unit] Unit of measure to convert into, e.g. LB (any case); blank for the instrument's own (default).
 * @returns The history table.
 */
export function history(
  symbol: unknown,
  from: unknown,
  to?: unknown,
  fields?: unknown[][],
  headers?: Headers,
  calendar?: HistoryCalendar,
  calculation?: Calculation,
  order?: SortOrder,
  dateFormat?: DateFormat,
  currency?: string,
  unit?: string,
  invocation?: CustomFunctions.Invocation,
): Promise<unknown[][]> {
  return tables.history(forInvocation(context, invocation), symbol, from, to, fields, headers, calendar, calculation, order, dateFormat, currency, unit);
}

/**
 * Average price over a week, month, quarter or year to date.
 * @customfunction AVERAGE
 * @param symbols Instrument symbol, or a range of symbols.
 * @param period WeeklyAverage, MonthlyAverage, QuarterlyAverage or YearlyAverage (Weekly, Monthly, Quarterly and Yearly for short).
 * @param [dates] Date in the period, or a range of dates; omitted or "latest" for the current period (default); a blank cell in a range gives a blank.
 * @param [field] low, mid (default), high, or another price field such as assessmentPeriod.
 * @param [currency] Currency to convert into, e.g. EUR (any case); blank for the instrument's own (default); each assessment converts at its own day's rate before averaging.
 * @param [unit] Unit of measure to convert into, e.g. LB (any case); blank for the instrument's own (default).
 * @returns The average, or a grid of them.
 */
export function average(
  symbols: unknown[][],
  period: AveragePeriod,
  dates?: unknown[][],
  field?: PriceField,
  currency?: string,
  unit?: string,
  invocation?: CustomFunctions.Invocation,
): Promise<unknown[][]> {
  return prices.average(forInvocation(context, invocation), symbols, period, dates, field, currency, unit);
}

/**
 * Forward curve of an instrument: code, month, low, mid, high per forward month.
 * @customfunction CURVE
 * @param symbol One instrument symbol with forward curves.
 * @param [date] Assessment date; blank or "latest" for the latest (default).
 * @param [headers] 0 none, 1 column names (default), 2 symbol and date, then column names.
 * @param [currency] Currency to convert into, e.g. EUR (any case); blank for the instrument's own (default). PRICES.CONVERSIONS lists what an instrument converts to.
 * @param [unit] Unit of measure to convert into, e.g. LB (any case); blank for the instrument's own (default).
 * @returns The curve table.
 */
export function curve(symbol: unknown, date?: unknown, headers?: Headers, currency?: string, unit?: string, invocation?: CustomFunctions.Invocation): Promise<unknown[][]> {
  return tables.curve(forInvocation(context, invocation), symbol, date, headers, currency, unit);
}

/**
 * Forecast prices of an instrument: date, low, mid, high.
 * @customfunction FORECAST
 * @param symbol One instrument symbol.
 * @param [type] Forecast type; F24M (default).
 * @param [headers] 0 none, 1 column names (default), 2 forecast symbol and column names.
 * @param [dateFormat] serial (Excel dates, default) or text (YYYY-MM-DD).
 * @param [currency] Currency to convert into, e.g. EUR (any case); blank for the instrument's own (default); forecasts convert at the rate of their publication day.
 * @param [unit] Unit of measure to convert into, e.g. LB (any case); blank for the instrument's own (default).
 * @returns The forecast table.
 */
export function forecast(
  symbol: unknown,
  type?: ForecastType,
  headers?: Headers,
  dateFormat?: DateFormat,
  currency?: string,
  unit?: string,
  invocation?: CustomFunctions.Invocation,
): Promise<unknown[][]> {
  return tables.forecast(forInvocation(context, invocation), symbol, type, headers, dateFormat, currency, unit);
}

/**
 * Instrument metadata: one field, or without a field the whole record as name/value rows.
 * @customfunction INSTRUMENT
 * @param symbols Instrument symbol, or a range of symbols (down).
 * @param [field] e.g. description, currencyId, currency (full name), unitOfMeasure, launchDate, hasForwardCurves; blank for the whole record (default).
 * @param [dateFormat] For launchDate: serial (default) or text.
 * @param [currency] The currency the other functions are asked to convert into: currencyId and currency then report it (#N/A when the instrument lacks the conversion); blank for its own.
 * @param [unit] The unit the other functions are asked to convert into: unitOfMeasureId and unitOfMeasure then report it; blank for its own.
 * @returns The field's value, a grid of them, or the record.
 */
export function instrument(
  symbols: unknown[][],
  field?: InstrumentField,
  dateFormat?: DateFormat,
  currency?: string,
  unit?: string,
  invocation?: CustomFunctions.Invocation,
): Promise<unknown[][]> {
  return metadata.instrument(forInvocation(context, invocation), symbols, field, dateFormat, currency, unit);
}

/**
 * What an instrument's values convert to: its currencies, then its units, as kind, id and description rows.
 * @customfunction CONVERSIONS
 * @param symbol One instrument symbol.
 * @param [headers] 0 none, 1 column names (default), 2 symbol with its own currency/unit, then column names.
 * @returns The conversions table.
 */
export function conversions(symbol: unknown, headers?: Headers, invocation?: CustomFunctions.Invocation): Promise<unknown[][]> {
  return metadata.conversions(forInvocation(context, invocation), symbol, headers);
}

/**
 * The instruments you may see, filtered by text, as a table.
 * @customfunction INSTRUMENTS
 * @param [search] Words that must all appear in the symbol, description, short description or ids (commodity, location, currency, unit, incoterm, source), any case; blank for all (default).
 * @param [fields] Columns, as text or a range of names; default symbol, description, currencyId, unitOfMeasureId, frequency.
 * @param [headers] 0 none, 1 column names (default), 2 search text and column names.
 * @param [dateFormat] For launchDate: serial (default) or text.
 * @returns The instrument table.
 */
export function instruments(search?: string, fields?: unknown[][], headers?: Headers, dateFormat?: DateFormat, invocation?: CustomFunctions.Invocation): Promise<unknown[][]> {
  return metadata.instruments(forInvocation(context, invocation), search, fields, headers, dateFormat);
}

/**
 * A reference list (id, description, sign, conversions), or the description of one id.
 * @customfunction REFERENCE
 * @param type Currency, UnitOfMeasure, PriceCalculationType, Incoterm, Commodity or Source.
 * @param [id] An id or a range of ids to describe; blank for the whole list (default).
 * @param [headers] For the whole list: 0 none, 1 column names (default), 2 type and column names.
 * @returns The list, or descriptions.
 */
export function reference(type: ReferenceList, id?: unknown[][], headers?: Headers, invocation?: CustomFunctions.Invocation): Promise<unknown[][]> {
  return metadata.reference(forInvocation(context, invocation), type, id, headers);
}

/**
 * An instrument as a data type: the cell shows the symbol and short description, its card the instrument's fields and latest low, mid and high; =A1.Mid reads a field. Where Excel has no data types, the text only.
 * @customfunction ENTITY
 * @param symbols Instrument symbol, or a range of symbols.
 * @returns The instrument entity, or a grid of them.
 */
export function entity(symbols: unknown[][], invocation?: CustomFunctions.Invocation): Promise<unknown[][]> {
  return cards.entity(forInvocation(context, invocation), symbols);
}
