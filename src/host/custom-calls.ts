/**
 * The call of custom functions as Excel makes it: a name resolved against functions.json and functions.js, arguments
 * marshalled (a range lifted into one call per cell), the invocation object, streams, cancellation and the timeout
 * after which a call shows #BUSY!.
 */
import { formatCellAddress } from "../formula/a1";
import { canonicalName } from "../formula/functions";
import { type Deadline, DeadlineQueue } from "../prices/deadline-queue";
import { SHEET_NAME } from "./addresses";
import { type ArgumentInput, type Marshalled, type PreparedCall, marshalArguments } from "./marshal";
import type { FunctionMetadata } from "./metadata";
import { type ResultGrid, thrownToCellValue, toResultGrid } from "./results";
import type { CustomFunction, CustomFunctionsRuntime } from "./runtime";
import { type CellError, type CellValue, cellError, isCellError } from "./values";
import type { FormulaCell } from "./dependency-graph";
import type { Run } from "./formula-context";
import { resultOf } from "./implicit-intersection";
import { UnprovenSignal } from "./proof";
import { LeftForExcelSignal } from "./left-for-excel";

/** A custom function's call as a formula's evaluation makes it: its argument inputs in, its result grid out. */
export type CustomRunner = (inputs: readonly ArgumentInput[]) => Promise<ResultGrid>;

/** One custom function call a formula made: the function (functions.json name), its JavaScript arguments, and where its result went inside the call's own result. */
export interface CustomCallRecord {
  readonly name: string;
  readonly args: readonly unknown[];
  readonly row: number;
  readonly col: number;
  /** Whether this call's result is the formula's whole result (the formula is just this call). */
  readonly whole: boolean;
}

/** The calling formula as the calls see it: where it is, and where its calls and cancel handlers are recorded. */
export interface CallingFormula {
  readonly row: number;
  readonly col: number;
  readonly address: string;
  calls: CustomCallRecord[];
  cancels: (() => void)[];
}

type LiftedCalls = Extract<Marshalled, { kind: "calls" }>;

interface Resolved {
  readonly metadata: FunctionMetadata;
  readonly implementation: CustomFunction;
}

/** Worksheet functions that give a new value on every recalculation. */
const VOLATILE_FUNCTIONS = new Set(["TODAY", "NOW", "RAND", "RANDBETWEEN", "OFFSET", "INDIRECT"]);

export class CustomCalls {
  private readonly functions = new Map<string, FunctionMetadata>();
  private readonly deadlines: DeadlineQueue;
  /** What every pending call shares, in one object rather than three fields each. */
  private readonly pending: PendingCalls;
  private readonly resolved = new Map<string, Resolved & { readonly id: string }>();
  /** Calls made since the last stretch in which queued calls started. */
  private queued: QueuedCall[] = [];

  constructor(
    private readonly runtime: CustomFunctionsRuntime,
    metadata: readonly FunctionMetadata[],
    readonly namespace: string,
    private readonly timeoutMs: number,
    private readonly log?: (message: string) => void,
    /** Whether a call with no answer from the service about its cell leaves its formula for Excel (EngineOptions.leaveUnanswered). */
    private readonly leaveUnanswered = false,
  ) {
    this.deadlines = new DeadlineQueue(timeoutMs);
    this.pending = { deadlines: this.deadlines, timeoutMs, log };
    for (const fn of metadata) this.functions.set(fn.name.toUpperCase(), fn);
  }

  /** Whether a name as written (`_xldudf_PRICES_MID`, `prices.mid`) is one of the namespace's functions. */
  isCustom(name: string): boolean {
    return canonicalName(name, this.namespace).startsWith(`${this.namespace}.`);
  }

  /** Whether calling these functions (canonical names) gives a new value on every recalculation. */
  isVolatile(called: readonly string[]): boolean {
    return called.some((canonical) => {
      if (VOLATILE_FUNCTIONS.has(canonical)) return true;
      const resolved = canonical.startsWith(`${this.namespace}.`) ? this.resolve(canonical) : undefined;
      return resolved !== undefined && !isCellError(resolved) && resolved.metadata.options.volatile;
    });
  }

  resolve(name: string): Resolved | CellError {
    // 10,000 calls of one name resolve once; a later association of another implementation is still seen
    const known = this.resolved.get(name);
    if (known !== undefined && this.runtime.implementations.get(known.id) === known.implementation) return known;
    const found = this.lookUp(name);
    if (!isCellError(found)) this.resolved.set(name, found);
    return found;
  }

  private lookUp(name: string): (Resolved & { readonly id: string }) | CellError {
    const upper = name.toUpperCase();
    const prefix = `${this.namespace}.`;
    const metadata = upper.startsWith(prefix) ? this.functions.get(upper.slice(prefix.length)) : undefined;
    if (!metadata) return cellError("#NAME?", `unknown function ${name}`);
    const id = metadata.id.toUpperCase();
    const implementation = this.runtime.implementations.get(id);
    if (!implementation) return cellError("#NAME?", `${name} is in functions.json but functions.js did not associate ${metadata.id}`);
    return { metadata, implementation, id };
  }

  /**
   * What a custom call `name` in one run of `formula` does (undefined when the name is not the namespace's): `run` is
   * the run's generation, or the proof's evaluation over the saved book, which calls nothing (its old value is not
   * saved on its own). `streamed` hears a stream's later result when the call is the whole formula.
   */
  runner(name: string, formula: FormulaCell, run: Run, onStep: (() => void) | undefined, streamed: (grid: ResultGrid) => void): CustomRunner | undefined {
    if (!name.startsWith(`${this.namespace}.`)) return undefined;
    return (inputs) => {
      if (run === "saved") return Promise.reject(new UnprovenSignal(`calls ${name}, whose old value the file does not hold on its own`));
      // the calls run in one stretch of continuations after every formula has started (arguments that were ready
      // at once too), so an edit made meanwhile replaces a run before it calls anything: each is a step. Queued, not
      // a continuation each: the call's own promise is the formula's, with no promise adopting it (10,000 on a model).
      return new Promise<ResultGrid>((resolve, reject) => {
        this.queued.push(new QueuedCall(name, formula, run, onStep, streamed, inputs, resolve, reject));
        if (this.queued.length === 1) queueMicrotask(this.drain);
      });
    };
  }

  /** Starts the queued calls in the order queued (one queued meanwhile too). */
  private readonly drain = (): void => {
    const queued = this.queued;
    for (let index = 0; index < queued.length; index += 1) {
      const call = queued[index] as QueuedCall;
      try {
        this.start(call);
      } catch (thrown) {
        call.reject(thrown);
      }
    }
    this.queued = [];
  };

  private start(queued: QueuedCall): void {
    const { name, formula, run, inputs } = queued;
    queued.inputs = NO_INPUTS;
    queued.onStep?.();
    const resolved = this.resolve(name);
    if (isCellError(resolved)) {
      queued.resolve([[resolved]]);
      return;
    }
    // An edit replaced this run while its arguments were evaluated: its result would be dropped, so call nothing.
    if (run !== formula.generation) {
      queued.resolve([[cellError("#BUSY!")]]);
      return;
    }
    // A call that is the whole formula updates its cells with a stream's later values; a nested one keeps its first.
    const result = resultOf(formula.expression).expression;
    queued.whole = result.kind === "call" && canonicalName(result.name, this.namespace) === name;
    const resolve = this.leaveUnanswered ? leavingUnanswered(queued.resolve, queued.reject) : notingUnanswered(formula, run, queued.resolve);
    this.call(formula, resolved, name, inputs, queued.whole, queued, resolve, queued.reject);
  }

  /**
   * Calls a resolved function with a formula's argument inputs (lifted over a range when Excel would): `resolve` hears
   * its first result, `listener` the whole result again when a stream delivers a later value.
   */
  private call(
    formula: CallingFormula,
    resolved: Resolved,
    displayName: string,
    inputs: readonly ArgumentInput[],
    whole: boolean,
    listener: LaterResults,
    resolve: (grid: ResultGrid) => void,
    reject: (thrown: unknown) => void,
  ): void {
    const marshalled = marshalArguments(resolved.metadata, inputs, displayName);
    if (marshalled.kind === "error") {
      resolve([[marshalled.error]]);
      return;
    }
    for (const call of marshalled.calls) {
      if (!isCellError(call.args)) formula.calls.push({ name: resolved.metadata.name, args: call.args, row: call.row, col: call.col, whole });
    }
    // one call, not lifted over a range (a model's =PRICES.MID($A2,B$1)): its outcome is the formula's, with no grid
    // to assemble and no async frame of its own
    if (!marshalled.lifted) {
      const [only] = marshalled.calls;
      if (only === undefined) resolve([[cellError("#BUSY!")]]);
      else this.invoke(formula, resolved, only, listener, resolve);
      return;
    }
    this.lifted(formula, resolved, marshalled, (grid) => { listener.later(grid); }).then(resolve, reject);
  }

  /** A call lifted over a range: one invocation per cell, assembled into the formula's grid (again on a stream's later value). */
  private async lifted(formula: CallingFormula, resolved: Resolved, marshalled: LiftedCalls, later: (grid: ResultGrid) => void): Promise<ResultGrid> {
    const outcomes: ResultGrid[] = [];
    const assemble = (): ResultGrid => {
      const grid: ResultGrid = Array.from({ length: marshalled.rows }, () => new Array<CellValue>(marshalled.cols).fill(null));
      marshalled.calls.forEach((call, index) => {
        const outcome = outcomes[index];
        const single = outcome && outcome.length === 1 && outcome[0]?.length === 1;
        const row = grid[call.row];
        if (row) row[call.col] = single ? (outcome[0]?.[0] ?? null) : cellError("#CALC!", "a lifted call returned an array (nested arrays aren't supported)");
      });
      return grid;
    };
    await Promise.all(
      marshalled.calls.map(async (call, index) => {
        outcomes[index] = await new Promise<ResultGrid>((resolve) => {
          const listener = {
            later: (grid: ResultGrid) => {
              outcomes[index] = grid;
              later(assemble());
            },
          };
          this.invoke(formula, resolved, call, listener, resolve);
        });
      }),
    );
    return assemble();
  }

  /** One call; `resolve` hears the first result (return value, rejection, first setResult) or the timeout. */
  private invoke(formula: CallingFormula, resolved: Resolved, call: PreparedCall, listener: LaterResults, resolve: (grid: ResultGrid) => void): void {
    if (isCellError(call.args)) {
      resolve([[call.args]]);
      return;
    }
    const args = call.args;
    const { metadata, implementation } = resolved;
    const options = metadata.options;
    const outcome = new PendingCall(this.pending, metadata, resolve, listener, formula);
    this.deadlines.schedule(outcome);
    const invocation = invocationFor(formula, metadata, call, outcome);
    try {
      const returned = implementation(...args, invocation);
      if (options.stream) {
        if (isThenable(returned)) returned.then(undefined, (thrown: unknown) => { outcome.failed(thrown); });
        return;
      }
      follow(returned, outcome);
    } catch (thrown) {
      outcome.failed(thrown);
    }
  }

  /** Calls every cancel handler a formula's calls registered (a new book, a recalculation, closing). */
  cancel(formula: CallingFormula): void {
    // most formulas registered none (all but the streaming and cancelable calls): no new empty list for each
    if (formula.cancels.length === 0) return;
    const cancels = formula.cancels;
    formula.cancels = [];
    for (const cancel of cancels) {
      try {
        cancel();
      } catch (error) {
        this.log?.(`onCanceled of ${formula.address} threw: ${String(error)}`);
      }
    }
  }
}

/**
 * `resolve` for a call whose first result holding an error with no answer from the service about its cell rejects
 * instead, with the signal that leaves the formula for Excel (its readers follow): a grid with one such cell is not
 * written in part, and IFERROR around the call does not turn it into a value.
 */
function leavingUnanswered(resolve: (grid: ResultGrid) => void, reject: (thrown: unknown) => void): (grid: ResultGrid) => void {
  return (grid) => {
    const error = unansweredIn(grid);
    if (error?.unanswered === undefined) resolve(grid);
    else reject(new LeftForExcelSignal(error.message ?? error.code, { kind: error.unanswered }));
  };
}

/**
 * `resolve` for a call whose formula shows what it makes of the result: one holding no answer from the service is
 * noted on the formula, so a JSON book reports it even where IFERROR or ISNA turned it into a value.
 */
function notingUnanswered(formula: FormulaCell, run: number, resolve: (grid: ResultGrid) => void): (grid: ResultGrid) => void {
  return (grid) => {
    const error = unansweredIn(grid);
    if (error?.unanswered !== undefined) formula.unansweredCall = { run, kind: error.unanswered, why: error.message ?? error.code };
    resolve(grid);
  };
}

/** The first cell of a result that is an error with no answer from the service about it. */
function unansweredIn(grid: ResultGrid): CellError | undefined {
  for (const row of grid) {
    for (const cell of row) if (isCellError(cell) && cell.unanswered !== undefined) return cell;
  }
  return undefined;
}

interface PendingCalls {
  readonly deadlines: DeadlineQueue;
  readonly timeoutMs: number;
  readonly log: ((message: string) => void) | undefined;
}

/** Who hears a call's results after its first (a stream's later values). */
interface LaterResults {
  later(grid: ResultGrid): void;
}

const NO_INPUTS: readonly ArgumentInput[] = [];

/** A formula's call waiting for the stretch in which the queued calls start; then the listener of its stream's later values. */
class QueuedCall implements LaterResults {
  /** Whether the call is the whole formula (known once it starts). */
  whole = false;

  constructor(
    readonly name: string,
    readonly formula: FormulaCell,
    readonly run: Run,
    readonly onStep: (() => void) | undefined,
    private readonly streamed: (grid: ResultGrid) => void,
    /** Dropped once the call starts: nothing of the arguments is kept while it waits. */
    public inputs: readonly ArgumentInput[],
    readonly resolve: (grid: ResultGrid) => void,
    readonly reject: (thrown: unknown) => void,
  ) {}

  later(grid: ResultGrid): void {
    const formula = this.formula;
    if (this.whole && this.run === formula.generation && formula.state === "done") this.streamed(grid);
  }
}

/**
 * A call waiting for its first result, and its own #BUSY! deadline in the queue: one object per call for what were
 * four closures and a queue record (10,000 waiting at once on a model). A result after the first goes to `listener`.
 */
class PendingCall implements Deadline {
  due: number | undefined = undefined;
  private settled = false;

  constructor(
    private readonly calls: PendingCalls,
    private readonly metadata: FunctionMetadata,
    private readonly resolve: (grid: ResultGrid) => void,
    private readonly listener: LaterResults,
    private readonly formula: CallingFormula,
  ) {}

  expired(): void {
    // no answer in time says nothing of the cell's price: marked so a workbook file keeps its saved value
    this.finish([[cellError("#BUSY!", `no result after ${this.calls.timeoutMs} ms`, "timeout")]]);
  }

  returned(value: unknown): void {
    this.finish(toResultGrid(this.metadata, value));
  }

  failed(thrown: unknown): void {
    if (thrown !== null && typeof thrown === "object" && !("code" in thrown)) {
      this.calls.log?.(`${this.formula.address}: ${this.metadata.name} threw ${thrownText(thrown)}`);
    }
    this.finish([[thrownToCellValue(thrown)]]);
  }

  private finish(grid: ResultGrid): void {
    if (this.settled) {
      this.listener.later(grid);
      return;
    }
    this.settled = true;
    this.calls.deadlines.cancel(this);
    this.resolve(grid);
  }
}

/** The invocation object a call gets (Excel's `CustomFunctions.Invocation`), its setResult and onCanceled wired to the call. */
function invocationFor(formula: CallingFormula, metadata: FunctionMetadata, call: PreparedCall, outcome: PendingCall): Record<string, unknown> {
  const options = metadata.options;
  const invocation: Record<string, unknown> = { functionName: metadata.name, isInValuePreview: false };
  if (options.requiresAddress) invocation.address = `${SHEET_NAME}!${formatCellAddress({ row: formula.row + call.row, col: formula.col + call.col })}`;
  if (options.requiresParameterAddresses) invocation.parameterAddresses = [...call.parameterAddresses];
  if (options.stream) invocation.setResult = (value: unknown) => { outcome.returned(value); };
  if (options.stream || options.cancelable) {
    formula.cancels.push(() => {
      const handler = invocation.onCanceled;
      if (typeof handler === "function") (handler as () => void)();
    });
  }
  return invocation;
}

/**
 * A function's return value to its call: a promise (of the bundle's realm) followed as it is, as Promise.resolve would
 * wrap it in one more per call; the handlers' one context holds the call alone (not the formula or the invocation).
 */
function follow(returned: unknown, outcome: PendingCall): void {
  const followed = isNativePromise(returned) ? returned : Promise.resolve(returned);
  followed.then((value) => { outcome.returned(value); }, (thrown: unknown) => { outcome.failed(thrown); });
}

/** A native promise of any realm (the bundle's context has its own Promise): it calls one of its handlers, once. */
function isNativePromise(value: unknown): value is Promise<unknown> {
  return Object.prototype.toString.call(value) === "[object Promise]";
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** A thrown object as a log shows it: an Error as "Name: message", any other object as its JSON when it has one. */
function thrownText(thrown: object): string {
  if (thrown instanceof Error) return String(thrown);
  try {
    return JSON.stringify(thrown);
  } catch {
    return "an object with no JSON form";
  }
}
