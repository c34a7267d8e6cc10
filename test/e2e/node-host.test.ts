/**
 * The runner's Node host (src/runner/node-host.ts): the functions bundle in a `vm` context of its own. A probe bundle
 * (written here) asks what the context lets it reach; the add-in's real bundle (dist/) then prices a cell against a
 * real sandbox with a real token, which its globals never hold; a request that never returns is ended by `close()`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type IncomingMessage, type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningSandbox } from "../../src/sandbox/server";
import { DIST, ensureBuilt } from "../../src/runner/host-page";
import { type NodeHost, openNodeHost } from "../../src/runner/node-host";
import { type Trust, trustOnly, trustWith } from "../../src/runner/trust";
import { sandboxGet, sandboxToken } from "../support/service";
import { prices, TODAY } from "./support";

jest.setTimeout(120_000);

const PROBE = `
CustomFunctions.associate({
  REACH: function () {
    var compiled;
    try { compiled = Function("return 'compiled'")(); } catch (error) { compiled = error.name; }
    return [typeof process, typeof require, typeof Buffer, typeof module, typeof fetch, window === globalThis, compiled].join(",");
  },
  FETCHED: function (url) {
    return fetch(url).then(
      function (response) { return "answered " + response.status; },
      function (error) { return (error instanceof TypeError ? "TypeError: " : "foreign error: ") + error.message; }
    );
  },
  WAITS: function (url) {
    setTimeout(function () {}, 3600000);
    return fetch(url).then(function () { return "answered"; });
  }
});`;

function metadata(ids: readonly string[]): unknown {
  return {
    functions: ids.map((id) => ({ id, name: id, parameters: id === "REACH" ? [] : [{ name: "url", type: "string" }], result: { type: "string" } })),
  };
}

let dir: string;
let sandbox: RunningSandbox;
let token: string;
/** The system's CAs and the sandbox's, as the runner trusts them when it runs its own sandbox. */
let sandboxTrust: Trust;
/** A plain-http server on this machine that takes requests and never answers them. */
let silent: Server;
const arrived: IncomingMessage[] = [];
const onArrival: (() => void)[] = [];

beforeAll(async () => {
  ensureBuilt(() => undefined);
  dir = mkdtempSync(join(tmpdir(), "prices-node-host-"));
  writeFileSync(join(dir, "functions.js"), PROBE);
  writeFileSync(join(dir, "functions.json"), JSON.stringify(metadata(["REACH", "FETCHED", "WAITS"])));
  const { startSandbox } = await import("../../src/sandbox/server");
  sandbox = await startSandbox({ port: 0, today: TODAY, quiet: true });
  token = await sandboxToken(sandbox, "sandbox-full", "sandbox-full-secret");
  sandboxTrust = trustWith([sandbox.ca]);
  silent = createServer((request) => {
    arrived.push(request);
    for (const done of onArrival.splice(0)) done();
  });
  await new Promise<void>((done) => silent.listen(0, "127.0.0.1", () => done()));
});

afterAll(async () => {
  silent?.closeAllConnections();
  await new Promise<void>((done) => (silent ? silent.close(() => done()) : done()));
  await sandboxTrust?.close();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const silentUrl = (): string => `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;

async function probe(cells: Record<string, unknown>, trust = sandboxTrust): Promise<Record<string, unknown>> {
  const host = await openNodeHost({ dist: dir, trust, log: () => undefined });
  try {
    return (await host.api.evaluate({ cells })).cells;
  } finally {
    await host.close();
  }
}

describe("the runner's Node host", () => {
  it("gives the bundle a page's globals and nothing of Node's, and compiles no code from strings", async () => {
    expect(await probe({ A1: "=PRICES.REACH()" })).toEqual({ A1: "undefined,undefined,undefined,undefined,function,true,EvalError" });
  });

  it("refuses what a page on an https origin is refused, as Chromium does (TypeError: Failed to fetch), and sends nothing", async () => {
    const before = arrived.length;
    const cells = await probe({
      A1: '=PRICES.FETCHED("file:///etc/passwd")',
      A2: `=PRICES.FETCHED("http://${"example.com"}:${(silent.address() as AddressInfo).port}/")`,
      A3: '=PRICES.FETCHED("data:text/plain,hello")',
      A4: `=PRICES.FETCHED("${sandbox.apiUrl}/Prices?Symbols=MB-AL-0001")`,
    });
    expect(cells).toEqual({ A1: "TypeError: Failed to fetch", A2: "TypeError: Failed to fetch", A3: "TypeError: Failed to fetch", A4: "answered 401" });
    expect(arrived.length).toBe(before);
  });

  it("verifies the service's certificate: the sandbox's https is refused unless its CA is trusted beside the system's", async () => {
    const url = `${sandbox.apiUrl}/Prices?Symbols=MB-AL-0001`;
    const [systemOnly, withSandbox, sandboxOnly] = [trustWith(), trustWith([sandbox.ca]), trustOnly(sandbox.ca)];
    try {
      expect(await probe({ A1: `=PRICES.FETCHED("${url}")` }, systemOnly)).toEqual({ A1: "TypeError: Failed to fetch" });
      expect(await probe({ A1: `=PRICES.FETCHED("${url}")` }, withSandbox)).toEqual({ A1: "answered 401" });
      // the runner's own sandbox run: that CA alone
      expect(await probe({ A1: `=PRICES.FETCHED("${url}")` }, sandboxOnly)).toEqual({ A1: "answered 401" });
    } finally {
      await Promise.all([systemOnly.close(), withSandbox.close(), sandboxOnly.close()]);
    }
  });

  it("prices a cell with the real bundle over real HTTPS with a real token, and no global of the context holds the token", async () => {
    const symbol = "MB-AL-0004";
    const date = "2025-05-14";
    const host: NodeHost = await openNodeHost({ dist: DIST, trust: sandboxTrust, log: () => undefined });
    try {
      await host.api.configure({ baseUrl: sandbox.apiUrl, token, today: TODAY });
      const result = await host.api.evaluate({ cells: { A1: symbol, B1: `=PRICES.MID(A1, "${date}")` } });
      const response = await sandboxGet(sandbox, "/Prices", { Symbols: symbol, Dates: date }, token);
      const [expected] = prices(JSON.parse(response.text) as Record<string, unknown>, symbol);
      expect(result.cells.B1).toBe(expected?.mid);
      expect(result.stats.requestsByPath).toEqual({ "/Prices": 1 });
      const seen = new Set<unknown>();
      const holders: string[] = [];
      const walk = (value: unknown, path: string, depth: number): void => {
        if (typeof value === "string" && value.includes(token)) holders.push(path);
        if ((typeof value !== "object" && typeof value !== "function") || value === null || seen.has(value) || depth > 6) return;
        seen.add(value);
        for (const key of Object.getOwnPropertyNames(value)) {
          const descriptor = Object.getOwnPropertyDescriptor(value, key);
          if (descriptor && "value" in descriptor) walk(descriptor.value, `${path}.${key}`, depth + 1);
        }
      };
      walk(host.globals, "globalThis", 0);
      expect(holders).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it("ends a request that never returns and every timer of the bundle when it closes", async () => {
    const host = await openNodeHost({ dist: dir, trust: sandboxTrust, log: () => undefined });
    const reached = new Promise<void>((done) => onArrival.push(done));
    const evaluation = host.api.evaluate({ cells: { A1: `=PRICES.WAITS("${silentUrl()}")` } });
    await reached;
    expect(host.liveTimers()).toBe(1);
    const request = arrived[arrived.length - 1];
    const disconnected = new Promise<void>((done) => request?.socket.once("close", () => done()));
    await host.close();
    await disconnected;
    expect(host.liveTimers()).toBe(0);
    expect((await evaluation).cells.A1).toMatch(/^#VALUE!/);
  });
});
