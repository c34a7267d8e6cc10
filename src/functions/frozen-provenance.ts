/**
 * Provenance of frozen cells, the one implementation behind the runner's --freeze (through src/host/provenance.ts)
 * and the pane's Freeze (it lives with the functions, which both rooms may use): from the
 * PRICES calls of each formula (nested ones included) with their arguments as the function read them (the engine's
 * records in the runner, src/taskpane/formula-calls.ts in the pane), the price keys behind each cell (symbols down,
 * dates across, as the functions lay them out), described by the client's cache and lineage (src/prices/provenance.ts).
 * A table (HISTORY, FORECAST, CURVE, INSTRUMENT, REFERENCE, CONVERSIONS, INSTRUMENTS) gets one row per symbol naming
 * what it asked, when its request left and which endpoint served it. A cell that shows an error gets no assessment.
 */
import { formatCellAddress, parseCellAddress, parseRangeAddress } from "../formula/a1";
import { cellValueText } from "../formula/text";
import { dateOf, isBlank } from "./coerce";
import type { DateSystem } from "../formula/excel-dates";
import { todayIso } from "../api/dates";
import { datesArgument, historyCallKey, isPriceCall, priceCallKeys, priceCallRequest } from "./call-keys";
import type { HistoryKey, PriceKey } from "../prices/types";
import { type ProvenanceClient, type ProvenanceRow, blankProvenanceRow, describePrice, describeRetrieval } from "../prices/provenance";
import { valueUnits } from "./data-types";
import type { ConversionTarget } from "../api/conversion";
import { addDays } from "../api/dates";
import { FORECAST_DEFAULT_TYPE, FORECAST_HORIZON_DAYS } from "./history-functions";
import { INSTRUMENT_FIELDS, instrumentFieldOf, requestedInstrumentFields } from "./fields";
import { callTarget } from "./call-keys";
import { withTarget } from "./conversion-args";
import { referenceTypeOf } from "./metadata-functions";
import type { LineageKey } from "../prices/types";

/** One PRICES call of a formula with its arguments as the function received them (the runner's engine records these). */
export interface PricesCallRecord {
  readonly name: string;
  readonly args: readonly unknown[];
  /** Where the call's result sits in the formula's result (0, 0 for the formula's own cell). */
  readonly row: number;
  readonly col: number;
  /** Whether this call's result is the formula's whole result (the formula is just this call). */
  readonly whole: boolean;
}

interface Cell {
  readonly value: unknown;
  readonly row: number;
  readonly col: number;
}

function cellsOf(arg: unknown): Cell[] {
  if (!Array.isArray(arg)) return [{ value: arg, row: 0, col: 0 }];
  return (arg as unknown[]).flatMap((row, r) => (Array.isArray(row) ? row.map((value: unknown, c) => ({ value, row: r, col: c })) : [{ value: row, row: r, col: 0 }]));
}

/** A date argument as the functions read it in the book's date system: an ISO date, or undefined for the latest; not ok where refused. */
function readDate(value: unknown, system: DateSystem): { ok: true; value: string | undefined } | { ok: false } {
  try {
    return { ok: true, value: dateOf(value, "date", system) };
  } catch {
    return { ok: false };
  }
}

function isoDateOf(value: unknown, system: DateSystem): string | undefined {
  const date = readDate(value, system);
  return date.ok ? date.value : undefined;
}

function pairs(symbols: Cell[], dates: Cell[]): { symbol: Cell; date: Cell; row: number; col: number }[] {
  if (dates.length <= 1) {
    const date = dates[0] ?? { value: null, row: 0, col: 0 };
    return symbols.map((symbol) => ({ symbol, date, row: symbol.row, col: symbol.col }));
  }
  if (symbols.length === 1 && symbols[0]) {
    const symbol = symbols[0];
    return dates.map((date) => ({ symbol, date, row: date.row, col: date.col }));
  }
  const symbolsDown = symbols.every((cell) => cell.col === 0);
  const datesAcross = dates.every((cell) => cell.row === 0);
  if (symbolsDown && datesAcross) return symbols.flatMap((symbol) => dates.map((date) => ({ symbol, date, row: symbol.row, col: date.col })));
  return symbols.flatMap((symbol) => {
    const date = dates.find((cell) => cell.row === symbol.row && cell.col === symbol.col);
    return date ? [{ symbol, date, row: symbol.row, col: symbol.col }] : [];
  });
}

/**
 * The key each (symbol, date) of a price call asked (average, field and conversion included, so the described record
 * is the one the cell showed, from the cache), or undefined where the function refused its arguments.
 */
function keysOfCall(name: string, args: readonly unknown[]): ((symbol: string, date: string | undefined) => PriceKey) | undefined {
  try {
    return priceCallKeys(name, (index) => cellsOf(args[index])[0]?.value);
  } catch {
    return undefined;
  }
}

/** The key a HISTORY call asked, or undefined where the function refused its arguments. */
function historyKeyOf(args: readonly unknown[], system: DateSystem, today: string): HistoryKey | undefined {
  try {
    return historyCallKey(args, today, system);
  } catch {
    return undefined;
  }
}

export interface FormulaCalls {
  readonly text: string;
  readonly calls: readonly PricesCallRecord[];
  /** The range the formula's result covers. */
  readonly resultRange: string;
  /** What the result shows, from its first cell (when known): a cell showing an error is given no assessment. */
  readonly values?: readonly (readonly unknown[])[];
}


/** An error as a cell shows it: a CellError-like object, or its code as text (`#N/A`) as Excel's values give it. */
export function isErrorValue(value: unknown): boolean {
  if (typeof value === "string") return /^#(N\/A|VALUE!|REF!|NAME\?|NUM!|DIV\/0!|NULL!|SPILL!|CALC!|BUSY!|GETTING_DATA|FIELD!|BLOCKED!|CONNECT!|UNKNOWN!)/.test(value);
  return typeof value === "object" && value !== null && "code" in value && typeof value.code === "string" && value.code.startsWith("#");
}

function firstText(arg: unknown): string {
  return cellValueText(cellsOf(arg)[0]?.value).trim();
}

/** The keys a table function may have asked, best first; the first the client's lineage knows tells when it was fetched. */
async function tableKeys(name: string, args: readonly unknown[], client: ProvenanceClient | undefined, system: DateSystem, today: string): Promise<{ symbol: string; dateAsked: string; keys: LineageKey[] }[]> {
  const target = (): ReturnType<typeof callTarget> => {
    try {
      return callTarget(name, (index) => cellsOf(args[index])[0]?.value);
    } catch {
      return undefined;
    }
  };
  const symbols = cellsOf(args[0]).map((cell) => cellValueText(cell.value).trim()).filter((symbol) => symbol !== "");
  switch (name) {
    case "HISTORY": {
      const history = historyKeyOf(args, system, today);
      const dateAsked = history ? `${history.fromDate}..${history.toDate}` : `${isoDateOf(args[1], system) ?? ""}..${isoDateOf(args[2], system) ?? "today"}`;
      return [{ symbol: symbols.join(", "), dateAsked, keys: history ? [history] : [] }];
    }
    case "CURVE": {
      const date = isoDateOf(args[1], system);
      const symbol = firstText(args[0]);
      return [{ symbol, dateAsked: date ?? "latest", keys: symbol === "" ? [] : [withTarget(date === undefined ? { symbol } : { symbol, date }, target())] }];
    }
    case "FORECAST": {
      const symbol = firstText(args[0]);
      const type = firstText(args[1]) || FORECAST_DEFAULT_TYPE;
      // FORECAST asks from the latest assessment on (the client holds it: no request)
      let keys: LineageKey[] = [];
      if (client && symbol !== "") {
        try {
          const latest = await client.price(withTarget({ symbol }, target()));
          keys = [withTarget({ symbol, fromDate: latest.date, toDate: addDays(latest.date, FORECAST_HORIZON_DAYS), forecastType: type }, target())];
        } catch {
          keys = [];
        }
      }
      return [{ symbol, dateAsked: `forecast ${type}`, keys }];
    }
    case "INSTRUMENT":
    case "CONVERSIONS": {
      const field = name === "INSTRUMENT" ? firstText(args[1]) : "";
      let named: string[] | undefined;
      try {
        named = field === "" ? undefined : requestedInstrumentFields([instrumentFieldOf(field)]);
      } catch {
        named = undefined;
      }
      const all = requestedInstrumentFields(INSTRUMENT_FIELDS);
      return symbols.map((symbol) => ({
        symbol,
        dateAsked: "current record",
        keys: [...(named ? [{ instrument: symbol, fields: named }] : []), { instrument: symbol, fields: all }, { instrument: symbol }],
      }));
    }
    case "INSTRUMENTS":
      return [{ symbol: "instrument list", dateAsked: "current list", keys: [{ instruments: true }] }];
    case "REFERENCE": {
      try {
        const type = referenceTypeOf(cellsOf(args[0])[0]?.value);
        return [{ symbol: type, dateAsked: "current list", keys: [{ reference: type }] }];
      } catch {
        return [{ symbol: firstText(args[0]), dateAsked: "", keys: [] }];
      }
    }
    default:
      return [{ symbol: symbols.join(", "), dateAsked: "", keys: [] }];
  }
}

/** When and from where the first known key was fetched; the service's own URL when none is known. */
function retrievalOf(client: ProvenanceClient | undefined, keys: readonly LineageKey[], serviceUrl: string): Pick<ProvenanceRow, "retrievedAt" | "serviceUrl"> {
  for (const key of keys) {
    const found = client ? describeRetrieval(client, key, serviceUrl) : undefined;
    if (found && found.retrievedAt !== "") return found;
  }
  return { retrievedAt: "", serviceUrl };
}

/** The formulas with what each result shows (`value` of a cell), so a cell showing an error is given no assessment. */
export function withValues(formulas: ReadonlyMap<string, FormulaCalls>, value: (row: number, col: number) => unknown): Map<string, FormulaCalls> {
  const out = new Map<string, FormulaCalls>();
  for (const [anchor, formula] of formulas) {
    const area = parseRangeAddress(formula.resultRange);
    const values: unknown[][] = [];
    if (area) for (let row = area.top; row <= area.bottom; row += 1) values.push(Array.from({ length: area.right - area.left + 1 }, (_, i) => value(row, area.left + i)));
    out.set(anchor, { ...formula, values });
  }
  return out;
}

type Units = Pick<ProvenanceRow, "currency" | "unit" | "conversion">;
const NO_UNITS: Units = { currency: "", unit: "", conversion: "" };

/** The call's conversion as the function reads it, or undefined (none asked, or refused). */
function targetOf(name: string, args: readonly unknown[]): ConversionTarget | undefined {
  try {
    return callTarget(name, (index) => cellsOf(args[index])[0]?.value);
  } catch {
    return undefined;
  }
}

/** The field a price call shows, as the function reads it ("" where it refuses it). */
function fieldOf(name: string, args: readonly unknown[]): string {
  try {
    return priceCallRequest(name, (index) => cellsOf(args[index])[0]?.value).field;
  } catch {
    return "";
  }
}

/**
 * The currency, unit and conversion of a symbol's values, as a rich price carries them: the instrument's own (asked
 * once per symbol; the client holds it when the cells were rich) and the call's conversion target.
 */
function unitsReader(client: ProvenanceClient | undefined): (symbol: string, target: ConversionTarget | undefined) => Promise<Units> {
  const instruments = new Map<string, Promise<{ currency: string; unit: string } | undefined>>();
  return async (symbol, target) => {
    if (client?.instrument === undefined || symbol === "") return NO_UNITS;
    const ask = client.instrument.bind(client);
    let own = instruments.get(symbol);
    if (own === undefined) {
      own = ask(symbol).then(
        (record) => ({ currency: record.currencyId, unit: record.unitOfMeasureId }),
        () => undefined,
      );
      instruments.set(symbol, own);
    }
    const known = await own;
    return known === undefined ? NO_UNITS : valueUnits(known, target ?? {});
  };
}

/** Only table functions of one symbol whose values are prices in a currency and unit get units. */
const PRICED_TABLES = new Set(["HISTORY", "CURVE", "FORECAST"]);

export async function provenanceOf(
  sheet: string,
  formulas: ReadonlyMap<string, FormulaCalls>,
  client: ProvenanceClient | undefined,
  serviceUrl: string,
  system: DateSystem = "1900",
  /** Whether rows name the currency and unit (asking each symbol's instrument): Freeze's record; a change report needs only the keys. */
  units = true,
  /** The day the functions took as today (the runner's --today): a HISTORY with no end date asked up to it. */
  today: string = todayIso(),
): Promise<ProvenanceRow[]> {
  const rows: Promise<ProvenanceRow>[] = [];
  const unitsOf = unitsReader(units ? client : undefined);
  for (const [anchor, { text, calls, resultRange, values }] of formulas) {
    const origin = parseCellAddress(anchor) ?? { row: 0, col: 0 };
    const shows = (row: number, col: number): unknown => values?.[row - origin.row]?.[col - origin.col];
    for (const call of calls) {
      const name = call.name.toUpperCase();
      const target = targetOf(name, call.args);
      const keyOf = isPriceCall(name) ? keysOfCall(name, call.args) : undefined;
      const base = { ...blankProvenanceRow({ sheet, address: anchor, formula: text, resultRange, serviceUrl: "" }), field: keyOf ? fieldOf(name, call.args) : "" };
      if (!keyOf) {
        // a table: one row per symbol, with what it asked and when it was fetched (its cells hold no single assessment)
        const priced = PRICED_TABLES.has(name);
        rows.push(
          ...(await tableKeys(name, call.args, client, system, today)).map(async (asked) => ({
            ...base,
            symbol: asked.symbol,
            dateAsked: asked.dateAsked,
            ...retrievalOf(client, asked.keys, serviceUrl),
            ...(priced && !asked.symbol.includes(",") ? await unitsOf(asked.symbol, target) : NO_UNITS),
          })),
        );
        continue;
      }
      const dates = cellsOf(call.args[datesArgument(name)]);
      for (const pair of pairs(cellsOf(call.args[0]), dates)) {
        // As the functions read it: a blank date inside a range is a blank cell, a refused one an error; neither asked anything.
        if (dates.length > 1 && isBlank(pair.date.value)) continue;
        const address = call.whole ? formatCellAddress({ row: origin.row + call.row + pair.row, col: origin.col + call.col + pair.col }) : anchor;
        const symbol = cellValueText(pair.symbol.value);
        const date = readDate(pair.date.value, system);
        const row: ProvenanceRow = { ...base, address, symbol, dateAsked: date.ok ? (date.value ?? "latest") : cellValueText(pair.date.value) };
        const position = parseCellAddress(address) ?? origin;
        // a cell showing an error got no price: it says when it was asked, never an assessment
        const failed = call.whole && isErrorValue(shows(position.row, position.col));
        rows.push(
          client && symbol !== "" && date.ok && !failed
            ? Promise.all([describePrice(client, keyOf(symbol, date.value), serviceUrl), unitsOf(symbol, target)]).then(([described, units]) => ({
                ...row,
                ...described,
                // a price that could not be read has no record to describe
                ...(described.assessedAt === "" ? NO_UNITS : units),
              }))
            : Promise.resolve(client && symbol !== "" && date.ok ? { ...row, ...retrievalOf(client, [keyOf(symbol, date.value)], serviceUrl) } : { ...row, serviceUrl }),
        );
      }
    }
  }
  return Promise.all(rows);
}
