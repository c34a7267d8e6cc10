/**
 * Token and discovery requests against a real HTTP server that can hang: every request settles (a timeout),
 * and a failed discovery is not kept, so the next call asks again.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { cachedTokenEndpoint, discoverTokenEndpoint, TokenRequestError } from "../../src/auth/token-response";
import { TimeoutError } from "../../src/prices/errors";
import { requestToken } from "../../src/prices/token-request";
import { createTokenStore } from "../../src/auth/token-store";

type Mode = "hang" | "stall-body" | "answer" | "fail";

/** A token service whose behaviour the test switches: never answer, send headers then stall, answer, or 503. */
function scriptedServer() {
  let mode: Mode = "hang";
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => {
    seen.push(`${request.method ?? ""} ${request.url ?? ""}`);
    if (mode === "hang") return;
    if (mode === "stall-body") {
      response.writeHead(200, { "content-type": "application/json" });
      response.write("{");
      return;
    }
    if (mode === "fail") {
      response.writeHead(503, { "content-type": "application/json" }).end("{}");
      return;
    }
    const body = request.url?.endsWith("/.well-known/openid-configuration")
      ? { token_endpoint: "https://tokens.example/auth/token" }
      : { access_token: "fresh-token", expires_in: 3600, token_type: "Bearer" };
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return {
    seen,
    set mode(next: Mode) {
      mode = next;
    },
    async start(): Promise<string> {
      await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

// Short enough that a hung endpoint ends the test soon, long enough that a loopback answer on two busy cores comes within it.
const FAST = { timeoutMs: 2_000 };
/** The store's renewal timer is not under test here: a timer that never fires keeps no handle open. */
const idleTimer = { set: () => 0, clear: () => undefined };
let service: ReturnType<typeof scriptedServer>;
let origin: string;

beforeEach(async () => {
  service = scriptedServer();
  origin = await service.start();
});

afterEach(() => service.close());

/** The rejection of a promise (fails the test if it resolves). */
async function failure(promise: Promise<unknown>): Promise<TokenRequestError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(TokenRequestError);
  return outcome.error as TokenRequestError;
}

describe("token requests", () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields);

  it("fail with a timeout when the token endpoint never answers", async () => {
    const error = await requestToken({ fetch, url: `${origin}/auth/token`, form: form({ grant_type: "refresh_token", refresh_token: "secret-refresh" }), timeoutMs: 300 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).status).toBe(0);
    expect((error as TimeoutError).message).toBe("Request failed (timed out after 300 ms): POST /auth/token");
    expect((error as TimeoutError).message).not.toContain("secret-refresh");
  }, 180_000);

  it("fail with a timeout when the endpoint sends headers and then stalls the body", async () => {
    service.mode = "stall-body";
    const error = await requestToken({ fetch, url: `${origin}/auth/token`, form: form({ grant_type: "servicekey" }), timeoutMs: 300 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
  }, 180_000);

  it("still answer normally within the timeout", async () => {
    service.mode = "answer";
    await expect(requestToken({ fetch, url: `${origin}/auth/token`, form: form({ grant_type: "servicekey" }), timeoutMs: 30_000 })).resolves.toEqual({ accessToken: "fresh-token", lifetimeMs: 3_600_000 });
  });
});

describe("discovery", () => {
  it("fails with a timeout when the issuer never answers, rather than guessing", async () => {
    const error = await failure(discoverTokenEndpoint(fetch, `${origin}/auth`, FAST));
    expect(error.code).toBe("timeout");
  }, 180_000);

  it("fails on a 5xx and falls back to {issuer}/token only when the issuer has no document", async () => {
    service.mode = "fail";
    expect((await failure(discoverTokenEndpoint(fetch, `${origin}/auth`, FAST))).status).toBe(503);
    const missing = await discoverTokenEndpoint((async () => new Response("not found", { status: 404 })) as typeof fetch, "https://issuer.example/auth/", FAST);
    expect(missing).toBe("https://issuer.example/auth/token");
  }, 180_000);

  it("is cached once it succeeds, but a failed or hung discovery is forgotten and asked again", async () => {
    const tokenUrl = cachedTokenEndpoint(fetch, `${origin}/auth`, FAST);
    expect((await failure(tokenUrl())).code).toBe("timeout");
    service.mode = "answer";
    await expect(tokenUrl()).resolves.toBe("https://tokens.example/auth/token");
    await expect(tokenUrl()).resolves.toBe("https://tokens.example/auth/token");
    expect(service.seen).toEqual(["GET /auth/.well-known/openid-configuration", "GET /auth/.well-known/openid-configuration"]);
  }, 180_000);
});

describe("the token store with a hung token endpoint", () => {
  it("settles a renewal as failing, keeps the user signed in while the token is valid, and says when it retries", async () => {
    const store = createTokenStore({ tokenUrl: async () => `${origin}/auth/token`, clientId: "prices-excel-addin", scope: "sandbox.physicalprices.api", fetch, timeoutMs: FAST.timeoutMs, timer: idleTimer });
    store.acceptUserTokens({ accessToken: "old-access", expiresIn: 3600, refreshToken: "old-refresh" }, "analyst");
    await expect(store.renew()).resolves.toBe(false);
    const state = store.state();
    expect(state).toMatchObject({ status: "signed-in", renewal: { reason: "renewal-failing", message: expect.stringMatching(/timed out after 2000 ms.*retrying in \d+ s/) } });
    await expect(store.getToken()).resolves.toBe("old-access");
    store.signOut();
  }, 180_000);

  it("settles a renewal when discovery hangs, and the next renewal asks discovery again", async () => {
    const tokenUrl = cachedTokenEndpoint(fetch, `${origin}/auth`, FAST);
    const store = createTokenStore({ tokenUrl, clientId: "prices-excel-addin", scope: "sandbox.physicalprices.api", fetch, timeoutMs: FAST.timeoutMs, timer: idleTimer });
    store.acceptUserTokens({ accessToken: "old-access", expiresIn: 3600, refreshToken: "old-refresh" }, "analyst");
    await expect(store.renew()).resolves.toBe(false);
    expect(store.state()).toMatchObject({ status: "signed-in", renewal: { message: expect.stringMatching(/discovery did not answer/) } });
    service.mode = "answer";
    await expect(tokenUrl()).resolves.toBe("https://tokens.example/auth/token");
    store.signOut();
  }, 180_000);
});
