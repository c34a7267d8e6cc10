/** Test stand-ins: the CustomFunctions global (Error and ErrorCode) and a small recording prices client. */
import { fromEpochDay, isoWeekday, toEpochDay } from "../../src/api/dates";
import type { InstrumentRecord, PriceRecord, ReferenceGroup } from "../../src/api/schemas";
import type { FunctionsClient } from "../../src/functions/context";
import { AuthError, InvalidInstrumentError, NetworkError, NoDataError } from "../../src/prices/errors";
import type { HistoryKey, PriceKey, SymbolHistory } from "../../src/prices/types";

export class FakeFunctionError {
  constructor(
    readonly code: string,
    readonly message?: string,
  ) {}
}

/** Installs the part of Office's `CustomFunctions` global that functions.ts uses. */
export function installCustomFunctionsGlobal(): void {
  (globalThis as Record<string, unknown>).CustomFunctions = {
    Error: FakeFunctionError,
    ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A" },
    associate: () => undefined,
  };
}

/** Assessment days of the fake data: every Monday and Thursday from 2024-01-01 to 2024-06-27. */
export const ASSESSED: string[] = (() => {
  const days: string[] = [];
  for (let day = toEpochDay("2024-01-01"); day <= toEpochDay("2024-06-27"); day++) {
    const weekday = isoWeekday(day);
    if (weekday === 0 || weekday === 3) days.push(fromEpochDay(day));
  }
  return days;
})();

export const SYMBOLS = { aluminium: "MB-AL-0004", copper: "MB-CU-0001", hidden: "PA-FE-0001" } as const;
/** A Map like the service's own lookups: an arbitrary symbol such as "constructor" is simply unknown. */
const BASE: ReadonlyMap<string, number> = new Map([
  [SYMBOLS.aluminium, 100],
  [SYMBOLS.copper, 200],
]);

/** Mid of an assessment: base + its index (so expected values are easy to compute in a test). */
export function expectedMid(symbol: string, isoDate: string): number {
  const index = ASSESSED.filter((day) => day <= isoDate).length - 1;
  return BASE.get(symbol)! + index;
}

function recordAt(symbol: string, index: number, fields: readonly string[] | undefined, date?: string): PriceRecord {
  const assessed = ASSESSED[index]!;
  const mid = BASE.get(symbol)! + index;
  const record: PriceRecord = {
    date: date ?? assessed,
    assessmentDate: `${assessed}T16:30:00+00:00`,
    revision: 0,
    low: mid - 1,
    mid,
    high: mid + 1,
  };
  const wanted = new Set((fields ?? []).map((field) => field.toLowerCase()));
  if (wanted.has("pricingrationale")) record.pricingRationale = `rationale ${assessed}`;
  if (wanted.has("appraisalprice")) record.appraisalPrice = index % 2 === 0;
  if (wanted.has("midchangesinceprevious")) record.midChangeSincePrevious = index === 0 ? 0 : 1;
  if (symbol === SYMBOLS.aluminium) {
    record.forwardCurves = [1, 2, 3].map((n) => ({ forwardCode: `M${n}`, forwardMonth: ["FEB", "MAR", "APR"][n - 1]!, low: mid + n - 1, mid: mid + n, high: mid + n + 1 }));
  }
  return record;
}

const INSTRUMENTS: InstrumentRecord[] = [SYMBOLS.aluminium, SYMBOLS.copper].map((symbol, index) => ({
  symbol,
  productId: `P${index}`,
  description: index === 0 ? "Aluminium P1020 ingot, in-whs Rotterdam" : "Copper cathode grade A, cif Shanghai",
  descriptionShort: index === 0 ? "Aluminium Rotterdam" : "Copper Shanghai",
  commodityId: index === 0 ? "AL" : "CU",
  priceType: "Price",
  locationId: index === 0 ? "NL-RTM" : "CN-SHA",
  currencyId: "USD",
  unitOfMeasureId: "T",
  incotermId: index === 0 ? "INWHS" : "CIF",
  launchDate: "2005-01-03",
  frequency: "Twice weekly",
  sourceId: "MB",
  status: "Active",
  priceCalculationTypeIds: ["WeeklyAverage", "MonthlyAverage"],
}));

const OPTIONAL: Record<string, Partial<InstrumentRecord>> = {
  commodity: { commodity: "Aluminium" },
  currency: { currency: "US Dollar" },
  unitofmeasure: { unitOfMeasure: "Tonne" },
  location: { location: "Rotterdam" },
  incoterm: { incoterm: "In warehouse" },
  source: { source: "Metal Bulletin" },
  forecasttypeids: { forecastTypeIds: ["F24M"] },
  hasforwardcurves: { hasForwardCurves: true },
};

export const REFERENCES: ReferenceGroup = {
  type: "Currency",
  items: [
    { id: "USD", description: "US Dollar", sign: "$", availableConversionIds: ["EUR"] },
    { id: "EUR", description: "Euro", sign: "€", availableConversionIds: [] },
  ],
};

export interface Call {
  method: "price" | "history" | "instrument" | "instruments" | "references";
  args: unknown[];
}

export interface FakeOptions {
  /** Returns what happens to the next call: answer, reject (network), or never settle. */
  fate?: () => "answer" | "reject" | "hang";
  signedOut?: boolean;
}

/** A recording client over the fake data; `calls` lists every call in order. */
export function fakeClient(options: FakeOptions = {}): { client: FunctionsClient; calls: Call[] } {
  const calls: Call[] = [];
  const guard = async <T>(call: Call, answer: () => T): Promise<T> => {
    calls.push(call);
    if (options.signedOut) throw new AuthError({ reason: "not-signed-in" });
    const fate = options.fate?.() ?? "answer";
    if (fate === "hang") return new Promise<T>(() => undefined);
    if (fate === "reject") {
      throw new NetworkError({ method: "GET", url: "https://localhost:4000/physical/v2/Prices", reason: "connection refused" });
    }
    return answer();
  };
  const known = (symbol: string): void => {
    if (!BASE.has(symbol)) throw new InvalidInstrumentError(symbol);
  };
  const client: FunctionsClient = {
    price: (key: PriceKey) =>
      guard({ method: "price", args: [key] }, () => {
        known(key.symbol);
        const index = key.date === undefined ? ASSESSED.length - 1 : ASSESSED.filter((day) => day <= key.date!).length - 1;
        if (index < 0) throw new NoDataError(key.symbol, key.date);
        const record = recordAt(key.symbol, index, key.fields, key.date);
        if (key.calculationType !== undefined && key.calculationType !== "None") {
          record.revision = 1;
          record.mid += 0.5;
          if ((key.fields ?? []).some((field) => field.toLowerCase() === "assessmentperiod")) record.assessmentPeriod = `${key.calculationType}:${record.date}`;
        }
        return record;
      }),
    history: (key: HistoryKey) =>
      guard({ method: "history", args: [key] }, (): SymbolHistory => {
        known(key.symbol);
        const assessedDates = new Set(ASSESSED.filter((day) => day >= key.fromDate && day <= key.toDate));
        const prices: PriceRecord[] = [];
        if (key.calendarType === "Weekdays" || key.calendarType === "CalendarDays") {
          for (let day = toEpochDay(key.fromDate); day <= toEpochDay(key.toDate) && day <= toEpochDay("2024-06-27"); day++) {
            if (key.calendarType === "Weekdays" && isoWeekday(day) > 4) continue;
            const iso = fromEpochDay(day);
            const index = ASSESSED.filter((assessed) => assessed <= iso).length - 1;
            if (index >= 0) prices.push(recordAt(key.symbol, index, key.fields, iso));
          }
        } else {
          ASSESSED.forEach((day, index) => {
            if (day >= key.fromDate && day <= key.toDate) prices.push(recordAt(key.symbol, index, key.fields));
          });
        }
        prices.reverse();
        const result: SymbolHistory = { symbol: key.symbol, firstDate: "2024-01-01T00:00:00+00:00", lastDate: "2024-06-27T00:00:00+00:00", prices, assessedDates };
        if (key.forecastType === "F24M" && key.symbol === SYMBOLS.aluminium) {
          result.forecast = {
            symbol: `${key.symbol}.F24M`,
            version: 3,
            publicationDate: "2024-06-01T00:00:00.000Z",
            forecastPrices: [
              { date: "2024-07-31T00:00:00.000Z", low: 150, mid: 151, high: 152 },
              { date: "2024-08-31T00:00:00.000Z", low: 153, mid: 154, high: 155 },
            ],
          };
        }
        return result;
      }),
    instrument: (symbol: string, fields?: readonly string[]) =>
      guard({ method: "instrument", args: [symbol, fields] }, () => {
        known(symbol);
        const base = INSTRUMENTS.find((record) => record.symbol === symbol)!;
        return withOptional(base, fields);
      }),
    instruments: (fields?: readonly string[]) =>
      guard({ method: "instruments", args: [fields] }, () => INSTRUMENTS.map((record) => withOptional(record, fields))),
    references: (type) =>
      guard({ method: "references", args: [type] }, () => (type === "Currency" ? REFERENCES : { type, items: [] })),
  };
  return { client, calls };
}

function withOptional(record: InstrumentRecord, fields: readonly string[] | undefined): InstrumentRecord {
  let out = { ...record };
  for (const field of fields ?? []) out = { ...out, ...OPTIONAL[field.toLowerCase()] };
  return out;
}
