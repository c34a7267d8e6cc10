import { ClientHandover } from "../../src/functions/client-handover";
import type { FunctionsClient } from "../../src/functions/context";
import { createAddinHook } from "../../src/functions/hook";
import type { AskOptions, PricesClient, PricesClientOptions } from "../../src/prices/types";
import { fakeClient, SYMBOLS } from "./support";

function recordingHook() {
  const created: PricesClientOptions[] = [];
  let recalculations = 0;
  const hook = createAddinHook({
    createClient: (options) => {
      created.push(options);
      return fakeClient().client as PricesClient;
    },
    recalculate: async () => {
      recalculations += 1;
    },
  });
  return { hook, created, recalculations: () => recalculations };
}

describe("PricesAddin hook", () => {
  const tokenProvider = { getToken: async () => "token" };

  it("builds the client from options without the hook's own settings, its budget below the deadline, and asks for a recalculation", async () => {
    const { hook, created, recalculations } = recordingHook();
    expect(hook.addin.configured).toBe(false);
    await hook.addin.configure({ baseUrl: "https://localhost:4000/physical/v2", tokenProvider, deadlineMs: 50, maxInFlight: 2 });
    expect(created).toEqual([{ baseUrl: "https://localhost:4000/physical/v2", tokenProvider, maxInFlight: 2, budgetMs: 37 }]);
    expect(hook.addin.configured).toBe(true);
    expect(recalculations()).toBe(1);
    const context = hook.context(() => new Error("x"), () => "2024-01-01");
    expect(context.deadlineMs).toBe(50);
  });

  it("skips the recalculation on request and answers sign-in after reset", async () => {
    const { hook, recalculations } = recordingHook();
    await hook.addin.configure({ baseUrl: "https://x", tokenProvider, recalculate: false });
    await hook.addin.reset({ recalculate: false });
    expect(recalculations()).toBe(0);
    const context = hook.context(() => new Error("x"), () => "2024-01-01");
    expect(() => context.client()).toThrow("sign in from the Prices pane");
  });

  it("reports the client's statistics when it keeps them", async () => {
    const { hook } = recordingHook();
    expect(hook.addin.stats()).toBeUndefined();
    const stats = { requestsSent: 3 } as unknown as ReturnType<PricesClient["stats"]>;
    await hook.addin.configure({ client: { ...fakeClient().client, stats: () => stats }, recalculate: false });
    expect(hook.addin.stats()).toBe(stats);
  });

  describe("while a sign-in hands its client over", () => {
    const state = <T>(promise: Promise<T>): Promise<"pending" | "answered" | string> =>
      new Promise((resolve) => {
        promise.then(() => { resolve("answered"); }, (error: unknown) => { resolve(error instanceof Error ? error.message : String(error)); });
        // every step of a call that is not waiting for something has run by the next turn of the event loop
        setImmediate(() => { resolve("pending"); });
      });

    it("makes a call wait for the client the page configures next, instead of answering sign in", async () => {
      const { hook } = recordingHook();
      const context = hook.context(() => new Error("x"), () => "2024-01-01");
      hook.addin.awaitClient();
      expect(hook.addin.awaitingClient).toBe(true);
      expect(hook.addin.configured).toBe(false);
      const { client, calls } = fakeClient();
      const asked = context.client().price({ symbol: SYMBOLS.aluminium });
      expect(await state(asked)).toBe("pending");
      expect(calls).toEqual([]);
      await hook.addin.configure({ client, recalculate: false });
      expect(hook.addin.awaitingClient).toBe(false);
      expect(typeof (await asked).mid).toBe("number");
      expect(calls).toEqual([{ method: "price", args: [{ symbol: SYMBOLS.aluminium }] }]);
    });

    it("answers the waiting calls sign in when the user signs out before the handover", async () => {
      const { hook } = recordingHook();
      const context = hook.context(() => new Error("x"), () => "2024-01-01");
      hook.addin.awaitClient();
      const asked = context.client().history({ symbol: SYMBOLS.aluminium, fromDate: "2024-01-02", toDate: "2024-01-31" });
      await hook.addin.reset({ recalculate: false });
      expect(await state(asked)).toBe("sign in from the Prices pane");
      expect(hook.addin.awaitingClient).toBe(false);
      expect(() => context.client()).toThrow("sign in from the Prices pane");
    });

    it("keeps a configured client in use (a renewal, or the workbench's demo key until the user's sign-in)", async () => {
      const { hook } = recordingHook();
      const context = hook.context(() => new Error("x"), () => "2024-01-01");
      const demo = fakeClient();
      await hook.addin.configure({ client: demo.client, recalculate: false });
      hook.addin.awaitClient();
      expect(await state(context.client().price({ symbol: SYMBOLS.copper }))).toBe("answered");
      expect(demo.calls).toEqual([{ method: "price", args: [{ symbol: SYMBOLS.copper }] }]);
    });

    it("asks with the time the call has left after its wait", async () => {
      let now = 1_000;
      const handover = new ClientHandover(() => now);
      const seen: (AskOptions | undefined)[] = [];
      const client = { ...fakeClient().client, instruments: (_fields?: readonly string[], options?: AskOptions) => { seen.push(options); return Promise.resolve([]); } } satisfies FunctionsClient;
      const waiting = handover.client();
      const first = waiting.instruments(undefined, { timeLeftMs: 90_000, cachedOnly: true });
      const second = waiting.instruments(undefined, { timeLeftMs: 1_000 });
      const third = waiting.instruments();
      now = 4_000;
      handover.complete(client);
      await Promise.all([first, second, third]);
      expect(seen).toEqual([{ timeLeftMs: 87_000, cachedOnly: true }, { timeLeftMs: 0 }, undefined]);
    });
  });
});
