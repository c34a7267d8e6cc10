/**
 * The number formats the add-in's data types use, rendered as Excel shows them: `#,##0.00##" USD/MT"` (grouped,
 * two to four decimals, a quoted suffix), `yyyy-mm-dd` and `yyyy-mm-dd hh:mm`. Other formats fall back to General.
 */
import { generalNumber } from "../formula/text";
import { serialToIsoDate, type DateSystem } from "../formula/excel-dates";

const GROUPED = /^#,##0(?:\.(0*)(#*))?(?:"([^"]*)")?$/;

function grouped(value: number, fixed: number, optional: number, suffix: string): string {
  const text = value.toLocaleString("en-US", { minimumFractionDigits: fixed, maximumFractionDigits: fixed + optional, useGrouping: true });
  return `${text}${suffix}`;
}

function dateText(serial: number, withTime: boolean, system: DateSystem): string | undefined {
  const day = serialToIsoDate(serial, system);
  if (day === undefined || !withTime) return day;
  const minutes = Math.round((serial - Math.floor(serial)) * 24 * 60);
  return `${day} ${String(Math.floor(minutes / 60) % 24).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** A number as its format shows it; General for a format outside the add-in's own. */
export function formatNumber(value: number, format: string | undefined, system: DateSystem = "1900"): string {
  if (format === undefined) return generalNumber(value);
  if (format === "yyyy-mm-dd" || format === "yyyy-mm-dd hh:mm") return dateText(value, format.endsWith("hh:mm"), system) ?? generalNumber(value);
  const match = GROUPED.exec(format);
  if (!match) return generalNumber(value);
  const [, fixed = "", optional = "", suffix = ""] = match;
  return grouped(value, fixed.length, optional.length, suffix);
}
