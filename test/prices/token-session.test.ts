/**
 * The one token provider under load and failure: N concurrent 401s on one token make one token request,
 * a transient renewal failure keeps the session, and only a refusal (or expiry, for a user) ends it.
 */
import { createTokenStore, type AuthState } from "../../src/auth/token-store";
import { AuthError, clientCredentialsTokenProvider } from "../../src/prices";
import { createTokenSession, renewLead } from "../../src/prices/token-session";
import { flushAll, setup, valueOf } from "./setup";
import { manualTime } from "../helpers/manual-time";

/** A token endpoint answering from a script: a status (with optional Retry-After), "drop" (connection refused), or a token. */
function tokenEndpoint(script: (number | "drop" | { status: number; retryAfter: string })[] = []) {
  const calls: URLSearchParams[] = [];
  let issued = 0;
  const fetchImpl = (async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    calls.push(new URLSearchParams(String(init?.body)));
    const next = script.shift();
    if (next === "drop") throw new TypeError("fetch failed: connect ECONNREFUSED");
    if (typeof next === "number") return new Response(JSON.stringify({ error: next === 400 ? "invalid_grant" : "server_error" }), { status: next });
    if (next !== undefined) return new Response("{}", { status: next.status, headers: { "retry-after": next.retryAfter } });
    issued += 1;
    return new Response(JSON.stringify({ access_token: `token-${issued}`, expires_in: 3600, token_type: "Bearer" }), { status: 200 });
  }) as typeof fetch;
  return { fetch: fetchImpl, calls };
}

const symbols = (count: number) => Array.from({ length: count }, (_, index) => `S${String(index).padStart(2, "0")}`);

describe("concurrent 401s on one token", () => {
  it("make one token request for 24 keys in 24 requests, and every key gets its value", async () => {
    const endpoint = tokenEndpoint();
    const provider = clientCredentialsTokenProvider({ tokenUrl: "https://auth.test/connect/token", clientId: "c", clientSecret: "s", scope: "x", fetch: endpoint.fetch });
    expect(await provider.getToken()).toBe("token-1");
    // token-1 is revoked: the service accepts only its successor.
    const { client, manual, calls } = setup({ tokenProvider: provider, limits: { maxSymbols: 1 }, fake: { validTokens: ["token-2"] } });
    const results = await flushAll(manual, symbols(24).map((symbol) => client.price({ symbol, date: "2024-03-01" })));
    results.forEach((result) => expect(valueOf(result).date).toBe("2024-03-01"));
    expect(endpoint.calls).toHaveLength(2);
    expect(calls.filter((call) => call.authorization === "Bearer token-2")).toHaveLength(24);
  });

  it("make one token request through the pane's store on a service key (60 keys), and nobody is signed out", async () => {
    const endpoint = tokenEndpoint();
    const store = createTokenStore({ tokenUrl: async () => "https://auth.test/connect/token", clientId: "addin", scope: "x", fetch: endpoint.fetch, timer: { set: () => 0, clear: () => undefined } });
    await store.signInWithServiceKey("svc", "key");
    const { client, manual } = setup({ tokenProvider: store, limits: { maxSymbols: 1 }, fake: { validTokens: ["token-2"] } });
    const results = await flushAll(manual, symbols(60).map((symbol) => client.price({ symbol, date: "2024-03-01" })));
    expect(results.every((result) => result.status === "fulfilled")).toBe(true);
    expect(endpoint.calls).toHaveLength(2);
    expect(store.state().status).toBe("signed-in");
  });

  it("refresh only while the rejected token is still the one held", async () => {
    const endpoint = tokenEndpoint();
    const session = createTokenSession({ grant: async () => ({ accessToken: `t${endpoint.calls.push(new URLSearchParams())}`, lifetimeMs: 3_600_000 }) });
    expect(await session.getToken()).toBe("t1");
    expect(await session.getToken({ rejected: "t1" })).toBe("t2");
    // A late 401 on t1 does not throw away t2.
    expect(await session.getToken({ rejected: "t1" })).toBe("t2");
    expect(endpoint.calls).toHaveLength(2);
  });
});

describe("a renewal that fails", () => {
  function userStore(script: Parameters<typeof tokenEndpoint>[0]) {
    const time = manualTime(1_000_000, 10);
    const endpoint = tokenEndpoint(script);
    const store = createTokenStore({ tokenUrl: async () => "https://auth.test/connect/token", clientId: "addin", scope: "x", fetch: endpoint.fetch, now: time.now, timer: time.timer, random: () => 0 });
    const states: AuthState[] = [];
    store.subscribe((state) => states.push(state));
    store.acceptUserTokens({ accessToken: "at-1", expiresIn: 600, refreshToken: "rt-1" }, "analyst");
    return { store, time, endpoint, states };
  }

  it("for a network error keeps the user signed in, serves the valid token, and retries with backoff", async () => {
    const { store, time, endpoint, states } = userStore(["drop", "drop"]);
    await time.advance(600_000 - renewLead(600_000));
    expect(endpoint.calls).toHaveLength(1);
    expect(store.state()).toMatchObject({ status: "signed-in", renewal: { reason: "renewal-failing", failures: 1, retryAt: time.now() + 500 } });
    await expect(store.getToken()).resolves.toBe("at-1");
    await time.advance(500);
    expect(endpoint.calls).toHaveLength(2);
    expect(store.state()).toMatchObject({ renewal: { failures: 2, retryAt: time.now() + 1_000 } });
    await time.advance(1_000);
    expect(endpoint.calls).toHaveLength(3);
    expect(endpoint.calls[2]?.get("refresh_token")).toBe("rt-1");
    await expect(store.getToken()).resolves.toBe("token-1");
    expect(store.state()).toMatchObject({ status: "signed-in" });
    expect(store.state()).not.toHaveProperty("renewal");
    expect(states.some((seen) => seen.status === "signed-out")).toBe(false);
  });

  it("for a busy token service (429) waits as long as Retry-After says", async () => {
    const { store, time, endpoint } = userStore([{ status: 429, retryAfter: "42" }]);
    await time.advance(600_000 - renewLead(600_000));
    expect(store.state()).toMatchObject({ status: "signed-in", renewal: { reason: "token-service-busy", retryAt: time.now() + 42_000 } });
    await time.advance(41_999);
    expect(endpoint.calls).toHaveLength(1);
    await time.advance(1);
    expect(endpoint.calls).toHaveLength(2);
    await expect(store.getToken()).resolves.toBe("token-1");
  });

  it("signs a user out once the token expired without a renewal", async () => {
    const { store, time } = userStore(Array.from({ length: 20 }, () => 503));
    await time.advance(599_999);
    expect(store.state().status).toBe("signed-in");
    await time.advance(1);
    const state = store.state();
    expect(state.status).toBe("signed-out");
    expect(state.status === "signed-out" && state.reason).toMatch(/expired/);
  });

  it("signs out at once on invalid_grant", async () => {
    const { store, time, states } = userStore([400]);
    await time.advance(600_000 - renewLead(600_000));
    expect(store.state()).toMatchObject({ status: "signed-out", reason: expect.stringMatching(/invalid_grant/) });
    expect(states.map((state) => state.status)).toEqual(["signed-in", "signed-out"]);
    await expect(store.getToken()).rejects.toBeInstanceOf(AuthError);
  });

  it("keeps a service-key session past expiry and gets a token once the service is back", async () => {
    const time = manualTime(1_000_000, 10);
    const script: Parameters<typeof tokenEndpoint>[0] = [];
    const endpoint = tokenEndpoint(script);
    const store = createTokenStore({ tokenUrl: async () => "https://auth.test/connect/token", clientId: "addin", scope: "x", fetch: endpoint.fetch, now: time.now, timer: time.timer, random: () => 0 });
    await store.signInWithServiceKey("svc", "key");
    script.push(...Array.from({ length: 1_000 }, () => "drop" as const));
    await time.advance(4_000_000);
    expect(store.state()).toMatchObject({ status: "signed-in", renewal: { reason: "renewal-failing" } });
    const error = (await store.getToken().catch((caught: unknown) => caught)) as AuthError;
    expect(error.reason).toBe("renewal-failing");
    script.length = 0;
    await time.advance((error.retryAt ?? 0) - time.now());
    await expect(store.getToken()).resolves.toBe("token-2");
  });
});

describe("a token provider from another bundle (the pane's store in Excel)", () => {
  it("is waited for when its own copy of AuthError says renewal is failing, and the key gets its value", async () => {
    // The same error family, another copy of its classes: recognised by name, as across bundles.
    class ForeignAuthError extends Error {
      override name = "AuthError";
      readonly status = 0;
      constructor(readonly reason: string, readonly retryAt: number) {
        super(`token renewal failing (network); retrying in 1 s`);
      }
    }
    let calls = 0;
    const provider = {
      getToken: async () => {
        calls += 1;
        if (calls === 1) throw new ForeignAuthError("renewal-failing", Date.now() + 30);
        return "token-2";
      },
    };
    const { client, manual } = setup({ tokenProvider: provider, now: Date.now, fake: { validTokens: ["token-2"] } });
    const [result] = await flushAll(manual, [client.price({ symbol: "S1", date: "2024-03-01" })]);
    expect(valueOf(result).date).toBe("2024-03-01");
    expect(calls).toBe(2);
  });
});
