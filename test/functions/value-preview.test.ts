/** Excel's value preview (`invocation.isInValuePreview`): the functions answer from the cache and send nothing. */
import * as F from "../../src/functions/functions";
import { createPricesClient, timerScheduler } from "../../src/prices";
import { staticTokenProvider } from "../../src/prices/tokens";
import { fakeService, midOf } from "../prices/fake-service";
import { FakeFunctionError, installCustomFunctionsGlobal } from "./support";

const PREVIEW = { isInValuePreview: true } as unknown as CustomFunctions.Invocation;
const ENTERED = { isInValuePreview: false } as unknown as CustomFunctions.Invocation;
const OMITTED = null as never;

beforeAll(() => installCustomFunctionsGlobal());

async function configure() {
  const service = fakeService();
  const client = createPricesClient({ baseUrl: "https://prices.test/physical/v2", tokenProvider: staticTokenProvider("t"), fetch: service.fetch, scheduler: timerScheduler(1) });
  await globalThis.PricesAddin!.configure({ client, recalculate: false, deadlineMs: 5_000 });
  return service;
}

describe("value preview", () => {
  it("sends no request while previewing and names why the cell waits", async () => {
    const service = await configure();
    const error = await F.mid([["MB-AL-0004"]], [["2024-03-01"]], OMITTED, OMITTED, PREVIEW).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(FakeFunctionError);
    expect((error as FakeFunctionError).code).toBe("#N/A");
    expect((error as FakeFunctionError).message).toMatch(/value preview/);
    expect(service.calls).toHaveLength(0);
  });

  it("previews a value already fetched without asking the service again", async () => {
    const service = await configure();
    const entered = await F.mid([["MB-AL-0004"]], [["2024-03-01"]], OMITTED, OMITTED, ENTERED);
    expect(entered).toEqual([[midOf("MB-AL-0004", "2024-03-01")]]);
    const previewed = await F.mid([["MB-AL-0004"]], [["2024-03-01"]], OMITTED, OMITTED, PREVIEW);
    expect(previewed).toEqual(entered);
    const history = await F.history("MB-AL-0004", "2024-03-01", "2024-03-05", OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, OMITTED, PREVIEW).then(
      () => "value",
      (reason: unknown) => (reason as FakeFunctionError).message,
    );
    expect(history).toMatch(/value preview/);
    expect(service.calls).toHaveLength(1);
  });
});
