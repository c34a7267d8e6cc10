import type { UnansweredLeave } from "./left-for-excel";

/** What an .xlsx workbook defines beside its cells, handed to the engine so formulas that use it evaluate as in Excel. */
export interface DefinedName {
  readonly name: string;
  /** The sheet a local name belongs to; absent for a workbook-scoped name. */
  readonly sheet?: string;
  /** The definition as workbook.xml stores it, without a leading "=" (`Rates!$B$2:$B$9`, `0.2`, `[1]Rates!$B$2`). */
  readonly refersTo: string;
}

export interface TableDefinition {
  readonly name: string;
  readonly sheet: string;
  /** The table's whole area, headers and totals included (`A1:D10`). */
  readonly ref: string;
  readonly headerRowCount: number;
  readonly totalsRowCount: number;
  readonly columns: readonly string[];
}

/** A formula the engine did not evaluate with Excel's semantics: its cached value must be kept and it is reported. */
export interface LeftForExcel {
  /** `A1` on the sheet it belongs to. */
  readonly cell: string;
  /** The formula text as the book holds it, without "=". */
  readonly formula: string;
  /** Why, in words for a person: `function not supported: CUBEVALUE`, `external link [1]`, `depends on C4 (left for Excel)`. */
  readonly why: string;
  /** Set when it was left because the service gave no answer about a price (its own call's, or one it reads). */
  readonly unanswered?: UnansweredLeave;
}
