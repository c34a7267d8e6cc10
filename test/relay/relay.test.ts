/**
 * The relay with the real sandbox as upstream (HTTPS, real tokens) and no CORS origin allowed for the relay's
 * origin: the browser-facing origin is the relay's own, so nothing depends on the upstream's CORS.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { PricesResponse } from "../../src/api";
import { buildRelay } from "../../src/relay/app";
import type { RunningSandbox } from "../../src/sandbox/server";
import { caFetch, startTestSandbox } from "../helpers/sandbox";

jest.setTimeout(180_000);

let sandbox: RunningSandbox;
let relay: FastifyInstance;
let staticDir: string;
const logs: string[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  staticDir = await mkdtemp(path.join(tmpdir(), "relay-static-"));
  await writeFile(path.join(staticDir, "taskpane.html"), "<!doctype html><title>pane</title>");
  await writeFile(path.join(staticDir, ".env"), "SECRET=do-not-serve");
  relay = await buildRelay({
    apiUrl: sandbox.apiUrl,
    tokenUrl: `${sandbox.origin}/connect/token`,
    staticDir,
    ca: sandbox.ca,
    logStream: new Writable({ write(chunk: Buffer, _encoding, done) { logs.push(chunk.toString()); done(); } }),
  });
  await relay.ready();
});
afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
  if (staticDir) await rm(staticDir, { recursive: true, force: true });
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };

async function token(): Promise<string> {
  const answer = await relay.inject({ method: "POST", url: "/connect/token", headers: FORM, payload: "grant_type=servicekey&serviceName=sandbox-service&serviceKey=sandbox-service-key&client_id=service_client" });
  expect(answer.statusCode).toBe(200);
  return (answer.json() as { access_token: string }).access_token;
}

describe("the relay", () => {
  it("forwards the token path and the API on its own origin, with GET, POST and a GET with a form body", async () => {
    const bearer = await token();
    const auth = { authorization: `Bearer ${bearer}` };
    const direct = await relay.inject({ method: "GET", url: "/physical/v2/Prices?Symbols=MB-AL-0004", headers: auth });
    expect(direct.statusCode).toBe(200);
    expect((direct.json() as PricesResponse).instruments[0]?.symbol).toBe("MB-AL-0004");
    const posted = await relay.inject({ method: "POST", url: "/Physical/v2/prices", headers: { ...auth, ...FORM }, payload: "Symbols=MB-AL-0004" });
    expect(posted.body).toBe(direct.body);
    const getWithBody = await relay.inject({ method: "GET", url: "/physical/v2/Prices", headers: { ...auth, ...FORM }, payload: "Symbols=MB-AL-0004" });
    expect(getWithBody.body).toBe(direct.body);
  });

  it("passes a large streamed answer through unchanged", async () => {
    const auth = { authorization: `Bearer ${await token()}` };
    const symbols = sandbox.data.instruments.filter((i) => i.record.hasForwardCurves).slice(0, 6).map((i) => i.record.symbol);
    const url = `/physical/v2/Prices/History?Symbols=${symbols.join(",")}&FromDate=2005-01-01&ToDate=2025-06-30`;
    const relayed = await relay.inject({ method: "GET", url, headers: auth });
    const direct = await caFetch(sandbox.ca)(`${sandbox.origin}${url}`, { headers: auth });
    const text = await direct.text();
    expect(relayed.statusCode).toBe(200);
    expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(relayed.body).toBe(text);
  });

  it("passes the upstream's own answers through: a 401 without a token, with WWW-Authenticate", async () => {
    const answer = await relay.inject({ method: "GET", url: "/physical/v2/Prices?Symbols=MB-AL-0004" });
    expect(answer.statusCode).toBe(401);
    expect(answer.headers["www-authenticate"]).toMatch(/^Bearer/);
  });

  it("allows only the API's paths and methods, answering its own problems", async () => {
    const cases: [string, string, number][] = [
      ["GET", "/physical/v2/Secrets", 404],
      ["GET", "/physical/v2/Prices/../../auth/.well-known/openid-configuration", 404],
      ["DELETE", "/physical/v2/Prices", 405],
      ["PUT", "/physical/v2/Pr%69ces", 405],
      ["GET", "/connect/token", 405],
      ["GET", "/auth/.well-known/openid-configuration", 404],
      ["GET", "/physical/v2/Prices/%zz", 400],
    ];
    for (const [method, url, status] of cases) {
      const answer = await relay.inject({ method: method as "GET", url });
      expect({ method, url, status: answer.statusCode }).toEqual({ method, url, status });
      expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(answer.json()).toMatchObject({ status });
    }
    expect((await relay.inject({ method: "DELETE", url: "/physical/v2/Prices" })).headers["allow"]).toBe("GET, POST");
  });

  it("refuses a body over its size limit with a problem", async () => {
    const answer = await relay.inject({ method: "POST", url: "/physical/v2/Prices", headers: FORM, payload: `Symbols=${"A".repeat(1_100_000)}` });
    expect(answer.statusCode).toBe(413);
    expect(answer.json()).toMatchObject({ status: 413 });
  });

  it("serves the built add-in", async () => {
    const page = await relay.inject({ method: "GET", url: "/taskpane.html" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("<title>pane</title>");
  });

  it("never logs the Authorization header or a token", async () => {
    const bearer = await token();
    await relay.inject({ method: "GET", url: "/physical/v2/Prices?Symbols=MB-AL-0004", headers: { authorization: `Bearer ${bearer}` } });
    const text = logs.join("");
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain(bearer.slice(-20));
    expect(text.toLowerCase()).not.toContain("authorization");
    expect(text).not.toContain("access_token");
  });
});

/** One raw HTTP/1.1 exchange with a listening server: the whole answer as text. */
async function rawExchange(port: number, request: string): Promise<string> {
  const { connect } = await import("node:net");
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString()));
    socket.setTimeout(5000, () => socket.destroy());
  });
}

describe("the relay forwards client errors as the upstream answers them", () => {
  it("passes a JSON body, a malformed query escape and a query holding ../ on as they came", async () => {
    const auth = { authorization: `Bearer ${await token()}` };
    const direct = caFetch(sandbox.ca);
    const cases: { method: "GET" | "POST"; url: string; headers?: Record<string, string>; payload?: string }[] = [
      { method: "POST", url: "/physical/v2/Prices", headers: { "content-type": "application/json" }, payload: '{"Symbols":"MB-AL-0004"}' },
      { method: "GET", url: "/physical/v2/Prices?Symbols=MB-AL-0004&x=%zz" },
      { method: "GET", url: "/physical/v2/Prices?Symbols=../MB-AL-0004" },
    ];
    for (const { method, url, headers = {}, payload } of cases) {
      const relayed = await relay.inject({ method, url, headers: { ...auth, ...headers }, ...(payload === undefined ? {} : { payload }) });
      const answer = await direct(`${sandbox.origin}${url}`, { method, headers: { ...auth, ...headers }, ...(payload === undefined ? {} : { body: payload }) });
      const text = await answer.text();
      expect({ url, status: relayed.statusCode }).toEqual({ url, status: answer.status });
      expect(relayed.statusCode).toBeLessThan(500);
      expect(relayed.body).toBe(text);
    }
  });

  it("writes no query string in any log line and serves no dotfile", async () => {
    logs.length = 0;
    const secret = "eyJsecret-in-a-query";
    await relay.inject({ method: "GET", url: `/physical/v2/Prices?Symbols=MB-AL-0004&access_token=${secret}` });
    await relay.inject({ method: "GET", url: `/nothing-here?access_token=${secret}` });
    const text = logs.join("");
    expect(text).toContain("/physical/v2/Prices");
    expect(text).not.toContain(secret);
    expect(text).not.toContain("Symbols=");
    const dotfile = await relay.inject({ method: "GET", url: "/.env" });
    expect(dotfile.statusCode).toBe(404);
    expect(dotfile.body).not.toContain("do-not-serve");
  });
});

describe("the relay's answers at the HTTP level", () => {
  it("answers every method on a forwarded path, CONNECT included, and oversized headers with a problem", async () => {
    const listening = await buildRelay({ apiUrl: sandbox.apiUrl, tokenUrl: `${sandbox.origin}/connect/token`, ca: sandbox.ca });
    await listening.listen({ port: 0, host: "127.0.0.1" });
    const address = listening.server.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    try {
      const connectAnswer = await rawExchange(port, "CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n");
      expect(connectAnswer).toMatch(/^HTTP\/1\.1 405 /);
      expect(connectAnswer).toContain("application/problem+json");
      for (const method of ["TRACE", "PROPFIND"]) {
        const answer = await rawExchange(port, `${method} /physical/v2/Pr%69ces HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        expect({ method, line: answer.split("\r\n")[0] }).toEqual({ method, line: "HTTP/1.1 405 Method Not Allowed" });
        expect(answer.toLowerCase()).toContain("allow: get, post");
        expect(answer).toContain("application/problem+json");
      }
      const big = await rawExchange(port, `GET /physical/v2/Prices HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(100_000)}\r\n\r\n`);
      expect(big).toMatch(/^HTTP\/1\.1 431 /);
      expect(big).toContain("application/problem+json");
    } finally {
      await listening.close();
    }
  });
});

describe("the relay's sign-in for the pane (Authority https://<relay>/auth)", () => {
  const PUBLIC = "https://prices.example.test";

  it("serves the upstream's discovery with the issuer and token endpoint on its own origin, the sign-in pages upstream", async () => {
    // Beside the built add-in, as deployed: the static files' wildcard does not shadow discovery.
    const signing = await buildRelay({ apiUrl: sandbox.apiUrl, tokenUrl: `${sandbox.origin}/connect/token`, authority: sandbox.issuer, publicOrigin: PUBLIC, ca: sandbox.ca, staticDir });
    const answer = await signing.inject({ method: "GET", url: "/auth/.well-known/openid-configuration" });
    const upstream = (await (await caFetch(sandbox.ca)(`${sandbox.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    const posted = await signing.inject({ method: "POST", url: "/auth/.well-known/openid-configuration" });
    await signing.close();
    expect(answer.statusCode).toBe(200);
    const document = answer.json() as Record<string, unknown>;
    // MSAL accepts a discovered issuer only on the Authority's host; the token endpoint is fetched (CORS) by the pane.
    expect(document["issuer"]).toBe(`${PUBLIC}/auth`);
    expect(document["token_endpoint"]).toBe(`${PUBLIC}/connect/token`);
    // The browser navigates to these, so they stay the upstream's.
    expect(document["authorization_endpoint"]).toBe(upstream["authorization_endpoint"]);
    expect(document["end_session_endpoint"]).toBe(upstream["end_session_endpoint"]);
    expect(document["scopes_supported"]).toEqual(upstream["scopes_supported"]);
    expect(posted.statusCode).toBe(405);
    expect(posted.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });

  it("names its origin from an allowed request Host (https behind a TLS front) when none is configured, and from no other", async () => {
    const signing = await buildRelay({ apiUrl: sandbox.apiUrl, tokenUrl: `${sandbox.origin}/connect/token`, authority: `${sandbox.issuer}/`, ca: sandbox.ca, allowedHosts: ["relay.example.test"] });
    const discovery = (host: string) => signing.inject({ method: "GET", url: "/auth/.well-known/openid-configuration", headers: { host, "x-forwarded-proto": "https" } });
    const answer = await discovery("relay.example.test:8443");
    const hostile = await discovery('x"y<script>');
    const other = await discovery("attacker.example.test");
    await signing.close();
    expect(answer.json()).toMatchObject({ issuer: "https://relay.example.test:8443/auth", token_endpoint: "https://relay.example.test:8443/connect/token" });
    for (const refused of [hostile, other]) {
      expect(refused.statusCode).toBe(400);
      expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(refused.body).not.toContain("script");
      expect(refused.body).not.toContain("attacker");
    }
  });

  it("redeems the pane's grants at the discovered token endpoint: a refresh token through the relay", async () => {
    const signing = await buildRelay({ apiUrl: sandbox.apiUrl, tokenUrl: `${sandbox.origin}/connect/token`, authority: sandbox.issuer, publicOrigin: PUBLIC, ca: sandbox.ca });
    const document = (await signing.inject({ method: "GET", url: "/auth/.well-known/openid-configuration" })).json() as { token_endpoint: string };
    const tokenPath = new URL(document.token_endpoint).pathname;
    const answer = await signing.inject({ method: "POST", url: tokenPath, headers: FORM, payload: "grant_type=refresh_token&refresh_token=not-a-real-one&client_id=prices-excel-addin" });
    await signing.close();
    // The upstream's own OAuth answer (not a relay 404/405): the grant reached the token service.
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("answers 502 as a problem when the upstream's discovery cannot be read, and 404 without --authority", async () => {
    const broken = await buildRelay({ apiUrl: sandbox.apiUrl, tokenUrl: `${sandbox.origin}/connect/token`, authority: "https://127.0.0.1:1/auth" });
    const down = await broken.inject({ method: "GET", url: "/auth/.well-known/openid-configuration" });
    await broken.close();
    expect(down.statusCode).toBe(502);
    expect(down.json()).toMatchObject({ status: 502 });
    expect((await relay.inject({ method: "GET", url: "/auth/.well-known/openid-configuration" })).statusCode).toBe(404);
  });
});

describe("the relay when the upstream fails", () => {
  it("answers 502 when the upstream is unreachable and 504 when it does not answer in time", async () => {
    const unreachable = await buildRelay({ apiUrl: "https://127.0.0.1:1/physical/v2", tokenUrl: "https://127.0.0.1:1/connect/token" });
    const down = await unreachable.inject({ method: "GET", url: "/physical/v2/Prices?Symbols=X" });
    await unreachable.close();
    expect(down.statusCode).toBe(502);
    expect(down.json()).toMatchObject({ status: 502 });
    // The upstream's certificate is verified: without the sandbox's CA the relay does not talk to it.
    const untrusting = await buildRelay({ apiUrl: sandbox.apiUrl, tokenUrl: `${sandbox.origin}/connect/token` });
    const refused = await untrusting.inject({ method: "GET", url: "/physical/v2/Prices?Symbols=MB-AL-0004" });
    await untrusting.close();
    expect(refused.statusCode).toBe(502);
    // A listener that accepts connections and never answers.
    const { createServer } = await import("node:net");
    const held: import("node:net").Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    const slow = await buildRelay({ apiUrl: `http://127.0.0.1:${port}/physical/v2`, tokenUrl: `http://127.0.0.1:${port}/connect/token`, upstreamTimeoutMs: 300 });
    const late = await slow.inject({ method: "GET", url: "/physical/v2/Prices?Symbols=X" });
    await slow.close();
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    expect(late.statusCode).toBe(504);
    expect(late.json()).toMatchObject({ status: 504 });
  });
});
