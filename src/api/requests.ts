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

/** Encodes a request as `URLSearchParams` (lists comma-separated; empty lists and undefined values left out). */
export function encodeParams(request: AnyRequest): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(request) as [keyof typeof PARAMETER_NAMES, unknown][]) {
    const name = PARAMETER_NAMES[key];
    if (name === undefined || value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(name, value.join(","));
    } else {
      params.set(name, String(value));
    }
  }
  return params;
}
