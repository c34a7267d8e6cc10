/**
 * Work in flight, counted per caller and in all (issue 17): each caller may hold so many slots at once and all
 * callers together so many units (answers, bytes, upstream connections). Past either, the server answers 429 or
 * 503 with Retry-After at once instead of queueing. Entries exist only while a caller holds a slot, so the map
 * is bounded by the work in flight, whatever the number of callers seen.
 */

export interface BudgetLimits {
  /** Slots one caller may hold at once. */
  perCaller: number;
  /** Units (the sum of the slots' weights) all callers together may hold. */
  total: number;
}

/** A slot taken: `release` gives it back (a second call does nothing). */
export interface Slot {
  release(): void;
}

export type Refusal = "caller" | "total";

export class InFlightBudget {
  readonly #byCaller = new Map<string, number>();
  #total = 0;

  constructor(readonly limits: BudgetLimits) {}

  /** A slot of `weight` units for `caller`, or which limit refuses it. */
  take(caller: string, weight = 1): Slot | Refusal {
    const held = this.#byCaller.get(caller) ?? 0;
    if (held >= this.limits.perCaller) return "caller";
    if (this.#total + weight > this.limits.total) return "total";
    this.#byCaller.set(caller, held + 1);
    this.#total += weight;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#total -= weight;
        const left = (this.#byCaller.get(caller) ?? 1) - 1;
        if (left <= 0) this.#byCaller.delete(caller);
        else this.#byCaller.set(caller, left);
      },
    };
  }

  /** Whether `caller` holds all its slots: a server may refuse its next request before doing any work for it. */
  full(caller: string): boolean {
    return (this.#byCaller.get(caller) ?? 0) >= this.limits.perCaller;
  }

  /** Callers holding a slot and units held (for tests and benchmarks). */
  get size(): { callers: number; units: number } {
    return { callers: this.#byCaller.size, units: this.#total };
  }
}
