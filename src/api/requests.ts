/** Requests of spec section 4 as typed values, and their encoding as query or form data. */
import type { CalculationType, CalendarType, ReferenceType } from "./vocabulary";

export interface PricesRequest {
  symbols: readonly string[];
  /** `YYYY-MM-DD`; none means the latest assessment. */
  dates?: readonly string[];
  fields?: readonly string[];
  priceCalculationType?: CalculationType;
  /** Currency id to convert values into (convention 21); none means the instrument's own. */
  targetCurrency?: string;
  /** Unit id to convert values into (convention 21); none means the instrument's own. */
  targetUnitOfMeasure?: string;
}

export interface HistoryRequest {
  symbols: readonly string[];
  fromDate: string;
  toDate: string;
  calendarType?: CalendarType;
  carryForward?: boolean;
  forecastType?: string;
  fields?: readonly string[];
  priceCalculationType?: CalculationType;
  targetCurrency?: string;
  targetUnitOfMeasure?: string;
}

export interface InstrumentsRequest {
  symbols?: readonly string[];
  fields?: readonly string[];
}

export interface ReferencesRequest {
  types: readonly ReferenceType[];
}

/** Canonical parameter names, as the spec's examples spell them. */
export const PARAMETER_NAMES = {
  symbols: "Symbols",
  dates: "Dates",
  fields: "Fields",
  fromDate: "FromDate",
  toDate: "ToDate",
  calendarType: "calendarType",
  carryForward: "carryForward",
  forecastType: "forecastType",
  priceCalculationType: "priceCalculationType",
  targetCurrency: "targetCurrency",
  targetUnitOfMeasure: "targetUnitOfMeasure",
  types: "Types",
} as const;

type AnyRequest = PricesRequest | HistoryRequest | InstrumentsRequest | ReferencesRequest;

/** What the fields of a request hold. */
type RequestValue = string | boolean | readonly string[] | undefined;

/** Encodes a request as `URLSearchParams` (lists comma-separated; empty lists and undefined values left out). */
export function encodeParams(request: AnyRequest): URLSearchParams {
  const params = new URLSearchParams();
  const names: Readonly<Partial<Record<string, string>>> = PARAMETER_NAMES;
  // a caller's object may carry a key that names no parameter: it is left out
  for (const [key, value] of Object.entries(request) as [string, RequestValue][]) {
    const name = names[key];
    if (name === undefined || value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(name, value.join(","));
    } else {
      params.set(name, String(value));
    }
  }
  return params;
}
