import { jest } from "@jest/globals";
import { DeadlineQueue, settleWithin } from "../../src/prices/deadline-queue";

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
