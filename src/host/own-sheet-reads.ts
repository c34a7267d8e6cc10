/**
 * How a formula's run reads its own sheet: a cell left for Excel leaves its reader for Excel too, and a reference
 * built as the formula runs (OFFSET, INDIRECT, a whole row or column) waits until the formulas it covers are done.
 */
import { rangeContains, sheetPrefix } from "../formula/a1";
import type { ReferenceExpression } from "../formula/parse";
import { cellKey } from "./addresses";
import { type DependencyGraph, type FormulaCell, cellRange, overlaps } from "./dependency-graph";
import { LeftForExcelSignal } from "./evaluate";
import { readSheet } from "./sheet-reads";
import type { Sheet } from "./sheet";
import type { ArrayValue } from "./value-array";
import type { CellError } from "./values";

/** A run read, through OFFSET, INDIRECT or a whole row or column, a formula that has no value yet. */
export class NotReadySignal extends Error {
  override readonly name = "NotReadySignal";
  constructor(readonly formula: FormulaCell) {
    super(`waits for ${formula.address}`);
  }
}

/** The sheet as a run reads it: its cells, its formulas, those left for Excel, and its name. */
export interface OwnSheet {
  readonly sheet: Sheet;
  readonly graph: DependencyGraph;
  readonly leftFormulas: ReadonlySet<FormulaCell>;
  readonly sheetName: string;
}

/** A reference read on this sheet, whatever sheet name it carries, by `reader` (undefined: another sheet reads it). */
export function readOwnSheet(own: OwnSheet, reference: ReferenceExpression, reader: FormulaCell | undefined): ArrayValue | CellError {
  const read = reference.spill ? cellRange(reference.range.top, reference.range.left) : reference.range;
  const prefix = reader ? "" : sheetPrefix(own.sheetName);
  for (const formula of own.leftFormulas) {
    // a left spill's cells are blank here (its saved values stay in the file): reading one reads the left formula
    if (formula.state === "done" && overlaps(read, formula.savedArea)) {
      const { unanswered } = formula;
      throw new LeftForExcelSignal(`depends on ${prefix}${formula.address} (left for Excel)`, unanswered === undefined ? undefined : { kind: unanswered.kind, from: unanswered.from ?? `${prefix}${formula.address}` });
    }
  }
  if (reader?.dynamic) {
    // a formula still to run in the area: the reader runs again once it is done; one that spills into the area later
    // runs the reader again too
    for (const formula of own.graph.formulas) {
      if (formula.state === "done" || !rangeContains(read, formula.row, formula.col)) continue;
      if (formula === reader) throw new LeftForExcelSignal(`reads its own cell ${formula.address} (a circular reference)`);
      throw new NotReadySignal(formula);
    }
    reader.dynamicReads.push(read);
  }
  return readSheet(own.sheet, reference, (row, col) => own.graph.has(cellKey(row, col)));
}
