/**
 * A fixed set of calls of every function, answered by the fake client; their JSON before data types existed is
 * test/functions/fixtures/plain-outputs.json (written once from the commit before them), so plain mode can be
 * compared byte for byte with it.
 */
import * as F from "../../src/functions/functions";
import { SYMBOLS } from "./support";

const AL = SYMBOLS.aluminium;
const CU = SYMBOLS.copper;
const OMITTED = null as never;

export const PLAIN_CASES: readonly (readonly [string, () => Promise<unknown>])[] = [
  ["LOW latest", () => F.low([[AL]])],
  ["MID grid", () => F.mid([[AL], [CU], ["NOPE"]], [["2024-01-04", 45300, "latest", "2023-01-01"]])],
  ["HIGH with conversion", () => F.high([[AL]], [["2024-03-01"]], "EUR", OMITTED)],
  ["MID unknown currency", () => F.mid([[AL]], OMITTED, "XYZ", OMITTED)],
  ["PRICE mid", () => F.price([[AL, CU]], [["2024-02-15"]])],
  ["PRICE assessmentDate", () => F.price([[AL]], [["2024-01-06"]], F.PriceField.assessmentDate)],
  ["PRICE date text", () => F.price([[AL]], [["2024-01-06"]], F.PriceField.date, OMITTED, F.DateFormat.Text)],
  ["PRICE monthly average", () => F.price([[AL]], [["2024-02-15"]], OMITTED, F.Calculation.MonthlyAverage)],
  ["PRICE change", () => F.price([[AL]], [["2024-01-08"]], F.PriceField.midChangeSincePrevious)],
  ["PRICE blank date in range", () => F.price([[AL]], [["2024-01-04", null]])],
  ["AVERAGE", () => F.average([[AL]], F.AveragePeriod.Monthly, [["2024-02-15"]])],
  ["HISTORY", () => F.history(AL, "2024-01-01", "2024-01-20")],
  ["HISTORY weekdays", () => F.history(AL, "2024-01-01", "2024-01-10", "date,mid,assessed" as never, OMITTED, F.HistoryCalendar.Weekdays)],
  ["CURVE", () => F.curve(AL, "2024-01-04")],
  ["FORECAST", () => F.forecast(AL)],
  ["INSTRUMENT record", () => F.instrument([[AL]])],
  ["INSTRUMENT field", () => F.instrument([[AL], [CU]], F.InstrumentField.launchDate)],
  ["CONVERSIONS", () => F.conversions(AL)],
  ["INSTRUMENTS", () => F.instruments("aluminium")],
  ["REFERENCE", () => F.reference(F.ReferenceList.Currency)],
];

/** Each case's result or its error, as JSON text. */
export async function runPlainCases(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, call] of PLAIN_CASES) {
    const outcome = await call().then(
      (value) => ({ value }),
      (error: unknown) => ({ error: { ...(error as object), message: (error as { message?: unknown }).message } }),
    );
    out[name] = JSON.stringify(outcome);
  }
  return out;
}
