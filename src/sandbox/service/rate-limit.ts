/** `--rate-limit N`: at most N API requests per caller in each wall-clock second (0 = off). */

export interface RateLimiter {
  /** Undefined when allowed, else the seconds to wait (Retry-After). */
  take(callerId: string): number | undefined;
}

export function createRateLimiter(perSecond: number, now: () => number = Date.now): RateLimiter | undefined {
  if (!(perSecond > 0)) return undefined;
  let window = -1;
  let counts = new Map<string, number>();
  return {
    take(callerId) {
      const second = Math.floor(now() / 1000);
      if (second !== window) {
        window = second;
        counts = new Map();
      }
      const used = counts.get(callerId) ?? 0;
      if (used >= perSecond) return 1;
      counts.set(callerId, used + 1);
      return undefined;
    },
  };
}
