/** What every function needs: the client (or the reason there is none), the error maker, today and a deadline. */
import type { AskOptions, PriceKey, PriceRecord, PricesClient, Waiter } from "../prices/types";
import type { DataTypeSupport, ValueMode } from "./data-types";
import { describeFailure, NoAnswerError, type MakeError } from "./errors";
import type { DateSystem } from "../formula/excel-dates";
import { CellFailure } from "./shape";
import { DeadlineQueue, type Mapped, settleWithin } from "../prices/deadline-queue";
import { memo } from "./memo";

/** The part of the prices client the functions use (tests pass a small recording object). */
export type FunctionsClient = Pick<PricesClient, "price" | "priceInto" | "history" | "instrument" | "instruments" | "references">;

export interface FunctionsContext {
  /** The configured client (one that waits for it while a sign-in hands it over); throws NotAvailableError("sign in from the Prices pane") before sign-in. */
  client(): FunctionsClient;
  makeError: MakeError;
  /** Today's date, `YYYY-MM-DD`: the end of a history without `to`. */
  today(): string;
  /** A call still unanswered after this many ms settles as #N/A, so no cell stays #BUSY!. */
  deadlineMs: number;
  /** The workbook's date system: serials in arguments and results follow it. */
  readonly dateSystem: DateSystem;
  /** Plain numbers (default) or numbers that carry their record, where `dataTypes` allows. */
  readonly valueMode?: ValueMode;
  /** What the host shows of Excel's data types (none unless it says so). */
  readonly dataTypes?: DataTypeSupport;
}

/** What the functions read of Excel's invocation object (`CustomFunctions.Invocation`). */
export interface CallInvocation {
  /** True while Excel shows the formula's value preview as the user types: no request may be sent then. (Office's typings say string.) */
  isInValuePreview?: boolean | string;
}

/** The share of a cell's deadline its requests may spend, so that a slow failure is named before the deadline shows. */
export const CLIENT_SHARE_OF_DEADLINE = 0.75;

/**
 * The context of one call. Every key it asks settles within the client's share of the cell's deadline counted
 * from the call's start, however many asks it makes one after another (FORECAST: references, latest price,
 * history). In Excel's value preview, a client that answers from its cache only (a key in flight is joined),
 * so typing a formula never sends a request.
 */
export function forInvocation(context: FunctionsContext, invocation: CallInvocation | undefined, now: () => number = Date.now): FunctionsContext {
  const preview = invocation?.isInValuePreview;
  return new InvocationContext(context, preview === true || preview === "true", now() + Math.floor(context.deadlineMs * CLIENT_SHARE_OF_DEADLINE), now);
}

/** One call's context: the outer one's, with the call's own deadline (a class: a model calls it 10,000 times at once). */
class InvocationContext implements FunctionsContext {
  constructor(
    private readonly outer: FunctionsContext,
    private readonly cachedOnly: boolean,
    private readonly deadline: number,
    private readonly now: () => number,
  ) {}

  client(): FunctionsClient {
    return new DeadlineClient(this.outer.client(), this);
  }

  askOptions(): AskOptions {
    const timeLeftMs = this.deadline - this.now();
    return this.cachedOnly ? { cachedOnly: true, timeLeftMs } : { timeLeftMs };
  }

  get makeError(): MakeError {
    return this.outer.makeError;
  }

  today(): string {
    return this.outer.today();
  }

  get deadlineMs(): number {
    return this.outer.deadlineMs;
  }

  get dateSystem(): DateSystem {
    return this.outer.dateSystem;
  }

  get valueMode(): ValueMode | undefined {
    return this.outer.valueMode;
  }

  get dataTypes(): DataTypeSupport | undefined {
    return this.outer.dataTypes;
  }
}

/** The client as one call sees it: every ask carries the time left of the call's deadline. */
class DeadlineClient implements FunctionsClient {
  constructor(
    private readonly client: FunctionsClient,
    private readonly call: InvocationContext,
  ) {}

  price(key: Parameters<FunctionsClient["price"]>[0]): ReturnType<FunctionsClient["price"]> {
    return this.client.price(key, this.call.askOptions());
  }

  priceInto(key: PriceKey, _options: AskOptions | undefined, waiter: Waiter<PriceRecord>): void {
    askPriceInto(this.client, key, this.call.askOptions(), waiter);
  }

  history(key: Parameters<FunctionsClient["history"]>[0]): ReturnType<FunctionsClient["history"]> {
    return this.client.history(key, this.call.askOptions());
  }

  instrument(symbol: string, fields?: readonly string[]): ReturnType<FunctionsClient["instrument"]> {
    return this.client.instrument(symbol, fields, this.call.askOptions());
  }

  instruments(fields?: readonly string[]): ReturnType<FunctionsClient["instruments"]> {
    return this.client.instruments(fields, this.call.askOptions());
  }

  references(type: Parameters<FunctionsClient["references"]>[0]): ReturnType<FunctionsClient["references"]> {
    return this.client.references(type, this.call.askOptions());
  }
}

/** Default deadline: longer than the client's own timeouts and retries, so it only catches what slips through. */
export const DEFAULT_DEADLINE_MS = 120_000;

/** A key's price handed to `waiter`: the client's own `priceInto`, or its `price`'s answer where it has none (tests' recording clients). */
export function askPriceInto(client: FunctionsClient, key: PriceKey, options: AskOptions | undefined, waiter: Waiter<PriceRecord>): void {
  if (client.priceInto) client.priceInto(key, options, waiter);
  else client.price(key, options).then((record) => { waiter.answered(record); }, (error: unknown) => { waiter.failed(error); });
}

/**
 * Runs one function call: the result, or the call's error thrown as the caller's error value.
 * Settles within `deadlineMs` whatever the client does.
 */
export function run<T>(context: FunctionsContext, body: () => Promise<T> | Mapped<unknown, T>): Promise<T> {
  return settleWithin(deadlineQueue(context.deadlineMs), body, lateAfter(context.deadlineMs), failureAs(context.makeError));
}

/** One queue per deadline length (calls of one length expire in the order they started): one timer for every call. */
const deadlineQueue = memo((ms: number) => new DeadlineQueue(ms));

/** The error of a call with no answer by its deadline (one function per length, not a closure per call). */
const lateAfter = memo((ms: number) => () => new NoAnswerError(`no answer from the service within ${Math.round(ms / 1000)} s; recalculate to try again`));

/** A call's failure as the caller's error value, one function per error maker (a session has one). */
const failureMakers = new WeakMap<MakeError, (error: unknown) => unknown>();

function failureAs(makeError: MakeError): (error: unknown) => unknown {
  let make = failureMakers.get(makeError);
  if (make === undefined) {
    make = (error) => {
      const failure = error instanceof CellFailure ? error.failure : describeFailure(error);
      return makeError(failure.code, failure.message, failure.unanswered);
    };
    failureMakers.set(makeError, make);
  }
  return make;
}
