/** The data set by symbol, and entitlement (conventions 6, 19): what a caller may not see is unknown to it. */
import type { InvalidInstrument } from "../../api";
import type { DataSet, InstrumentData } from "../data/model";
import { Scratch } from "../data/json";
import { PublishedInstruments } from "../data/published";
import type { LiveCorrections } from "../data/live";
import { Conversions } from "./conversion";
import { RecordBytesCache } from "./record-bytes";

/** What the API needs of a verified caller (the token service's `Caller` fits). */
export interface ApiCaller {
  id: string;
  canSee(symbol: string): boolean;
}

/** One message for unknown and not-permitted symbols alike, so that the answer tells nothing of existence. */
export const UNKNOWN_SYMBOL_MESSAGE = "Unknown symbol, or not one you may view";

export interface Resolved {
  found: InstrumentData[];
  invalid: InvalidInstrument[];
}

/** Why a visible instrument cannot answer a request (a missing calculation or forecast type), or undefined. */
export type Requirement = (instrument: InstrumentData) => string | undefined;

export class Catalogue {
  readonly data: DataSet;
  /** Assessments' JSON written once for long histories (see record-bytes.ts). */
  readonly recordBytes: RecordBytesCache;
  /** The publication clock (convention 20): answers show only what was published by `now()`. */
  readonly now: () => number;
  /** Targets, FX rates and unit factors of convention 21. */
  readonly conversions: Conversions;
  /** The buffer this catalogue's answers are written into (json.ts). */
  readonly scratch = new Scratch();
  private readonly bySymbol = new Map<string, InstrumentData>();
  private readonly published: PublishedInstruments;

  constructor(data: DataSet, recordBytesBudget?: number, now: () => number = Date.now, corrections?: LiveCorrections) {
    this.data = data;
    this.published = new PublishedInstruments(corrections);
    this.now = now;
    this.recordBytes = new RecordBytesCache(recordBytesBudget);
    this.conversions = new Conversions(data);
    for (const instrument of data.instruments) this.bySymbol.set(instrument.record.symbol.toUpperCase(), instrument);
  }

  /** Symbols (matched without regard to case, already deduplicated) to instruments, in the order asked. */
  resolve(symbols: readonly string[], caller: ApiCaller, requirement?: Requirement): Resolved {
    const found: InstrumentData[] = [];
    const invalid: InvalidInstrument[] = [];
    const now = this.now();
    for (const symbol of symbols) {
      const instrument = this.bySymbol.get(symbol.toUpperCase());
      if (instrument === undefined || !caller.canSee(instrument.record.symbol)) {
        invalid.push({ symbol, message: UNKNOWN_SYMBOL_MESSAGE });
        continue;
      }
      // What was published by now decides, a forecast's availability included.
      const published = this.published.of(instrument, now);
      const missing = requirement?.(published);
      if (missing !== undefined) invalid.push({ symbol, message: missing });
      else found.push(published);
    }
    return { found, invalid };
  }

  /** Every instrument the caller may see, by symbol. */
  visible(caller: ApiCaller): InstrumentData[] {
    const now = this.now();
    return this.data.instruments.filter((instrument) => caller.canSee(instrument.record.symbol)).map((instrument) => this.published.of(instrument, now));
  }
}

/** `invalidInstruments` is written only when it holds something. */
export function withInvalid<T extends object>(body: T, invalid: InvalidInstrument[]): T & { invalidInstruments?: InvalidInstrument[] } {
  return invalid.length > 0 ? { ...body, invalidInstruments: invalid } : body;
}

/** Both requirements (the first one's reason first); either may be absent. */
export function bothRequirements(a: Requirement | undefined, b: Requirement | undefined): Requirement | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return (instrument) => a(instrument) ?? b(instrument);
}

export function calculationRequirement(type: string): Requirement | undefined {
  if (type === "None") return undefined;
  return (instrument) =>
    instrument.record.priceCalculationTypeIds.includes(type) ? undefined : `Calculation type ${type} is not available for this instrument`;
}
