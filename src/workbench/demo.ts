/**
 * The ready demo sheet: latest mids and a grid of mids by date, instrument fields, a year of history, monthly
 * averages, a forward curve, a forecast, a reference list, a whole instrument record and deliberate errors.
 * Symbols are picked from the instruments the caller may see, so the sheet fits any data set.
 */
import { addDays, formatIsoDate } from "../api/dates";
import type { BookContent } from "./cells";

/** The instrument fields the picker reads (asked with the list). */
export const DEMO_INSTRUMENT_FIELDS = ["hasForwardCurves", "forecastTypeIds"] as const;

export interface DemoInstrument {
  readonly symbol: string;
  readonly status?: string;
  readonly launchDate?: string;
  readonly hasForwardCurves?: boolean;
  readonly forecastTypeIds?: readonly string[];
}

export interface DemoSheet {
  readonly cells: Record<string, BookContent>;
  /** The year of history, selected at start so the chart shows it. */
  readonly historyAnchor: string;
  readonly symbols: readonly string[];
  readonly curveSymbol: string;
  readonly forecastSymbol: string;
  readonly fromDate: string;
}

/** Where each block sits (the browser test reads the same addresses). */
export const DEMO_LAYOUT = {
  symbols: "A4:A8",
  latestMids: "B4",
  dates: "C3:F3",
  midGrid: "C4",
  currency: "G4",
  unit: "H4",
  errors: { unknownSymbol: "B11", badDate: "B12", beforeFirst: "B13", noCurve: "B14", blockedSpill: "B15", blocker: "C16" },
  record: "A19",
  references: "D19",
  history: "J3",
  monthly: "O3",
  curve: "R3",
  forecast: "X3",
} as const;

/** The first day of each of the `count` months before `today`'s month, oldest first. */
function monthStarts(today: string, count: number): string[] {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  const out: string[] = [];
  for (let back = count; back >= 1; back -= 1) {
    const index = year * 12 + (month - 1) - back;
    out.push(formatIsoDate(Math.floor(index / 12), (index % 12) + 1, 1));
  }
  return out;
}

/** The example symbols (metals, agriculture, forest products), preferred wherever the data set has them. */
export const PREFERRED_SYMBOLS = ["MB-AL-0004", "AG-WHE-0058", "FP-PLP-0034"] as const;

/** The pool with the preferred symbols first (those it holds), the rest in the service's order. */
function preferredFirst(pool: readonly DemoInstrument[]): DemoInstrument[] {
  const rank = (i: DemoInstrument): number => {
    const at = (PREFERRED_SYMBOLS as readonly string[]).indexOf(i.symbol);
    return at < 0 ? PREFERRED_SYMBOLS.length : at;
  };
  return [...pool].sort((a, b) => rank(a) - rank(b));
}

export function pickDemoSymbols(instruments: readonly DemoInstrument[], today: string): { symbols: string[]; curve: string; forecast: string; noCurve?: string } {
  const cutoff = addDays(today, -400);
  const active = instruments.filter((i) => (i.status ?? "Active") === "Active" && (i.launchDate ?? "0000-00-00") <= cutoff);
  const pool = preferredFirst(active.length >= 5 ? active : instruments);
  if (pool.length === 0) throw new Error("the service lists no instruments for this account");
  const symbols = pool.slice(0, 5).map((i) => i.symbol);
  const curve = pool.find((i) => i.hasForwardCurves === true)?.symbol ?? symbols[0] ?? "";
  const forecast = pool.find((i) => (i.forecastTypeIds?.length ?? 0) > 0)?.symbol ?? symbols[0] ?? "";
  const noCurve = pool.find((i) => i.hasForwardCurves === false)?.symbol;
  return noCurve === undefined ? { symbols, curve, forecast } : { symbols, curve, forecast, noCurve };
}

export function buildDemoSheet(instruments: readonly DemoInstrument[], today: string): DemoSheet {
  const picked = pickDemoSymbols(instruments, today);
  const fromDate = addDays(today, -365);
  const monthAgo = addDays(today, -30);
  const cells: Record<string, BookContent> = {
    A1: "Physical Prices demo sheet: every value below comes from a PRICES.* formula (click a cell to see it)",
    A3: "Symbol",
    B3: "Latest mid",
    G3: "Currency",
    H3: "Unit",
    B4: "=PRICES.MID(A4:A8)",
    C4: "=PRICES.MID(A4:A8, C3:F3)",
    G4: '=PRICES.INSTRUMENT(A4:A8, "currency")',
    H4: '=PRICES.INSTRUMENT(A4:A8, "unitOfMeasure")',
    A10: "Deliberate errors",
    B10: "Result (select it for the message)",
    A11: "Unknown symbol",
    B11: '=PRICES.MID("NO-SUCH-SYMBOL")',
    A12: "Not a date",
    B12: '=PRICES.MID(A4, "2024-13-01")',
    A13: "Before the first assessment",
    B13: '=PRICES.MID(A4, "1990-01-02")',
    A14: "No forward curves",
    B14: `=PRICES.CURVE("${picked.noCurve ?? "NO-SUCH-SYMBOL"}")`,
    A15: "Spill blocked by C16",
    B15: `=PRICES.HISTORY(A4, "${monthAgo}")`,
    C16: "in the way",
    A18: "Instrument record of A4",
    A19: "=PRICES.INSTRUMENT(A4)",
    D18: "Currencies (a reference list)",
    D19: '=PRICES.REFERENCE("Currency")',
    J1: "A year of history of A4 (select it to chart it)",
    J3: `=PRICES.HISTORY(A4, "${fromDate}")`,
    O1: "Monthly averages of A4",
    O3: `=PRICES.HISTORY(A4, "${fromDate}", , "date,mid", 1, , "MonthlyAverage")`,
    R1: "Forward curve of",
    R2: picked.curve,
    R3: "=PRICES.CURVE(R2)",
    X1: "Forecast of",
    X2: picked.forecast,
    X3: "=PRICES.FORECAST(X2)",
  };
  monthStarts(today, 4).forEach((date, index) => {
    cells[`${String.fromCharCode(67 + index)}3`] = date;
  });
  picked.symbols.forEach((symbol, index) => {
    cells[`A${4 + index}`] = symbol;
  });
  return {
    cells,
    historyAnchor: DEMO_LAYOUT.history,
    symbols: picked.symbols,
    curveSymbol: picked.curve,
    forecastSymbol: picked.forecast,
    fromDate,
  };
}
