import { jest } from "@jest/globals";
import { type Deadline, DeadlineQueue, type Mapped, settleWithin } from "../../src/prices/deadline-queue";
import type { Waiter } from "../../src/prices/types";

describe("DeadlineQueue", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("expires each deadline after its own time, in the order added, and never one cancelled", () => {
    const queue = new DeadlineQueue(1000);
    const expired: string[] = [];
    queue.add(() => expired.push("a"));
    jest.advanceTimersByTime(400);
    const cancelB = queue.add(() => expired.push("b"));
    queue.add(() => expired.push("c"));
    jest.advanceTimersByTime(599);
    expect(expired).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(expired).toEqual(["a"]);
    cancelB();
    jest.advanceTimersByTime(400);
    expect(expired).toEqual(["a", "c"]);
    // a deadline added after the queue emptied gets a timer of its own again
    queue.add(() => expired.push("d"));
    jest.advanceTimersByTime(1000);
    expect(expired).toEqual(["a", "c", "d"]);
  });

  it("holds no timer once every deadline is cancelled", () => {
    const queue = new DeadlineQueue(1000);
    const cancels = [queue.add(() => undefined), queue.add(() => undefined)];
    expect(jest.getTimerCount()).toBe(1);
    for (const cancel of cancels) cancel();
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe("DeadlineQueue with entries of the caller's own", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function entry(name: string, expired: string[]): Deadline {
    return { due: undefined, expired: () => void expired.push(name) };
  }

  it("expires a scheduled entry once, never a cancelled one, and takes a second cancel or a cancel after expiry as nothing", () => {
    const queue = new DeadlineQueue(1000);
    const expired: string[] = [];
    const [a, b, c] = [entry("a", expired), entry("b", expired), entry("c", expired)];
    queue.schedule(a);
    queue.schedule(b);
    queue.schedule(c);
    queue.cancel(b);
    queue.cancel(b);
    jest.advanceTimersByTime(1000);
    expect(expired).toEqual(["a", "c"]);
    queue.cancel(a);
    expect(a.due).toBeUndefined();
    expect(jest.getTimerCount()).toBe(0);
  });

  it("keeps the order and the times of thousands of entries while cancelled ones are dropped", () => {
    const queue = new DeadlineQueue(1000);
    const expired: string[] = [];
    const kept: string[] = [];
    for (let round = 0; round < 3; round += 1) {
      for (let index = 0; index < 3000; index += 1) {
        const name = `${round}-${index}`;
        const own = entry(name, expired);
        queue.schedule(own);
        if (index % 7 === 0) kept.push(name);
        else queue.cancel(own);
      }
      jest.advanceTimersByTime(100);
    }
    // now 300 ms on: the first round is due at 1000 ms, the others 100 and 200 ms later
    jest.advanceTimersByTime(699);
    expect(expired).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(expired).toEqual(kept.filter((name) => name.startsWith("0-")));
    jest.advanceTimersByTime(200);
    expect(expired).toEqual(kept);
    expect(jest.getTimerCount()).toBe(0);
  });

  it("lets an expiry cancel the last waiting entry or schedule a new one", () => {
    const queue = new DeadlineQueue(1000);
    const expired: string[] = [];
    const last = entry("last", expired);
    const later = entry("later", expired);
    queue.schedule({ due: undefined, expired: () => { expired.push("first"); queue.cancel(last); queue.schedule(later); } });
    queue.schedule(last);
    jest.advanceTimersByTime(1000);
    expect(expired).toEqual(["first"]);
    jest.advanceTimersByTime(1000);
    expect(expired).toEqual(["first", "later"]);
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe("settleWithin", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("gives the task's value and leaves no timer behind", async () => {
    const queue = new DeadlineQueue(1000);
    await expect(settleWithin(queue, async () => 42, () => new Error("late"))).resolves.toBe(42);
    expect(jest.getTimerCount()).toBe(0);
  });

  it("gives the task's own failure, thrown or rejected, and leaves no timer behind", async () => {
    const queue = new DeadlineQueue(1000);
    await expect(settleWithin(queue, () => Promise.reject(new Error("refused")), () => new Error("late"))).rejects.toThrow("refused");
    await expect(
      settleWithin(queue, () => {
        throw new Error("thrown before any promise");
      }, () => new Error("late")),
    ).rejects.toThrow("thrown before any promise");
    expect(jest.getTimerCount()).toBe(0);
  });

  it("makes a mapped source's value into the result, a throw of the making or the source's failure its failure", async () => {
    class Doubled implements Mapped<number, string> {
      constructor(private readonly source: Promise<number>) {}

      follow(waiter: Waiter<number>): void {
        this.source.then((value) => { waiter.answered(value); }, (error: unknown) => { waiter.failed(error); });
      }

      map(value: number): string {
        if (value < 0) throw new Error(`no double of ${value}`);
        return String(value * 2);
      }
    }
    const queue = new DeadlineQueue(1000);
    const failure = (error: unknown): unknown => new Error(`failed: ${error instanceof Error ? error.message : String(error)}`);
    await expect(settleWithin(queue, () => new Doubled(Promise.resolve(21)), () => new Error("late"), failure)).resolves.toBe("42");
    await expect(settleWithin(queue, () => new Doubled(Promise.resolve(-1)), () => new Error("late"), failure)).rejects.toThrow("failed: no double of -1");
    await expect(settleWithin(queue, () => new Doubled(Promise.reject(new Error("refused"))), () => new Error("late"), failure)).rejects.toThrow("failed: refused");
    expect(jest.getTimerCount()).toBe(0);
  });

  it("settles with the late error at the deadline when the task never answers, and ignores a later answer", async () => {
    const queue = new DeadlineQueue(1000);
    let answer: (value: number) => void = () => undefined;
    const settled = settleWithin(queue, () => new Promise<number>((resolve) => (answer = resolve)), () => new Error("no answer within 1 s"));
    jest.advanceTimersByTime(999);
    const early = await Promise.race([settled.then(() => "settled", () => "settled"), Promise.resolve("pending")]);
    expect(early).toBe("pending");
    jest.advanceTimersByTime(1);
    await expect(settled).rejects.toThrow("no answer within 1 s");
    answer(7);
    await expect(settled).rejects.toThrow("no answer within 1 s");
  });
});
