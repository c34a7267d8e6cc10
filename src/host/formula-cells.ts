/**
 * A formula as the engine's graph holds it, built from its source: the cells it waits for, the other sheets and the
 * functions it reads, whether it is volatile or reads references built as it runs, and why it is left for Excel.
 */
import type { CellPosition, RangeRef } from "../formula/a1";
import type { Expression, ReferenceExpression } from "../formula/parse";
import { canonicalName } from "../formula/functions";
import type { FormulaCellSource } from "./book";
import type { SavedGrid } from "./book-saved";
import { type FormulaCell, type Resolver, cellRange, partsOf } from "./dependency-graph";
import { DYNAMIC_REFERENCE_FUNCTIONS } from "./evaluate";
import { type StaticContext, whyLeftForExcel } from "./why-left-for-excel";

/** What building a formula cell asks of the engine (made once per engine). */
export interface FormulaCellFacts {
  readonly namespace: string;
  /** What a defined name stands for on the sheet. */
  name(name: string): Expression | undefined;
  /** The area a structured reference covers for a formula at `at`, or why it cannot be read. */
  structured(text: string, at: CellPosition): ReferenceExpression | string;
  isOwnSheet(reference: ReferenceExpression): boolean;
  isVolatile(called: readonly string[]): boolean;
}

/** Names and structured references as one formula reads them: an object per formula, not closures (tsx names each closure it makes). */
class FormulaResolver implements Resolver, StaticContext {
  readonly namespace: string;

  constructor(
    private readonly facts: FormulaCellFacts,
    private readonly at: CellPosition,
  ) {
    this.namespace = facts.namespace;
  }

  name(name: string): Expression | undefined {
    return this.facts.name(name);
  }

  structured(text: string): ReferenceExpression | string {
    return this.facts.structured(text, this.at);
  }
}

/** One empty list for every formula that reads no other sheet or calls nothing (read only). */
const NONE: readonly never[] = Object.freeze([]);
/** No LET names bound, no defined name being resolved: one empty set for every formula's walk. */
const NO_NAMES: ReadonlySet<string> = new Set();

/** The cells a formula's saved result covers: its legacy array area, else its saved grid's, else its own cell. */
function savedAreaOf(source: FormulaCellSource, saved: SavedGrid | undefined): RangeRef {
  const rows = source.area?.rows ?? saved?.length ?? 1;
  const cols = source.area?.cols ?? saved?.[0]?.length ?? 1;
  return { top: source.row, left: source.col, bottom: source.row + Math.max(rows, 1) - 1, right: source.col + Math.max(cols, 1) - 1 };
}

/** A new formula cell, pending, with no run yet; `saved` is its saved result, when the book has one. */
export function formulaCellOf(source: FormulaCellSource, facts: FormulaCellFacts, saved?: SavedGrid): FormulaCell {
  const { namespace } = facts;
  const resolver = new FormulaResolver(facts, source);
  // what it waits for on this sheet (another sheet's values are final before this one starts); whole rows and
  // columns are read like OFFSET's references, once nothing else can run, rather than walked cell by cell
  const references: RangeRef[] = [];
  const otherSheets: string[] = [];
  const called: string[] = [];
  let dynamic = false;
  // one walk of the tree gives its references and the functions it calls
  for (const part of partsOf(source.expression, resolver)) {
    if (part.kind === "reference") {
      if (part.whole !== undefined) dynamic = true;
      if (!facts.isOwnSheet(part)) otherSheets.push((part.sheet ?? "").toLowerCase());
      else if (part.whole === undefined) references.push(part.spill ? cellRange(part.range.top, part.range.left) : part.range);
    } else if (part.kind === "call") {
      const name = canonicalName(part.name, namespace);
      called.push(name);
      if (DYNAMIC_REFERENCE_FUNCTIONS.has(name)) dynamic = true;
    }
  }
  // every field written in one order, without a spread of the source: one hidden class for all of a sheet's formulas
  return {
    row: source.row,
    col: source.col,
    address: source.address,
    text: source.text,
    expression: source.expression,
    legacy: source.legacy,
    area: source.area,
    savedArea: savedAreaOf(source, saved),
    references,
    otherSheets: otherSheets.length === 0 ? NONE : otherSheets,
    called: called.length === 0 ? NONE : called,
    volatile: facts.isVolatile(called),
    state: "pending",
    evaluations: 0,
    generation: 0,
    cancels: [],
    calls: [],
    unsupported: whyLeftForExcel(source.expression, resolver, NO_NAMES, NO_NAMES),
    dynamic,
    left: undefined,
    unanswered: undefined,
    unansweredCall: undefined,
    dynamicReads: [],
    waitsOn: undefined,
    proof: undefined,
  };
}
