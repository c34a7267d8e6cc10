/** Tokens and entitlements through the app, with the real token service and the generated data set. */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { SignJWT, generateKeyPair, importJWK, type JWK } from "jose";
import { buildApp } from "../../../src/sandbox/app";
import { createTokenService, SIGNING_KEY_FILE } from "../../../src/sandbox/auth";
import { generateDataSet } from "../../../src/sandbox/data/generator";
import type { DataSet } from "../../../src/sandbox/data/model";

const ORIGIN = "https://localhost:4999";
const ISSUER = `${ORIGIN}/auth`;
const API = `${ORIGIN}/physical/v2`;
const SCOPE = "sandbox.physicalprices.api";

let app: FastifyInstance;
let data: DataSet;
let keysDir: string;
let privateJwk: JWK;

async function clientToken(id: string, secret: string): Promise<string> {
  const response = await app.inject({
    method: "POST",
    url: "/auth/token",
    payload: `grant_type=client_credentials&scope=${SCOPE}`,
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}` },
  });
  expect(response.statusCode).toBe(200);
  return (JSON.parse(response.body) as { access_token: string }).access_token;
}

interface Claims {
  iss?: string;
  aud?: string;
  scope?: string;
  exp?: number;
}

async function mint(claims: Claims, key?: Parameters<SignJWT["sign"]>[0]): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const signingKey = key ?? (await importJWK(privateJwk, "RS256"));
  return new SignJWT({ scope: claims.scope ?? SCOPE, client_id: "sandbox-full" })
    .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: typeof privateJwk.kid === "string" ? privateJwk.kid : "k" })
    .setSubject("sandbox-full")
    .setIssuer(claims.iss ?? ISSUER)
    .setAudience(claims.aud ?? API)
    .setIssuedAt(now - 10)
    .setExpirationTime(claims.exp ?? now + 600)
    .sign(signingKey);
}

async function call(path: string, token: string | undefined) {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  return app.inject({ method: "GET", url: `/physical/v2${path}`, headers });
}

beforeAll(async () => {
  keysDir = await mkdtemp(join(tmpdir(), "sandbox-auth-test-"));
  data = generateDataSet({ today: "2025-06-30" });
  const tokenService = await createTokenService({ origin: ORIGIN, apiUrl: API, keysDir });
  privateJwk = JSON.parse(await readFile(join(keysDir, SIGNING_KEY_FILE), "utf8")) as JWK;
  app = await buildApp({ data, tokenService });
});

afterAll(async () => {
  await app.close();
  await rm(keysDir, { recursive: true, force: true });
});

describe("tokens", () => {
  it("serves a caller with a client-credentials token", async () => {
    const response = await call("/References?Types=Currency", await clientToken("sandbox-full", "sandbox-full-secret"));
    expect(response.statusCode).toBe(200);
  });

  it("serves a well-formed token minted with the service's key (the test's minting is sound)", async () => {
    expect((await call("/References?Types=Currency", await mint({}))).statusCode).toBe(200);
  });

  it("answers 401 invalid_token without a token", async () => {
    const response = await call("/Prices?Symbols=MB-AL-0001", undefined);
    expect(response.statusCode).toBe(401);
    expect(response.headers["www-authenticate"]).toMatch(/^Bearer error="invalid_token"/);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(response.body)).toMatchObject({ status: 401, title: "Unauthorized" });
  });

  it.each([
    ["a bad signature", async () => mint({}, (await generateKeyPair("RS256")).privateKey)],
    ["the wrong issuer", async () => mint({ iss: "https://localhost:1/auth" })],
    ["the wrong audience", async () => mint({ aud: "https://localhost:1/physical/v2" })],
    ["an expired token", async () => mint({ exp: Math.floor(Date.now() / 1000) - 3600 })],
    ["a token that is not a JWT", async () => "not-a-token"],
  ])("answers 401 invalid_token for %s", async (_what, make) => {
    const token = await make();
    const response = await call("/Prices?Symbols=MB-AL-0001", token);
    expect(response.statusCode).toBe(401);
    expect(response.headers["www-authenticate"]).toMatch(/^Bearer error="invalid_token"/);
    expect(response.body).not.toContain(token);
  });

  it("answers 403 for a valid token without the scope", async () => {
    const response = await call("/Prices?Symbols=MB-AL-0001", await mint({ scope: "openid other.api" }));
    expect(response.statusCode).toBe(403);
    expect(response.headers["www-authenticate"]).toMatch(/^Bearer error="insufficient_scope"/);
    expect(JSON.parse(response.body)).toMatchObject({ status: 403 });
  });
});

describe("entitlements", () => {
  let trial: string;
  const hidden = (): DataSet["instruments"] => data.instruments.filter((i) => !i.record.symbol.startsWith("MB-"));
  const metals = (): DataSet["instruments"] => data.instruments.filter((i) => i.record.symbol.startsWith("MB-"));

  beforeAll(async () => {
    trial = await clientToken("sandbox-trial", "sandbox-trial-secret");
  });

  function expectNothingHidden(body: string, asked: readonly string[]): void {
    for (const instrument of hidden()) {
      const { symbol, description, descriptionShort } = instrument.record;
      if (!asked.includes(symbol)) expect(body).not.toContain(symbol);
      expect(body).not.toContain(description);
      expect(body).not.toContain(descriptionShort);
    }
  }

  it("lists exactly the caller's instruments without Symbols", async () => {
    const response = await call("/Instruments?Fields=Commodity,Location,Currency,UnitOfMeasure,Incoterm,Source,forecastTypeIds,hasForwardCurves", trial);
    expect(response.statusCode).toBe(200);
    const symbols = (JSON.parse(response.body) as { instruments: { symbol: string }[] }).instruments.map((i) => i.symbol);
    expect(symbols).toEqual(metals().map((i) => i.record.symbol));
    expectNothingHidden(response.body, []);
  });

  it("treats a hidden symbol exactly like an unknown one on every endpoint", async () => {
    const secret = hidden()[0]?.record.symbol ?? "";
    const visible = metals()[0]?.record.symbol ?? "";
    const unknown = "ZZ-NOPE-0000";
    const paths = [
      `/Prices?Symbols=${visible},${secret},${unknown}`,
      `/Prices/MonthlyAverage?Symbols=${visible},${secret},${unknown}`,
      `/Prices/WeeklyAverage?Symbols=${visible},${secret},${unknown}`,
      `/Prices/QuarterlyAverage?Symbols=${visible},${secret},${unknown}`,
      `/Prices/YearlyAverage?Symbols=${visible},${secret},${unknown}`,
      `/Prices/History?Symbols=${visible},${secret},${unknown}&FromDate=2025-01-01&ToDate=2025-03-01&calendarType=Weekdays&carryForward=true`,
      `/Prices/History?Symbols=${visible},${secret},${unknown}&FromDate=2025-01-01&ToDate=2025-03-01&forecastType=F24M`,
      `/Instruments?Symbols=${visible},${secret},${unknown}&Fields=Commodity`,
    ];
    for (const path of paths) {
      const response = await call(path, trial);
      expect(response.statusCode).toBe(200);
      const body = JSON.parse(response.body) as { instruments: { symbol: string }[]; invalidInstruments?: { symbol: string; message: string }[] };
      expect(body.instruments.map((i) => i.symbol)).not.toContain(secret);
      const invalid = body.invalidInstruments ?? [];
      const forSecret = invalid.find((i) => i.symbol === secret);
      const forUnknown = invalid.find((i) => i.symbol === unknown);
      expect(forSecret).toBeDefined();
      expect(forSecret?.message).toBe(forUnknown?.message);
      expectNothingHidden(response.body, [secret]);
    }
  });

  it("shows the full caller what the trial caller cannot see", async () => {
    const full = await clientToken("sandbox-full", "sandbox-full-secret");
    const secret = hidden()[0]?.record.symbol ?? "";
    const response = await call(`/Prices?Symbols=${secret}`, full);
    expect((JSON.parse(response.body) as { instruments: { symbol: string }[] }).instruments.map((i) => i.symbol)).toEqual([secret]);
  });

  it("never names a hidden instrument in references", async () => {
    const response = await call("/References?Types=Currency,UnitOfMeasure,PriceCalculationType,Incoterm,Commodity,Source", trial);
    expect(response.statusCode).toBe(200);
    expectNothingHidden(response.body, []);
  });
});
