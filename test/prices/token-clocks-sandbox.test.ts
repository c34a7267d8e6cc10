/**
 * A token whose lifetime only its `exp` tells (no `expires_in`, no `iat`), from the sandbox's token service
 * with a local clock ten minutes off: the lifetime is read against the service's `Date`, so a clock ten
 * minutes fast does not take a five-minute token for expired and fetch one per request.
 */
import { clientCredentialsTokenProvider } from "../../src/prices";
import { startHarness, type Harness, SCOPE } from "./sandbox-helpers";

jest.setTimeout(60_000);

/** The token service's answers without `expires_in`, and their JWTs without `iat` (the API never sees these tokens). */
function withoutLifetime(harness: Harness): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const response = await harness.fetch(input, init);
    const body = (await response.json()) as Record<string, unknown>;
    delete body.expires_in;
    if (typeof body.access_token === "string") {
      const [head, payload, signature] = body.access_token.split(".") as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
      delete claims.iat;
      body.access_token = `${head}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
    }
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  }) as typeof fetch;
}

describe("a token's lifetime read against the token service's Date", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ tokenTtl: 300 });
  });
  afterAll(() => harness.close());

  it.each([
    ["ten minutes fast", 600_000],
    ["ten minutes slow", -600_000],
  ])("makes one token request for 60 asks with the local clock %s", async (_, offset) => {
    const provider = clientCredentialsTokenProvider({
      tokenUrl: `${harness.sandbox.issuer}/token`,
      clientId: "sandbox-full",
      clientSecret: "sandbox-full-secret",
      scope: SCOPE,
      resource: harness.sandbox.apiUrl,
      fetch: withoutLifetime(harness),
      now: () => Date.now() + offset,
    });
    const tokens = new Set<string>();
    for (let ask = 0; ask < 60; ask += 1) tokens.add(await provider.getToken());
    expect(provider.requests).toBe(1);
    expect(tokens.size).toBe(1);
    const state = provider.state();
    // At most five minutes to live by the local clock, whichever way it is off (a slow clock read alone would give fifteen).
    expect(state.status === "active" && state.expiresAt - (Date.now() + offset)).toBeLessThanOrEqual(300_000);
  });
});
