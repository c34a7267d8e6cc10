import { AuthError, HTTPError, TimeoutError, clientCredentialsTokenProvider, serviceKeyTokenProvider } from "../../src/prices";
import { renewLead } from "../../src/prices/token-session";
import { within } from "./setup";

interface TokenCall {
  url: string;
  body: URLSearchParams;
  authorization: string | null;
}

/** Leaves `expires_in` out of the token response. */
const OMIT = Symbol("omit");

/** `tokenFor` makes the token of the nth call. */
function tokenEndpoint(expiresIn: unknown = 3600, tokenFor: (n: number) => string = (n) => `token-${n}`) {
  const calls: TokenCall[] = [];
  let release: (() => void) | undefined;
  let hold = false;
  /** Answers for the next calls, in order: "hang" never answers (and ignores its signal), a number is that status. */
  const script: ("hang" | number)[] = [];
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    calls.push({ url: String(input), body: new URLSearchParams(String(init?.body)), authorization: new Headers(init?.headers).get("authorization") });
    const next = script.shift();
    if (next === "hang") return new Promise<Response>(() => undefined);
    if (typeof next === "number") return new Response(JSON.stringify({ error: "server_error" }), { status: next });
    if (hold) await new Promise<void>((resolve) => (release = resolve));
    const body: Record<string, unknown> = { access_token: tokenFor(calls.length), token_type: "Bearer" };
    if (expiresIn !== OMIT) body.expires_in = expiresIn;
    return new Response(JSON.stringify(body), { status: 200 });
  };
  return {
    fetch: fetchImpl as typeof fetch,
    calls,
    script,
    holdNext() {
      hold = true;
    },
    release() {
      hold = false;
      release?.();
    },
  };
}

/** Lets a background token request finish. */
async function settled(): Promise<void> {
  for (let round = 0; round < 10; round += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe("client credentials token provider", () => {
  const base = { tokenUrl: "https://auth.test/auth/token", clientId: "sandbox-full", clientSecret: "sandbox-full-secret", scope: "sandbox.physicalprices.api", resource: "https://api.test/physical/v2" };

  it("asks with client credentials, scope and resource, authenticating with HTTP Basic", async () => {
    const endpoint = tokenEndpoint();
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch });
    expect(await provider.getToken()).toBe("token-1");
    const call = endpoint.calls[0];
    expect(call?.body.get("grant_type")).toBe("client_credentials");
    expect(call?.body.get("scope")).toBe(base.scope);
    expect(call?.body.get("resource")).toBe(base.resource);
    expect(call?.authorization).toBe(`Basic ${Buffer.from("sandbox-full:sandbox-full-secret").toString("base64")}`);
  });

  it("hands out the token until renewal is due, then renews it in the background while it is still valid", async () => {
    const endpoint = tokenEndpoint(600);
    let now = 0;
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch, now: () => now });
    await provider.getToken();
    const due = 600_000 - renewLead(600_000);
    now = due - 1_000;
    expect(await provider.getToken()).toBe("token-1");
    expect(endpoint.calls).toHaveLength(1);
    now = due + 1_000;
    expect(await provider.getToken()).toBe("token-1");
    await settled();
    expect(endpoint.calls).toHaveLength(2);
    expect(await provider.getToken()).toBe("token-2");
    expect(provider.state()).toEqual({ status: "active", expiresAt: due + 1_000 + 600_000 });
  });

  it("shares one token request among concurrent callers", async () => {
    const endpoint = tokenEndpoint();
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch });
    endpoint.holdNext();
    const asks = [provider.getToken(), provider.getToken(), provider.getToken({ forceRefresh: true })];
    await Promise.resolve();
    endpoint.release();
    expect(await Promise.all(asks)).toEqual(["token-1", "token-1", "token-1"]);
    expect(endpoint.calls).toHaveLength(1);
  });

  it("gets a new token when forced", async () => {
    const endpoint = tokenEndpoint();
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch });
    await provider.getToken();
    expect(await provider.getToken({ forceRefresh: true })).toBe("token-2");
  });

  it("stays within 10 token requests per 5 minutes", async () => {
    const endpoint = tokenEndpoint();
    let now = 0;
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch, now: () => now });
    for (let index = 0; index < 10; index += 1) await provider.getToken({ forceRefresh: true });
    await expect(provider.getToken({ forceRefresh: true })).rejects.toBeInstanceOf(AuthError);
    expect(endpoint.calls).toHaveLength(10);
    now = 300_001;
    expect(await provider.getToken({ forceRefresh: true })).toBe("token-11");
  });

  it("times out a token endpoint that never answers, names the renewal failing, and asks again after its backoff", async () => {
    const endpoint = tokenEndpoint();
    let now = 0;
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch, timeoutMs: 20, now: () => now });
    endpoint.script.push("hang");
    const error = await within(60_000, provider.getToken().then(() => undefined, (caught: unknown) => caught));
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).reason).toBe("renewal-failing");
    expect((error as AuthError).cause).toBeInstanceOf(TimeoutError);
    expect((error as AuthError).message).toMatch(/^token renewal failing \(Request failed \(timed out after 20 ms\): POST \/auth\/token\); retrying in 1 s$/);
    // Within the backoff nothing is sent; after it, the next call asks again.
    await expect(provider.getToken()).rejects.toMatchObject({ reason: "renewal-failing" });
    expect(endpoint.calls).toHaveLength(1);
    now = (error as AuthError).retryAt ?? 0;
    expect(await within(60_000, provider.getToken())).toBe("token-2");
    expect(endpoint.calls).toHaveLength(2);
  });

  it("keeps no failed answer: a 503 is retried after its backoff", async () => {
    const endpoint = tokenEndpoint();
    let now = 0;
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch, now: () => now });
    endpoint.script.push(503);
    const error = (await provider.getToken().catch((caught: unknown) => caught)) as AuthError;
    expect(error.cause).toBeInstanceOf(HTTPError);
    now = error.retryAt ?? 0;
    expect(await provider.getToken()).toBe("token-2");
  });

  it.each([
    ["missing", OMIT],
    ["null", null],
    ["not a number", "soon"],
  ])("keeps a token for an hour when expires_in is %s", async (_, expiresIn) => {
    const endpoint = tokenEndpoint(expiresIn);
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch, now: () => 0 });
    await provider.getToken();
    expect(provider.state()).toEqual({ status: "active", expiresAt: 3_600_000 });
  });

  it("reads expires_in given as a numeric string", async () => {
    const endpoint = tokenEndpoint("600");
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch, now: () => 0 });
    await provider.getToken();
    expect(provider.state()).toEqual({ status: "active", expiresAt: 600_000 });
  });

  it("takes the lifetime from the JWT's exp when expires_in is missing", async () => {
    const segment = (value: object): string => Buffer.from(JSON.stringify(value)).toString("base64url");
    const jwt = (n: number): string => `${segment({ alg: "RS256", typ: "at+jwt" })}.${segment({ exp: 1_200, n })}.signature`;
    const endpoint = tokenEndpoint(OMIT, jwt);
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch, now: () => 0 });
    expect(await provider.getToken()).toBe(jwt(1));
    expect(provider.state()).toEqual({ status: "active", expiresAt: 1_200_000 });
  });

  it("reports a refused token request as AuthError without the secret", async () => {
    const fetchImpl = (async () => new Response(JSON.stringify({ error: "invalid_client", error_description: "client authentication failed" }), { status: 401 })) as typeof fetch;
    const provider = clientCredentialsTokenProvider({ ...base, fetch: fetchImpl });
    const error = (await provider.getToken().then(
      () => undefined,
      (caught: unknown) => caught,
    )) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toContain("invalid_client");
    expect(`${error.message}${JSON.stringify(error)}`).not.toContain("sandbox-full-secret");
  });
});

describe("service key token provider", () => {
  it("asks with grant_type=servicekey, name and key", async () => {
    const endpoint = tokenEndpoint(7200);
    const provider = serviceKeyTokenProvider({ tokenUrl: "https://auth.test/auth/token", serviceName: "sandbox-service", serviceKey: "sandbox-service-key", fetch: endpoint.fetch });
    expect(await provider.getToken()).toBe("token-1");
    expect(Object.fromEntries(endpoint.calls[0]?.body ?? [])).toEqual({ grant_type: "servicekey", serviceName: "sandbox-service", serviceKey: "sandbox-service-key" });
    expect(await provider.getToken()).toBe("token-1");
  });
});
