/**
 * Recalculation for the workbench: each run evaluates the whole sheet with a fresh host engine (Excel's full
 * recalculation; the functions' client cache makes repeats cheap), and a newer run supersedes an older one.
 */
import { readBook } from "../host/book";
import { WorkbookEngine } from "../host/engine";
import type { FunctionMetadata } from "../host/metadata";
import type { CustomFunctionsRuntime } from "../host/runtime";
import type { CellValue } from "../host/values";
import type { BookContent } from "./cells";

export interface CalculatorOptions {
  readonly runtime: CustomFunctionsRuntime;
  readonly metadata: readonly FunctionMetadata[];
  readonly timeoutMs?: number;
  readonly log?: (message: string) => void;
  /** Called when a run finished (or a streaming value arrived). */
  readonly onSettled?: () => void;
}

export class Calculator {
  private engine: WorkbookEngine | undefined;
  private run = 0;
  private running: Promise<void> = Promise.resolve();
  private busy = false;

  constructor(private readonly options: CalculatorOptions) {}

  /** Starts a full recalculation of `book`; resolves when this run (or a newer one) has every value. */
  recalculate(book: { cells: Record<string, BookContent> }): Promise<void> {
    this.engine?.cancelAll();
    const engine = new WorkbookEngine({
      runtime: this.options.runtime,
      metadata: this.options.metadata,
      ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
      ...(this.options.log ? { log: this.options.log } : {}),
      onChange: () => this.options.onSettled?.(),
    });
    engine.load(readBook(book));
    this.engine = engine;
    this.run += 1;
    const run = this.run;
    this.busy = true;
    const evaluation = engine.evaluate().then(() => {
      if (run !== this.run) return this.running;
      this.busy = false;
      this.options.onSettled?.();
      return undefined;
    });
    this.running = evaluation;
    return evaluation;
  }

  /** True while the latest run still waits for some function. */
  get evaluating(): boolean {
    return this.busy;
  }

  /** Resolves when the latest run, and any run started meanwhile, has finished. */
  async settled(): Promise<void> {
    for (;;) {
      const current = this.running;
      await current;
      if (current === this.running) return;
    }
  }

  value(row: number, col: number): CellValue {
    return this.engine?.value(row, col) ?? null;
  }
}
