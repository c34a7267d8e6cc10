/**
 * A formula as the engine's graph holds it, built from its source: the cells it waits for, the other sheets and the
 * functions it reads, whether it is volatile or reads references built as it runs, and why it is left for Excel.
 */
import type { ReferenceExpression } from "../formula/parse";
import { canonicalName } from "../formula/functions";
import type { FormulaCellSource } from "./book";
import { type FormulaCell, type Resolver, cellRange, partsOf } from "./dependency-graph";
import { DYNAMIC_REFERENCE_FUNCTIONS } from "./evaluate";
import { whyLeftForExcel } from "./why-left-for-excel";

/** What building a formula cell asks of the engine. */
export interface FormulaCellFacts {
  readonly namespace: string;
  readonly resolver: Resolver;
  isOwnSheet(reference: ReferenceExpression): boolean;
  isVolatile(called: readonly string[]): boolean;
}

/** A new formula cell, pending, with no run yet. */
export function formulaCellOf(source: FormulaCellSource, facts: FormulaCellFacts): FormulaCell {
  const { namespace, resolver } = facts;
  // one walk of the tree gives its references and the functions it calls
  const parts = partsOf(source.expression, resolver);
  const read = parts.filter((part): part is ReferenceExpression => part.kind === "reference");
  const called = parts.flatMap((part) => (part.kind === "call" ? [canonicalName(part.name, namespace)] : []));
  return {
    ...source,
    // what it waits for on this sheet (another sheet's values are final before this one starts); whole rows and
    // columns are read like OFFSET's references, once nothing else can run, rather than walked cell by cell
    references: read
      .filter((reference) => facts.isOwnSheet(reference) && reference.whole === undefined)
      .map((reference) => (reference.spill ? cellRange(reference.range.top, reference.range.left) : reference.range)),
    otherSheets: read.filter((reference) => !facts.isOwnSheet(reference)).map((reference) => (reference.sheet ?? "").toLowerCase()),
    called,
    volatile: facts.isVolatile(called),
    state: "pending",
    evaluations: 0,
    generation: 0,
    cancels: [],
    calls: [],
    unsupported: whyLeftForExcel(source.expression, { namespace, name: (name) => resolver.name(name), structured: (text) => resolver.structured(text) }),
    dynamic: read.some((reference) => reference.whole !== undefined) || called.some((name) => DYNAMIC_REFERENCE_FUNCTIONS.has(name)),
    left: undefined,
    dynamicReads: [],
    waitsOn: undefined,
    proof: undefined,
  };
}
