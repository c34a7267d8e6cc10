/**
 * The verifier the API calls on every request, fed tokens minted here with the service's own key
 * (read from its key file) or with others, to reach every refusal.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignJWT, base64url, importJWK, type JWK, type JWTPayload } from "jose";
import {
  AuthFailure,
  SIGNING_KEY_FILE,
  createTokenService,
  isAuthFailure,
  type TokenService,
} from "../../../src/sandbox/auth";

const ORIGIN = "https://localhost:4000";
const ISSUER = `${ORIGIN}/auth`;
const API = `${ORIGIN}/physical/v2`;
const SCOPE = "sandbox.physicalprices.api";

let dir: string;
let service: TokenService;
let serviceJwk: JWK;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "auth-verify-"));
  service = await createTokenService({ origin: ORIGIN, apiUrl: API, keysDir: dir });
  serviceJwk = JSON.parse(await readFile(join(dir, SIGNING_KEY_FILE), "utf8")) as JWK;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const now = () => Math.floor(Date.now() / 1000);

function claims(overrides: JWTPayload = {}): JWTPayload {
  return {
    jti: "test-jti",
    sub: "sandbox-trial",
    iat: now(),
    exp: now() + 600,
    scope: SCOPE,
    client_id: "sandbox-trial",
    iss: ISSUER,
    aud: API,
    ...overrides,
  };
}

interface MintOptions {
  jwk?: JWK;
  header?: Record<string, unknown>;
}

async function mint(payload: JWTPayload = claims(), { jwk = serviceJwk, header = {} }: MintOptions = {}): Promise<string> {
  const key = await importJWK(jwk, "RS256");
  return new SignJWT(payload).setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: jwk.kid, ...header }).sign(key);
}

/** The failure `verify` rejects with, checked to be an AuthFailure that does not repeat the token. */
async function failure(authorization: string | undefined): Promise<AuthFailure> {
  try {
    await service.verify(authorization);
  } catch (error) {
    expect(isAuthFailure(error)).toBe(true);
    const failed = error as AuthFailure;
    const token = authorization?.split(" ")[1];
    if (token) {
      expect(failed.message).not.toContain(token);
      expect(failed.wwwAuthenticate).not.toContain(token);
    }
    return failed;
  }
  throw new Error("verify accepted the token");
}

describe("verify accepts", () => {
  it("a token of the service for a confidential client, with that client's entitlement", async () => {
    const caller = await service.verify(`Bearer ${await mint()}`);
    expect(caller).toMatchObject({ id: "sandbox-trial", kind: "client", clientId: "sandbox-trial", scopes: [SCOPE] });
    expect(caller.canSee("MB-AL-0004")).toBe(true);
    expect(caller.canSee("mb-al-0004")).toBe(true);
    expect(caller.canSee("AG-WHE-0058")).toBe(false);
  });

  it("a user's token issued to the add-in, mapped to the user", async () => {
    const caller = await service.verify(`Bearer ${await mint(claims({ sub: "analyst", client_id: "prices-excel-addin", scope: `openid ${SCOPE}` }))}`);
    expect(caller).toMatchObject({ id: "analyst", kind: "user" });
    expect(caller.canSee("FP-PLP-0034")).toBe(true);
  });

  it("a service-key token, with an audience list that contains the API, and `bearer` in lower case", async () => {
    const token = await mint(claims({ sub: "sandbox-service", client_id: "sandbox-service", aud: ["other", API] }));
    expect(await service.verify(`bearer ${token}`)).toMatchObject({ id: "sandbox-service", kind: "service" });
  });

  it("a token expired within the clock tolerance", async () => {
    const token = await mint(claims({ iat: now() - 100, exp: now() - 2 }));
    await expect(service.verify(`Bearer ${token}`)).resolves.toMatchObject({ id: "sandbox-trial" });
  });
});

describe("verify remembers tokens it accepted", () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it("answers a repeated token with the same caller, and refuses it once it has expired", async () => {
    const token = await mint(claims({ exp: now() + 60 }));
    const first = await service.verify(`Bearer ${token}`);
    expect(await service.verify(`Bearer ${token}`)).toBe(first);
    // Only the clock moves on two minutes; promises and timers run as usual.
    jest.useFakeTimers({
      now: Date.now() + 120_000,
      doNotFake: ["hrtime", "nextTick", "performance", "queueMicrotask", "setImmediate", "clearImmediate",
        "setInterval", "clearInterval", "setTimeout", "clearTimeout"],
    });
    const failed = await failure(`Bearer ${token}`);
    expect(failed.message).toMatch(/expired/);
  });
});

describe("verify refuses with 401 invalid_token", () => {
  it.each([
    ["no header", undefined, /no access token/],
    ["an empty header", "", /no access token/],
    ["the Basic scheme", `Basic ${Buffer.from("sandbox-full:sandbox-full-secret").toString("base64")}`, /Bearer scheme/],
    ["a Bearer header without a token", "Bearer ", /Bearer scheme|no access token/],
    ["a token that is not a JWT", "Bearer not.a.jwt", /malformed/],
  ])("for %s", async (_what, authorization, message) => {
    const failed = await failure(authorization);
    expect(failed).toMatchObject({ status: 401, code: "invalid_token", name: "AuthFailure" });
    expect(failed.message).toMatch(message);
    expect(failed.wwwAuthenticate).toMatch(/^Bearer error="invalid_token", error_description="[^"]+"$/);
  });

  it("for a token signed by another RSA key with the service's kid", async () => {
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }) as JWK;
    const failed = await failure(`Bearer ${await mint(claims(), { jwk: { ...other, kid: serviceJwk.kid } })}`);
    expect(failed).toMatchObject({ status: 401, code: "invalid_token" });
    expect(failed.message).toMatch(/signature/);
  });

  it("for a token whose payload was changed after signing", async () => {
    const [header, , signature] = (await mint()).split(".");
    const forged = base64url.encode(JSON.stringify(claims({ sub: "sandbox-full", client_id: "sandbox-full" })));
    expect((await failure(`Bearer ${header}.${forged}.${signature}`)).message).toMatch(/signature/);
  });

  it.each([
    ["a wrong issuer", claims({ iss: "https://localhost:4001/auth" }), /not issued by this service/],
    ["a wrong audience", claims({ aud: "https://localhost:4000/other" }), /not meant for this API/],
    ["an expired token", claims({ iat: now() - 7200, exp: now() - 3600 }), /expired/],
    ["a token not valid yet", claims({ nbf: now() + 3600 }), /not valid yet/],
    ["a token without exp", claims({ exp: undefined }), /exp/],
    ["an unknown client", claims({ sub: "someone", client_id: "someone" }), /not known/],
    ["an unknown user of the add-in", claims({ sub: "mallory", client_id: "prices-excel-addin" }), /not known/],
    ["a client token whose subject is another client", claims({ sub: "sandbox-full", client_id: "sandbox-trial" }), /not known/],
  ])("for %s", async (_what, payload, message) => {
    const failed = await failure(`Bearer ${await mint(payload)}`);
    expect(failed).toMatchObject({ status: 401, code: "invalid_token" });
    expect(failed.message).toMatch(message);
  });

  it("for a token without typ at+jwt (an ID token, say)", async () => {
    const failed = await failure(`Bearer ${await mint(claims(), { header: { typ: "JWT" } })}`);
    expect(failed.message).toMatch(/typ must be at\+jwt/);
  });

  it("for an unsigned token (alg none)", async () => {
    const header = base64url.encode(JSON.stringify({ alg: "none", typ: "at+jwt" }));
    const payload = base64url.encode(JSON.stringify(claims()));
    const failed = await failure(`Bearer ${header}.${payload}.`);
    expect(failed).toMatchObject({ status: 401, code: "invalid_token" });
  });

  it("for an HS256 token keyed with the service's public key (algorithm confusion)", async () => {
    const secret = new TextEncoder().encode(JSON.stringify({ kty: "RSA", n: serviceJwk.n, e: serviceJwk.e }));
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: "HS256", typ: "at+jwt" }).sign(secret);
    const failed = await failure(`Bearer ${token}`);
    expect(failed).toMatchObject({ status: 401, code: "invalid_token" });
    expect(failed.message).toMatch(/RS256/);
  });
});

describe("verify refuses with 403 insufficient_scope", () => {
  it.each([
    ["no scope claim", claims({ scope: undefined })],
    ["only OIDC scopes", claims({ scope: "openid profile" })],
    ["another vendor's scope", claims({ scope: "acme.physicalprices.api" })],
  ])("for a valid token with %s", async (_what, payload) => {
    const failed = await failure(`Bearer ${await mint(payload)}`);
    expect(failed).toMatchObject({ status: 403, code: "insufficient_scope" });
    expect(failed.wwwAuthenticate).toBe(
      `Bearer error="insufficient_scope", error_description="The access token lacks the scope ${SCOPE}", scope="${SCOPE}"`,
    );
  });
});

describe("the vendor option", () => {
  it("changes the scope the verifier requires", async () => {
    const acme = await createTokenService({ origin: ORIGIN, apiUrl: API, keysDir: dir, vendor: "acme" });
    expect(acme.scope).toBe("acme.physicalprices.api");
    const token = await mint(claims({ scope: "acme.physicalprices.api" }));
    await expect(acme.verify(`Bearer ${token}`)).resolves.toMatchObject({ id: "sandbox-trial" });
    await expect(service.verify(`Bearer ${token}`)).rejects.toMatchObject({ status: 403 });
  });

  it("reuses the persisted signing key, so tokens survive a restart", async () => {
    const restarted = await createTokenService({ origin: ORIGIN, apiUrl: API, keysDir: dir });
    await expect(restarted.verify(`Bearer ${await mint()}`)).resolves.toMatchObject({ id: "sandbox-trial" });
  });
});
