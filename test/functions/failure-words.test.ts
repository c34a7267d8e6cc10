/** Every failure named: a cell says why it has no value, and a slow failure shows its cause, not the deadline. */
import * as F from "../../src/functions/functions";
import { DEFAULT_DEADLINE_MS } from "../../src/functions/context";
import { describeFailure } from "../../src/functions/errors";
import { AuthError, HTTPError, NetworkError, timerScheduler, type TokenProvider } from "../../src/prices";
import { DEFAULT_REQUEST_BUDGET_MS } from "../../src/prices/transport";
import { DEFAULT_TOKEN_REQUEST_TIMEOUT_MS } from "../../src/prices/token-request";
import { FakeFunctionError, installCustomFunctionsGlobal } from "./support";

beforeAll(() => installCustomFunctionsGlobal());

async function cellError(promise: Promise<unknown>): Promise<FakeFunctionError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(FakeFunctionError);
  return outcome as FakeFunctionError;
}

describe("messages by reason", () => {
  it("tells 'no permission' (403) apart from 'sign in'", () => {
    const forbidden = describeFailure(new AuthError({ reason: "forbidden", status: 403, method: "GET", url: "https://x/physical/v2/Prices" }));
    const signedOut = describeFailure(new AuthError({ reason: "not-signed-in" }));
    expect(forbidden.message).toMatch(/^no permission: .*403/);
    expect(forbidden.message).not.toMatch(/sign in/);
    expect(signedOut.message).toBe("sign in from the Prices pane");
    expect(describeFailure(new HTTPError({ status: 403, method: "GET", url: "https://x/Prices" })).message).toMatch(/^no permission/);
  });

  it("says the token service is busy and when it retries, and that the user is still signed in", () => {
    const busy = new AuthError({ reason: "token-service-busy", message: "token service busy (Request failed with status 429 Too Many Requests: POST /connect/token); retrying in 12 s", retryAt: 0 });
    expect(describeFailure(busy).message).toBe("still signed in, but token service busy (Request failed with status 429 Too Many Requests: POST /connect/token); retrying in 12 s; recalculate after that");
  });

  it("says renewal is failing with its cause", () => {
    const cause = new NetworkError({ method: "POST", url: "https://auth/connect/token", reason: "connect ECONNREFUSED" });
    const failing = new AuthError({ reason: "renewal-failing", message: `token renewal failing (${cause.message}); retrying in 2 s`, cause });
    expect(describeFailure(failing).message).toMatch(/^still signed in, but token renewal failing \(Request failed \(connect ECONNREFUSED\): POST \/connect\/token\); retrying in 2 s/);
  });

  it("names an unreachable service with its cause", () => {
    const error = new NetworkError({ method: "GET", url: "https://x/physical/v2/Prices", reason: "connect ECONNREFUSED" });
    expect(describeFailure(error).message).toBe("service unreachable: Request failed (connect ECONNREFUSED): GET /Prices");
  });
});

describe("a slow failure", () => {
  it("keeps the client's default budget, token request included, below the cell deadline", () => {
    expect(DEFAULT_REQUEST_BUDGET_MS + DEFAULT_TOKEN_REQUEST_TIMEOUT_MS).toBeLessThan(DEFAULT_DEADLINE_MS);
  });

  it("shows the service's own timeout, not the cell deadline, when tokens and attempts are slow", async () => {
    // Each token takes 750 ms and each attempt times out after 1 s: three attempts and their backoff outlast the
    // 5 s deadline, so only a budget below it lets the cell name the cause (times wide enough for a loaded machine).
    const slowTokens: TokenProvider = { getToken: () => new Promise((resolve) => setTimeout(() => resolve("t"), 750)) };
    const hanging = (() => new Promise<Response>(() => undefined)) as typeof fetch;
    await globalThis.PricesAddin!.configure({
      baseUrl: "https://prices.test/physical/v2",
      tokenProvider: slowTokens,
      fetch: hanging,
      timeoutMs: 1_000,
      retry: { backoffBaseMs: 2_000, backoffMaxMs: 2_000 },
      random: () => 1,
      scheduler: timerScheduler(1),
      deadlineMs: 5_000,
      recalculate: false,
    });
    const error = await cellError(F.mid([["MB-AL-0004"]], [["2024-03-01"]]));
    expect(error.code).toBe("#N/A");
    expect(error.message).toBe("service unreachable: Request failed (timed out after 1000 ms): GET /Prices");
  });
});

describe("a cell whose asks come one after another", () => {
  it("shares the cell's time: a slow first answer leaves the next ask only what is left, and the cause shows", async () => {
    // CURVE in EUR asks the Currency list (answered after 1.75 s), then the latest price (the service never
    // answers). With a fresh 3.75 s budget the price's second attempt would run past the 5 s deadline; the
    // cell's share (3.75 s from the call) ends its first attempt early enough to name the cause.
    const references = { references: [{ type: "Currency", items: [{ id: "EUR", description: "Euro", sign: "€", availableConversionIds: [] }] }] };
    const slowThenHanging = ((input: string | URL | Request) =>
      String(input).includes("/References")
        ? new Promise<Response>((resolve) => setTimeout(() => resolve(new Response(JSON.stringify(references), { status: 200 })), 1_750))
        : new Promise<Response>(() => undefined)) as typeof fetch;
    await globalThis.PricesAddin!.configure({
      baseUrl: "https://prices.test/physical/v2",
      tokenProvider: { getToken: async () => "t" },
      fetch: slowThenHanging,
      timeoutMs: 2_000,
      retry: { backoffBaseMs: 1, backoffMaxMs: 1 },
      scheduler: timerScheduler(1),
      deadlineMs: 5_000,
      recalculate: false,
    });
    const error = await cellError(F.curve("MB-AL-0004", undefined, undefined, "EUR"));
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/^service unreachable: Request failed \(timed out after \d+ ms\): GET \/Prices$/);
  });
});
