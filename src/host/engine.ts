/**
 * Evaluates a book against a custom-functions runtime: dependency order (including cells filled by spills), spill
 * placement, cycles. `evaluate` recalculates every formula it holds (the runner), proving each first against the
 * book's saved values when it has them; `update` applies an edited book and re-runs only what it touches. The graph,
 * the scheduling, the custom calls and the proof: dependency-graph.ts, recalculation.ts, custom-calls.ts, proof.ts.
 */
import { type RangeRef, formatRangeAddress, sheetPrefix } from "../formula/a1";
import type { ReferenceExpression } from "../formula/parse";
import { isoDateToSerial } from "../formula/excel-dates";
import { todayIso } from "../api/dates";
import { SHEET_NAME, cellKey, positionOfKey } from "./addresses";
import type { FormulaCellSource, LiteralCell, ParsedBook } from "./book";
import type { SavedValues } from "./book-saved";
import { resultOf } from "./implicit-intersection";
import { LeftForExcelSignal, evaluateFormula } from "./evaluate";
import type { LeftForExcel } from "./book-names";
import { leftError, leftForExcelOf, unansweredCallsOf } from "./left-formulas";
import { BookScope } from "./book-scope";
import { type CustomCallRecord, CustomCalls } from "./custom-calls";
import { type Eventually, andThen, isPending } from "./eventually";
import { DependencyGraph, type FormulaCell, cellRange, isAnchorOnly } from "./dependency-graph";
import { type FormulaCellFacts, formulaCellOf } from "./formula-cells";
import { type FixedArea, fitToArea } from "./fixed-array-area";
import { NotReadySignal, readOwnSheet } from "./own-sheet-reads";
import type { ResultCell } from "./rich-cells";
import type { EngineOptions, SpillPlacement } from "./engine-options";
import { type ProofSummary, SavedSheet, prove, proofSummary } from "./proof";
import { FormulaContext, type Run, type SheetReads } from "./formula-context";
import { Recalculation } from "./recalculation";
import type { ResultGrid } from "./results";
import { Sheet } from "./sheet";
import type { ArrayValue } from "./value-array";
import { type CellError, type CellValue, type PrintedValue, cellError, sameLiteral } from "./values";

export type { CustomCallRecord, EngineOptions, ProofSummary, SpillPlacement };

export class WorkbookEngine {
  private sheet = new Sheet();
  private graph = new DependencyGraph(this.sheet);
  private readonly literals = new Map<number, CellValue>();
  private readonly calls: CustomCalls;
  /** What every formula's run reads of this engine (formula-context.ts). */
  private readonly reads: SheetReads;
  /** What building a formula cell reads of this engine (formula-cells.ts). */
  private readonly facts: FormulaCellFacts;
  private readonly recalculation: Recalculation;
  private readonly namespace: string;
  private readonly maxRecalculations: number;
  private scope: BookScope;
  /** Formulas whose latest run was left for Excel (a reader of one is left too). */
  private readonly leftFormulas = new Set<FormulaCell>();
  /** The book's saved values, and the sheet as saved (literals and saved results) the proof reads. */
  private saved: SavedValues | undefined;
  private savedSheet: SavedSheet | undefined;

  constructor(private readonly options: EngineOptions) {
    this.scope = options.scope ?? new BookScope();
    this.namespace = (options.namespace ?? "PRICES").toUpperCase();
    this.calls = new CustomCalls(options.runtime, options.metadata, this.namespace, options.timeoutMs ?? 120_000, options.log, options.leaveUnanswered ?? false);
    this.maxRecalculations = options.maxRecalculations ?? 3;
    const sheetName = options.sheetName ?? SHEET_NAME;
    this.reads = {
      namespace: this.namespace,
      name: (name) => this.scope.name(name, sheetName),
      structured: (text, at) => this.scope.structured(text, sheetName, at),
      formulas: () => this.graph.formulas,
      dateSystem: () => options.dateSystem?.() ?? "1900",
      today: (system) => (options.today ? options.today() : isoDateToSerial(todayIso(), system)),
      isOwnSheet: (reference) => this.isOwnSheet(reference),
      read: (reference, reader) => this.readReference(reference, reader),
      sheet: (run) => (run === "saved" ? this.sheetAsSaved().sheet : this.sheet),
      custom: (name, formula, run) => this.calls.runner(name, formula, run, options.onStep, (grid) => { this.streamed(formula, grid); }),
    };
    this.facts = { ...this.reads, isVolatile: (called) => this.calls.isVolatile(called) };
    this.recalculation = new Recalculation(
      () => this.graph,
      (formula) => this.run(formula),
      (pending) => { this.failCycles(pending); },
    );
  }

  load(book: ParsedBook): void {
    this.cancelAll();
    for (const formula of this.graph.formulas) formula.generation += 1;
    this.sheet = new Sheet();
    this.graph = new DependencyGraph(this.sheet);
    this.literals.clear();
    this.leftFormulas.clear();
    this.scope = this.options.scope ?? new BookScope(book.names ?? []);
    this.saved = book.saved;
    this.savedSheet = undefined;
    for (const literal of book.literals) this.setLiteral(literal);
    for (const source of book.formulas) {
      this.options.onStep?.();
      this.addFormula(source);
    }
    this.graph.sort();
  }

  /** How far an evaluation is: formulas with their result, of all the sheet's formulas. */
  progress(): { readonly done: number; readonly formulas: number } {
    let done = 0;
    for (const formula of this.graph.formulas) if (formula.state === "done") done += 1;
    return { done, formulas: this.graph.formulas.length };
  }

  /** Recalculates every formula (Excel's full recalculation), proven first where the book has saved values; resolves when each cell has a value. */
  async evaluate(): Promise<void> {
    this.cancelAll();
    for (const formula of this.graph.formulas) {
      this.sheet.clear(formula.row, formula.col);
      formula.generation += 1;
      formula.state = "pending";
      formula.evaluations = 0;
      formula.waitsOn = undefined;
    }
    if (this.saved !== undefined) await this.proveAll(this.saved);
    await this.recalculation.drive();
  }

  /**
   * Applies an edited book as Excel applies an edit: formulas whose text changed, formulas that read a changed
   * cell (directly or through other formulas and spills), spills an entry now blocks or frees, and volatile
   * functions run again; every other result stays. Resolves when each cell has a value.
   */
  async update(book: ParsedBook): Promise<void> {
    const literals = new Map(book.literals.map((literal) => [cellKey(literal.row, literal.col), literal]));
    const formulas = new Map(book.formulas.map((source) => [cellKey(source.row, source.col), source]));
    const keys = new Set<number>([...this.literals.keys(), ...this.graph.keys(), ...literals.keys(), ...formulas.keys()]);
    const touched: RangeRef[] = [];
    for (const key of keys) {
      const oldLiteral = this.literals.get(key);
      const position = positionOfKey(key);
      const oldFormula = this.graph.at(position.row, position.col);
      const newLiteral = literals.get(key);
      const newFormula = formulas.get(key);
      if (oldFormula && newFormula && sameSource(oldFormula, newFormula)) continue;
      if (oldLiteral !== undefined && newLiteral && sameLiteral(oldLiteral, newLiteral.value)) continue;
      if (!oldFormula && oldLiteral === undefined && !newFormula && !newLiteral) continue;
      touched.push(cellRange(position.row, position.col));
      const area = oldFormula ? this.removeFormula(oldFormula) : undefined;
      if (area) touched.push(area);
      if (oldLiteral !== undefined) {
        this.literals.delete(key);
        this.sheet.removeLiteral(position.row, position.col);
      }
      if (newLiteral) this.setLiteral(newLiteral);
      if (newFormula) this.addFormula(newFormula);
    }
    this.graph.sort();
    for (const formula of this.graph.formulas) formula.evaluations = 0;
    this.invalidate(touched);
    for (const formula of this.graph.formulas) {
      if (formula.state === "done" && formula.volatile) this.markPending(formula, []);
    }
    await this.recalculation.drive();
  }

  /** The cells a formula's result covers (the anchor alone for one value or an error); undefined before it has one. */
  spillArea(row: number, col: number): RangeRef | undefined {
    return this.graph.has(cellKey(row, col)) ? this.sheet.areaOf(row, col) : undefined;
  }

  /** Every formula's placement as it stands, in row order (anchors still waiting for a result are left out). */
  spills(): SpillPlacement[] {
    const out: SpillPlacement[] = [];
    for (const formula of this.graph.formulas) {
      const area = this.sheet.areaOf(formula.row, formula.col);
      if (!area) continue;
      const blocked = this.sheet.blockedAreaOf(formula.row, formula.col);
      const anchor = { row: formula.row, col: formula.col };
      out.push(blocked ? { anchor, area, blocked } : { anchor, area });
    }
    return out;
  }

  /** `spills()` as addresses (`B2`, `B2:D5`) for the page's result. */
  spillAddresses(): { readonly anchor: string; readonly area: string }[] {
    return this.sheet.spillAddresses(this.graph.formulas);
  }

  /** True while some formula still waits for its result. */
  get evaluating(): boolean {
    return this.recalculation.running;
  }

  /** Cancels every cancelable or streaming invocation still live (a new book, a recalculation, closing). */
  cancelAll(): void {
    for (const formula of this.graph.formulas) this.calls.cancel(formula);
  }

  /** The custom calls of each formula's latest run, by anchor address. */
  customCalls(): Map<string, { readonly text: string; readonly calls: readonly CustomCallRecord[]; readonly resultRange: string }> {
    return new Map(
      this.graph.formulas
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

  /** Every formula left for Excel, with why, in cell order (its dependents included). */
  leftForExcel(): LeftForExcel[] {
    return leftForExcelOf(this.graph.formulas);
  }

  /** Each formula whose latest run made a call with no answer from the service, whatever it then showed, in cell order. */
  unansweredCalls(): ReturnType<typeof unansweredCallsOf> {
    return unansweredCallsOf(this.graph.formulas);
  }

  /** What the proof said of each formula evaluated and not left for Excel; a book without saved values proves nothing. */
  proofs(): ProofSummary {
    return proofSummary(this.graph.formulas);
  }

  /** The names of the other sheets its formulas read, in lower case. */
  otherSheetsRead(): Set<string> {
    const names = new Set<string>();
    for (const formula of this.graph.formulas) for (const name of formula.otherSheets) names.add(name);
    return names;
  }

  private setLiteral(literal: LiteralCell): void {
    this.literals.set(cellKey(literal.row, literal.col), literal.value);
    this.sheet.setLiteral(literal.row, literal.col, literal.value);
  }

  private addFormula(source: FormulaCellSource): void {
    this.graph.add(formulaCellOf(source, this.facts, this.saved?.cells.get(source.address)));
  }

  /** Drops a formula (a late result of it is ignored); returns the area its result covered. */
  private removeFormula(formula: FormulaCell): RangeRef | undefined {
    this.calls.cancel(formula);
    formula.generation += 1;
    formula.state = "done";
    this.leftFormulas.delete(formula);
    return this.graph.remove(formula);
  }

  /** Proves every formula against the saved book before any runs; one that gives another value is left for Excel with why. */
  private proveAll(saved: SavedValues): Eventually<void> {
    const waiting: Promise<void>[] = [];
    for (const formula of this.graph.formulas) {
      this.options.onStep?.();
      const proof = prove(formula, saved, this.namespace, () => this.evaluateCells(formula, "saved"));
      if (isPending(proof)) waiting.push(proof.then((state) => { formula.proof = state; }));
      else formula.proof = proof;
    }
    return waiting.length === 0 ? undefined : Promise.all(waiting).then(() => undefined);
  }

  /** The sheet as the file saved it (built once per book). */
  private sheetAsSaved(): SavedSheet {
    this.savedSheet ??= new SavedSheet(this.literals, this.graph.formulas, this.saved);
    return this.savedSheet;
  }

  /**
   * Marks pending every formula that reads a touched area, whose spill holds or needed a touched cell, and so on
   * through what those formulas covered, until nothing more is touched.
   */
  private invalidate(touched: RangeRef[]): void {
    const queue = [...touched];
    while (queue.length > 0) {
      const area = queue.pop() as RangeRef;
      for (const formula of this.graph.formulas) {
        if (formula.state !== "pending" && this.graph.touches(formula, area)) this.markPending(formula, queue);
      }
    }
  }

  /** A stream delivered a later value: the formulas that read its cells run again (and theirs in turn); the stream keeps running. */
  private recalculateReaders(formula: FormulaCell): void {
    const area = this.sheet.areaOf(formula.row, formula.col) ?? cellRange(formula.row, formula.col);
    const queue: RangeRef[] = [];
    for (const reader of this.graph.formulas) {
      if (reader !== formula && reader.state !== "pending" && this.graph.reads(reader, area)) this.markPending(reader, queue);
    }
    this.invalidate(queue);
    this.recalculation.drive().catch((error: unknown) => this.options.log?.(`recalculating after ${formula.address}: ${String(error)}`));
  }

  /** Forgets a formula's result so it runs again; what it covered is touched in turn. */
  private markPending(formula: FormulaCell, queue: RangeRef[]): void {
    this.calls.cancel(formula);
    formula.generation += 1;
    formula.state = "pending";
    formula.waitsOn = undefined;
    const area = this.sheet.clear(formula.row, formula.col);
    queue.push(area ?? cellRange(formula.row, formula.col));
    this.recalculation.wakeUp();
  }

  /** Every pending formula waits on another formula's own cell: those on a cycle show an error; the rest follow from it. */
  private failCycles(pending: readonly FormulaCell[]): void {
    for (const cycle of this.graph.cycles(pending)) {
      const names = cycle.map((formula) => formula.address).join(", ");
      for (const formula of cycle) {
        this.sheet.place(formula.row, formula.col, [[cellError("#REF!", `circular reference (${names})`)]]);
        formula.state = "done";
        // Excel's value of a circular reference (0 with a warning, or its iterations) is not the host's to say
        formula.left = `circular reference (${names})`;
        formula.unanswered = undefined;
        this.leftFormulas.add(formula);
      }
    }
  }

  /** One formula's run: done at once when nothing in it waits for a custom call, else a promise settled once it is placed. */
  private run(formula: FormulaCell): Eventually<void> {
    this.options.onStep?.();
    formula.generation += 1;
    formula.evaluations += 1;
    const generation = formula.generation;
    this.calls.cancel(formula);
    formula.calls = [];
    formula.dynamicReads = [];
    formula.waitsOn = undefined;
    // a formula whose saved value the engine does not reproduce keeps Excel's
    formula.left = formula.unsupported ?? (formula.proof?.kind === "disproved" ? formula.proof.why : undefined);
    formula.unanswered = undefined;
    if (formula.left !== undefined) {
      this.finish(formula, generation, [[leftError(formula.left)]]);
      return;
    }
    let grid: Eventually<ResultGrid>;
    try {
      grid = this.evaluateCells(formula, generation);
    } catch (error) {
      this.failed(formula, generation, error);
      return;
    }
    if (!isPending(grid)) {
      this.finish(formula, generation, grid);
      return;
    }
    return grid.then(
      (ready) => { this.finish(formula, generation, ready); },
      (error: unknown) => { this.failed(formula, generation, error); },
    );
  }

  /** A run that stopped: it waits for a formula a reference built as it ran found missing, or it is left for Excel with why. */
  private failed(formula: FormulaCell, generation: number, error: unknown): void {
    if (error instanceof NotReadySignal) {
      if (generation !== formula.generation) return;
      formula.waitsOn = error.formula;
      formula.state = "pending";
      return;
    }
    if (!(error instanceof LeftForExcelSignal)) throw error;
    if (generation !== formula.generation) return;
    formula.left = error.why;
    formula.unanswered = error.unanswered;
    this.finish(formula, generation, [[leftError(error.why)]]);
  }

  /** A run's result placed, unless a later run replaced it. */
  private finish(formula: FormulaCell, generation: number, grid: ResultGrid): void {
    if (generation !== formula.generation) return;
    // results of one answer land together, 10,000 in one stretch: each placement is a step too
    this.options.onStep?.();
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
    for (const reader of this.graph.formulas) {
      if (reader === formula || reader.state !== "done" || reader.evaluations > this.maxRecalculations) continue;
      if (this.graph.reads(reader, after) || (before !== undefined && this.graph.reads(reader, before))) reader.state = "pending";
    }
  }

  /** The cells a formula's run shows: a legacy array formula's fill exactly its area. */
  private evaluateCells(formula: FormulaCell, run: Run): Eventually<ResultGrid> {
    const grid = evaluateFormula(formula.expression, new FormulaContext(this.reads, formula, run), this.namespace);
    const { area } = formula;
    return area === undefined ? grid : andThen(grid, (cells) => fitToArea(cells, area));
  }

  private isOwnSheet(reference: ReferenceExpression): boolean {
    return reference.sheet === undefined || reference.sheet.toLowerCase() === (this.options.sheetName ?? SHEET_NAME).toLowerCase();
  }

  /** The values a reference reads: a range, or the whole result of the formula a spill reference (`A1#`) names; `"saved"` reads the book as saved. */
  private readReference(reference: ReferenceExpression, reader: FormulaCell | "saved"): ArrayValue | CellError {
    if (this.isOwnSheet(reference)) return reader === "saved" ? this.readSaved(reference, "") : this.readOwn(reference, reader);
    const other = this.options.otherSheet?.(reference.sheet ?? "") ?? "the host evaluates each sheet on its own; references to other sheets are not supported";
    // a sheet the host cannot read first (a cycle of sheets, a sheet not given): Excel's value is not known here
    if (typeof other === "string") throw new LeftForExcelSignal(`${reference.text}: ${other}`);
    return reader === "saved" ? other.readSaved(reference, sheetPrefix(reference.sheet ?? "")) : other.readOwn(reference, undefined);
  }

  /** A reference read on this sheet by `reader` (undefined: another sheet reads it). */
  private readOwn(reference: ReferenceExpression, reader: FormulaCell | undefined): ArrayValue | CellError {
    return readOwnSheet({ sheet: this.sheet, graph: this.graph, leftFormulas: this.leftFormulas, sheetName: this.options.sheetName ?? SHEET_NAME }, reference, reader);
  }

  /** A reference read on this sheet as the file saved it (the proof's view). */
  private readSaved(reference: ReferenceExpression, prefix: string): ArrayValue | CellError {
    return this.sheetAsSaved().read(reference, prefix);
  }

  /** A stream's later value for a formula that is just its call: its cells again (a legacy formula's first), and what reads them. */
  private streamed(formula: FormulaCell, grid: ResultGrid): void {
    const shown = resultOf(formula.expression).first ? [[grid[0]?.[0] ?? null]] : grid;
    this.placeAndInvalidate(formula, formula.area === undefined ? shown : fitToArea(shown, formula.area));
    this.recalculateReaders(formula);
    this.options.onChange?.(formula.address);
  }
}

/** The same formula as before: its text, and for a legacy array formula the same area (re-entering it over more cells is an edit). */
function sameSource(before: { readonly text: string; readonly area?: FixedArea }, after: FormulaCellSource): boolean {
  return before.text === after.text && before.area?.rows === after.area?.rows && before.area?.cols === after.area?.cols;
}
