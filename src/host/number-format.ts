/**
 * The number formats the add-in's data types use, rendered as Excel shows them through numfmt (as TEXT does in
 * `worksheet-text.ts`): `#,##0.00##" USD/MT"` (grouped, two to four decimals, a quoted suffix), `yyyy-mm-dd` and
 * `yyyy-mm-dd hh:mm`. Other formats, and no format, show General.
 */
import { format } from "numfmt";
import { generalNumber } from "../formula/text";
import type { DateSystem } from "../formula/excel-dates";

const GROUPED = /^#,##0(?:\.0*#*)?(?:"[^"]*")?$/;
const DATES: ReadonlySet<string> = new Set(["yyyy-mm-dd", "yyyy-mm-dd hh:mm"]);

/** Days between 1900-01-01 in the 1900 system and in the 1904 system: numfmt knows only the 1900 one. */
const DAYS_1904 = 1462;
const SECONDS_PER_DAY = 86_400;
/** 10000-01-01, the first day Excel cannot show. */
const END_OF_DATES = 2_958_466;
/** From here JavaScript writes a number with an exponent, which numfmt's digit grouping cannot read. */
const EXPONENT_FROM = 1e21;

/**
 * A serial as Excel rounds it before showing a date or time: to the nearest second, so 23:59:59.6 is the next day's
 * 00:00 (numfmt alone would show 00:00 on the same day).
 */
function dateSerial(serial: number, system: DateSystem): number {
  const shifted = system === "1904" ? serial + DAYS_1904 : serial;
  return Math.round(shifted * SECONDS_PER_DAY) / SECONDS_PER_DAY;
}

/** A number as its format shows it; General for a format outside the add-in's own. */
export function formatNumber(value: number, pattern: string | undefined, system: DateSystem = "1900"): string {
  if (pattern === undefined || !Number.isFinite(value)) return generalNumber(value);
  if (DATES.has(pattern)) {
    const serial = dateSerial(value, system);
    // before the system's day 0 or after 9999 Excel shows no date
    return serial < (system === "1904" ? DAYS_1904 : 0) || serial >= END_OF_DATES ? generalNumber(value) : format(pattern, serial);
  }
  if (!GROUPED.test(pattern)) return generalNumber(value);
  return format(Math.abs(value) < EXPONENT_FROM ? pattern : "General", value);
}
