/**
 * How a date leaves a function. Where Excel keeps a number's own format through calculation (formatted number values:
 * `FormattedNumber` from ExcelApi 1.16, a `Double` with `numberFormat` from 1.19), a date is its serial carrying a date
 * format, so it shows as a date with headers or without; elsewhere it is the plain serial, as before (docs/functions.md).
 */
import { DATE_FORMAT, DATE_TIME_FORMAT, type DataTypeSupport } from "./data-types";

/** Excel.FormattedNumberCellValue (ExcelApi 1.16; deprecated in 1.19 for a Double with a numberFormat). */
export interface FormattedNumberValue {
  type: "FormattedNumber";
  basicValue: number;
  numberFormat: string;
}

export interface FormattedDoubleValue {
  type: "Double";
  basicValue: number;
  numberFormat: string;
}

/** The fields whose values are dates (a whole serial) or date-times (with the time of day as fraction). */
export const DATE_FIELDS: ReadonlySet<string> = new Set(["date", "assessmentDate", "launchDate"]);

/** A serial as the host shows dates; anything else (text dates, blanks, errors) unchanged. */
export function dateValue(value: unknown, support: DataTypeSupport | undefined): unknown {
  if (typeof value !== "number" || support?.dates !== true) return value;
  const numberFormat = Number.isInteger(value) ? DATE_FORMAT : DATE_TIME_FORMAT;
  const formatted: FormattedNumberValue | FormattedDoubleValue = support.numbers
    ? { type: "Double", basicValue: value, numberFormat }
    : { type: "FormattedNumber", basicValue: value, numberFormat };
  return formatted;
}

/** A field's value, as a date value when the field is a date. */
export function fieldValue(field: string, value: unknown, support: DataTypeSupport | undefined): unknown {
  return DATE_FIELDS.has(field) ? dateValue(value, support) : value;
}
