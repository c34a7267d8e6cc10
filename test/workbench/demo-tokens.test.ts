/**
 * The demo key's token held by the dev server (src/workbench/demo-token-route.ts) against the real sandbox's token
 * service, and the page's provider over it (demo-tokens.ts): one token request however many page loads ask, and a
 * wait the token service imposes is passed on with its reason.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningSandbox } from "../../src/sandbox/server";
import { demoTokenRoute, type DemoTokenRoute } from "../../src/workbench/demo-token-route";
import { demoTokenProvider } from "../../src/workbench/demo-tokens";
import { DEMO_SERVICE, DEMO_TOKEN_PATH } from "../../src/workbench/demo-token-protocol";
import { caFetch, startTestSandbox } from "../helpers/sandbox";

jest.setTimeout(180_000);

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox?.close();
});

/** The route on a plain local HTTP server, as the dev server mounts it; a page-side fetch for that origin. */
async function serve(route: DemoTokenRoute): Promise<{ server: Server; pageFetch: typeof fetch }> {
  const server = createServer((request, response) => {
    if (request.url === DEMO_TOKEN_PATH) route.handle(request, response);
    else {
      response.statusCode = 404;
      response.end("");
    }
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  const pageFetch = ((input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => fetch(`http://127.0.0.1:${port}${String(input)}`, init)) as typeof fetch;
  return { server, pageFetch };
}

it("asks the token service once however many page loads ask for the demo token", async () => {
  const route = demoTokenRoute({ issuer: sandbox.issuer, ca: sandbox.ca });
  const { server, pageFetch } = await serve(route);
  try {
    const tokens = new Set<string>();
    for (let load = 0; load < 20; load += 1) {
      const page = demoTokenProvider({ fetch: pageFetch, fallback: () => ({ getToken: () => Promise.reject(new Error("no fallback expected")) }), onWait: () => undefined });
      tokens.add(await page.getToken());
    }
    expect(tokens.size).toBe(1);
    expect(route.requests).toBe(1);
  } finally {
    server.close();
    await route.close();
  }
});

it("passes a wait the token service imposes on to the page, with its reason", async () => {
  // another client of the same demo key used up the token service's allowance
  const direct = caFetch(sandbox.ca);
  let refused = 0;
  for (let i = 0; i < 30 && refused === 0; i += 1) {
    const response = await direct(`${sandbox.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "servicekey", serviceName: DEMO_SERVICE.name, serviceKey: DEMO_SERVICE.key }).toString(),
    });
    if (response.status === 429) refused += 1;
  }
  expect(refused).toBe(1);
  const route = demoTokenRoute({ issuer: sandbox.issuer, ca: sandbox.ca });
  const { server, pageFetch } = await serve(route);
  try {
    const waits: (string | undefined)[] = [];
    const page = demoTokenProvider({ fetch: pageFetch, fallback: () => ({ getToken: () => Promise.reject(new Error("no fallback expected")) }), onWait: (reason) => waits.push(reason) });
    const failure = await page.getToken().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^the demo key's token is waiting: token service busy \(.*429.*\); retrying in \d+ s/);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatch(/token service busy/);
  } finally {
    server.close();
    await route.close();
  }
});

it("names a dev server that never answers instead of waiting for it forever, and asks again", async () => {
  const waits: (string | undefined)[] = [];
  let asked = 0;
  // a dev server that takes the request and never answers; the page's fetch ends only when its signal aborts
  const silent = ((_input: unknown, init?: RequestInit) => {
    asked += 1;
    return new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
  }) as typeof fetch;
  const page = demoTokenProvider({ fetch: silent, fallback: () => ({ getToken: () => Promise.reject(new Error("no fallback expected")) }), onWait: (reason) => waits.push(reason), timeoutMs: 20 });
  for (const attempt of [1, 2]) {
    const failure = await page.getToken().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect({ attempt, message: (failure as Error).message }).toEqual({ attempt, message: "the demo key's token is waiting: the dev server did not answer within 0.02 s" });
  }
  expect(asked).toBe(2);
  expect(waits).toEqual(["the dev server did not answer within 0.02 s", "the dev server did not answer within 0.02 s"]);
});
