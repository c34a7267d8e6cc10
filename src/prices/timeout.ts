/**
 * The one timeout helper (on AbortSignal.timeout and AbortSignal.any): a task gets a signal that aborts at
 * its deadline (or with an outer signal), and the helper settles then even when the task ignores its signal.
 */
export async function withTimeout<T>(ms: number, task: (signal: AbortSignal) => Promise<T>, onTimeout: () => Error, outer?: AbortSignal): Promise<T> {
  const timer = AbortSignal.timeout(Math.max(0, Math.min(ms, 2_147_483_647)));
  const signal = outer ? AbortSignal.any([timer, outer]) : timer;
  let stop: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    const fail = (): void => { reject(timer.aborted ? onTimeout() : abortReason(signal)); };
    if (signal.aborted) fail();
    else {
      signal.addEventListener("abort", fail, { once: true });
      stop = () => { signal.removeEventListener("abort", fail); };
    }
  });
  aborted.catch(() => undefined);
  try {
    return await Promise.race([task(signal), aborted]);
  } catch (error) {
    // A task that rejects because its signal aborted reports the timeout, not the abort.
    if (timer.aborted) throw onTimeout();
    throw error;
  } finally {
    stop?.();
  }
}

/** The one sleep of the code that also runs in a browser (node-only code uses node:timers/promises). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("aborted");
}
