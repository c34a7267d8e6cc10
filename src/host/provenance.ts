/**
 * Where a frozen value came from: one row per price a PRICES formula showed (symbol and date asked, the assessment
 * it got, its revision, whether an earlier assessment was carried to the date asked, when and from which service
 * endpoint it was fetched). Read from the calls the engine recorded and the client's cache and lineage: asking the
 * client again for a key it already answered costs no request. Never a token: the lineage holds none.
 */
import { formatCellAddress, parseCellAddress } from "../formula/a1";
import { serialToIsoDate } from "../functions/excelDates";
import type { CustomCallRecord } from "./engine";

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
] as const;

/** What provenance needs of the functions' client. */
export interface ProvenanceClient {
  price(key: { symbol: string; date?: string }): Promise<{ date: string; revision: number }>;
  lineage?(key: { symbol: string; date?: string }): { request?: { endpoint: string; sentAt: number } | undefined; askedAt: number } | undefined;
}

/** The functions whose first arguments are symbols and dates (positions in functions.json order). */
const PRICE_ARGUMENTS: Readonly<Record<string, { readonly dates: number }>> = {
  LOW: { dates: 1 },
  MID: { dates: 1 },
  HIGH: { dates: 1 },
  PRICE: { dates: 1 },
  AVERAGE: { dates: 2 },
};

interface Cell {
  readonly value: unknown;
  readonly row: number;
  readonly col: number;
}

function cellsOf(arg: unknown): Cell[] {
  if (!Array.isArray(arg)) return [{ value: arg, row: 0, col: 0 }];
  return (arg as unknown[]).flatMap((row, r) => (Array.isArray(row) ? row.map((value: unknown, c) => ({ value, row: r, col: c })) : [{ value: row, row: r, col: 0 }]));
}

/** A date argument as the service is asked: an ISO date, or undefined for the latest. */
function isoDateOf(value: unknown): string | undefined {
  if (typeof value === "number") return serialToIsoDate(value);
  if (typeof value !== "string" || value.trim() === "" || value.trim().toLowerCase() === "latest") return undefined;
  return value.trim();
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

export async function provenanceOf(
  sheet: string,
  formulas: ReadonlyMap<string, { readonly text: string; readonly calls: readonly CustomCallRecord[] }>,
  client: ProvenanceClient | undefined,
  serviceUrl: string,
): Promise<ProvenanceRow[]> {
  const rows: Promise<ProvenanceRow>[] = [];
  for (const [anchor, { text, calls }] of formulas) {
    const origin = parseCellAddress(anchor) ?? { row: 0, col: 0 };
    for (const call of calls) {
      const base = { sheet, formula: text, assessmentDate: "", revision: "" as const, carried: "" as const, retrievedAt: "", serviceUrl: "" };
      const shape = PRICE_ARGUMENTS[call.name.toUpperCase()];
      if (!shape) {
        const [first, second, third] = call.args;
        const asked = call.name.toUpperCase() === "HISTORY" ? `${isoDateOf(second) ?? ""}..${isoDateOf(third) ?? "today"}` : "";
        const symbol = cellsOf(first).map((cell) => String(cell.value ?? "")).join(", ");
        rows.push(Promise.resolve({ ...base, address: anchor, symbol, dateAsked: asked }));
        continue;
      }
      for (const pair of pairs(cellsOf(call.args[0]), cellsOf(call.args[shape.dates]))) {
        const address = call.whole ? formatCellAddress({ row: origin.row + call.row + pair.row, col: origin.col + call.col + pair.col }) : anchor;
        const symbol = String(pair.symbol.value ?? "");
        const date = isoDateOf(pair.date.value);
        rows.push(describe(client, serviceUrl, { ...base, address, symbol, dateAsked: date ?? "latest" }, date));
      }
    }
  }
  return Promise.all(rows);
}

async function describe(client: ProvenanceClient | undefined, serviceUrl: string, row: ProvenanceRow, date: string | undefined): Promise<ProvenanceRow> {
  if (!client || row.symbol === "") return row;
  const key = date === undefined ? { symbol: row.symbol } : { symbol: row.symbol, date };
  try {
    const record = await client.price(key);
    const lineage = client.lineage?.(key);
    const sentAt = lineage?.request?.sentAt ?? lineage?.askedAt;
    return {
      ...row,
      assessmentDate: record.date,
      revision: record.revision,
      carried: date !== undefined && record.date !== date,
      retrievedAt: sentAt === undefined ? "" : new Date(sentAt).toISOString(),
      serviceUrl: lineage?.request ? `${serviceUrl.replace(/\/+$/, "")}${lineage.request.endpoint}` : serviceUrl,
    };
  } catch (error) {
    // The cell shows this error too; the row says so instead of an assessment.
    return { ...row, assessmentDate: error instanceof Error ? error.message : String(error) };
  }
}
