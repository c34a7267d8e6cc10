/** The service-key grant on its own: answers, token lifetimes, and the sliding-window rate limit on a driven clock. */
import Fastify from "fastify";
import { decodeJwt, decodeProtectedHeader } from "jose";
import {
  DEFAULT_SERVICE_KEY_RATE_LIMIT,
  SANDBOX_ACCOUNTS,
  createTokenService,
  type TokenServiceOptions,
} from "../../../src/sandbox/auth";
import { loadSigningKey } from "../../../src/sandbox/auth/keys";
import { SlidingWindowLimiter, createServiceKeyGrant, type ServiceKeyGrant } from "../../../src/sandbox/auth/servicekey";

const ISSUER = "https://localhost:4000/auth";
const API = "https://localhost:4000/physical/v2";
const SCOPE = "sandbox.physicalprices.api";

function form(serviceName: string, serviceKey: string): URLSearchParams {
  return new URLSearchParams({ grant_type: "servicekey", serviceName, serviceKey });
}

describe("SlidingWindowLimiter", () => {
  it("allows the limit within a window, then says how long to wait for the oldest request to leave it", () => {
    let now = 1_000_000;
    const limiter = new SlidingWindowLimiter({ requests: 3, windowSeconds: 300 }, () => now);
    expect(limiter.take("a")).toBeUndefined();
    now += 10_000;
    expect(limiter.take("a")).toBeUndefined();
    expect(limiter.take("a")).toBeUndefined();
    now += 500;
    // The first request was 10.5 s ago: it leaves the window in 289.5 s.
    expect(limiter.take("a")).toBe(290);
    expect(limiter.take("b")).toBeUndefined();
    now += 289_500;
    expect(limiter.take("a")).toBeUndefined();
    expect(limiter.take("a")).toBe(10);
  });

  it("does not count refused requests, so a caller that waits as told gets through", () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter({ requests: 1, windowSeconds: 60 }, () => now);
    limiter.take("a");
    for (let i = 0; i < 5; i += 1) {
      now += 1000;
      expect(limiter.take("a")).toBeDefined();
    }
    now = 60_000;
    expect(limiter.take("a")).toBeUndefined();
  });
});

describe("the service-key limiter's size", () => {
  it("keeps one entry per account however many distinct names are sent", async () => {
    let now = Date.parse("2025-06-02T10:00:00Z");
    const limiter = new SlidingWindowLimiter(DEFAULT_SERVICE_KEY_RATE_LIMIT, () => now);
    const grant = await createServiceKeyGrant({
      issuer: ISSUER, audience: API, scope: SCOPE, ttlSeconds: 7200, signingKey: await loadSigningKey(null),
      accounts: SANDBOX_ACCOUNTS, rateLimit: DEFAULT_SERVICE_KEY_RATE_LIMIT, now: () => now, limiter,
    });
    for (let i = 0; i < 2_000; i += 1) {
      now += 10;
      await grant(form(`name-${i}-${"x".repeat(1000)}`, "guess"));
    }
    expect(limiter.size).toBe(1);
    // The unknown names share one count: a known service is not held back by them.
    expect((await grant(form("nobody-else", "guess"))).status).toBe(429);
    expect((await grant(form("sandbox-service", "sandbox-service-key"))).status).toBe(200);
    expect(limiter.size).toBe(2);
  });

  it("holds at most maxKeys keys, dropping the least recently used, without scanning them all", () => {
    const limiter = new SlidingWindowLimiter({ requests: 2, windowSeconds: 300 }, () => 0, 10);
    limiter.take("kept");
    for (let i = 0; i < 100; i += 1) {
      limiter.take(`key-${i}`);
      if (i % 5 === 0) limiter.take("kept");
    }
    expect(limiter.size).toBe(10);
    // "kept" was used lately, so it stayed: it is still at its limit of 2.
    expect(limiter.take("kept")).toBeGreaterThan(0);
  });
});

describe("createServiceKeyGrant", () => {
  let now = Date.parse("2025-06-02T10:00:00Z");
  let grant: ServiceKeyGrant;

  const makeGrant = async () =>
    createServiceKeyGrant({
      issuer: ISSUER,
      audience: API,
      scope: SCOPE,
      ttlSeconds: 7200,
      signingKey: await loadSigningKey(null),
      accounts: SANDBOX_ACCOUNTS,
      rateLimit: DEFAULT_SERVICE_KEY_RATE_LIMIT,
      now: () => now,
    });

  beforeAll(async () => {
    grant = await makeGrant();
  });

  it("answers a good key with the token response and a token shaped like oidc-provider's", async () => {
    const answer = await grant(form("sandbox-service", "sandbox-service-key"));
    expect(answer.status).toBe(200);
    expect(answer.headers).toMatchObject({ "cache-control": "no-store" });
    expect(answer.body).toMatchObject({ token_type: "Bearer", expires_in: 7200, scope: SCOPE });
    const token = String(answer.body.access_token);
    expect(Object.keys(decodeProtectedHeader(token))).toEqual(["alg", "typ", "kid"]);
    const claims = decodeJwt(token);
    expect(Object.keys(claims)).toEqual(["jti", "sub", "iat", "exp", "scope", "client_id", "iss", "aud"]);
    expect(claims).toMatchObject({ sub: "sandbox-service", client_id: "sandbox-service", iss: ISSUER, aud: API });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(7200);
    expect(claims.iat).toBe(now / 1000);
  });

  it.each([
    ["no serviceKey", new URLSearchParams({ grant_type: "servicekey", serviceName: "x" })],
    ["a blank serviceName", form(" ", "k")],
    ["serviceName twice", new URLSearchParams("grant_type=servicekey&serviceName=a&serviceName=b&serviceKey=k")],
  ])("answers %s with invalid_request", async (_what, params) => {
    const answer = await grant(params);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: "invalid_request" });
  });

  it("answers a wrong key, and an unknown service, with invalid_grant and no token", async () => {
    for (const params of [form("sandbox-trial-service", "sandbox-service-key"), form("nobody", "nothing")]) {
      const answer = await grant(params);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: "invalid_grant", error_description: "The service name or service key is not valid" });
    }
  });

  it("counts failed attempts toward the limit, so keys cannot be guessed quickly", async () => {
    const limited = await makeGrant();
    const name = "sandbox-trial-service";
    for (let i = 0; i < 10; i += 1) expect((await limited(form(name, `guess-${i}`))).status).toBe(400);
    const refused = await limited(form(name, "sandbox-trial-service-key"));
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("300");
    expect(refused.body).toMatchObject({ error: "too_many_requests" });
    now += 300_000;
    expect((await limited(form(name, "sandbox-trial-service-key"))).status).toBe(200);
  });
});

describe("service-key token lifetime", () => {
  async function expiresIn(options: Partial<TokenServiceOptions>): Promise<number> {
    const service = await createTokenService({ origin: "https://localhost:4000", keysDir: null, ...options });
    const app = Fastify();
    await service.register(app);
    const response = await app.inject({
      method: "POST",
      url: "/auth/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "grant_type=servicekey&serviceName=sandbox-service&serviceKey=sandbox-service-key",
    });
    await app.close();
    return (response.json() as { expires_in: number }).expires_in;
  }

  it("is 7200 s by default (the vendor's)", async () => {
    expect(await expiresIn({})).toBe(7200);
  });

  it("stays 7200 s when only the access-token lifetime (--token-ttl) is given", async () => {
    expect(await expiresIn({ tokenTtl: 5 })).toBe(7200);
  });

  it("follows serviceKeyTtl (--servicekey-ttl), so short-lived service-key tokens can be tested", async () => {
    expect(await expiresIn({ tokenTtl: 5, serviceKeyTtl: 60 })).toBe(60);
  });
});
