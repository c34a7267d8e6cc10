/**
 * Excel data types as the JSON a custom function returns (the shapes of Excel.DoubleCellValue and
 * Excel.EntityCellValue): price values that carry their record and instrument entities with a card. Which
 * ones a host gets follows its requirement sets (docs/data-types.md); without them the functions answer plain.
 * No Office globals are touched at import: `officeDataTypeSupport` reads them only when called.
 */
import type { ConversionTarget } from "../api/conversion";
import { fromEpochDay, isCarriedForward, MS_PER_DAY, parseIsoDate, toEpochDay } from "../api/dates";
import type { InstrumentRecord, PriceRecord } from "../api/schemas";
import { choiceOf } from "./coerce";
import { memo } from "./memo";
import { dateTimeToSerial, isoDateToSerial, type DateSystem } from "../formula/excel-dates";

export interface RichString {
  type: "String";
  basicValue: string;
}

export interface RichBoolean {
  type: "Boolean";
  basicValue: boolean;
}

export interface RichDouble {
  type: "Double";
  basicValue: number;
  /** ExcelApi 1.19: the value keeps this format through calculation. */
  numberFormat?: string;
  /** ExcelApi 1.19: the record the number carries. */
  properties?: Record<string, RichProperty>;
}

export interface CardSection {
  layout: "List";
  title?: string;
  properties: string[];
}

export interface RichEntity {
  type: "Entity";
  text: string;
  properties: Record<string, RichProperty>;
  layouts: { card: { title: { property: string }; subTitle?: { property: string }; sections: CardSection[] }; compact: { icon: string } };
  provider: { description: string };
}

export type RichProperty = RichString | RichBoolean | RichDouble;
export type RichValue = RichDouble | RichEntity;

/** `plain` (numbers and text, as before data types existed) or `rich` (numbers that carry their record). */
export type ValueMode = "plain" | "rich";

/** What the host can show: entities (CustomFunctionsRuntime 1.4 with ExcelApi 1.16) and numbers with a format and properties (ExcelApi 1.19). */
export interface DataTypeSupport {
  readonly entities: boolean;
  readonly numbers: boolean;
  /**
   * Dates as serials that carry their date format (Excel's formatted number values, ExcelApi 1.16). Only Excel says
   * so: the workbench and the runner show dates by the formula themselves and keep plain serials.
   */
  readonly dates?: boolean;
}

export const NO_DATA_TYPES: DataTypeSupport = { entities: false, numbers: false };
export const ALL_DATA_TYPES: DataTypeSupport = { entities: true, numbers: true };

interface RequirementsReader {
  isSetSupported(name: string, version?: string): boolean;
}

function requirementsOf(office: unknown): RequirementsReader | undefined {
  const context = typeof office === "object" && office !== null ? (office as { context?: unknown }).context : undefined;
  const requirements = typeof context === "object" && context !== null ? (context as { requirements?: unknown }).requirements : undefined;
  if (typeof requirements !== "object" || requirements === null) return undefined;
  const isSetSupported = (requirements as { isSetSupported?: unknown }).isSetSupported;
  return typeof isSetSupported === "function" ? (requirements as RequirementsReader) : undefined;
}

/** Excel's answer: CustomFunctionsRuntime 1.4 carries data types at all; ExcelApi 1.16 entities and formatted numbers (dates), 1.19 numbers with a format and properties. */
export function officeDataTypeSupport(office: unknown = (globalThis as { Office?: unknown }).Office): DataTypeSupport {
  const requirements = requirementsOf(office);
  if (requirements === undefined) return NO_DATA_TYPES;
  const supported = (name: string, version: string): boolean => {
    try {
      return requirements.isSetSupported(name, version);
    } catch {
      return false;
    }
  };
  if (!supported("CustomFunctionsRuntime", "1.4")) return NO_DATA_TYPES;
  const entities = supported("ExcelApi", "1.16");
  return { entities, numbers: supported("ExcelApi", "1.19"), dates: entities };
}

const MODE_CHOICES = [
  { value: "plain" as const, aliases: ["number", "numbers", "0", "false"] },
  { value: "rich" as const, aliases: ["record", "datatype", "1", "true"] },
];

/** PRICE's `values` argument: blank for the setting. */
export function valueModeOf(value: unknown, fallback: ValueMode): ValueMode {
  return choiceOf<ValueMode>(value, "values", MODE_CHOICES, fallback);
}

function quoted(text: string): string {
  return `"${text.replace(/"/g, "")}"`;
}

/** `#,##0.00##" USD/MT"`: the value with its currency and unit; two to four decimals as prices are quoted. */
export function priceNumberFormat(currency: string, unit: string): string {
  return `#,##0.00##${quoted(` ${currency}/${unit}`)}`;
}

export const DATE_FORMAT = "yyyy-mm-dd";
export const DATE_TIME_FORMAT = "yyyy-mm-dd hh:mm";

function text(value: string): RichString {
  return { type: "String", basicValue: value };
}

function flag(value: boolean): RichBoolean {
  return { type: "Boolean", basicValue: value };
}

function number(value: number, numberFormat?: string): RichDouble {
  return numberFormat === undefined ? { type: "Double", basicValue: value } : { type: "Double", basicValue: value, numberFormat };
}

/** What a price value stands for: the record it was read from and how it was asked. */
export interface PriceContext {
  symbol: string;
  /** The record field, e.g. `mid`. */
  field: string;
  record: PriceRecord;
  /** The instrument's own currency and unit. */
  own: { currency: string; unit: string };
  /** The conversion asked (convention 21); none set = the instrument's own. */
  target: ConversionTarget;
  /** The request in words: function, symbol, date asked, calculation. */
  request: string;
  system: DateSystem;
}

/** The price fields whose values are amounts in the instrument's currency and unit, so they carry a record when rich. */
export const PRICE_AMOUNT_FIELDS: ReadonlySet<string> = new Set(["low", "mid", "high", "lowChangeSincePrevious", "midChangeSincePrevious", "highChangeSincePrevious"]);

/** The property names a rich price carries, in card order (`=A1.Currency` reads one). */
export const PRICE_PROPERTIES = ["Symbol", "Field", "Currency", "Unit", "Date", "Assessment date", "Revision", "Carried forward", "Conversion", "Request"] as const;

/** What every price of one symbol in one call shares: its number format and the properties that name it. */
export interface PriceShared {
  numberFormat: string;
  symbol: RichString;
  field: RichString;
  currency: RichString;
  unit: RichString;
  conversion: RichString;
}

/** The currency and unit a value is in, and the conversion in words (`none`, `USD/MT to EUR/T`): a rich price's and the provenance sheet's. */
export function valueUnits(own: { currency: string; unit: string }, target: ConversionTarget): { currency: string; unit: string; conversion: string } {
  const currency = target.currency ?? own.currency;
  const unit = target.unit ?? own.unit;
  const converted = target.currency !== undefined || target.unit !== undefined;
  return { currency, unit, conversion: converted ? `${own.currency}/${own.unit} to ${currency}/${unit}` : "none" };
}

export function sharedPriceParts(context: Pick<PriceContext, "symbol" | "field" | "own" | "target">): PriceShared {
  const { currency, unit, conversion } = valueUnits(context.own, context.target);
  return {
    numberFormat: priceNumberFormat(currency, unit),
    symbol: text(context.symbol),
    field: text(context.field),
    currency: text(currency),
    unit: text(unit),
    conversion: text(conversion),
  };
}

/**
 * The date, assessment date, revision and carry-forward properties of a call's records, made once per distinct
 * value: a grid's records share few of them, and a 200 x 50 grid's allocations were most of its extra CPU.
 * They are shared between cells and never changed.
 */
export interface RecordProperties {
  date(isoDate: string): RichProperty;
  /** `day`: the record's date, whose serial is known, when the assessment falls on it (the usual case). */
  assessmentDate(timestamp: string, day?: string): RichProperty;
  revision(revision: number): RichProperty;
  carried(record: Pick<PriceRecord, "date" | "assessmentDate">): RichProperty;
}

const CARRIED = flag(true);
const ASSESSED = flag(false);
/** Almost every record is a first value: its revision property is one constant. */
const FIRST_REVISION = number(0);

/** The number the `count` digits of `text` at `at` write, or -1 when one is not a digit. */
function digitsAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let index = at; index < at + count; index += 1) {
    const digit = text.charCodeAt(index) - 48;
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * What follows a timestamp's day from `from` on (`THH:MM[:SS[.fff]][Z|±HH[:]MM]`) as milliseconds since that day's UTC midnight
 * (negative or past a day when the offset moves it), or undefined for another form. The same integer Date.parse
 * gives, read by hand: the regex and Date.parse per timestamp were a third of a 200 x 50 grid's rich cost.
 */
function clockMs(tail: string, from: number): number | undefined {
  if (tail.length < from + 6 || (tail[from] !== "T" && tail[from] !== "t") || tail[from + 3] !== ":") return undefined;
  const hours = digitsAt(tail, from + 1, 2);
  const minutes = digitsAt(tail, from + 4, 2);
  let at = from + 6;
  let seconds = 0;
  let ms = 0;
  if (tail[at] === ":") {
    seconds = digitsAt(tail, at + 1, 2);
    at += 3;
    if (tail[at] === ".") {
      let places = 0;
      while (places < 3 && digitsAt(tail, at + 1 + places, 1) >= 0) places += 1;
      if (places === 0) return undefined;
      ms = digitsAt(tail, at + 1, places) * 10 ** (3 - places);
      at += 1 + places;
    }
  }
  let offset = 0;
  const sign = tail[at];
  if (sign === "Z" || sign === "z") at += 1;
  else if (sign === "+" || sign === "-") {
    const colon = tail[at + 3] === ":" ? 1 : 0;
    const offsetHours = digitsAt(tail, at + 1, 2);
    const offsetMinutes = digitsAt(tail, at + 3 + colon, 2);
    if (offsetHours < 0 || offsetHours > 23 || offsetMinutes < 0 || offsetMinutes > 59) return undefined;
    offset = (sign === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
    at += 5 + colon;
  }
  if (at !== tail.length || hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59) return undefined;
  return ((hours * 60 + minutes - offset) * 60 + seconds) * 1000 + ms;
}

export function recordProperties(system: DateSystem): RecordProperties {
  const daySerial = memo((isoDate: string) => (parseIsoDate(isoDate) === undefined ? undefined : isoDateToSerial(isoDate, system)));
  /**
   * dateTimeToSerial's value, its day read once per call and its clock by hand: timestamps differ per instrument
   * but share days; the regex, Date.parse and a memo per timestamp were a third of a 200 x 50 grid's rich cost.
   */
  const assessedSerial = (timestamp: string, day: string | undefined): number | undefined => {
    const ms = clockMs(timestamp, 10);
    const serial = ms === undefined ? undefined : daySerial(day !== undefined && timestamp.startsWith(day) ? day : timestamp.slice(0, 10));
    if (ms === undefined || serial === undefined) return dateTimeToSerial(timestamp, system);
    const shift = Math.floor(ms / MS_PER_DAY);
    const fraction = (ms - shift * MS_PER_DAY) / MS_PER_DAY;
    // an offset that moves the instant to another UTC day: that day's serial (Excel's 1900 leap day kept in)
    return (shift === 0 ? serial : isoDateToSerial(fromEpochDay(toEpochDay(timestamp.slice(0, 10)) + shift), system)) + fraction;
  };
  const revisionProperty = memo((revision: number) => number(revision));
  return {
    date: memo((isoDate: string) => number(isoDateToSerial(isoDate, system), DATE_FORMAT)),
    assessmentDate: (timestamp, day) => {
      const serial = assessedSerial(timestamp, day);
      return serial === undefined ? text(timestamp) : number(serial, DATE_TIME_FORMAT);
    },
    revision: (revision) => (revision === 0 ? FIRST_REVISION : revisionProperty(revision)),
    carried: (record) => (isCarriedForward(record) ? CARRIED : ASSESSED),
  };
}

/** A price as Excel.DoubleCellValue from the parts its symbol shares and its own record. */
export function richPriceFrom(value: number, shared: PriceShared, record: PriceRecord, request: string, parts: RecordProperties): RichDouble {
  const properties: Record<(typeof PRICE_PROPERTIES)[number], RichProperty> = {
    Symbol: shared.symbol,
    Field: shared.field,
    Currency: shared.currency,
    Unit: shared.unit,
    Date: parts.date(record.date),
    "Assessment date": parts.assessmentDate(record.assessmentDate, record.date),
    Revision: parts.revision(record.revision),
    "Carried forward": parts.carried(record),
    Conversion: shared.conversion,
    Request: text(request),
  };
  return { type: "Double", basicValue: value, numberFormat: shared.numberFormat, properties };
}

/** A price as Excel.DoubleCellValue: displays with its currency and unit, carries its record as properties. */
export function richPrice(value: number, context: PriceContext): RichDouble {
  return richPriceFrom(value, sharedPriceParts(context), context.record, context.request, recordProperties(context.system));
}

/** The instrument fields a card shows, by property name, read from the record (full reference names). */
const INSTRUMENT_CARD_FIELDS: readonly [string, keyof InstrumentRecord][] = [
  ["Symbol", "symbol"],
  ["Description", "description"],
  ["Short description", "descriptionShort"],
  ["Commodity", "commodity"],
  ["Location", "location"],
  ["Currency", "currency"],
  ["Unit", "unitOfMeasure"],
  ["Incoterm", "incoterm"],
  ["Frequency", "frequency"],
  ["Source", "source"],
  ["Price type", "priceType"],
  ["Status", "status"],
  ["Launch date", "launchDate"],
  ["Currency id", "currencyId"],
  ["Unit id", "unitOfMeasureId"],
];

/** The `Fields` the card needs from the service (full names of the reference ids). */
export const INSTRUMENT_CARD_REQUEST = ["Commodity", "Location", "Currency", "UnitOfMeasure", "Incoterm", "Source"];

const PRICE_CARD_FIELDS = ["Low", "Mid", "High", "Assessment date", "Price date"] as const;

/** The entity's text: symbol and short description, as a cell shows it (and what a host without entities shows). */
export function entityText(record: Pick<InstrumentRecord, "symbol" | "descriptionShort">): string {
  return `${record.symbol} ${record.descriptionShort}`.trim();
}

/**
 * An instrument as Excel.EntityCellValue: its card lists the instrument's fields and its latest low, mid and high
 * with their assessment date; `=A1.Mid` reads a field. `numbers` says whether the host shows formatted numbers (ExcelApi 1.19).
 */
export function instrumentEntity(record: InstrumentRecord, latest: PriceRecord | undefined, system: DateSystem, numbers: boolean): RichEntity {
  const properties: Record<string, RichProperty> = {};
  const instrumentFields: string[] = [];
  for (const [name, key] of INSTRUMENT_CARD_FIELDS) {
    const value = record[key];
    if (value === undefined || value === "") continue;
    if (key === "launchDate" && typeof value === "string") properties[name] = number(isoDateToSerial(value.slice(0, 10), system), numbers ? DATE_FORMAT : undefined);
    else properties[name] = text(Array.isArray(value) ? value.join(", ") : String(value));
    instrumentFields.push(name);
  }
  const priceFields: string[] = [];
  if (latest !== undefined) {
    const format = numbers ? priceNumberFormat(record.currencyId, record.unitOfMeasureId) : undefined;
    properties.Low = number(latest.low, format);
    properties.Mid = number(latest.mid, format);
    properties.High = number(latest.high, format);
    const assessed = dateTimeToSerial(latest.assessmentDate, system);
    properties["Assessment date"] = assessed === undefined ? text(latest.assessmentDate) : number(assessed, numbers ? DATE_TIME_FORMAT : undefined);
    properties["Price date"] = number(isoDateToSerial(latest.date, system), numbers ? DATE_FORMAT : undefined);
    priceFields.push(...PRICE_CARD_FIELDS);
  }
  const sections: CardSection[] = [];
  if (priceFields.length > 0) sections.push({ layout: "List", title: "Latest price", properties: priceFields });
  sections.push({ layout: "List", title: "Instrument", properties: instrumentFields });
  return {
    type: "Entity",
    text: entityText(record),
    properties,
    layouts: { card: { title: { property: "Symbol" }, subTitle: { property: "Description" }, sections }, compact: { icon: "ArrowTrendingLines" } },
    provider: { description: "Physical Prices" },
  };
}

/** Whether a value is one of these data types (a host reads function results with it). */
export function isRichValue(value: unknown): value is RichValue {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const type = (value as { type?: unknown }).type;
  if (type === "Double") return typeof (value as { basicValue?: unknown }).basicValue === "number";
  if (type === "Entity") return typeof (value as { text?: unknown }).text === "string";
  return false;
}
