/**
 * Recalculation for the workbench over one host engine: an edit re-runs only the formulas it touches (as Excel
 * does), a full recalculation (refresh, a new sign-in) runs them all; a newer run takes over an older one.
 */
import type { RangeRef } from "../formula/a1";
import { readBook } from "../host/book";
import { type SpillPlacement, WorkbookEngine } from "../host/engine";
import type { FunctionMetadata } from "../host/metadata";
import type { CustomFunctionsRuntime } from "../host/runtime";
import type { ResultCell } from "../host/rich-cells";
import type { CellValue } from "../host/values";
import type { BookContent } from "./cells";

export interface CalculatorOptions {
  readonly runtime: CustomFunctionsRuntime;
  readonly metadata: readonly FunctionMetadata[];
  readonly timeoutMs?: number;
  readonly log?: (message: string) => void;
  /** Called when results changed (a formula settled, a streaming value arrived, a run finished). */
  readonly onSettled?: () => void;
}

export class Calculator {
  private readonly engine: WorkbookEngine;
  private running: Promise<void> = Promise.resolve();
  /** When each streaming cell (PRICES.LIVE) last delivered a later value, by anchor address. */
  private readonly changedAt = new Map<string, number>();

  constructor(private readonly options: CalculatorOptions) {
    this.engine = new WorkbookEngine({
      runtime: options.runtime,
      metadata: options.metadata,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.log ? { log: options.log } : {}),
      onChange: (address) => {
        this.changedAt.set(address, Date.now());
        options.onSettled?.();
      },
      onPlaced: () => options.onSettled?.(),
    });
  }

  /** Applies the book as an edit: only what changed, and what reads it, runs again. */
  update(book: { cells: Record<string, BookContent> }): Promise<void> {
    return this.track(this.engine.update(readBook(book)));
  }

  /** Runs every formula of `book` again (Excel's full recalculation). */
  recalculate(book: { cells: Record<string, BookContent> }): Promise<void> {
    this.engine.load(readBook(book));
    return this.track(this.engine.evaluate());
  }

  /** True while some formula still waits for its result. */
  get evaluating(): boolean {
    return this.engine.evaluating;
  }

  /** Resolves when the latest run, and any run started meanwhile, has finished. */
  async settled(): Promise<void> {
    for (;;) {
      const current = this.running;
      await current;
      if (current === this.running) return;
    }
  }

  /** When a live cell last changed by itself (undefined before its first update). */
  lastChanged(address: string): number | undefined {
    return this.changedAt.get(address);
  }

  value(row: number, col: number): CellValue {
    return this.engine.value(row, col);
  }

  /** The cell with its data type, if its formula returned one (src/workbench/card-view.ts). */
  resultCell(row: number, col: number): ResultCell {
    return this.engine.resultCell(row, col);
  }

  spillArea(row: number, col: number): RangeRef | undefined {
    return this.engine.spillArea(row, col);
  }

  spills(): SpillPlacement[] {
    return this.engine.spills();
  }

  private track(run: Promise<void>): Promise<void> {
    const done = run.then(() => this.options.onSettled?.());
    this.running = done;
    return done;
  }
}
