/**
 * The pane's token store against the sandbox's real token service, which rotates refresh tokens: a renewal
 * slower than the token timeout is kept alive (never resent with the old refresh token, which would end the
 * sign-in with invalid_grant), and cells waiting for a renewal when the user signs in again get their values.
 */
import { addDays } from "../../src/api/dates";
import { createTokenStore, type AuthState, type Timer } from "../../src/auth/token-store";
import { describeFailure } from "../../src/functions/errors";
import { createPricesClient, type TokenProvider } from "../../src/prices";
import { ADDIN_CLIENT_ID } from "../../src/sandbox/auth";
import { signInUser } from "../helpers/user-sign-in";
import { startHarness, type Harness, SCOPE } from "../prices/sandbox-helpers";

jest.setTimeout(60_000);

/** Renewal happens only when asked: no timer of the session fires during a test. */
const idleTimer: Timer = { set: () => 0, clear: () => undefined };

/** Resolves once `ready` holds of the store's state (checked now and on every change). */
function stateWhere(store: { state(): AuthState; subscribe(listener: (state: AuthState) => void): () => void }, ready: (state: AuthState) => boolean): Promise<AuthState> {
  return new Promise((resolve) => {
    if (ready(store.state())) return resolve(store.state());
    const stop = store.subscribe((state) => {
      if (!ready(state)) return;
      stop();
      resolve(state);
    });
  });
}

/**
 * The sandbox's token endpoint, with refresh-token answers held back until released: the token service has
 * answered (and rotated the refresh token) before the client sees its answer, as over a slow network.
 */
function slowRefreshes(harness: Harness) {
  const sent: string[] = [];
  let release: () => void = () => undefined;
  let held: Promise<void> | undefined = new Promise((resolve) => (release = resolve));
  let answered: () => void = () => undefined;
  const firstAnswered = new Promise<void>((resolve) => (answered = resolve));
  const fetchImpl = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const form = new URLSearchParams(String(init?.body ?? ""));
    if (form.get("grant_type") !== "refresh_token") return harness.fetch(input, init);
    sent.push(form.get("refresh_token") ?? "");
    // Past the client's timeout the answer is still on its way: the abort signal does not reach the service.
    const { signal: _ignored, ...unsignalled } = init ?? {};
    const response = await harness.fetch(input, unsignalled);
    const body = await response.text();
    answered();
    await held;
    return new Response(body, { status: response.status, headers: response.headers });
  }) as typeof fetch;
  return {
    fetch: fetchImpl,
    sent,
    firstAnswered,
    release() {
      held = undefined;
      release();
    },
  };
}

describe("a renewal slower than the token timeout, with refresh-token rotation", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.close());

  it("fails the waiting cell with its cause, keeps the request alive, installs its answer and renews next with the rotated token", async () => {
    const tokens = await signInUser(harness.sandbox, "analyst");
    const slow = slowRefreshes(harness);
    // The session's own timer retries the renewal: it must join the request still running, not send the old refresh token.
    const store = createTokenStore({ tokenUrl: async () => `${harness.sandbox.issuer}/token`, clientId: ADDIN_CLIENT_ID, scope: SCOPE, fetch: slow.fetch, timeoutMs: 200 });
    store.acceptUserTokens({ accessToken: tokens.accessToken, expiresIn: tokens.expiresIn, refreshToken: tokens.refreshToken }, "analyst");
    const client = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: store, fetch: harness.fetch });
    const symbol = harness.sandbox.data.instruments[0]?.record.symbol as string;
    // The service rejected the token (a 401): renewal starts, and the token service's answer is slow.
    void store.getToken({ rejected: tokens.accessToken }).catch(() => undefined);
    await slow.firstAnswered;
    const cell = await client.price({ symbol, date: addDays(harness.sandbox.data.today, -7) }, { timeLeftMs: 1_000 }).catch((error: unknown) => error);
    expect(describeFailure(cell).message).toMatch(/renewal|token/);
    expect(describeFailure(cell).message).not.toContain("sign in from the Prices pane");
    expect(store.state().status).toBe("signed-in");
    slow.release();
    const renewed = await stateWhere(store, (state) => state.status === "signed-out" || (state.status === "signed-in" && state.renewal === undefined));
    expect(renewed.status).toBe("signed-in");
    const next = await store.getToken();
    expect(next).not.toBe(tokens.accessToken);
    await expect(client.price({ symbol, date: addDays(harness.sandbox.data.today, -8) })).resolves.toMatchObject({ mid: expect.any(Number) });
    // The next renewal sends the rotated refresh token: no refresh token is ever sent twice. On a busy machine its
    // attempt may pass the 200 ms timeout; the request stays alive and the next ask joins it, so ask until it answers.
    let renewedAgain: string | undefined;
    while (renewedAgain === undefined && store.state().status === "signed-in") renewedAgain = await store.getToken({ rejected: next }).catch(() => undefined);
    expect(renewedAgain).not.toBe(next);
    expect(slow.sent).toHaveLength(2);
    expect(new Set(slow.sent).size).toBe(2);
    expect(store.state().status).toBe("signed-in");
    store.signOut();
  });
});

describe("cells waiting for a renewal when the user signs in again", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.close());

  it("complete with the new session", async () => {
    const [first, second] = [await signInUser(harness.sandbox, "analyst"), await signInUser(harness.sandbox, "analyst")];
    const slow = slowRefreshes(harness);
    const store = createTokenStore({ tokenUrl: async () => `${harness.sandbox.issuer}/token`, clientId: ADDIN_CLIENT_ID, scope: SCOPE, fetch: slow.fetch, timer: idleTimer });
    store.acceptUserTokens({ accessToken: first.accessToken, expiresIn: first.expiresIn, refreshToken: first.refreshToken }, "analyst");
    // Counts the cells' token requests, so that the new sign-in comes while every cell waits for the renewal.
    let asked = 0;
    let allAsked: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (allAsked = resolve));
    const symbols = harness.sandbox.data.instruments.slice(0, 5).map((item) => item.record.symbol);
    const counted: TokenProvider = {
      getToken(request) {
        const token = store.getToken(request);
        if (request === undefined && (asked += 1) === symbols.length) allAsked();
        return token;
      },
    };
    void store.getToken({ rejected: first.accessToken }).catch(() => undefined);
    await slow.firstAnswered;
    // One key per request and a connection for each, so every cell waits for a token of its own.
    const client = createPricesClient({ baseUrl: harness.sandbox.apiUrl, tokenProvider: counted, fetch: harness.fetch, limits: { maxSymbols: 1 }, maxInFlight: symbols.length });
    const date = addDays(harness.sandbox.data.today, -7);
    const cells = Promise.allSettled(symbols.map((symbol) => client.price({ symbol, date })));
    await waiting;
    store.acceptUserTokens({ accessToken: second.accessToken, expiresIn: second.expiresIn, refreshToken: second.refreshToken }, "analyst");
    const settled = await cells;
    expect(settled.map((result) => (result.status === "fulfilled" ? "value" : describeFailure(result.reason).message))).toEqual(symbols.map(() => "value"));
    slow.release();
    store.signOut();
  });
});
