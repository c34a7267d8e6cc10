/**
 * The `Prices provenance` sheet a frozen copy carries: one row per value a PRICES formula showed, saying where it came
 * from (symbol, date asked, the assessment it got, its revision, whether an earlier assessment was carried to the date
 * asked, when and from which service endpoint it was fetched). The runner (src/host) and the pane write it; Unfreeze
 * reads back each formula and the range its result covered. Never a token: the client's lineage holds none.
 */
import { dateOfTimestamp } from "../api/dates";
import type { KeyLineage, LineageKey, PriceKey } from "./types";
import type { PriceRecord } from "../api/schemas";

export const PROVENANCE_SHEET = "Prices provenance";

export interface ProvenanceRow {
  readonly sheet: string;
  readonly address: string;
  readonly formula: string;
  readonly symbol: string;
  readonly dateAsked: string;
  readonly assessmentDate: string;
  readonly revision: number | "";
  readonly carried: boolean | "";
  readonly retrievedAt: string;
  readonly serviceUrl: string;
  /** The range the formula's result covered, its cell first (what Unfreeze clears before it writes the formula back). */
  readonly resultRange: string;
}

export const PROVENANCE_COLUMNS = [
  "Sheet",
  "Address",
  "Formula",
  "Symbol",
  "Date asked",
  "Assessment date",
  "Revision",
  "Carried",
  "Retrieved at",
  "Service URL",
  "Result range",
] as const;

export type ProvenanceCell = string | number | boolean;

export function provenanceTable(rows: readonly ProvenanceRow[]): ProvenanceCell[][] {
  return [
    [...PROVENANCE_COLUMNS],
    ...rows.map((row) => [
      row.sheet,
      row.address,
      row.formula,
      row.symbol,
      row.dateAsked,
      row.assessmentDate,
      row.revision,
      row.carried,
      row.retrievedAt,
      row.serviceUrl,
      row.resultRange,
    ]),
  ];
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
    const entry = { sheet: String(row[sheet] ?? ""), resultRange: String(row[range] ?? ""), formula: String(row[formula] ?? "") };
    const key = `${entry.sheet}!${entry.resultRange}`;
    if (entry.formula.startsWith("=") && entry.resultRange !== "" && !seen.has(key)) {
      seen.add(key);
      found.push(entry);
    }
  }
  return found;
}

/** What provenance needs of a prices client: its (cached) answer for a key and the lineage of that key. */
export interface ProvenanceClient {
  price(key: PriceKey): Promise<PriceRecord>;
  lineage?(key: LineageKey): KeyLineage | undefined;
}

export type PriceProvenance = Pick<ProvenanceRow, "assessmentDate" | "revision" | "carried" | "retrievedAt" | "serviceUrl">;

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
    return { assessmentDate: assessed, revision: record.revision, carried: assessed < record.date, ...describeRetrieval(client, key, serviceUrl) };
  } catch (error) {
    // The cell shows this error too; the row says so instead of an assessment.
    return { assessmentDate: error instanceof Error ? error.message : String(error), revision: "", carried: "", retrievedAt: "", serviceUrl };
  }
}
