/** A client wired to the fake service, a manual scheduler and a hand-moved clock. */
import { createPricesClient, manualScheduler, staticTokenProvider, type PricesClientOptions, type TokenProvider } from "../../src/prices";
import { fakeService, type FakeOptions } from "./fake-service";

export const BASE = "https://prices.test/physical/v2";
export const TOKEN = "secret-token-123";

export function setup(options: Partial<PricesClientOptions> & { fake?: FakeOptions; tokenProvider?: TokenProvider } = {}) {
  const service = fakeService(options.fake);
  const manual = manualScheduler();
  const clock = { now: Date.parse("2024-06-28T12:00:00Z") };
  const client = createPricesClient({
    baseUrl: BASE,
    tokenProvider: staticTokenProvider(TOKEN),
    fetch: service.fetch,
    scheduler: manual.scheduler,
    now: () => clock.now,
    retry: { backoffBaseMs: 1, backoffMaxMs: 2 },
    ...options,
  });
  return { client, service, manual, clock, calls: service.calls };
}

/** Flushes the window and waits until every given promise has settled; returns their outcomes. */
export async function flushAll<T>(manual: { flush(): number }, promises: Promise<T>[]): Promise<PromiseSettledResult<T>[]> {
  manual.flush();
  return Promise.allSettled(promises);
}

/**
 * Flushes every window until all the promises settle: asks made after the first window (an instrument's
 * record before a long history, a history's parts) open windows of their own.
 */
export async function flushUntilSettled<T>(manual: { flush(): number }, promises: Promise<T>[]): Promise<PromiseSettledResult<T>[]> {
  let done = false;
  const all = Promise.allSettled(promises).finally(() => (done = true));
  while (!done) {
    manual.flush();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return all;
}

export function valueOf<T>(result: PromiseSettledResult<T> | undefined): T {
  if (!result || result.status !== "fulfilled") throw new Error(`expected a value, got ${result ? String((result as PromiseRejectedResult).reason) : "nothing"}`);
  return result.value;
}

export function reasonOf(result: PromiseSettledResult<unknown> | undefined): Error {
  if (!result || result.status !== "rejected") throw new Error("expected a rejection");
  return result.reason as Error;
}

/** Fails instead of hanging when a promise never settles (a bound, not a timing assertion). */
export function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}
