/** How a sheet's engine is set up, and where its results went (src/host/engine.ts). */
import type { CellPosition, RangeRef } from "../formula/a1";
import type { DateSystem } from "../formula/excel-dates";
import type { BookScope } from "./book-scope";
import type { WorkbookEngine } from "./engine";
import type { FunctionMetadata } from "./metadata";
import type { CustomFunctionsRuntime } from "./runtime";

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
  /** Called when a streaming function delivers a later value, with its formula's address (the workbench shows when a live cell last changed). */
  readonly onChange?: (address: string) => void;
  /** Called when a formula's result was placed (or #SPILL! shown), so a view can redraw as values arrive. */
  readonly onPlaced?: () => void;
  /** Called at each formula loaded, proven, started or placed and each custom call: a caller can report progress from inside one long synchronous stretch. */
  readonly onStep?: () => void;
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
  /**
   * A formula whose custom call has no answer from the service about its cell (unreachable, 5xx, 429, auth, timeout:
   * src/functions/errors.ts) is left for Excel with why, its readers with it, rather than show the error: a file's
   * saved value stays (the runner's workbook files). Default false: the error shows, as in Excel.
   */
  readonly leaveUnanswered?: boolean;
}

/** Where one formula's result went: the cells it covers, and for #SPILL! the area it needed. */
export interface SpillPlacement {
  readonly anchor: CellPosition;
  readonly area: RangeRef;
  readonly blocked?: RangeRef;
}
