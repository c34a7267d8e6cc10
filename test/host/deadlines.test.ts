import { jest } from "@jest/globals";
import { DeadlineQueue } from "../../src/host/deadlines";

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
