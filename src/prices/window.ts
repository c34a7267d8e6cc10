/**
 * The batching window: asks collect here until the scheduler says the window is over, then leave
 * together to be planned into requests (dataloader's batch, with the scheduler as an option).
 */
import type { BatchScheduler } from "./scheduler";

export class BatchWindow<T> {
  private asked: T[] = [];
  private scheduled = false;

  constructor(
    private readonly scheduler: BatchScheduler,
    private readonly dispatch: (asked: T[]) => void,
    /** Fails the asks of a window the scheduler refused, so none waits forever. */
    private readonly fail: (asked: T[], error: unknown) => void,
  ) {}

  add(item: T): void {
    this.asked.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    try {
      this.scheduler(() => { this.close(); });
    } catch (error) {
      this.scheduled = false;
      const asked = this.asked;
      this.asked = [];
      this.fail(asked, error);
    }
  }

  private close(): void {
    this.scheduled = false;
    const asked = this.asked;
    this.asked = [];
    if (asked.length > 0) this.dispatch(asked);
  }
}
