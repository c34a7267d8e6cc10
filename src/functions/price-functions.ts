/** LOW, MID, HIGH, PRICE and AVERAGE: one price field per (symbol, date), as a value or a grid. */
import type { ConversionTarget } from "../api/conversion";
import type { AverageType, CalculationType } from "../api/vocabulary";
import type { Mapped } from "../prices/deadline-queue";
import type { PriceKey, PriceRecord, Waiter } from "../prices/types";
import type { DateSystem } from "../formula/excel-dates";
import type { DataTypeSupport } from "./data-types";
import { fieldValue } from "./date-values";
import {
  choiceOf,
  dateFormatOf,
  dateOf,
  isBlank,
  optionalText,
  scalar,
  symbolOf,
  toMatrix,
  type Choice,
  type DateFormat,
} from "./coerce";
import { askPriceInto, run, type FunctionsClient, type FunctionsContext } from "./context";
import { conversionTarget, withTarget } from "./conversion-args";
import { ArgumentError } from "./errors";
import { priceFieldOf, priceFieldValue, requestedPriceFields, type PriceField } from "./fields";
import { richPriceMaker, wantsRichPrices, type RichPriceMaker } from "./rich-prices";
import { CellFailure, crossLayout, fillGrid, finish, readItem, readItems, type CrossLayout, type Grid, type Item } from "./shape";
import { memo } from "./memo";

export const CALCULATION_CHOICES: readonly Choice<CalculationType>[] = [
  { value: "None", aliases: ["assessment", "assessed", "0"] },
  { value: "WeeklyAverage", aliases: ["weekly", "week", "w"] },
  { value: "MonthlyAverage", aliases: ["monthly", "month", "m"] },
  { value: "QuarterlyAverage", aliases: ["quarterly", "quarter", "q"] },
  { value: "YearlyAverage", aliases: ["yearly", "year", "annual", "y"] },
];
const PERIOD_CHOICES = CALCULATION_CHOICES.filter((choice) => choice.value !== "None") as Choice<AverageType>[];

export function calculationOf(value: unknown): CalculationType {
  return choiceOf(value, "calculation", CALCULATION_CHOICES, "None");
}

export function periodOf(value: unknown): AverageType {
  if (isBlank(scalar(value, "period"))) {
    throw new ArgumentError("period is required: WeeklyAverage, MonthlyAverage, QuarterlyAverage or YearlyAverage");
  }
  return choiceOf<AverageType>(value, "period", PERIOD_CHOICES, "MonthlyAverage");
}

export interface PriceRequest {
  field: PriceField;
  calculation: CalculationType;
  dateFormat: DateFormat;
  /** The currency and unit asked (convention 21); none set = the instrument's own. */
  target?: ConversionTarget;
  /** PRICE's `values` argument (plain or rich); absent = the add-in's setting. */
  values?: unknown;
}

/** PRICE's field, calculation and date format, read in that order (the first bad one is the message). */
export function priceRequest(field: unknown, calculation: unknown, dateFormat: unknown): PriceRequest {
  return { field: priceFieldOf(optionalText(field, "field")), calculation: calculationOf(calculation), dateFormat: dateFormatOf(dateFormat) };
}

/** AVERAGE's period and field. */
export function averageRequest(period: unknown, field: unknown): PriceRequest {
  return { field: priceFieldOf(optionalText(field, "field")), calculation: periodOf(period), dateFormat: "serial" };
}

/** The client key each (symbol, date) of a request asks for; the pane traces a cell with the same keys. */
export function priceKeys(request: Pick<PriceRequest, "field" | "calculation" | "target">): (symbol: string, date: string | undefined) => PriceKey {
  const fields = fieldsAsked(request.field);
  return (symbol, date) => {
    const key: PriceKey = { symbol };
    if (date !== undefined) key.date = date;
    if (request.calculation !== "None") key.calculationType = request.calculation;
    if (fields.length > 0) key.fields = fields;
    return withTarget(key, request.target);
  };
}

/** The optional fields each price field asks the service for, worked out once per field (not once per call). */
const fieldsAsked = memo((field: PriceField): string[] => requestedPriceFields([field]));

/** A referenced blank date cell, alone or inside a range: its result cell stays blank (only an omitted date or "latest" means latest). */
const BLANK_DATE: unique symbol = Symbol("blank date");
type DateItem = string | undefined | typeof BLANK_DATE;

const NOT_ONE: unique symbol = Symbol("not one cell");

/** The cell of a value toMatrix reads as one cell (a scalar, [[x]] as Excel passes one, or [x]), else NOT_ONE. */
function onlyCell(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  if (value.length !== 1) return NOT_ONE;
  const row: unknown = value[0];
  if (!Array.isArray(row)) return row;
  return row.length === 1 ? row[0] : NOT_ONE;
}

/** The layout of one symbol and one date. */
function singleLayout(symbol: Item<string | undefined>, date: Item<DateItem>): CrossLayout<string | undefined, DateItem> {
  return { rows: 1, cols: 1, at: () => [symbol, date] };
}

/**
 * Symbols down, dates across (or the shape of whichever is a range); each cell settles on its own. `currency`
 * and `unit` are the functions' trailing arguments, checked after symbols and dates.
 */
export function priceGrid(context: FunctionsContext, symbols: unknown, dates: unknown, request: PriceRequest, currency?: unknown, unit?: unknown): Promise<Grid> | Mapped<PriceRecord, Grid> {
  const symbol = onlyCell(symbols);
  const date = onlyCell(dates);
  // Omitted currency and unit (the usual call): the instrument's own.
  const own = (currency === null || currency === undefined) && (unit === null || unit === undefined);
  return own && symbol !== NOT_ONE && date !== NOT_ONE ? onePrice(context, symbols, dates, request, symbol, date) : anyGrid(context, symbols, dates, request, currency, unit);
}

/** How a date cell is read: an omitted argument arrives as null; a referenced empty cell as a blank inside an array (one rule for one cell and a range). */
function dateReader(context: FunctionsContext, dates: unknown): (cell: unknown) => DateItem {
  const system = context.dateSystem;
  const given = dates !== null && dates !== undefined;
  return (cell) => (given && isBlank(cell) ? BLANK_DATE : dateOf(cell, "date", system));
}

/**
 * One symbol, one date, the instrument's own currency and unit, a plain value (the model's 10,000 =PRICES.MID($A2,B$1)):
 * the key's answer mapped to the cell, nothing but that mapping kept while it waits (no layout, grid or async frame).
 * Checked in anyGrid's order: the symbol and date read, the client (signed in), a blank date cell, the symbol, the date.
 */
function onePrice(context: FunctionsContext, symbols: unknown, dates: unknown, request: PriceRequest, symbol: unknown, date: unknown): Promise<Grid> | Mapped<PriceRecord, Grid> {
  try {
    const symbolItem = readItem(symbol, symbolOf);
    const dateItem = readItem(date, dateReader(context, dates));
    const client = context.client();
    // a rich value is a grid's work (its record kept with the cell)
    if (wantsRichPrices(context, request.field, request.values)) return anyGrid(context, symbols, dates, request);
    const cell = checkedCell(symbolItem, dateItem);
    if (cell === undefined) return Promise.resolve([[""]]);
    const [asked, day] = cell;
    if (asked === undefined) throw new ArgumentError("symbol is required: give an instrument symbol such as 'MB-AL-0004'");
    // what the answer's mapping needs, read now: the call's context is not kept while the key waits
    return new PriceCell(client, priceKeys(request)(asked, day), request.field, request.dateFormat, asked, context.dateSystem, context.dataTypes);
  } catch (error) {
    return rejected(error);
  }
}

/** A one-cell call's record made into its cell: the call's settling waits on the key itself (no continuation of its own). */
class PriceCell implements Mapped<PriceRecord, Grid> {
  /** Asked once the settling waits (at once): then dropped, so nothing of the call's client is kept while the key waits. */
  private asking: { readonly client: FunctionsClient; readonly key: PriceKey } | undefined;

  constructor(
    client: FunctionsClient,
    key: PriceKey,
    private readonly field: PriceField,
    private readonly dateFormat: DateFormat,
    private readonly symbol: string,
    private readonly dateSystem: DateSystem,
    private readonly dataTypes: DataTypeSupport | undefined,
  ) {
    this.asking = { client, key };
  }

  follow(waiter: Waiter<PriceRecord>): void {
    const asking = this.asking;
    this.asking = undefined;
    if (asking === undefined) return;
    askPriceInto(asking.client, asking.key, undefined, waiter);
  }

  map(record: PriceRecord): Grid {
    return [[fieldValue(this.field, priceFieldValue(record, this.field, this.dateFormat, this.symbol, this.dateSystem), this.dataTypes)]];
  }
}

/**
 * A one-cell call's symbol and date, checked in a grid's order: undefined for a blank date cell (its result stays
 * blank), the symbol's or the date's failure thrown as the cell's answer.
 */
function checkedCell(symbol: Item<string | undefined>, date: Item<DateItem>): [string | undefined, string | undefined] | undefined {
  if (date.ok && date.value === BLANK_DATE) return undefined;
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a CellFailure is the cell's answer, caught by its class in context.ts
  if (!symbol.ok) throw new CellFailure(symbol.failure);
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- as above
  if (!date.ok) throw new CellFailure(date.failure);
  return date.value === BLANK_DATE ? undefined : [symbol.value, date.value];
}

/** A thrown value as a rejection, as an async function gives it (a CellFailure too: context.ts tells it by its class). */
function rejected(thrown: unknown): Promise<never> {
  return Promise.reject(thrown);
}

/** Any other grid: ranges of symbols or dates, a conversion, rich values. */
async function anyGrid(context: FunctionsContext, symbols: unknown, dates: unknown, request: PriceRequest, currency?: unknown, unit?: unknown): Promise<Grid> {
  const readDate = dateReader(context, dates);
  // One symbol and one date (a model's =PRICES.MID($A2,B$1), 10,000 at once): no matrices, layout or grid of promises.
  const symbol = onlyCell(symbols);
  const date = onlyCell(dates);
  const one = symbol !== NOT_ONE && date !== NOT_ONE;
  const layout: CrossLayout<string | undefined, DateItem> = one
    ? singleLayout(readItem(symbol, symbolOf), readItem(date, readDate))
    : crossLayout(readItems(toMatrix(symbols, "symbols"), symbolOf), readItems(toMatrix(dates, "dates"), readDate));
  const client = context.client();
  // Omitted currency and unit (the usual call) wait for nothing: the instrument's own.
  const target = (currency === null || currency === undefined) && (unit === null || unit === undefined) ? undefined : await conversionTarget(client, currency, unit);
  const cells = priceCells(context, client, { ...request, target }, layout.cols, layout.rows);
  if (one && !cells.rich) {
    const cell = checkedCell(...layout.at(0, 0));
    return cell === undefined ? [[""]] : [[await cells.compute(cell[0], cell[1], 0, 0)]];
  }
  const single = layout.rows === 1 && layout.cols === 1;
  const grid = await fillGrid(
    layout,
    cells.compute,
    // A blank symbol cell inside a range stays blank; alone, it is a missing argument. So does a blank date in a range.
    (symbol, date) => (!single && symbol.ok && symbol.value === undefined) || (date.ok && date.value === BLANK_DATE),
  );
  return finish(cells.rich ? await cells.rich.apply(grid) : grid, context.makeError);
}

interface PriceCells {
  readonly compute: (symbol: string | undefined, date: DateItem, row: number, col: number) => Promise<unknown>;
  readonly rich: RichPriceMaker | undefined;
}

/** What each cell of a price grid asks and how its value is made, with the rich-price maker when the cell carries its record. */
function priceCells(context: FunctionsContext, client: FunctionsClient, request: PriceRequest, cols: number, rows: number): PriceCells {
  const system = context.dateSystem;
  const keyOf = priceKeys(request);
  const rich = wantsRichPrices(context, request.field, request.values) ? richPriceMaker(client, request.field, request.target, context, cols, rows) : undefined;
  const compute = async (symbol: string | undefined, date: DateItem, row: number, col: number): Promise<unknown> => {
    if (symbol === undefined) throw new ArgumentError("symbol is required: give an instrument symbol such as 'MB-AL-0004'");
    if (date === BLANK_DATE) return "";
    const key = keyOf(symbol, date);
    rich?.prepare(symbol);
    const record = await client.price(key);
    rich?.note(row, col, key, record);
    return fieldValue(request.field, priceFieldValue(record, request.field, request.dateFormat, symbol, system), context.dataTypes);
  };
  return { compute, rich };
}

export function fixedField(context: FunctionsContext, field: PriceField, symbols: unknown, dates: unknown, currency?: unknown, unit?: unknown): Promise<Grid> {
  return run(context, () => priceGrid(context, symbols, dates, { field, calculation: "None", dateFormat: "serial" }, currency, unit));
}

export function price(
  context: FunctionsContext,
  symbols: unknown,
  dates: unknown,
  field: unknown,
  calculation: unknown,
  dateFormat: unknown,
  currency?: unknown,
  unit?: unknown,
  values?: unknown,
): Promise<Grid> {
  return run(context, () => priceGrid(context, symbols, dates, { ...priceRequest(field, calculation, dateFormat), values }, currency, unit));
}

export function average(context: FunctionsContext, symbols: unknown, period: unknown, dates: unknown, field: unknown, currency?: unknown, unit?: unknown): Promise<Grid> {
  return run(context, () => priceGrid(context, symbols, dates, averageRequest(period, field), currency, unit));
}
