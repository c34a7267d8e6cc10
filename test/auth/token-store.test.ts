import { createTokenStore, renewLead, type AuthState } from "../../src/auth/token-store";
import { isAuthError } from "../../src/prices/errors";
import { manualTime } from "../helpers/manual-time";

interface Call {
  url: string;
  form: URLSearchParams;
}

/** A token endpoint that answers from a script and records each form. */
function fakeTokenEndpoint(answers: Array<{ status: number; body: unknown }>) {
  const calls: Call[] = [];
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), form: new URLSearchParams(String(init?.body ?? "")) });
    const answer = answers.shift() ?? { status: 500, body: { error: "server_error" } };
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { "content-type": "application/json" } });
  }) as typeof fetch;
  return { calls, fetchFn };
}

const TOKEN_URL = "https://localhost:4000/auth/token";

function makeStore(answers: Array<{ status: number; body: unknown }>) {
  const time = manualTime();
  const endpoint = fakeTokenEndpoint(answers);
  const store = createTokenStore({
    tokenUrl: async () => TOKEN_URL,
    clientId: "prices-excel-addin",
    scope: "sandbox.physicalprices.api",
    fetch: endpoint.fetchFn,
    now: time.now,
    timer: time.timer,
  });
  const states: AuthState[] = [];
  store.subscribe((s) => states.push(s));
  return { store, time, endpoint, states };
}

describe("token store", () => {
  it("says not signed in before any sign-in, with an AuthError", async () => {
    const { store } = makeStore([]);
    expect(store.state()).toEqual({ status: "signed-out" });
    const error = await store.getToken().catch((e: unknown) => e);
    expect(isAuthError(error)).toBe(true);
    expect(String((error as Error).message)).toContain("sign in from the Prices pane");
  });

  it("hands out the user's access token until renewal is due", async () => {
    const { store, endpoint } = makeStore([]);
    store.acceptUserTokens({ accessToken: "at-1", expiresIn: 3600, refreshToken: "rt-1" }, "analyst");
    expect(await store.getToken()).toBe("at-1");
    expect(endpoint.calls).toHaveLength(0);
    const state = store.state();
    expect(state.status === "signed-in" && state.account).toBe("analyst");
  });

  it("renews with the refresh token before expiry, keeping a rotated refresh token", async () => {
    const { store, time, endpoint } = makeStore([
      { status: 200, body: { access_token: "at-2", expires_in: 3600, refresh_token: "rt-2", token_type: "Bearer" } },
      { status: 200, body: { access_token: "at-3", expires_in: 3600, token_type: "Bearer" } },
    ]);
    store.acceptUserTokens({ accessToken: "at-1", expiresIn: 3600, refreshToken: "rt-1" }, "analyst");
    const lead = renewLead(3_600_000);
    await time.advance(3_600_000 - lead - 1);
    expect(endpoint.calls).toHaveLength(0);
    await time.advance(1);
    expect(endpoint.calls).toHaveLength(1);
    expect(endpoint.calls[0]?.url).toBe(TOKEN_URL);
    expect(Object.fromEntries(endpoint.calls[0]?.form ?? [])).toEqual({
      grant_type: "refresh_token",
      refresh_token: "rt-1",
      client_id: "prices-excel-addin",
    });
    expect(await store.getToken()).toBe("at-2");
    // second renewal uses the rotated token; the server then stops rotating, so rt-2 is kept
    await time.advance(3_600_000 - lead);
    expect(endpoint.calls[1]?.form.get("refresh_token")).toBe("rt-2");
    expect(await store.getToken()).toBe("at-3");
    await time.advance(3_600_000 - lead);
    expect(endpoint.calls[2]?.form.get("refresh_token")).toBe("rt-2");
  });

  it("signs out with a reason when renewal fails, and then answers not signed in", async () => {
    const { store, time, states } = makeStore([{ status: 400, body: { error: "invalid_grant", error_description: "grant request is invalid" } }]);
    store.acceptUserTokens({ accessToken: "at-1", expiresIn: 600, refreshToken: "rt-1" }, "analyst");
    await time.advance(600_000);
    const state = store.state();
    expect(state.status).toBe("signed-out");
    expect(state.status === "signed-out" && state.reason).toContain("invalid_grant");
    expect(states.map((s) => s.status)).toEqual(["signed-in", "signed-out"]);
    const error = await store.getToken().catch((e: unknown) => e);
    expect(isAuthError(error)).toBe(true);
  });

  it("signs out at expiry when there is no refresh token", async () => {
    const { store, time, endpoint } = makeStore([]);
    store.acceptUserTokens({ accessToken: "at-1", expiresIn: 60 }, "analyst");
    await time.advance(59_999);
    expect(store.state().status).toBe("signed-in");
    await time.advance(1);
    expect(store.state().status).toBe("signed-out");
    expect(endpoint.calls).toHaveLength(0);
  });

  it("renews on forceRefresh (after a 401) once, sharing one request between concurrent callers", async () => {
    const { store, endpoint } = makeStore([{ status: 200, body: { access_token: "at-2", expires_in: 3600 } }]);
    store.acceptUserTokens({ accessToken: "at-1", expiresIn: 3600, refreshToken: "rt-1" }, "analyst");
    const [a, b] = await Promise.all([store.getToken({ forceRefresh: true }), store.getToken({ forceRefresh: true })]);
    expect([a, b]).toEqual(["at-2", "at-2"]);
    expect(endpoint.calls).toHaveLength(1);
  });

  it("renews a token that has already expired when asked (the machine slept past the timer)", async () => {
    const { store, time, endpoint } = makeStore([{ status: 200, body: { access_token: "at-2", expires_in: 3600 } }]);
    store.acceptUserTokens({ accessToken: "at-1", expiresIn: 3600, refreshToken: "rt-1" }, "analyst");
    time.jump(4_000_000);
    expect(endpoint.calls).toHaveLength(0);
    expect(await store.getToken()).toBe("at-2");
    expect(endpoint.calls[0]?.form.get("refresh_token")).toBe("rt-1");
  });

  it("signs in with a service key and renews with the same key", async () => {
    const { store, time, endpoint } = makeStore([
      { status: 200, body: { access_token: "sk-1", expires_in: 7200 } },
      { status: 200, body: { access_token: "sk-2", expires_in: 7200 } },
    ]);
    await store.signInWithServiceKey("sandbox-service", "sandbox-service-key");
    expect(Object.fromEntries(endpoint.calls[0]?.form ?? [])).toEqual({
      grant_type: "servicekey",
      serviceName: "sandbox-service",
      serviceKey: "sandbox-service-key",
    });
    expect(await store.getToken()).toBe("sk-1");
    await time.advance(7_200_000 - renewLead(7_200_000));
    expect(endpoint.calls).toHaveLength(2);
    expect(endpoint.calls[1]?.form.get("serviceKey")).toBe("sandbox-service-key");
    expect(await store.getToken()).toBe("sk-2");
    const state = store.state();
    expect(state.status === "signed-in" && state.method).toBe("service-key");
  });

  it("rejects a wrong service key without signing in and without echoing the key", async () => {
    const { store } = makeStore([{ status: 401, body: { error: "invalid_client" } }]);
    const error = (await store.signInWithServiceKey("sandbox-service", "wrong-key-123").catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("401");
    expect(error.message).not.toContain("wrong-key-123");
    expect(store.state().status).toBe("signed-out");
  });

  it("sign-out drops the tokens, cancels renewal and ignores a renewal that lands afterwards", async () => {
    let release: (r: Response) => void = () => undefined;
    const time = manualTime();
    const calls: string[] = [];
    const store = createTokenStore({
      tokenUrl: async () => TOKEN_URL,
      clientId: "c",
      scope: "s",
      now: time.now,
      timer: time.timer,
      fetch: (async () => {
        calls.push("token");
        return new Promise<Response>((resolve) => (release = resolve));
      }) as typeof fetch,
    });
    store.acceptUserTokens({ accessToken: "at-1", expiresIn: 3600, refreshToken: "rt-1" }, "analyst");
    expect(time.pending()).toHaveLength(1);
    const pending = store.getToken({ forceRefresh: true }).catch((e: unknown) => e);
    await new Promise((r) => setImmediate(r));
    store.signOut();
    expect(time.pending()).toHaveLength(0);
    release(new Response(JSON.stringify({ access_token: "late", expires_in: 3600 }), { status: 200 }));
    expect(isAuthError(await pending)).toBe(true);
    expect(store.state()).toEqual({ status: "signed-out" });
    await expect(store.getToken()).rejects.toThrow("not signed in");
  });

  it("hands the ended user session's ID token to sign-out once, and never shows it in its state", async () => {
    const { store, states } = makeStore([{ status: 200, body: { access_token: "sk-at", expires_in: 7200 } }]);
    store.acceptUserTokens({ accessToken: "at-1", expiresIn: 3600, refreshToken: "rt-1", idToken: "id-1" }, "analyst");
    expect(JSON.stringify([store.state(), ...states])).not.toContain("id-1");
    expect(store.signOut()).toBe("id-1");
    expect(store.signOut()).toBeUndefined();
    await store.signInWithServiceKey("svc", "key");
    expect(store.signOut()).toBeUndefined();
  });

  it("never writes a token or key to storage, cookies or the console", async () => {
    const writes: string[] = [];
    const recorder = {
      setItem: (k: string, v: string) => writes.push(`${k}=${v}`),
      getItem: () => null,
      removeItem: () => undefined,
      clear: () => undefined,
      key: () => null,
      length: 0,
    };
    const g = globalThis as Record<string, unknown>;
    const saved = { localStorage: g["localStorage"], sessionStorage: g["sessionStorage"], document: g["document"] };
    const consoleSpies = (["log", "info", "warn", "error", "debug"] as const).map((m) => jest.spyOn(console, m).mockImplementation(() => undefined));
    Object.defineProperty(globalThis, "localStorage", { value: recorder, configurable: true, writable: true });
    Object.defineProperty(globalThis, "sessionStorage", { value: recorder, configurable: true, writable: true });
    const documentStub = {};
    Object.defineProperty(documentStub, "cookie", { set: (v: string) => writes.push(`cookie ${v}`), get: () => "" });
    Object.defineProperty(globalThis, "document", { value: documentStub, configurable: true, writable: true });
    try {
      const { store, time } = makeStore([
        { status: 200, body: { access_token: "SECRET-AT-2", expires_in: 600, refresh_token: "SECRET-RT-2" } },
        { status: 400, body: { error: "invalid_grant" } },
        { status: 200, body: { access_token: "SECRET-SK-1", expires_in: 7200 } },
      ]);
      store.acceptUserTokens({ accessToken: "SECRET-AT-1", expiresIn: 600, refreshToken: "SECRET-RT-1", idToken: "SECRET-ID-1" }, "analyst");
      await store.getToken({ forceRefresh: true });
      await time.advance(600_000);
      await store.signInWithServiceKey("svc", "SECRET-KEY");
      store.signOut();
      const logged = consoleSpies.flatMap((spy) => spy.mock.calls.map((c) => c.map(String).join(" ")));
      for (const text of [...writes, ...logged, JSON.stringify(store.state())]) {
        expect(text).not.toMatch(/SECRET/);
      }
      expect(writes).toEqual([]);
      expect(logged).toEqual([]);
    } finally {
      consoleSpies.forEach((spy) => spy.mockRestore());
      for (const [k, v] of Object.entries(saved)) Object.defineProperty(globalThis, k, { value: v, configurable: true, writable: true });
    }
  });
});
