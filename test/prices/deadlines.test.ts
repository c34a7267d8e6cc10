/**
 * Every key keeps its own deadline: joining a request already in flight, waiting for a connection slot and
 * waiting for the session's request governor all count against it, and the key names what it waited for.
 */
import { setup, within } from "./setup";

describe("a key's own deadline", () => {
  it("holds for a key that joins a request already in flight, which keeps its own", async () => {
    const { client, manual, service } = setup();
    service.script.push("hang");
    const first = client.price({ symbol: "AAA", date: "2024-03-01" });
    manual.flush();
    // Asked again with 50 ms left: it must not wait for the first ask's 90 s.
    const joined = client.price({ symbol: "AAA", date: "2024-03-01" }, { timeLeftMs: 50 });
    const error = (await within(60_000, joined.catch((caught: unknown) => caught))) as Error;
    expect(error.message).toContain("joined a request for the same key");
    expect(client.stats().joined).toBe(1);
    // The first ask is still waiting on its own budget.
    let settled = false;
    first.then(
      () => (settled = true),
      () => (settled = true),
    );
    await Promise.resolve();
    expect(settled).toBe(false);
  });

  it("counts the wait for a connection slot, and names it", async () => {
    const { client, manual, service } = setup({ maxInFlight: 1, limits: { maxSymbols: 1 } });
    service.script.push("hang");
    void client.price({ symbol: "AAA", date: "2024-03-01" }).catch(() => undefined);
    manual.flush();
    const queued = client.price({ symbol: "BBB", date: "2024-03-01" }, { timeLeftMs: 50 });
    manual.flush();
    const error = (await within(60_000, queued.catch((caught: unknown) => caught))) as Error;
    expect(error.name).toBe("TimeoutError");
    expect(error.message).toContain("waited for a connection slot");
    // Only the first request was ever sent.
    expect(service.calls).toHaveLength(1);
  });

  it("counts the wait for the session's request governor, and names it", async () => {
    const { client, manual, service, clock } = setup({ governor: { maxRequestsPerSecond: 1 }, limits: { maxSymbols: 1 }, sleep: async (ms) => void (clock.now += ms) });
    const first = client.price({ symbol: "AAA", date: "2024-03-01" });
    const second = client.price({ symbol: "BBB", date: "2024-03-01" }, { timeLeftMs: 100 });
    manual.flush();
    await first;
    const error = (await second.catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain("request rate limit");
    expect(service.calls).toHaveLength(1);
  });
});
