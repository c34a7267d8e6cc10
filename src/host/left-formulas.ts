/** Formulas left for Excel or short of an answer: what such a cell shows, and what the engine reports of them, in cell order. */
import type { LeftForExcel } from "./book-names";
import type { FormulaCell } from "./dependency-graph";
import { type CellError, type Unanswered, cellError } from "./values";

/** What a cell left for Excel shows where there is no cached value (a JSON book): an error naming why. */
export function leftError(why: string): CellError {
  return cellError("#N/A", `left for Excel: ${why}`);
}

/** Every formula left for Excel, with why (and the unanswered price behind it, when that is the reason). */
export function leftForExcelOf(formulas: readonly FormulaCell[]): LeftForExcel[] {
  return formulas
    .filter((formula) => formula.left !== undefined)
    .map((formula) => {
      const left: LeftForExcel = { cell: formula.address, formula: formula.text.replace(/^\s*=/, ""), why: formula.left ?? "" };
      return formula.unanswered === undefined ? left : { ...left, unanswered: formula.unanswered };
    });
}

/** Each formula whose latest run made a call with no answer from the service, whatever it then showed. */
export function unansweredCallsOf(formulas: readonly FormulaCell[]): { readonly cell: string; readonly kind: Unanswered; readonly why: string }[] {
  const found: { cell: string; kind: Unanswered; why: string }[] = [];
  for (const { address, generation, state, unansweredCall: call } of formulas) {
    // a note from an earlier run is stale: the latest run's answer replaced it
    if (state === "done" && call?.run === generation) found.push({ cell: address, kind: call.kind, why: call.why });
  }
  return found;
}
