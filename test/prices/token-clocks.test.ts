/**
 * Clocks and tokens: waits read against the server's own clock and capped, token lifetimes read against
 * the issuer's `iat`, short tokens not fetched per request, every answered token request counted, the
 * first 401 on a token retiring it for every queued request, and only `invalid_grant` (or expiry) signing out.
 */
import { createTokenStore } from "../../src/auth/token-store";
import { describeFailure } from "../../src/functions/errors";
import { AuthError, HTTPError, clientCredentialsTokenProvider, parseRetryAfter } from "../../src/prices";
import { lifetimeOf } from "../../src/prices/token-request";
import { createTokenSession } from "../../src/prices/token-session";
import { manualTime } from "../helpers/manual-time";
import { json, problem } from "./fake-service";
import { flushAll, setup } from "./setup";

const SERVER_NOW = Date.parse("2024-06-28T12:00:00Z");
/** The local clock, ten minutes behind the server's. */
const LOCAL_NOW = SERVER_NOW - 600_000;
const base = { tokenUrl: "https://auth.test/connect/token", clientId: "c", clientSecret: "s", scope: "x" };

function jwt(claims: Record<string, number>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${encode({ alg: "none" })}.${encode(claims)}.sig`;
}

/** A token endpoint answering each call with the next of `answers` (then tokens). */
function tokenEndpoint(answers: (() => Response)[] = []) {
  let calls = 0;
  let issued = 0;
  const fetch = (async () => {
    calls += 1;
    const next = answers.shift();
    if (next) return next();
    issued += 1;
    return new Response(JSON.stringify({ access_token: `token-${issued}`, expires_in: 3600 }), { status: 200 });
  }) as typeof globalThis.fetch;
  return {
    fetch,
    get calls() {
      return calls;
    },
  };
}

describe("clocks", () => {
  it("reads an HTTP-date Retry-After against the answer's Date, not a local clock ten minutes behind", () => {
    const retryAt = new Date(SERVER_NOW + 2_000).toUTCString();
    expect(parseRetryAfter(retryAt, LOCAL_NOW, new Date(SERVER_NOW).toUTCString())).toBe(2_000);
  });

  it("waits 2 s, not 602 s, for the API's HTTP-date Retry-After when the local clock is behind", async () => {
    const context = setup({ now: () => LOCAL_NOW, sleep: async () => undefined });
    const headers = { "retry-after": new Date(SERVER_NOW + 2_000).toUTCString(), date: new Date(SERVER_NOW).toUTCString() };
    context.service.script.push(problem(503, headers));
    const [result] = await flushAll(context.manual, [context.client.price({ symbol: "AAA", date: "2024-03-01" })]);
    expect(result?.status).toBe("fulfilled");
    expect(context.client.lineage({ symbol: "AAA", date: "2024-03-01" })?.request?.retryDelaysMs).toEqual([2_000]);
  });

  it("reads the token service's HTTP-date Retry-After against its Date", async () => {
    const endpoint = tokenEndpoint([() => new Response("{}", { status: 503, headers: { "retry-after": new Date(SERVER_NOW + 2_000).toUTCString(), date: new Date(SERVER_NOW).toUTCString() } })]);
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch, now: () => LOCAL_NOW });
    const error = (await provider.getToken().catch((caught: unknown) => caught)) as AuthError;
    expect(error.retryAt).toBe(LOCAL_NOW + 2_000);
  });

  it("caps the token service's Retry-After (3600 s) so the session tries again within a minute", async () => {
    const endpoint = tokenEndpoint([() => new Response("{}", { status: 429, headers: { "retry-after": "3600" } })]);
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch, now: () => 0 });
    const error = (await provider.getToken().catch((caught: unknown) => caught)) as AuthError;
    expect(error.retryAt).toBe(60_000);
  });

  it("reads a JWT's exp against its iat: a 300 s token is 300 s with the local clock 10 min ahead", () => {
    const iat = SERVER_NOW / 1000;
    expect(lifetimeOf(undefined, jwt({ iat, exp: iat + 300 }), SERVER_NOW + 600_000)).toBe(300_000);
  });

  it("does not take expires_in 0 as an hour", () => {
    expect(lifetimeOf(0, "opaque-token", SERVER_NOW)).toBe(0);
  });
});

describe("token requests", () => {
  it.each([
    ["malformed JSON", () => new Response("{not json", { status: 200 })],
    ["no access_token", () => new Response(JSON.stringify({ token_type: "Bearer" }), { status: 200 })],
  ])("counts every answered one toward the vendor's 10 per 5 minutes, even %s", async (_, answer) => {
    let now = 0;
    const endpoint = tokenEndpoint(Array.from({ length: 30 }, () => answer));
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch, now: () => now, policy: { backoffBaseMs: 1, backoffMaxMs: 1 } });
    for (let attempt = 0; attempt < 20; attempt += 1) {
      await provider.getToken().catch(() => undefined);
      now += 1_000;
    }
    expect(endpoint.calls).toBe(10);
  });

  it("renews a 2 s token as seldom as its life allows, not once per request", async () => {
    const time = manualTime(0);
    let granted = 0;
    const session = createTokenSession({
      grant: async () => ({ accessToken: `t${(granted += 1)}`, lifetimeMs: 2_000 }),
      now: time.now,
    });
    for (let call = 0; call < 100; call += 1) {
      await session.getToken();
      time.jump(100);
    }
    // 100 requests over 10 s: a token per 1.5 s of its 2 s life (7), not one per request.
    expect(granted).toBeLessThanOrEqual(7);
  });
});

describe("a revoked token", () => {
  it("is sent only by the requests already in flight when the first 401 came back, not by every queued one", async () => {
    const endpoint = tokenEndpoint();
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch });
    expect(await provider.getToken()).toBe("token-1");
    const { client, manual, calls } = setup({ tokenProvider: provider, limits: { maxSymbols: 1 }, maxInFlight: 4, fake: { validTokens: ["token-2"] } });
    const symbols = Array.from({ length: 40 }, (_, index) => `S${index}`);
    const results = await flushAll(manual, symbols.map((symbol) => client.price({ symbol, date: "2024-03-01" })));
    expect(results.every((result) => result.status === "fulfilled")).toBe(true);
    expect(calls.filter((call) => call.authorization === "Bearer token-1").length).toBeLessThanOrEqual(4);
    expect(endpoint.calls).toBe(2);
  });
});

describe("what the token service says", () => {
  function userStore(answer: () => Response) {
    const time = manualTime(1_000_000, 10);
    const endpoint = tokenEndpoint([answer]);
    const store = createTokenStore({ tokenUrl: async () => "https://auth.test/connect/token", clientId: "addin", scope: "x", fetch: endpoint.fetch, now: time.now, timer: time.timer, random: () => 0 });
    store.acceptUserTokens({ accessToken: "at-1", expiresIn: 600, refreshToken: "rt-1" }, "analyst");
    return { store, time };
  }

  it.each([
    ["a proxy's 403", () => new Response("<html>denied</html>", { status: 403, headers: { "content-type": "text/html" } }), "sign-in service answered 403 with a web page from auth.test"],
    ["an HTML 404", () => new Response("<html>not found</html>", { status: 404, headers: { "content-type": "text/html" } }), "sign-in service answered 404 with a web page from auth.test"],
    ["invalid_request", () => json({ error: "invalid_request" }, 400), "the sign-in service refused the add-in's request (invalid_request, 400)"],
    ["invalid_client", () => json({ error: "invalid_client" }, 401), "the add-in's client id is not registered"],
  ])("keeps the user signed in while the token lives on %s, and names it", async (_, answer, named) => {
    const { store, time } = userStore(answer);
    await time.advance(600_000 - 60_000);
    const state = store.state();
    expect(state.status).toBe("signed-in");
    expect(JSON.stringify(state)).toContain(named);
    await expect(store.getToken()).resolves.toBe("at-1");
  });

  it("signs out on invalid_grant", async () => {
    const { store, time } = userStore(() => json({ error: "invalid_grant" }, 400));
    await time.advance(600_000 - 60_000);
    expect(store.state().status).toBe("signed-out");
  });

  it("names the refusal in a cell when no token is left, rather than a 401 after a renewal", async () => {
    const endpoint = tokenEndpoint([() => json({ error: "invalid_client" }, 401)]);
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch });
    const error = await provider.getToken().catch((caught: unknown) => caught);
    const failure = describeFailure(error);
    expect(failure.message).toContain("the add-in's client id is not registered");
    expect(failure.message).not.toContain("even after a renewal");
  });
});

describe("an API 429", () => {
  it("reads as the service limiting requests, not as unreachable", () => {
    const failure = describeFailure(new HTTPError({ status: 429, method: "GET", url: "https://prices.test/physical/v2/Prices", retryAfterMs: 60_000 }));
    expect(failure.message).toContain("limiting");
    expect(failure.message).not.toContain("unreachable");
  });
});
