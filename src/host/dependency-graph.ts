/**
 * The dependency graph of one sheet's formulas: what each formula reads (its references, names and structured
 * references resolved), which formulas a cell waits for (including a pending formula that may still spill into it),
 * which formulas read an area, and the cycles among pending formulas.
 */
import { type RangeRef, rangeContains } from "../formula/a1";
import type { Expression, ReferenceExpression } from "../formula/parse";
import { cellKey } from "./addresses";
import type { FormulaCellSource } from "./book";
import type { CustomCallRecord } from "./custom-calls";
import type { UnansweredLeave } from "./left-for-excel";
import type { Unanswered } from "./values";
import type { Sheet } from "./sheet";

export type FormulaState = "pending" | "running" | "done";

/** What the proof found for a formula before its run (src/host/proof.ts). */
export type ProofState =
  | { readonly kind: "proven" }
  | { readonly kind: "price" }
  | { readonly kind: "unproven"; readonly why: string }
  | { readonly kind: "disproved"; readonly why: string };

export interface FormulaCell extends FormulaCellSource {
  /**
   * The cells its saved result covers (a saved spill or legacy array area; its own cell without one): left for Excel,
   * it keeps them all, and the engine holds none of them (a file's reader drops a spill's saved cells), so a reader
   * of any of them is left too.
   */
  readonly savedArea: RangeRef;
  /** The cells it reads (a spill reference reads its anchor; the spill's cells follow from it). */
  readonly references: readonly RangeRef[];
  /** The other sheets it reads, by name in lower case. */
  readonly otherSheets: readonly string[];
  /** The functions it calls, canonical (`PRICES.MID`, `TODAY`), names and tables resolved. */
  readonly called: readonly string[];
  readonly volatile: boolean;
  state: FormulaState;
  evaluations: number;
  /** Bumped on every start, so a late result of an earlier run is dropped. */
  generation: number;
  cancels: (() => void)[];
  /** The custom calls of its latest run, for provenance. */
  calls: CustomCallRecord[];
  /** Why it cannot be evaluated with Excel's semantics whatever its inputs (an unsupported function, an external link). */
  readonly unsupported: string | undefined;
  /** It reads references only known when it runs (OFFSET, INDIRECT): it starts when nothing else can. */
  readonly dynamic: boolean;
  /** Why its latest run was left for Excel. */
  left: string | undefined;
  /** With `left`: when the reason is a price the service gave no answer about (its own call, or one it reads). */
  unanswered: UnansweredLeave | undefined;
  /**
   * A custom call of the run `run` whose result held no answer from the service (kind and words), whatever the formula
   * then made of it (IFERROR's 0, ISNA's "n/a"): current only while `run` is its generation.
   */
  unansweredCall: UnansweredCall | undefined;
  /** The areas its latest run read through OFFSET, INDIRECT or a whole row or column (a later spill there runs it again). */
  dynamicReads: RangeRef[];
  /** The formula whose value its latest run found missing (OFFSET, INDIRECT): it runs again once that one is done. */
  waitsOn: FormulaCell | undefined;
  /** Whether its saved value was reproduced (books with saved values), found at the start of `evaluate`. */
  proof: ProofState | undefined;
}

/** A call's result that held no answer from the service, in one run of a formula. */
export interface UnansweredCall {
  readonly run: number;
  readonly kind: Unanswered;
  readonly why: string;
}

/** How a formula's names and structured references read. */
export interface Resolver {
  name(name: string): Expression | undefined;
  structured(text: string): ReferenceExpression | string;
}

export class DependencyGraph {
  formulas: FormulaCell[] = [];
  private readonly byKey = new Map<number, FormulaCell>();

  constructor(private readonly sheet: Sheet) {}

  at(row: number, col: number): FormulaCell | undefined {
    return this.byKey.get(cellKey(row, col));
  }

  has(key: number): boolean {
    return this.byKey.has(key);
  }

  keys(): IterableIterator<number> {
    return this.byKey.keys();
  }

  add(formula: FormulaCell): void {
    this.formulas.push(formula);
    this.sheet.addAnchor(formula.row, formula.col);
    this.byKey.set(cellKey(formula.row, formula.col), formula);
  }

  /** Drops a formula; returns the area its result covered. */
  remove(formula: FormulaCell): RangeRef | undefined {
    this.byKey.delete(cellKey(formula.row, formula.col));
    this.formulas = this.formulas.filter((other) => other !== formula);
    return this.sheet.removeAnchor(formula.row, formula.col);
  }

  sort(): void {
    this.formulas.sort((a, b) => cellKey(a.row, a.col) - cellKey(b.row, b.col));
  }

  /** Every referenced cell is final: a literal, an evaluated formula or its spill, or blank that no pending formula can still spill into. */
  isReady(formula: FormulaCell): boolean {
    if (formula.dynamic) return formula.waitsOn !== undefined && formula.waitsOn.state === "done" && !this.hasDirectDependency(formula);
    for (const range of formula.references) {
      for (let row = range.top; row <= range.bottom; row += 1) {
        for (let col = range.left; col <= range.right; col += 1) {
          if (this.sheet.isLiteral(row, col)) continue;
          const anchor = this.byKey.get(cellKey(row, col));
          if (anchor) {
            if (anchor === formula || anchor.state !== "done") return false;
            continue;
          }
          const owner = this.sheet.ownerOf(row, col);
          if (owner !== undefined && this.byKey.get(owner)?.state === "done") continue;
          if (this.maySpillInto(row, col, formula)) return false;
        }
      }
    }
    return true;
  }

  private maySpillInto(row: number, col: number, except: FormulaCell): boolean {
    return this.formulas.some((other) => other !== except && other.state !== "done" && other.row <= row && other.col <= col);
  }

  directDependencies(formula: FormulaCell): FormulaCell[] {
    const found: FormulaCell[] = formula.waitsOn !== undefined && formula.waitsOn.state !== "done" ? [formula.waitsOn] : [];
    for (const range of formula.references) {
      for (const other of this.formulas) {
        if (other.state !== "done" && rangeContains(range, other.row, other.col)) found.push(other);
      }
    }
    return found;
  }

  hasDirectDependency(formula: FormulaCell): boolean {
    return this.directDependencies(formula).length > 0;
  }

  /** The cycles among pending formulas that all wait on another formula's own cell (a formula reading itself included). */
  cycles(pending: readonly FormulaCell[]): FormulaCell[][] {
    return stronglyConnected(pending, (formula) => this.directDependencies(formula)).filter((cycle) => {
      const only = cycle[0];
      return cycle.length > 1 || (only !== undefined && this.directDependencies(only).includes(only));
    });
  }

  /** Whether a formula that is not pending reads `area`, its result covers it, or its #SPILL! needed it. */
  touches(formula: FormulaCell, area: RangeRef): boolean {
    const own = this.sheet.areaOf(formula.row, formula.col);
    const blocked = this.sheet.blockedAreaOf(formula.row, formula.col);
    return this.reads(formula, area) || (own !== undefined && overlaps(own, area)) || (blocked !== undefined && overlaps(blocked, area));
  }

  reads(formula: FormulaCell, area: RangeRef): boolean {
    return formula.references.some((range) => overlaps(range, area)) || formula.dynamicReads.some((range) => overlaps(range, area));
  }
}

/** No LET names bound (read only: a LET makes its own set). */
const NO_NAMES: ReadonlySet<string> = new Set();

/** The expressions an expression is made of, names and structured references replaced by what they stand for (LET's own names kept). */
export function partsOf(expression: Expression, resolver: Resolver): Expression[] {
  const parts: Expression[] = [];
  collectParts(expression, resolver, NO_NAMES, 0, parts);
  return parts;
}

function collectParts(expression: Expression, resolver: Resolver, bound: ReadonlySet<string>, depth: number, parts: Expression[]): void {
  parts.push(expression);
  switch (expression.kind) {
    case "field":
      parts.push(expression.target);
      return;
    case "call":
      for (const arg of expression.args) collectParts(arg, resolver, bound, depth, parts);
      return;
    case "unary":
      collectParts(expression.operand, resolver, bound, depth, parts);
      return;
    case "binary":
      collectParts(expression.left, resolver, bound, depth, parts);
      collectParts(expression.right, resolver, bound, depth, parts);
      return;
    case "let": {
      const names = new Set(bound);
      for (const binding of expression.bindings) {
        collectParts(binding.value, resolver, names, depth, parts);
        names.add(binding.name.toUpperCase());
      }
      collectParts(expression.body, resolver, names, depth, parts);
      return;
    }
    case "name": {
      const defined = bound.has(expression.name.toUpperCase()) || depth > 16 ? undefined : resolver.name(expression.name);
      if (defined) collectParts(defined, resolver, NO_NAMES, depth + 1, parts);
      return;
    }
    case "table": {
      const reference = resolver.structured(expression.text);
      if (typeof reference !== "string") parts.push(reference);
      return;
    }
    default:
      return;
  }
}

export function cellRange(row: number, col: number): RangeRef {
  return { top: row, left: col, bottom: row, right: col };
}

export function overlaps(a: RangeRef, b: RangeRef): boolean {
  return a.top <= b.bottom && b.top <= a.bottom && a.left <= b.right && b.left <= a.right;
}

/** A result that only ever covered its own anchor changes no other cell (its readers depend on it directly). */
export function isAnchorOnly(after: RangeRef, before: RangeRef | undefined, formula: FormulaCell): boolean {
  return coversOnly(after, formula) && (before === undefined || coversOnly(before, formula));
}

function coversOnly(range: RangeRef, cell: { readonly row: number; readonly col: number }): boolean {
  return range.top === cell.row && range.bottom === cell.row && range.left === cell.col && range.right === cell.col;
}

/** Tarjan's strongly connected components over the given nodes. */
function stronglyConnected<T>(nodes: readonly T[], edges: (node: T) => readonly T[]): T[][] {
  const index = new Map<T, number>();
  const low = new Map<T, number>();
  const stack: T[] = [];
  const onStack = new Set<T>();
  const components: T[][] = [];
  let counter = 0;
  const visit = (node: T): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges(node)) {
      if (!nodes.includes(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: T[] = [];
      for (;;) {
        const top = stack.pop() as T;
        onStack.delete(top);
        component.push(top);
        if (top === node) break;
      }
      components.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return components;
}
