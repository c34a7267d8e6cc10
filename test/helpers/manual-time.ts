import type { Timer } from "../../src/prices/token-session";

/**
 * A clock and timer moved by hand. `settleRounds` is how many turns of the event loop each fired timer gets before
 * the next one, so that the promise chains it starts (a token request, a retry) run before time moves on.
 */
export function manualTime(start = 1_000_000, settleRounds = 1) {
  let now = start;
  const pending = new Map<number, { at: number; fn: () => void }>();
  let next = 1;
  const timer: Timer = {
    set(fn, delay) {
      const id = next++;
      pending.set(id, { at: now + delay, fn });
      return id;
    },
    clear(handle) {
      pending.delete(handle as number);
    },
  };
  return {
    timer,
    now: () => now,
    pending: () => [...pending.values()].map((p) => p.at),
    /** Moves the clock without firing timers, as a suspended machine would. */
    jump(ms: number) {
      now += ms;
    },
    /** Moves the clock, firing due timers in order. */
    async advance(ms: number) {
      const target = now + ms;
      for (;;) {
        const due = [...pending.entries()].filter(([, p]) => p.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].fn();
        for (let round = 0; round < settleRounds; round += 1) await new Promise((resolve) => setImmediate(resolve));
      }
      now = target;
    },
  };
}
