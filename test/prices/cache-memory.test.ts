/**
 * The cache's bound bounds memory: once a key settles, its value is kept only by the cache (and the
 * callers), not by the client's lineage of the key, so dropping the entry frees it and the byte estimate
 * counts what the cache really holds (docs/benchmarks.md measures the estimate against the heap).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { flushAll, setup } from "./setup";

setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

/** A full collection after the current job, when weak references may be cleared. */
async function collected(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  await new Promise((resolve) => setImmediate(resolve));
}

describe("a settled key's value", () => {
  it("is freed once the cache drops it, though the key's lineage is still kept", async () => {
    const { client, manual } = setup();
    const key = { symbol: "AAA", date: "2024-03-01" };
    const refs = await (async () => {
      const [result] = await flushAll(manual, [client.price(key)]);
      if (result?.status !== "fulfilled") throw new Error("expected a value");
      return new WeakRef(result.value);
    })();
    await collected();
    expect(refs.deref()).toBeDefined();
    expect(client.invalidate()).toBe(1);
    await collected();
    expect(client.lineage(key)?.key).toBeDefined();
    expect(refs.deref()).toBeUndefined();
  });
});
