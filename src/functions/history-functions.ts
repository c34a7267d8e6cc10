/** HISTORY, FORECAST and CURVE: one instrument's table, dates down and fields across. */
import { addDays } from "../api/dates";
import type { PriceRecord } from "../api/schemas";
import { CALENDAR_TYPES, type CalendarType } from "../api/vocabulary";
import type { HistoryKey } from "../prices/types";
import {
  choiceOf,
  dateFormatOf,
  dateOf,
  headersOf,
  nameList,
  type HeaderMode,
  optionalText,
  requiredDate,
  requiredSymbol,
  scalar,
  type DateFormat,
} from "./coerce";
import { run, type FunctionsContext } from "./context";
import { conversionTarget, withTarget } from "./conversion-args";
import type { DataTypeSupport } from "./data-types";
import { dateValue, fieldValue } from "./date-values";
import type { DateSystem } from "../formula/excel-dates";
import { ArgumentError, NotAvailableError } from "./errors";
import {
  DEFAULT_HISTORY_FIELDS,
  dateOut,
  dateTimeOut,
  historyFieldOf,
  priceFieldValue,
  requestedPriceFields,
  type HistoryField,
} from "./fields";
import { calculationOf } from "./price-functions";
import { withHeaders, type Grid } from "./shape";

export type Order = "ascending" | "descending";

export function orderOf(value: unknown): Order {
  return choiceOf<Order>(
    value,
    "order",
    [
      { value: "ascending", aliases: ["asc", "oldest first", "0"] },
      { value: "descending", aliases: ["desc", "newest first", "1", "-1"] },
    ],
    "ascending",
  );
}

export function calendarOf(value: unknown): CalendarType {
  return choiceOf<CalendarType>(
    value,
    "calendar",
    CALENDAR_TYPES.map((type) => ({ value: type, aliases: [type.replace(/Days$/, ""), type.replace(/s$/, "")] })),
    "AssessmentDays",
  );
}

function historyFieldsOf(value: unknown): HistoryField[] {
  const names = nameList(value, "fields");
  return names === undefined ? [...DEFAULT_HISTORY_FIELDS] : names.map(historyFieldOf);
}

function cellOf(record: PriceRecord, field: HistoryField, format: DateFormat, symbol: string, assessed: ReadonlySet<string>, system: DateSystem, support: DataTypeSupport | undefined): unknown {
  if (field === "assessed") return assessed.has(record.date);
  try {
    return fieldValue(field, priceFieldValue(record, field, format, symbol, system), support);
  } catch {
    // A field missing on one row (an optional field the service left out) leaves that cell blank.
    return "";
  }
}

export interface HistoryArguments {
  key: HistoryKey;
  fields: HistoryField[];
  headers: HeaderMode;
  order: Order;
  format: DateFormat;
}

/**
 * HISTORY's arguments read in order (the first bad one is the message) into the history the client is asked
 * for; the pane traces a cell with the same key.
 */
export function historyArguments(
  today: string,
  symbolArg: unknown,
  fromArg: unknown,
  toArg: unknown,
  fieldsArg?: unknown,
  headersArg?: unknown,
  calendarArg?: unknown,
  calculationArg?: unknown,
  orderArg?: unknown,
  dateFormatArg?: unknown,
  system: DateSystem = "1900",
): HistoryArguments {
  const symbol = requiredSymbol(symbolArg);
  const fromDate = requiredDate(fromArg, "from", system);
  const toDate = dateOf(scalar(toArg, "to"), "to", system) ?? today;
  if (fromDate > toDate) throw new ArgumentError(`from (${fromDate}) is after to (${toDate})`);
  const fields = historyFieldsOf(fieldsArg);
  const headers = headersOf(headersArg);
  const calendarType = calendarOf(calendarArg);
  const calculationType = calculationOf(calculationArg);
  const order = orderOf(orderArg);
  const format = dateFormatOf(dateFormatArg);
  const key: HistoryKey = { symbol, fromDate, toDate };
  if (calendarType !== "AssessmentDays") {
    key.calendarType = calendarType;
    key.carryForward = true;
  }
  if (calculationType !== "None") key.calculationType = calculationType;
  const optional = requestedPriceFields(fields);
  if (optional.length > 0) key.fields = optional;
  return { key, fields, headers, order, format };
}

export function history(
  context: FunctionsContext,
  symbolArg: unknown,
  fromArg: unknown,
  toArg: unknown,
  fieldsArg: unknown,
  headersArg: unknown,
  calendarArg: unknown,
  calculationArg: unknown,
  orderArg: unknown,
  dateFormatArg: unknown,
  currencyArg?: unknown,
  unitArg?: unknown,
): Promise<Grid> {
  return run(context, async () => {
    const { key, fields, headers, order, format } = historyArguments(
      context.today(),
      symbolArg,
      fromArg,
      toArg,
      fieldsArg,
      headersArg,
      calendarArg,
      calculationArg,
      orderArg,
      dateFormatArg,
      context.dateSystem,
    );
    const { symbol, fromDate, toDate } = key;
    const client = context.client();
    const result = await client.history(withTarget(key, await conversionTarget(client, currencyArg, unitArg)));
    if (result.prices.length === 0) throw new NotAvailableError(`no assessment for '${symbol}' from ${fromDate} to ${toDate}`);
    const records = order === "ascending" ? [...result.prices].reverse() : result.prices;
    const body = records.map((record) => fields.map((field) => cellOf(record, field, format, symbol, result.assessedDates, context.dateSystem, context.dataTypes)));
    return withHeaders(body, fields, headers, symbol);
  });
}

/** How far past the latest assessment FORECAST looks for forecast prices. */
export const FORECAST_HORIZON_DAYS = 3_660;
/** The forecast type FORECAST asks when none is given. */
export const FORECAST_DEFAULT_TYPE = "F24M";

export function forecast(
  context: FunctionsContext,
  symbolArg: unknown,
  typeArg: unknown,
  headersArg: unknown,
  dateFormatArg: unknown,
  currencyArg?: unknown,
  unitArg?: unknown,
): Promise<Grid> {
  return run(context, async () => {
    const symbol = requiredSymbol(symbolArg);
    const type = optionalText(typeArg, "type") ?? FORECAST_DEFAULT_TYPE;
    const headers = headersOf(headersArg);
    const format = dateFormatOf(dateFormatArg);
    const client = context.client();
    const target = await conversionTarget(client, currencyArg, unitArg);
    // The service returns a forecast only for a range holding an actual price: start at the latest one.
    const latest = await client.price(withTarget({ symbol }, target));
    const fromDate = latest.date;
    const toDate = addDays(fromDate, FORECAST_HORIZON_DAYS);
    const result = await client.history(withTarget({ symbol, fromDate, toDate, forecastType: type }, target));
    const prices = result.forecast?.forecastPrices ?? [];
    if (prices.length === 0) throw new NotAvailableError(`no forecast '${type}' for '${symbol}'`);
    const body = prices.map((point) => [
      format === "text" ? dateOut(point.date.slice(0, 10), "text") : dateValue(dateTimeOut(point.date, "serial", context.dateSystem), context.dataTypes),
      point.low,
      point.mid,
      point.high,
    ]);
    return withHeaders(body, ["date", "low", "mid", "high"], headers, result.forecast?.symbol ?? `${symbol}.${type}`);
  });
}

export function curve(context: FunctionsContext, symbolArg: unknown, dateArg: unknown, headersArg: unknown, currencyArg?: unknown, unitArg?: unknown): Promise<Grid> {
  return run(context, async () => {
    const symbol = requiredSymbol(symbolArg);
    const date = dateOf(scalar(dateArg, "date"), "date", context.dateSystem);
    const headers = headersOf(headersArg);
    const client = context.client();
    const target = await conversionTarget(client, currencyArg, unitArg);
    const record = await client.price(withTarget(date === undefined ? { symbol } : { symbol, date }, target));
    const points = record.forwardCurves ?? [];
    if (points.length === 0) {
      throw new NotAvailableError(`'${symbol}' has no forward curve${date === undefined ? "" : ` on ${date}`}`);
    }
    const body = points.map((point) => [point.forwardCode, point.forwardMonth, point.low, point.mid, point.high]);
    return withHeaders(body, ["code", "month", "low", "mid", "high"], headers, `${symbol} ${record.date}`);
  });
}
