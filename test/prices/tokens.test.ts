import { AuthError, clientCredentialsTokenProvider, serviceKeyTokenProvider } from "../../src/prices";

interface TokenCall {
  url: string;
  body: URLSearchParams;
  authorization: string | null;
}

function tokenEndpoint(expiresIn = 3600) {
  const calls: TokenCall[] = [];
  let release: (() => void) | undefined;
  let hold = false;
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    calls.push({ url: String(input), body: new URLSearchParams(String(init?.body)), authorization: new Headers(init?.headers).get("authorization") });
    if (hold) await new Promise<void>((resolve) => (release = resolve));
    return new Response(JSON.stringify({ access_token: `token-${calls.length}`, token_type: "Bearer", expires_in: expiresIn }), { status: 200 });
  };
  return {
    fetch: fetchImpl as typeof fetch,
    calls,
    holdNext() {
      hold = true;
    },
    release() {
      hold = false;
      release?.();
    },
  };
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

  it("caches the token until shortly before expiry", async () => {
    const endpoint = tokenEndpoint(600);
    let now = 0;
    const provider = clientCredentialsTokenProvider({ ...base, fetch: endpoint.fetch, now: () => now });
    await provider.getToken();
    now = 539_000;
    expect(await provider.getToken()).toBe("token-1");
    now = 541_000;
    expect(await provider.getToken()).toBe("token-2");
    expect(endpoint.calls).toHaveLength(2);
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
