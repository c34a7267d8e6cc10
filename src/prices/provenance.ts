/**
 * The `Prices provenance` sheet a frozen copy carries: one row per value a PRICES formula showed, saying where it came
 * from (symbol, date asked, the assessment it got and when it was made, its revision, whether an earlier assessment was
 * carried to the date asked, the field, currency, unit and conversion, when and from which service endpoint it was
 * fetched): the record a rich price carries, kept when the formula becomes its value. The runner (src/host) and the pane write it; Unfreeze
 * reads back each formula and the range its result covered. Never a token: the client's lineage holds none.
 */
import { dateOfTimestamp } from "../api/dates";
import { cellValueText } from "../formula/text";
import type { KeyLineage, LineageKey, PriceKey } from "./types";
import type { InstrumentRecord, PriceRecord } from "../api/schemas";

export const PROVENANCE_SHEET = "Prices provenance";

export interface ProvenanceRow {
  readonly sheet: string;
  readonly address: string;
  readonly formula: string;
  readonly symbol: string;
  readonly dateAsked: string;
  readonly assessmentDate: string;
  /** The assessment's date-time as the service gave it. */
  readonly assessedAt: string;
  readonly revision: number | "";
  readonly carried: boolean | "";
  /** The record field the cell shows (`mid`); "" for a table. */
  readonly field: string;
  /** The currency and unit the value is in (the instrument's own, or the conversion's target); "" where none applies. */
  readonly currency: string;
  readonly unit: string;
  /** `none`, or `USD/MT to EUR/T`; "" where none applies. */
  readonly conversion: string;
  readonly retrievedAt: string;
  readonly serviceUrl: string;
  /** The range the formula's result covered, its cell first (what Unfreeze clears before it writes the formula back). */
  readonly resultRange: string;
  /** For an error frozen in the cell: the error with its message (`#N/A: no assessment...`), which the cell's value cannot hold. */
  readonly error?: string;
}

export const PROVENANCE_COLUMNS = [
  "Sheet",
  "Address",
  "Formula",
  "Symbol",
  "Date asked",
  "Assessment date",
  "Assessed at",
  "Revision",
  "Carried",
  "Field",
  "Currency",
  "Unit",
  "Conversion",
  "Retrieved at",
  "Service URL",
  "Result range",
  "Error",
] as const;

export type ProvenanceCell = string | number | boolean;

/** The row field each column shows: the one place the sheet's columns are defined (the pane and the runner write them). */
const COLUMN_FIELDS: Readonly<Record<(typeof PROVENANCE_COLUMNS)[number], keyof ProvenanceRow>> = {
  Sheet: "sheet",
  Address: "address",
  Formula: "formula",
  Symbol: "symbol",
  "Date asked": "dateAsked",
  "Assessment date": "assessmentDate",
  "Assessed at": "assessedAt",
  Revision: "revision",
  Carried: "carried",
  Field: "field",
  Currency: "currency",
  Unit: "unit",
  Conversion: "conversion",
  "Retrieved at": "retrievedAt",
  "Service URL": "serviceUrl",
  "Result range": "resultRange",
  Error: "error",
};

export function provenanceTable(rows: readonly ProvenanceRow[]): ProvenanceCell[][] {
  return [[...PROVENANCE_COLUMNS], ...rows.map((row) => PROVENANCE_COLUMNS.map((column) => row[COLUMN_FIELDS[column]] ?? ""))];
}

/** A row with only where it is, its formula and its service filled: the record's columns blank. */
export function blankProvenanceRow(row: Pick<ProvenanceRow, "sheet" | "address" | "formula" | "resultRange" | "serviceUrl">): ProvenanceRow {
  return { ...row, symbol: "", dateAsked: "", assessmentDate: "", assessedAt: "", revision: "", carried: "", field: "", currency: "", unit: "", conversion: "", retrievedAt: "" };
}

/** A formula to restore: its sheet, the range its result covered (cell first) and its text. */
export interface FrozenFormula {
  readonly sheet: string;
  readonly resultRange: string;
  readonly formula: string;
}

/** The formulas a provenance table names, once each, in the order written (header row required). */
export function frozenFormulas(table: readonly (readonly unknown[])[]): FrozenFormula[] {
  const [header, ...rows] = table;
  const column = (name: (typeof PROVENANCE_COLUMNS)[number]): number => header?.findIndex((cell) => cell === name) ?? -1;
  const [sheet, formula, range] = [column("Sheet"), column("Formula"), column("Result range")];
  if (sheet < 0 || formula < 0 || range < 0) return [];
  const seen = new Set<string>();
  const found: FrozenFormula[] = [];
  for (const row of rows) {
    const entry = { sheet: cellValueText(row[sheet]), resultRange: cellValueText(row[range]), formula: cellValueText(row[formula]) };
    const key = `${entry.sheet}!${entry.resultRange}`;
    if (entry.formula.startsWith("=") && entry.resultRange !== "" && !seen.has(key)) {
      seen.add(key);
      found.push(entry);
    }
  }
  return found;
}

/** What provenance needs of a prices client: its (cached) answer for a key, the lineage of that key, and an instrument's currency and unit. */
export interface ProvenanceClient {
  price(key: PriceKey): Promise<PriceRecord>;
  lineage?(key: LineageKey): KeyLineage | undefined;
  instrument?(symbol: string): Promise<Pick<InstrumentRecord, "currencyId" | "unitOfMeasureId">>;
}

export type PriceProvenance = Pick<ProvenanceRow, "assessmentDate" | "assessedAt" | "revision" | "carried" | "retrievedAt" | "serviceUrl">;

/** When the request behind a key left and the endpoint that served it, from the client's lineage (no request sent). */
export function describeRetrieval(client: Pick<ProvenanceClient, "lineage">, key: LineageKey, serviceUrl: string): Pick<ProvenanceRow, "retrievedAt" | "serviceUrl"> {
  const lineage = client.lineage?.(key);
  const sentAt = lineage?.request?.sentAt ?? lineage?.askedAt;
  return {
    retrievedAt: sentAt === undefined ? "" : new Date(sentAt).toISOString(),
    serviceUrl: lineage?.request ? `${serviceUrl.replace(/\/+$/, "")}${lineage.request.endpoint}` : serviceUrl,
  };
}

/**
 * The assessment behind a price key, as the client already holds it (asking again is a cache hit): the day it was
 * assessed, its revision, carried when that day is before the date asked, when its request left, and the endpoint.
 */
export async function describePrice(client: ProvenanceClient, key: PriceKey, serviceUrl: string): Promise<PriceProvenance> {
  try {
    const record = await client.price(key);
    const assessed = dateOfTimestamp(record.assessmentDate);
    return { assessmentDate: assessed, assessedAt: record.assessmentDate, revision: record.revision, carried: assessed < record.date, ...describeRetrieval(client, key, serviceUrl) };
  } catch (error) {
    // The cell shows this error too; the row says so instead of an assessment.
    return { assessmentDate: error instanceof Error ? error.message : String(error), assessedAt: "", revision: "", carried: "", retrievedAt: "", serviceUrl };
  }
}
