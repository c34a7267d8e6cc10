/**
 * The live registry's clock and its one timer: the real one, a faster one (the sandbox publishing on a fast clock,
 * `npm start -- --live-demo`), or one a test moves by hand (as `manualScheduler` is flushed by hand).
 */

export interface LiveClock {
  /** Milliseconds since 1970 (UTC), on this clock. */
  now(): number;
  /** Calls `wake` once this clock reaches `instant`; returns the cancel function. */
  wakeAt(instant: number, wake: () => void): () => void;
}

/** The machine's clock and `setTimeout`. */
export function realLiveClock(): LiveClock {
  return speededClock({ origin: Date.now(), since: Date.now(), speed: 1 });
}

/** A clock that stood at `origin` when the real clock stood at `since`, and runs `speed` times faster. */
export interface FastClockSetting {
  origin: number;
  since: number;
  speed: number;
}

/** Longest single timer: a wake-up further away (a monthly instrument's, past setTimeout's 24.8-day limit) is re-armed when it fires early. */
const MAX_TIMER_MS = 86_400_000;

/** A clock running `speed` times faster than the machine's from (`since`, `origin`): both processes that share the setting agree. */
export function speededClock(setting: FastClockSetting, realNow: () => number = Date.now): LiveClock {
  const now = (): number => setting.origin + (realNow() - setting.since) * setting.speed;
  return {
    now,
    wakeAt(instant, wake) {
      const timer = setTimeout(wake, Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil((instant - now()) / setting.speed))));
      return () => { clearTimeout(timer); };
    },
  };
}

/** Reads a fast clock's setting from JSON (a page's configuration), or undefined when it is not one. */
export function fastClockSetting(value: unknown): FastClockSetting | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { origin, since, speed } = value as Record<string, unknown>;
  const finite = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n);
  return finite(origin) && finite(since) && finite(speed) && speed > 0 ? { origin, since, speed } : undefined;
}

export interface ManualLiveClock extends LiveClock {
  /** Instants someone waits for, earliest first. */
  readonly waiting: readonly number[];
  /** Sets the clock (never backwards) and wakes whoever waited for an instant up to it; returns how many woke. */
  advanceTo(instant: number): number;
  /** Moves to the earliest instant waited for and wakes it; returns that instant, or undefined when nobody waits. */
  next(): number | undefined;
}

/** A clock that moves only when told: tests drive the registry through a day without timers. */
export function manualLiveClock(start: number): ManualLiveClock {
  let at = start;
  let sequence = 0;
  const waits = new Map<number, { instant: number; wake: () => void }>();
  const earliest = (): number | undefined => Math.min(...[...waits.values()].map((w) => w.instant));
  return {
    now: () => at,
    wakeAt(instant, wake) {
      const id = sequence++;
      waits.set(id, { instant, wake });
      return () => waits.delete(id);
    },
    get waiting() {
      return [...waits.values()].map((w) => w.instant).sort((a, b) => a - b);
    },
    advanceTo(instant) {
      at = Math.max(at, instant);
      const due = [...waits.entries()].filter(([, w]) => w.instant <= at).sort(([, a], [, b]) => a.instant - b.instant);
      for (const [id] of due) waits.delete(id);
      for (const [, w] of due) w.wake();
      return due.length;
    },
    next() {
      if (waits.size === 0) return undefined;
      const instant = earliest() ?? at;
      this.advanceTo(instant);
      return Math.max(at, instant);
    },
  };
}
