/**
 * A value now, or a promise of it. The evaluator answers at once wherever it can and goes async only where a custom
 * function's call really waits: a promise at every node of every formula made a third of the 20,050-cell model's
 * evaluation garbage collection.
 */

export type Eventually<T> = T | Promise<T>;

/** Whether the answer is still to come: any thenable (a promise of another realm too); no cell value has `then`. */
export function isPending<T>(value: Eventually<T>): value is Promise<T> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** `next` of the value, at once when it is here. */
export function andThen<T, U>(value: Eventually<T>, next: (value: T) => Eventually<U>): Eventually<U> {
  return isPending(value) ? value.then(next) : next(value);
}

/**
 * Each item's answer, all started in order before any is awaited (so their custom calls batch), at once when none
 * waits. A step that throws ends it there, as the first failure to settle did when every step was a promise: the
 * answers still to come are abandoned without an unhandled rejection.
 */
export function allOf<T, U>(items: readonly T[], step: (item: T) => Eventually<U>): Eventually<U[]> {
  const answers: Eventually<U>[] = [];
  let waiting = false;
  for (const item of items) {
    let answer: Eventually<U>;
    try {
      answer = step(item);
    } catch (error) {
      if (waiting) for (const earlier of answers) abandon(earlier);
      throw error;
    }
    if (isPending(answer)) waiting = true;
    answers.push(answer);
  }
  return waiting ? Promise.all(answers) : (answers as U[]);
}

/**
 * `step(0)`, `step(1)`, ... each once the one before has its answer, until a step answers false (stop) or none is
 * left; at once while every step answers at once. Whether it ran to the end.
 */
export function inTurn(count: number, step: (index: number) => Eventually<boolean>, from = 0): Eventually<boolean> {
  for (let index = from; index < count; index += 1) {
    const going = step(index);
    if (isPending(going)) return going.then((more) => (more ? inTurn(count, step, index + 1) : false));
    if (!going) return false;
  }
  return true;
}

/** An answer no one will read: its failure is dropped rather than reported as unhandled. */
export function abandon(value: unknown): void {
  if (isPending(value)) value.then(undefined, () => undefined);
}
