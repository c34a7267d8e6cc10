/**
 * Evaluates a book against a custom-functions runtime: dependency order (including cells filled by spills),
 * concurrent calls (so the functions' client can batch them), spill placement, cycles, timeouts. `evaluate`
 * recalculates everything (the runner); `update` applies an edited book and re-runs only what it touches.
 */
import { type CellPosition, type RangeRef, formatCellAddress, formatRangeAddress, rangeContains, sheetPrefix } from "../formula/a1";
import type { Expression, ReferenceExpression } from "../formula/parse";
import { type DateSystem, isoDateToSerial } from "../functions/excelDates";
import { todayIso } from "../api/dates";
import { SHEET_NAME, cellKey, positionOfKey } from "./addresses";
import type { FormulaCellSource, LiteralCell, ParsedBook } from "./book";
import { canonicalName } from "../formula/functions";
import { DYNAMIC_REFERENCE_FUNCTIONS, LeftForExcelSignal, evaluate, evaluateFormula, toResult, whyLeftForExcel, type EvaluationContext } from "./evaluate";
import type { LeftForExcel } from "./book-names";
import { BookScope } from "./book-scope";
import { DeadlineQueue } from "../prices/deadline-queue";
import type { ResultCell } from "./rich-cells";
import { type ArgumentInput, type PreparedCall, marshalArguments } from "./marshal";
import type { FunctionMetadata } from "./metadata";
import { type ResultGrid, thrownToCellValue, toResultGrid } from "./results";
import type { CustomFunction, CustomFunctionsRuntime } from "./runtime";
import { Sheet } from "./sheet";
import { type ArrayValue, arrayOf } from "./value-array";
import { type CellError, type CellValue, type LiteralValue, type PrintedValue, cellError, isCellError, sameLiteral } from "./values";

export interface EngineOptions {
  readonly runtime: CustomFunctionsRuntime;
  readonly metadata: readonly FunctionMetadata[];
  /** The manifest's namespace; formulas call `NAMESPACE.NAME`. */
  readonly namespace?: string;
  /** A call still unsettled after this long shows #BUSY! (the runner's proof that nothing hangs). */
  readonly timeoutMs?: number;
  /** How often a formula may be recalculated because a later spill changed its input. */
  readonly maxRecalculations?: number;
  readonly log?: (message: string) => void;
  /** Called when a streaming function delivers a later value. */
  readonly onChange?: () => void;
  /** Called when a formula's result was placed (or #SPILL! shown), so a view can redraw as values arrive. */
  readonly onPlaced?: () => void;
  /** The sheet's name: a reference to it by name is a reference to this sheet. */
  readonly sheetName?: string;
  /**
   * Another sheet of the workbook by name (already evaluated, so its values are final), or a reason it cannot be read;
   * without it, references to other sheets are #REF!.
   */
  readonly otherSheet?: (name: string) => WorkbookEngine | string;
  /** Today as an Excel serial for TODAY() and NOW() (default: the machine's date in `dateSystem`). */
  readonly today?: () => number;
  /** The book's date system, read at each evaluation (default 1900). */
  readonly dateSystem?: () => DateSystem;
  /** The book's defined names and tables (default none). */
  readonly scope?: BookScope;
}

/** Worksheet functions that give a new value on every recalculation. */
const VOLATILE_FUNCTIONS = new Set(["TODAY", "NOW", "RAND", "RANDBETWEEN", "OFFSET", "INDIRECT"]);

type FormulaState = "pending" | "running" | "done";

/** Where one formula's result went: the cells it covers, and for #SPILL! the area it needed. */
export interface SpillPlacement {
  readonly anchor: CellPosition;
  readonly area: RangeRef;
  readonly blocked?: RangeRef;
}

interface FormulaCell extends FormulaCellSource {
  /** The cells it reads (a spill reference reads its anchor; the spill's cells follow from it). */
  readonly references: readonly RangeRef[];
  /** The other sheets it reads, by name in lower case. */
  readonly otherSheets: readonly string[];
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
  /** The areas its latest run read through OFFSET, INDIRECT or a whole row or column (a later spill there runs it again). */
  dynamicReads: RangeRef[];
  /** The formula whose value its latest run found missing (OFFSET, INDIRECT): it runs again once that one is done. */
  waitsOn: FormulaCell | undefined;
}

/** A run read, through OFFSET, INDIRECT or a whole row or column, a formula that has no value yet. */
class NotReadySignal extends Error {
  override readonly name = "NotReadySignal";
  constructor(readonly formula: FormulaCell) {
    super(`waits for ${formula.address}`);
  }
}

/** One custom function call a formula made: the function (functions.json name), its JavaScript arguments, and where its result went inside the call's own result. */
export interface CustomCallRecord {
  readonly name: string;
  readonly args: readonly unknown[];
  readonly row: number;
  readonly col: number;
  /** Whether this call's result is the formula's whole result (the formula is just this call). */
  readonly whole: boolean;
}

interface Resolved {
  readonly metadata: FunctionMetadata;
  readonly implementation: CustomFunction;
}

export class WorkbookEngine {
  private sheet = new Sheet();
  private formulas: FormulaCell[] = [];
  private readonly byKey = new Map<number, FormulaCell>();
  private readonly literals = new Map<number, LiteralValue>();
  /** The loop that starts pending formulas; one at a time, woken when an edit adds work. */
  private driving: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly functions = new Map<string, FunctionMetadata>();
  private readonly namespace: string;
  private readonly timeoutMs: number;
  private readonly deadlines: DeadlineQueue;
  private readonly maxRecalculations: number;
  private scope: BookScope;
  /** Formulas whose latest run was left for Excel (a reader of one is left too). */
  private readonly leftFormulas = new Set<FormulaCell>();

  constructor(private readonly options: EngineOptions) {
    this.scope = options.scope ?? new BookScope();
    this.namespace = (options.namespace ?? "PRICES").toUpperCase();
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.deadlines = new DeadlineQueue(this.timeoutMs);
    this.maxRecalculations = options.maxRecalculations ?? 3;
    for (const fn of options.metadata) this.functions.set(fn.name.toUpperCase(), fn);
  }

  load(book: ParsedBook): void {
    this.cancelAll();
    for (const formula of this.formulas) formula.generation += 1;
    this.sheet = new Sheet();
    this.byKey.clear();
    this.literals.clear();
    this.leftFormulas.clear();
    this.scope = this.options.scope ?? new BookScope(book.names ?? []);
    for (const literal of book.literals) this.setLiteral(literal);
    this.formulas = [];
    for (const source of book.formulas) this.addFormula(source);
    this.sortFormulas();
  }

  /** Recalculates every formula (Excel's full recalculation); resolves when each cell has a value. */
  async evaluate(): Promise<void> {
    this.cancelAll();
    for (const formula of this.formulas) {
      this.sheet.clear(formula.row, formula.col);
      formula.generation += 1;
      formula.state = "pending";
      formula.evaluations = 0;
      formula.waitsOn = undefined;
    }
    await this.drive();
  }

  /**
   * Applies an edited book as Excel applies an edit: formulas whose text changed, formulas that read a changed
   * cell (directly or through other formulas and spills), spills an entry now blocks or frees, and volatile
   * functions run again; every other result stays. Resolves when each cell has a value.
   */
  async update(book: ParsedBook): Promise<void> {
    const literals = new Map(book.literals.map((literal) => [cellKey(literal.row, literal.col), literal]));
    const formulas = new Map(book.formulas.map((source) => [cellKey(source.row, source.col), source]));
    const keys = new Set<number>([...this.literals.keys(), ...this.byKey.keys(), ...literals.keys(), ...formulas.keys()]);
    const touched: RangeRef[] = [];
    for (const key of keys) {
      const oldLiteral = this.literals.get(key);
      const oldFormula = this.byKey.get(key);
      const newLiteral = literals.get(key);
      const newFormula = formulas.get(key);
      if (oldFormula && newFormula && oldFormula.text === newFormula.text) continue;
      if (oldLiteral !== undefined && newLiteral && sameLiteral(oldLiteral, newLiteral.value)) continue;
      if (!oldFormula && oldLiteral === undefined && !newFormula && !newLiteral) continue;
      const position = newFormula ?? newLiteral ?? oldFormula ?? positionOfKey(key);
      touched.push(cellRange(position.row, position.col));
      if (oldFormula) {
        const area = this.removeFormula(oldFormula);
        if (area) touched.push(area);
      }
      if (oldLiteral !== undefined) {
        this.literals.delete(key);
        this.sheet.removeLiteral(position.row, position.col);
      }
      if (newLiteral) this.setLiteral(newLiteral);
      if (newFormula) this.addFormula(newFormula);
    }
    this.sortFormulas();
    for (const formula of this.formulas) formula.evaluations = 0;
    this.invalidate(touched);
    for (const formula of this.formulas) {
      if (formula.state === "done" && formula.volatile) this.markPending(formula, []);
    }
    await this.drive();
  }

  /** The cells a formula's result covers (the anchor alone for one value or an error); undefined before it has one. */
  spillArea(row: number, col: number): RangeRef | undefined {
    return this.byKey.has(cellKey(row, col)) ? this.sheet.areaOf(row, col) : undefined;
  }

  /** Every formula's placement as it stands, in row order (anchors still waiting for a result are left out). */
  spills(): SpillPlacement[] {
    const out: SpillPlacement[] = [];
    for (const formula of this.formulas) {
      const area = this.sheet.areaOf(formula.row, formula.col);
      if (!area) continue;
      const blocked = this.sheet.blockedAreaOf(formula.row, formula.col);
      const anchor = { row: formula.row, col: formula.col };
      out.push(blocked ? { anchor, area, blocked } : { anchor, area });
    }
    return out;
  }

  /** True while some formula still waits for its result. */
  get evaluating(): boolean {
    return this.driving !== undefined;
  }

  /** Cancels every cancelable or streaming invocation still live (a new book, a recalculation, closing). */
  cancelAll(): void {
    for (const formula of this.formulas) this.cancelFormula(formula);
  }

  /** The custom calls of each formula's latest run, by anchor address. */
  customCalls(): Map<string, { readonly text: string; readonly calls: readonly CustomCallRecord[]; readonly resultRange: string }> {
    return new Map(
      this.formulas
        // a formula left for Excel shows none of its calls' values, so it has no provenance
        .filter((formula) => formula.calls.length > 0 && formula.left === undefined)
        .map((formula) => {
          const area = this.sheet.areaOf(formula.row, formula.col) ?? cellRange(formula.row, formula.col);
          return [formula.address, { text: formula.text, calls: formula.calls, resultRange: formatRangeAddress(area) }];
        }),
    );
  }

  cells(): Record<string, PrintedValue> {
    return this.sheet.printed();
  }

  /** Every non-empty cell with what its formula left (a data type keeps its record), in row-major order. */
  cellsInOrder(): { readonly address: string; readonly cell: ResultCell }[] {
    return this.sheet.cellsInOrder();
  }

  value(row: number, col: number): CellValue {
    return this.sheet.value(row, col);
  }

  /** The cell with the data type its formula returned, if any (cards, number formats). */
  resultCell(row: number, col: number): ResultCell {
    return this.sheet.resultCell(row, col);
  }

  private cellsOf(range: RangeRef): ResultCell[][] {
    const rows: ResultCell[][] = [];
    for (let row = range.top; row <= range.bottom; row += 1) {
      const cells: ResultCell[] = [];
      for (let col = range.left; col <= range.right; col += 1) cells.push(this.sheet.resultCell(row, col));
      rows.push(cells);
    }
    return rows;
  }

  private setLiteral(literal: LiteralCell): void {
    this.literals.set(cellKey(literal.row, literal.col), literal.value);
    this.sheet.setLiteral(literal.row, literal.col, literal.value);
  }

  private addFormula(source: FormulaCellSource): void {
    const resolver = this.resolverAt(source);
    // one walk of the tree gives its references and the functions it calls
    const parts = partsOf(source.expression, resolver);
    const read = parts.filter((part): part is ReferenceExpression => part.kind === "reference");
    const called = parts.flatMap((part) => (part.kind === "call" ? [part.name] : []));
    const formula: FormulaCell = {
      ...source,
      // what it waits for on this sheet (another sheet's values are final before this one starts); whole rows and
      // columns are read like OFFSET's references, once nothing else can run, rather than walked cell by cell
      references: read
        .filter((reference) => this.isOwnSheet(reference) && reference.whole === undefined)
        .map((reference) => (reference.spill ? cellRange(reference.range.top, reference.range.left) : reference.range)),
      otherSheets: read.filter((reference) => !this.isOwnSheet(reference)).map((reference) => (reference.sheet ?? "").toLowerCase()),
      volatile: this.isVolatile(called),
      state: "pending",
      evaluations: 0,
      generation: 0,
      cancels: [],
      calls: [],
      unsupported: whyLeftForExcel(source.expression, { namespace: this.namespace, name: resolver.name, structured: resolver.structured }),
      dynamic:
        read.some((reference) => reference.whole !== undefined) ||
        called.some((name) => DYNAMIC_REFERENCE_FUNCTIONS.has(canonicalName(name, this.namespace))),
      left: undefined,
      dynamicReads: [],
      waitsOn: undefined,
    };
    this.formulas.push(formula);
    this.sheet.addAnchor(formula.row, formula.col);
    this.byKey.set(cellKey(formula.row, formula.col), formula);
  }

  /** Drops a formula (a late result of it is ignored); returns the area its result covered. */
  private removeFormula(formula: FormulaCell): RangeRef | undefined {
    this.cancelFormula(formula);
    formula.generation += 1;
    formula.state = "done";
    this.byKey.delete(cellKey(formula.row, formula.col));
    this.leftFormulas.delete(formula);
    this.formulas = this.formulas.filter((other) => other !== formula);
    return this.sheet.removeAnchor(formula.row, formula.col);
  }

  private sortFormulas(): void {
    this.formulas.sort((a, b) => cellKey(a.row, a.col) - cellKey(b.row, b.col));
  }

  /** How names and structured references read for a formula at `at`. */
  private resolverAt(at: CellPosition): Resolver {
    const sheet = this.options.sheetName ?? SHEET_NAME;
    return {
      name: (name) => this.scope.name(name, sheet),
      structured: (text) => this.scope.structured(text, sheet, at),
    };
  }

  /** Every formula left for Excel, with why, in cell order (its dependents included). */
  leftForExcel(): LeftForExcel[] {
    return this.formulas
      .filter((formula) => formula.left !== undefined)
      .map((formula) => ({ cell: formula.address, formula: formula.text.replace(/^\s*=/, ""), why: formula.left ?? "" }));
  }

  /** Whether calling these functions (names as written) gives a new value on every recalculation. */
  private isVolatile(called: readonly string[]): boolean {
    return called.some((name) => {
      const canonical = canonicalName(name, this.namespace);
      if (VOLATILE_FUNCTIONS.has(canonical)) return true;
      const resolved = canonical.startsWith(`${this.namespace}.`) ? this.resolve(canonical) : undefined;
      return resolved !== undefined && !isCellError(resolved) && resolved.metadata.options.volatile === true;
    });
  }

  /**
   * Marks pending every formula that reads a touched area, whose spill holds or needed a touched cell, and so on
   * through what those formulas covered, until nothing more is touched.
   */
  private invalidate(touched: RangeRef[]): void {
    const queue = [...touched];
    while (queue.length > 0) {
      const area = queue.pop() as RangeRef;
      for (const formula of this.formulas) {
        if (formula.state === "pending") continue;
        const own = this.sheet.areaOf(formula.row, formula.col);
        const blocked = this.sheet.blockedAreaOf(formula.row, formula.col);
        const reads = [...formula.references, ...formula.dynamicReads].some((range) => overlaps(range, area));
        const covers = own !== undefined && overlaps(own, area);
        const needed = blocked !== undefined && overlaps(blocked, area);
        if (reads || covers || needed) this.markPending(formula, queue);
      }
    }
  }

  /** Forgets a formula's result so it runs again; what it covered is touched in turn. */
  private markPending(formula: FormulaCell, queue: RangeRef[]): void {
    this.cancelFormula(formula);
    formula.generation += 1;
    formula.state = "pending";
    formula.waitsOn = undefined;
    const area = this.sheet.clear(formula.row, formula.col);
    queue.push(area ?? cellRange(formula.row, formula.col));
    this.wake?.();
  }

  /** Starts every pending formula whose inputs are final, until none is pending or running. */
  private drive(): Promise<void> {
    if (this.driving) {
      this.wake?.();
      return this.driving;
    }
    const loop = async (): Promise<void> => {
      const running = new Set<Promise<void>>();
      const start = (formula: FormulaCell): void => {
        formula.state = "running";
        // a finished run wakes the loop (one wake for all that finish together, not a race over every run)
        const run: Promise<void> = this.run(formula).finally(() => {
          running.delete(run);
          this.wake?.();
        });
        running.add(run);
      };
      for (;;) {
        const pending = this.formulas.filter((formula) => formula.state === "pending");
        if (pending.length === 0 && running.size === 0) return;
        for (const formula of pending) if (this.isReady(formula)) start(formula);
        if (running.size === 0) {
          const free = pending.filter((formula) => !this.hasDirectDependency(formula));
          const next = free.find((formula) => !formula.dynamic);
          // references built as formulas run are read once nothing else can run, all together so their PRICES calls batch
          const dynamic = free.filter((formula) => formula.dynamic && formula.waitsOn === undefined);
          if (next) start(next);
          else if (dynamic.length > 0) for (const formula of dynamic) start(formula);
          else this.failCycles(pending);
          continue;
        }
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = undefined;
        // Results of one batch settle together: let them all land before the next scan of every formula
        // (20,000-cell bench: one scan per batch instead of one per settled call).
        await new Promise<void>((resolve) => setTimeout(resolve, 0));
      }
    };
    this.driving = loop().finally(() => {
      this.driving = undefined;
      this.wake = undefined;
    });
    return this.driving;
  }

  private cancelFormula(formula: FormulaCell): void {
    const cancels = formula.cancels;
    formula.cancels = [];
    for (const cancel of cancels) {
      try {
        cancel();
      } catch (error) {
        this.options.log?.(`onCanceled of ${formula.address} threw: ${String(error)}`);
      }
    }
  }

  /** Every referenced cell is final: a literal, an evaluated formula or its spill, or blank that no pending formula can still spill into. */
  private isReady(formula: FormulaCell): boolean {
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

  private directDependencies(formula: FormulaCell): FormulaCell[] {
    const found: FormulaCell[] = formula.waitsOn !== undefined && formula.waitsOn.state !== "done" ? [formula.waitsOn] : [];
    for (const range of formula.references) {
      for (const other of this.formulas) {
        if (other.state !== "done" && rangeContains(range, other.row, other.col)) found.push(other);
      }
    }
    return found;
  }

  private hasDirectDependency(formula: FormulaCell): boolean {
    return this.directDependencies(formula).length > 0;
  }

  /** Every pending formula waits on another formula's own cell: those on a cycle show an error; the rest follow from it. */
  private failCycles(pending: readonly FormulaCell[]): void {
    for (const cycle of stronglyConnected(pending, (formula) => this.directDependencies(formula))) {
      const selfLoop = cycle.length === 1 && cycle[0] !== undefined && this.directDependencies(cycle[0]).includes(cycle[0]);
      if (cycle.length === 1 && !selfLoop) continue;
      const names = cycle.map((formula) => formula.address).join(", ");
      for (const formula of cycle) {
        this.sheet.place(formula.row, formula.col, [[cellError("#REF!", `circular reference (${names})`)]]);
        formula.state = "done";
        // Excel's value of a circular reference (0 with a warning, or its iterations) is not the host's to say
        formula.left = `circular reference (${names})`;
        this.leftFormulas.add(formula);
      }
    }
  }

  private async run(formula: FormulaCell): Promise<void> {
    formula.generation += 1;
    formula.evaluations += 1;
    const generation = formula.generation;
    this.cancelFormula(formula);
    formula.calls = [];
    formula.dynamicReads = [];
    formula.waitsOn = undefined;
    formula.left = formula.unsupported;
    let grid: ResultGrid;
    if (formula.left !== undefined) grid = [[leftError(formula.left)]];
    else {
      try {
        grid = await this.compute(formula, generation);
      } catch (error) {
        if (error instanceof NotReadySignal) {
          if (generation !== formula.generation) return;
          formula.waitsOn = error.formula;
          formula.state = "pending";
          return;
        }
        if (!(error instanceof LeftForExcelSignal)) throw error;
        if (generation !== formula.generation) return;
        formula.left = error.why;
        grid = [[leftError(error.why)]];
      }
    }
    if (generation !== formula.generation) return;
    if (formula.left === undefined) this.leftFormulas.delete(formula);
    else this.leftFormulas.add(formula);
    this.placeAndInvalidate(formula, grid);
    formula.state = "done";
    this.options.onPlaced?.();
  }

  private placeAndInvalidate(formula: FormulaCell, grid: ResultGrid): void {
    const before = this.sheet.clear(formula.row, formula.col);
    const after = this.sheet.place(formula.row, formula.col, grid);
    // Its readers wait for it directly, so a one-cell result changes nothing else (and costs no scan of every formula).
    if (isAnchorOnly(after, before, formula)) return;
    // A formula that already read a cell this result now fills (or no longer fills) must read it again.
    for (const reader of this.formulas) {
      if (reader === formula || reader.state !== "done" || reader.evaluations > this.maxRecalculations) continue;
      const touched = [...reader.references, ...reader.dynamicReads].some((range) => overlaps(range, after) || (before !== undefined && overlaps(range, before)));
      if (touched) reader.state = "pending";
    }
  }

  private resolve(name: string): Resolved | CellError {
    const upper = name.toUpperCase();
    const prefix = `${this.namespace}.`;
    const metadata = upper.startsWith(prefix) ? this.functions.get(upper.slice(prefix.length)) : undefined;
    if (!metadata) return cellError("#NAME?", `unknown function ${name}`);
    const implementation = this.options.runtime.implementations.get(metadata.id.toUpperCase());
    if (!implementation) return cellError("#NAME?", `${name} is in functions.json but functions.js did not associate ${metadata.id}`);
    return { metadata, implementation };
  }

  /** The names of the other sheets its formulas read, in lower case. */
  otherSheetsRead(): Set<string> {
    const names = new Set<string>();
    for (const formula of this.formulas) for (const name of formula.otherSheets) names.add(name);
    return names;
  }

  private isOwnSheet(reference: ReferenceExpression): boolean {
    return reference.sheet === undefined || reference.sheet.toLowerCase() === (this.options.sheetName ?? SHEET_NAME).toLowerCase();
  }

  /** The values a reference reads: a range, or the whole result of the formula a spill reference (`A1#`) names. */
  private readReference(reference: ReferenceExpression, reader: FormulaCell): ArrayValue | CellError {
    if (this.isOwnSheet(reference)) return this.readOwn(reference, reader);
    const other = this.options.otherSheet?.(reference.sheet ?? "") ?? "the host evaluates each sheet on its own; references to other sheets are not supported";
    // a sheet the host cannot read first (a cycle of sheets, a sheet not given): Excel's value is not known here
    if (typeof other === "string") throw new LeftForExcelSignal(`${reference.text}: ${other}`);
    return other.readOwn(reference, undefined);
  }

  /**
   * A reference read on this sheet, whatever sheet name it carries. A cell whose formula was left for Excel leaves
   * its reader for Excel too; a reference built as the formula runs (OFFSET, INDIRECT) must find final values.
   */
  private readOwn(reference: ReferenceExpression, reader: FormulaCell | undefined): ArrayValue | CellError {
    const read = reference.spill ? cellRange(reference.range.top, reference.range.left) : reference.range;
    const prefix = reader ? "" : sheetPrefix(this.options.sheetName ?? SHEET_NAME);
    for (const formula of this.leftFormulas) {
      if (formula.state === "done" && rangeContains(read, formula.row, formula.col)) throw new LeftForExcelSignal(`depends on ${prefix}${formula.address} (left for Excel)`);
    }
    if (reader?.dynamic) {
      // a formula still to run in the area: the reader runs again once it is done; one that spills into the area later
      // runs the reader again too
      for (const formula of this.formulas) {
        if (formula.state === "done" || !rangeContains(read, formula.row, formula.col)) continue;
        if (formula === reader) throw new LeftForExcelSignal(`reads its own cell ${formula.address} (a circular reference)`);
        throw new NotReadySignal(formula);
      }
      reader.dynamicReads.push(read);
    }
    if (reference.whole !== undefined) {
      const used = this.sheet.usedBounds();
      const range = { ...reference.range, bottom: Math.min(reference.range.bottom, used?.bottom ?? 0), right: Math.min(reference.range.right, used?.right ?? 0) };
      if (range.bottom < range.top || range.right < range.left) return arrayOf([[null]]);
      return arrayOf(this.sheet.rangeValues(range), range);
    }
    if (!reference.spill) return arrayOf(this.sheet.rangeValues(reference.range), reference.range);
    const { top: row, left: col } = reference.range;
    const area = this.byKey.has(cellKey(row, col)) ? this.sheet.areaOf(row, col) : undefined;
    if (!area) return cellError("#REF!", `${reference.text}: ${formatCellAddress({ row, col })} holds no formula result`);
    if (this.sheet.blockedAreaOf(row, col)) return cellError("#SPILL!", `${reference.text}: the spill is blocked`);
    return arrayOf(this.sheet.rangeValues(area));
  }

  private async compute(formula: FormulaCell, generation: number): Promise<ResultGrid> {
    const whole = formula.expression;
    const dateSystem = this.options.dateSystem?.() ?? "1900";
    const resolver = this.resolverAt(formula);
    const context: EvaluationContext = {
      at: { row: formula.row, col: formula.col },
      name: resolver.name,
      structured: resolver.structured,
      reference: (reference) => this.readReference(reference, formula),
      cells: (reference) => (this.isOwnSheet(reference) && !reference.spill ? this.cellsOf(reference.range) : cellError("#REF!", `${reference.text}: fields are read on the formula's own sheet`)),
      dateSystem,
      today: this.options.today ?? (() => isoDateToSerial(todayIso(), dateSystem)),
      custom: (name) => {
        if (!name.startsWith(`${this.namespace}.`)) return undefined;
        return async (inputs) => {
          const resolved = this.resolve(name);
          if (isCellError(resolved)) return [[resolved]];
          // An edit replaced this run while its arguments were evaluated: its result would be dropped, so call nothing.
          if (generation !== formula.generation) return [[cellError("#BUSY!")]];
          // A call that is the whole formula updates its cells with a stream's later values; a nested one keeps its first.
          const isWhole = whole.kind === "call" && canonicalName(whole.name, this.namespace) === name;
          return this.callCustom(formula, generation, resolved, name, inputs, isWhole);
        };
      },
    };
    return evaluateFormula(whole, context, this.namespace);
  }

  private async callCustom(
    formula: FormulaCell,
    generation: number,
    resolved: Resolved,
    displayName: string,
    inputs: readonly ArgumentInput[],
    updatesCell: boolean,
  ): Promise<ResultGrid> {
    const marshalled = marshalArguments(resolved.metadata, inputs, displayName);
    if (marshalled.kind === "error") return [[marshalled.error]];
    for (const call of marshalled.calls) {
      if (!isCellError(call.args)) formula.calls.push({ name: resolved.metadata.name, args: call.args, row: call.row, col: call.col, whole: updatesCell });
    }
    const outcomes: ResultGrid[] = [];
    const assemble = (): ResultGrid => {
      if (!marshalled.lifted) return outcomes[0] ?? [[cellError("#BUSY!")]];
      const grid: ResultGrid = Array.from({ length: marshalled.rows }, () => new Array<CellValue>(marshalled.cols).fill(null));
      marshalled.calls.forEach((call, index) => {
        const outcome = outcomes[index];
        const single = outcome && outcome.length === 1 && outcome[0]?.length === 1;
        const row = grid[call.row];
        if (row) row[call.col] = single ? (outcome[0]?.[0] ?? null) : cellError("#CALC!", "a lifted call returned an array (nested arrays aren't supported)");
      });
      return grid;
    };
    const onLater = (index: number, grid: ResultGrid): void => {
      outcomes[index] = grid;
      if (!updatesCell || generation !== formula.generation || formula.state !== "done") return;
      this.placeAndInvalidate(formula, assemble());
      this.options.onChange?.();
    };
    await Promise.all(
      marshalled.calls.map(async (call, index) => {
        outcomes[index] = await this.invoke(formula, resolved, call, (grid) => onLater(index, grid));
      }),
    );
    return assemble();
  }

  /** One call; settles on the first result (return value, rejection, first setResult) or the timeout. */
  private invoke(formula: FormulaCell, resolved: Resolved, call: PreparedCall, later: (grid: ResultGrid) => void): Promise<ResultGrid> {
    if (isCellError(call.args)) return Promise.resolve([[call.args]]);
    const args = call.args;
    const { metadata, implementation } = resolved;
    const options = metadata.options;
    return new Promise<ResultGrid>((resolve) => {
      let settled = false;
      const finish = (grid: ResultGrid): void => {
        if (settled) {
          later(grid);
          return;
        }
        settled = true;
        cancelDeadline();
        resolve(grid);
      };
      const cancelDeadline = this.deadlines.add(() => finish([[cellError("#BUSY!", `no result after ${this.timeoutMs} ms`)]]));
      const failed = (thrown: unknown): void => {
        if (thrown !== null && typeof thrown === "object" && !("code" in thrown)) {
          this.options.log?.(`${formula.address}: ${metadata.name} threw ${String(thrown)}`);
        }
        finish([[thrownToCellValue(thrown)]]);
      };
      const address = formatCellAddress({ row: formula.row + call.row, col: formula.col + call.col });
      const invocation: Record<string, unknown> = { functionName: metadata.name, isInValuePreview: false };
      if (options.requiresAddress) invocation.address = `${SHEET_NAME}!${address}`;
      if (options.requiresParameterAddresses) invocation.parameterAddresses = [...call.parameterAddresses];
      if (options.stream) invocation.setResult = (value: unknown) => finish(toResultGrid(metadata, value));
      if (options.stream || options.cancelable) {
        formula.cancels.push(() => {
          const handler = invocation.onCanceled;
          if (typeof handler === "function") (handler as () => void)();
        });
      }
      try {
        const returned = implementation(...args, invocation);
        if (options.stream) {
          if (isThenable(returned)) returned.then(undefined, failed);
          return;
        }
        Promise.resolve(returned).then((value) => finish(toResultGrid(metadata, value)), failed);
      } catch (thrown) {
        failed(thrown);
      }
    });
  }
}

/** How a formula's names and structured references read. */
interface Resolver {
  name(name: string): Expression | undefined;
  structured(text: string): ReferenceExpression | string;
}

/** The expressions an expression is made of, names and structured references replaced by what they stand for (LET's own names kept). */
function partsOf(expression: Expression, resolver: Resolver): Expression[] {
  const parts: Expression[] = [];
  collectParts(expression, resolver, new Set(), 0, parts);
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
      if (defined) collectParts(defined, resolver, new Set(), depth + 1, parts);
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

/** What a cell left for Excel shows where there is no cached value (a JSON book): an error naming why. */
function leftError(why: string): CellError {
  return cellError("#N/A", `left for Excel: ${why}`);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

function cellRange(row: number, col: number): RangeRef {
  return { top: row, left: col, bottom: row, right: col };
}

function overlaps(a: RangeRef, b: RangeRef): boolean {
  return a.top <= b.bottom && b.top <= a.bottom && a.left <= b.right && b.left <= a.right;
}

/** A result that only ever covered its own anchor changes no other cell (its readers depend on it directly). */
function isAnchorOnly(after: RangeRef, before: RangeRef | undefined, formula: FormulaCell): boolean {
  const single = (range: RangeRef | undefined): boolean =>
    range === undefined || (range.top === formula.row && range.bottom === formula.row && range.left === formula.col && range.right === formula.col);
  return single(after) && single(before);
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
