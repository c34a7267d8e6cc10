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
import { startTestSandbox } from "../helpers/sandbox";

jest.setTimeout(60_000);

let sandbox: RunningSandbox;
let relay: FastifyInstance;
let staticDir: string;
const logs: string[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  staticDir = await mkdtemp(path.join(tmpdir(), "relay-static-"));
  await writeFile(path.join(staticDir, "taskpane.html"), "<!doctype html><title>pane</title>");
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
