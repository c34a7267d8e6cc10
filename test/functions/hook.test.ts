import { createAddinHook } from "../../src/functions/hook";
import type { PricesClient, PricesClientOptions } from "../../src/prices/types";
import { fakeClient } from "./support";

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
});
