/**
 * Prices the service gave no answer about (unreachable, timeouts, 5xx or 429 after the client's retries, a refused
 * token or sign-in: src/functions/errors.ts): a workbook file keeps their saved values and leaves them, and every
 * formula reading them, for Excel; a JSON book shows their errors. Either way the run says so once per reason and
 * ends with its own exit status, never 0.
 */
import type { Unanswered } from "../functions/errors";
import type { EvaluationResult, WorkbookResult } from "../host/page-api";
import type { KeptFormula } from "../xlsx/workbook-file";

/** The exit status of a run that finished but left prices unanswered (0 success, 1 failure, 2 bad input, 130 interrupted). */
export const EXIT_UNANSWERED = 3;

/** A price call's cell the service gave no answer about, as the report lists it. */
export interface UnansweredPrice extends KeptFormula {
  readonly kind: Unanswered;
}

/** One reason, as the run's JSON and stderr give it: its kind, its words and how many cells it stopped. */
export interface UnansweredReason {
  readonly kind: Unanswered;
  readonly why: string;
  readonly cells: number;
}

/** What the run's JSON says of them: the cells (a file's price calls, a JSON book's cells), a file's formulas reading them, and why. */
export interface UnansweredSummary {
  readonly cells: number;
  readonly dependents?: number;
  readonly reasons: readonly UnansweredReason[];
}

/**
 * The price calls of a workbook left for want of an answer, how many formulas were left because they read one, and
 * both as `Sheet!A1` keys (stderr says them once per reason, not in the list of formulas left for Excel).
 */
export function unansweredOfWorkbook(result: WorkbookResult): { prices: UnansweredPrice[]; dependents: number; cells: Set<string> } {
  const prices: UnansweredPrice[] = [];
  const cells = new Set<string>();
  let dependents = 0;
  for (const sheet of result.sheets) {
    for (const entry of sheet.leftForExcel ?? []) {
      const { unanswered, ...kept } = entry;
      if (unanswered === undefined) continue;
      cells.add(`${sheet.name}!${entry.cell}`);
      if (unanswered.from === undefined) prices.push({ sheet: sheet.name, ...kept, kind: unanswered.kind });
      else dependents += 1;
    }
  }
  return { prices, dependents, cells };
}

/**
 * The runner's words for a kind whose cell words speak to Excel's user: "sign in again from the Prices pane" (a 401)
 * has no pane here, and a token or client secret is set in the environment.
 */
const RUNNER_WORDS: Partial<Record<Unanswered, string>> = {
  refused: "the service refused the run's credentials (401, 403 or 407): check PRICES_TOKEN, or PRICES_CLIENT_SECRET with --token-url and --client-id, and that the account may read Physical Prices",
};

/**
 * Cells grouped by kind, the commonest first, each with the words of its first cell (or the runner's own for the
 * kind, RUNNER_WORDS): a service unreachable is one
 * reason whether a cell's request was GET /Prices or GET /Instruments (the report gives each cell's own words).
 */
export function reasonsOf(cells: Iterable<{ readonly kind: Unanswered; readonly why: string }>): UnansweredReason[] {
  const byKind = new Map<Unanswered, { kind: Unanswered; why: string; cells: number }>();
  for (const { kind, why } of cells) {
    const known = byKind.get(kind);
    if (known === undefined) byKind.set(kind, { kind, why: RUNNER_WORDS[kind] ?? why, cells: 1 });
    else known.cells += 1;
  }
  return [...byKind.values()].sort((a, b) => b.cells - a.cells);
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** stderr's account of a file's unanswered prices: one line when one reason stopped them all, else a line per reason. */
export function logUnansweredPrices(summary: UnansweredSummary, report: string | undefined, log: (message: string) => void): void {
  const [only, ...others] = summary.reasons;
  if (only === undefined) return;
  const dependents = summary.dependents ?? 0;
  const one = summary.cells === 1;
  const [them, their] = one ? ["it", "its saved value is"] : ["them", "their saved values are"];
  const readers = dependents === 0 ? "" : `, and ${dependents === 1 ? "that" : "those"} of the ${plural(dependents, "formula", "formulas")} reading ${them}`;
  const kept = `${their} kept${readers}, left for Excel`;
  const status = `exit status ${EXIT_UNANSWERED}`;
  const prices = plural(summary.cells, "price cell", "price cells");
  if (others.length === 0) {
    log(`workbook: ${prices} not refreshed, the service giving no answer about ${them} (${only.why}): ${kept}; ${status}`);
    return;
  }
  log(`workbook: ${prices} not refreshed, the service giving no answer about ${them}: ${kept}; ${status}:`);
  listReasons(summary.reasons, report, log);
}

/**
 * stderr's account of a JSON book's cells whose calls had no answer (a JSON book keeps no saved values): each shows
 * its error, or what its formula made of one (IFERROR's 0), and neither is a price.
 */
export function logUnansweredCells(summary: UnansweredSummary, log: (message: string) => void): void {
  const [only, ...others] = summary.reasons;
  if (only === undefined) return;
  const one = summary.cells === 1;
  const cells = plural(summary.cells, "cell holds", "cells hold");
  const them = one ? "it" : "them";
  const status = `${one ? "it shows" : "each shows"} its error or what its formula makes of one; exit status ${EXIT_UNANSWERED}`;
  if (others.length === 0) {
    log(`workbook: ${cells} no price, the service giving no answer about ${them} (${only.why}): ${status}`);
    return;
  }
  log(`workbook: ${cells} no price, the service giving no answer about ${them}: ${status}:`);
  listReasons(summary.reasons, undefined, log);
}

/** A line per kind (six at most), with the words of its first cell; the report has every cell's own. */
function listReasons(reasons: readonly UnansweredReason[], report: string | undefined, log: (message: string) => void): void {
  for (const reason of reasons) log(`workbook:   ${plural(reason.cells, "cell", "cells")}: ${reason.why}`);
  if (report !== undefined) log(`workbook:   (every cell with its reason in ${report})`);
}

/** A JSON book's unanswered cells, summed up for its JSON (undefined when every cell had its answer). */
export function summaryOfCells(result: EvaluationResult): UnansweredSummary | undefined {
  const cells = result.unanswered ?? [];
  return cells.length === 0 ? undefined : { cells: cells.length, reasons: reasonsOf(cells) };
}
