/**
 * The token service inside an app shaped like the sandbox's (case-insensitive router, GET with
 * bodies, its own form parser and 404 handler under the API prefix), driven through fastify
 * `inject` as the route tests drive it: no TLS, no port.
 */
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from "fastify";
import {
  ADDIN_CLIENT_ID,
  createTokenService,
  isAuthFailure,
  type TokenService,
} from "../../../src/sandbox/auth";
import { pkcePair } from "./support";

const ORIGIN = "https://localhost:4000";
const API = `${ORIGIN}/physical/v2`;
const SCOPE = "sandbox.physicalprices.api";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

let service: TokenService;
let app: FastifyInstance;

beforeAll(async () => {
  service = await createTokenService({ origin: ORIGIN, apiUrl: API, keysDir: null });
  app = Fastify({ routerOptions: { caseSensitive: false, ignoreTrailingSlash: true } });
  app.addHttpMethod("GET", { hasBody: true, overrideExisting: true });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ title: "not found" }));
  await service.register(app);
  await app.register(
    async (api) => {
      api.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_r, body, done) =>
        done(null, body),
      );
      api.get("/Instruments", async (request, reply) => {
        try {
          const caller = await service.verify(request.headers.authorization);
          return { id: caller.id, kind: caller.kind, seesGrain: caller.canSee("AG-WHE-0058") };
        } catch (error) {
          if (!isAuthFailure(error)) throw error;
          return reply.code(error.status).header("www-authenticate", error.wwwAuthenticate).send({ detail: error.message });
        }
      });
    },
    { prefix: "/physical/v2" },
  );
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function token(fields: Record<string, string>): Promise<string> {
  const response = await app.inject({ method: "POST", url: "/auth/token", headers: FORM, payload: form(fields) });
  expect(response.statusCode).toBe(200);
  return (response.json() as { access_token: string }).access_token;
}

describe("over inject", () => {
  it("publishes URLs of the configured origin, whatever Host or X-Forwarded-Host the request carries", async () => {
    const response = await app.inject({
      url: "/auth/.well-known/openid-configuration",
      headers: { host: "127.0.0.1:9999", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      issuer: `${ORIGIN}/auth`,
      token_endpoint: `${ORIGIN}/auth/token`,
      jwks_uri: `${ORIGIN}/auth/jwks`,
    });
    expect(service.issuer).toBe(`${ORIGIN}/auth`);
  });

  it("issues client-credentials tokens that the API accepts, with the client's entitlement", async () => {
    const full = await token({ grant_type: "client_credentials", scope: SCOPE, client_id: "sandbox-full", client_secret: "sandbox-full-secret" });
    const trial = await token({ grant_type: "client_credentials", scope: SCOPE, client_id: "sandbox-trial", client_secret: "sandbox-trial-secret" });
    const asFull = await app.inject({ url: "/physical/v2/instruments", headers: { authorization: `Bearer ${full}` } });
    expect(asFull.json()).toEqual({ id: "sandbox-full", kind: "client", seesGrain: true });
    const asTrial = await app.inject({ url: "/physical/v2/Instruments", headers: { authorization: `Bearer ${trial}` } });
    expect(asTrial.json()).toEqual({ id: "sandbox-trial", kind: "client", seesGrain: false });
  });

  it("refuses with 403 a client-credentials token asked for without the API scope", async () => {
    const bare = await token({ grant_type: "client_credentials", client_id: "sandbox-full", client_secret: "sandbox-full-secret" });
    const response = await app.inject({ url: "/physical/v2/Instruments", headers: { authorization: `Bearer ${bare}` } });
    expect(response.statusCode).toBe(403);
    expect(response.headers["www-authenticate"]).toMatch(/^Bearer error="insufficient_scope"/);
  });

  it("issues service-key tokens the API accepts", async () => {
    const serviceToken = await token({ grant_type: "servicekey", serviceName: "sandbox-service", serviceKey: "sandbox-service-key" });
    const response = await app.inject({ url: "/physical/v2/Instruments", headers: { authorization: `Bearer ${serviceToken}` } });
    expect(response.json()).toEqual({ id: "sandbox-service", kind: "service", seesGrain: true });
  });

  it("leaves the API's own 404 and form parsing alone", async () => {
    expect((await app.inject({ url: "/nothing-here" })).statusCode).toBe(404);
    const response = await app.inject({ method: "GET", url: "/physical/v2/Instruments", headers: FORM, payload: "Symbols=MB-AL-0004" });
    expect(response.statusCode).toBe(401);
    expect(response.headers["www-authenticate"]).toMatch(/^Bearer error="invalid_token"/);
  });

  it("runs the add-in's sign-in with secure cookies although inject has no TLS", async () => {
    const cookies = new Map<string, string>();
    const keep = (response: LightMyRequestResponse) => {
      for (const cookie of response.cookies) cookies.set(cookie.name, cookie.value);
    };
    const cookieHeader = () => ({ cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") });
    const { verifier, challenge } = pkcePair();
    const redirectUri = "https://localhost:3000/taskpane.html";
    const query = new URLSearchParams({
      client_id: ADDIN_CLIENT_ID,
      response_type: "code",
      redirect_uri: redirectUri,
      scope: `openid profile offline_access ${SCOPE}`,
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    const start = await app.inject({ url: `/auth/auth?${query}` });
    expect(start.statusCode).toBe(303);
    expect(start.cookies.every((cookie) => cookie.secure === true)).toBe(true);
    keep(start);
    const interaction = String(start.headers.location);
    const login = await app.inject({
      method: "POST",
      url: `${interaction}/login`,
      headers: { ...FORM, ...cookieHeader() },
      payload: form({ username: "trial", password: "trial" }),
    });
    expect(login.statusCode).toBe(303);
    const resume = await app.inject({ url: new URL(String(login.headers.location)).pathname, headers: cookieHeader() });
    const callback = new URL(String(resume.headers.location));
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    const userToken = await token({
      grant_type: "authorization_code",
      code: callback.searchParams.get("code") ?? "",
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: ADDIN_CLIENT_ID,
    });
    const response = await app.inject({ url: "/physical/v2/Instruments", headers: { authorization: `Bearer ${userToken}` } });
    expect(response.json()).toEqual({ id: "trial", kind: "user", seesGrain: false });
  });
});

describe("client secret attempts", () => {
  it("answers 429 with Retry-After after too many wrong secrets for a client, and counts no right one", async () => {
    const limited = await createTokenService({ origin: ORIGIN, apiUrl: API, keysDir: null, clientSecretAttempts: { requests: 3, windowSeconds: 60 } });
    const server = Fastify();
    await limited.register(server);
    try {
      const ask = (secret: string) =>
        server.inject({ method: "POST", url: "/auth/token", headers: FORM, payload: `grant_type=client_credentials&client_id=sandbox-trial&client_secret=${secret}&scope=${SCOPE}` });
      expect((await ask("sandbox-trial-secret")).statusCode).toBe(200);
      for (let i = 0; i < 3; i += 1) expect((await ask(`guess-${i}`)).statusCode).toBe(401);
      const refused = await ask("sandbox-trial-secret");
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({ error: "too_many_requests" });
    } finally {
      await server.close();
    }
  });
});
