/**
 * One timer for many deadlines of one length: calls started one after another expire in the order they started, so
 * a queue in that order and a timer for its head stand in for a timer per call (the 20,050-cell model's 10,000
 * PRICES calls: one timer, not 10,000 set and cleared). The engine's #BUSY! deadline and each function call's own.
 */
import type { Waiter } from "./types";

/** What waits in the queue: told `expired()` once its time is up, unless cancelled first. */
export interface Deadline {
  /** Set by the queue: when the time is up (epoch ms), or undefined while not queued. */
  due: number | undefined;
  expired(): void;
}

/** A deadline that calls a function: the form of `add`, for callers that keep no object of their own. */
class ExpiringCall implements Deadline {
  due: number | undefined = undefined;
  constructor(private readonly expire: () => void) {}

  expired(): void {
    this.expire();
  }
}

/** Array slots a cancelled or expired deadline may keep before the queue is compacted. */
const COMPACT_AFTER = 1024;

export class DeadlineQueue {
  /** In the order queued (so in the order due); cancelled ones stay until the head passes them. */
  private entries: Deadline[] = [];
  private head = 0;
  /** Queued and neither cancelled nor expired. */
  private live = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ms: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Calls `expire` after the queue's time unless the returned function is called first. */
  add(expire: () => void): () => void {
    const entry = new ExpiringCall(expire);
    this.schedule(entry);
    return () => { this.cancel(entry); };
  }

  /**
   * Queues `entry`: its `expired()` is called after the queue's time unless `cancel(entry)` comes first. An object the
   * caller keeps anyway (a pending call) serves as its own entry: no closure or record per call.
   */
  schedule(entry: Deadline): void {
    entry.due = this.now() + this.ms;
    // cancelled ones wait for the head to pass them: dropped here when they outnumber the live ones (a long session)
    if (this.entries.length >= COMPACT_AFTER && this.entries.length - this.head > 2 * this.live + COMPACT_AFTER) {
      this.entries = this.entries.slice(this.head).filter((queued) => queued.due !== undefined);
      this.head = 0;
    }
    this.entries.push(entry);
    this.live += 1;
    this.arm();
  }

  /** Takes `entry` out of the queue; nothing when it was not queued (cancelled already, or expired). */
  cancel(entry: Deadline): void {
    if (entry.due === undefined) return;
    entry.due = undefined;
    this.live -= 1;
    if (this.live > 0) return;
    this.entries = [];
    this.head = 0;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /** A timer for the first deadline still queued, unless one is set. */
  private arm(): void {
    if (this.timer !== undefined) return;
    const entries = this.entries;
    while (this.head < entries.length && entries[this.head]?.due === undefined) this.head += 1;
    const due = entries[this.head]?.due;
    if (due === undefined) return;
    this.timer = setTimeout(() => { this.fire(); }, Math.max(0, due - this.now()));
  }

  private fire(): void {
    this.timer = undefined;
    const now = this.now();
    // this.entries read afresh each turn: an expiry may cancel the last deadline (a new, empty array) or queue another
    while (this.head < this.entries.length) {
      const entry = this.entries[this.head] as Deadline;
      const due = entry.due;
      if (due !== undefined && due > now) break;
      this.head += 1;
      if (due === undefined) continue;
      entry.due = undefined;
      this.live -= 1;
      entry.expired();
    }
    if (this.head >= COMPACT_AFTER && this.head * 2 >= this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    this.arm();
  }
}

/**
 * A task's answer still to be made into its result: an object that hands its source's answer to a waiter, and the
 * making, so the settling itself waits on the source (no promise, reaction or closure of the task's own per call).
 */
export interface Mapped<S, T> {
  /** Hands the source's value or failure to `waiter`, once. */
  follow(waiter: Waiter<S>): void;
  map(value: S): T;
}

function isMapped<T>(outcome: Promise<T> | Mapped<unknown, T>): outcome is Mapped<unknown, T> {
  return typeof (outcome as Partial<Mapped<unknown, T>>).follow === "function";
}

/** One settleWithin: the deadline entry itself, holding the outer promise's settlers (no closure per call). */
class Settling<T> implements Deadline, Waiter<unknown> {
  due: number | undefined = undefined;
  /** Set when the task answered with a source still to be mapped. */
  mapping: Mapped<unknown, T> | undefined = undefined;

  constructor(
    private readonly queue: DeadlineQueue,
    private readonly resolve: (value: T) => void,
    private readonly reject: (error: unknown) => void,
    private readonly late: () => Error,
    private readonly failure: (error: unknown) => unknown,
  ) {}

  expired(): void {
    this.reject(this.failure(this.late()));
  }

  fulfilled(value: T): void {
    this.queue.cancel(this);
    this.resolve(value);
  }

  /** The source's value, made into the result (a throw of the making is the task's failure). */
  answered(value: unknown): void {
    let result: T;
    try {
      result = (this.mapping as Mapped<unknown, T>).map(value);
    } catch (error) {
      this.failed(error);
      return;
    }
    this.fulfilled(result);
  }

  failed(error: unknown): void {
    this.queue.cancel(this);
    this.reject(this.failure(error));
  }
}

const asItIs = (error: unknown): unknown => error;

/**
 * `task`'s result, or `late()` once `queue`'s time has passed, whichever comes first: withTimeout for a task that needs
 * no signal, at the cost of one queue entry (no timer, abort signal or race per call). `failure` makes the error a
 * failure (the task's or the late one) rejects with: one function for every call, not a catch (an async frame) per call.
 */
export function settleWithin<T>(queue: DeadlineQueue, task: () => Promise<T> | Mapped<unknown, T>, late: () => Error, failure: (error: unknown) => unknown = asItIs): Promise<T> {
  let settling: Settling<T> | undefined;
  const settled = new Promise<T>((resolve, reject) => {
    settling = new Settling<T>(queue, resolve, reject, late, failure);
  });
  const entry = settling as Settling<T>;
  queue.schedule(entry);
  follow(task, entry);
  return settled;
}

/** The task's outcome to its entry: the handlers' one context holds the entry alone (kept while the task waits). */
function follow<T>(task: () => Promise<T> | Mapped<unknown, T>, entry: Settling<T>): void {
  try {
    const outcome = task();
    if (isMapped(outcome)) {
      entry.mapping = outcome;
      outcome.follow(entry);
      return;
    }
    outcome.then(
      (value) => { entry.fulfilled(value); },
      (error: unknown) => { entry.failed(error); },
    );
  } catch (error) {
    entry.failed(error);
  }
}
