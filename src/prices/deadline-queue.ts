/**
 * One timer for many deadlines of one length: calls started one after another expire in the order they started, so
 * a queue in that order and a timer for its head stand in for a timer per call (the 20,050-cell model's 10,000
 * PRICES calls: one timer, not 10,000 set and cleared). The engine's #BUSY! deadline and each function call's own.
 */
export class DeadlineQueue {
  private readonly waiting = new Map<number, { readonly at: number; readonly expire: () => void }>();
  private next = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ms: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Calls `expire` after the queue's time unless the returned function is called first. */
  add(expire: () => void): () => void {
    const id = this.next;
    this.next += 1;
    this.waiting.set(id, { at: this.now() + this.ms, expire });
    this.arm();
    return () => {
      this.waiting.delete(id);
      if (this.waiting.size === 0 && this.timer !== undefined) {
        clearTimeout(this.timer);
        this.timer = undefined;
      }
    };
  }

  private arm(): void {
    if (this.timer !== undefined) return;
    const head = this.waiting.values().next();
    if (head.done === true) return;
    this.timer = setTimeout(() => { this.fire(); }, Math.max(0, head.value.at - this.now()));
  }

  private fire(): void {
    this.timer = undefined;
    const now = this.now();
    for (const [id, entry] of this.waiting) {
      if (entry.at > now) break;
      this.waiting.delete(id);
      entry.expire();
    }
    this.arm();
  }
}

/**
 * `task`'s result, or `late()` once `queue`'s time has passed, whichever comes first: withTimeout for a task that needs
 * no signal, at the cost of one queue entry (no timer, abort signal or race per call).
 */
export function settleWithin<T>(queue: DeadlineQueue, task: () => Promise<T>, late: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const done = queue.add(() => { reject(late()); });
    try {
      task().then(
        (value) => {
          done();
          resolve(value);
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    } catch (error) {
      done();
      reject(error);
    }
  });
}
