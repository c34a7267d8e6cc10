/**
 * The relay against hostile clients (issue 17), in front of a small upstream of our own that records what reaches
 * it: stalled readers hold only their own share of the upstream pool until the write timeout lets them (and their
 * upstream answers) go, a 503 reaches the upstream once, a token request's query stays at the relay, and
 * connections that never begin TLS are destroyed.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { Client } from "undici";
import { buildRelay, type RelayOptions } from "../../src/relay/app";
import { ensureCertificates } from "../../src/sandbox/auth";
import { eventually, openConnections, portOf, silentConnection } from "../helpers/sockets";

jest.setTimeout(180_000);

/** Milliseconds the upstream takes to answer `?slow`. */
const SLOW_MS = 1_000;

/**
 * The upstream: an endless body on /Prices/History (until its client goes), a 503 on `?unavailable`, a small 200
 * after SLOW_MS on `?slow`, else a small 200 at once. `streaming` counts the endless bodies still open.
 */
function startUpstream(): Promise<{ server: Server; seen: string[]; origin: string; streaming(): number }> {
  const seen: string[] = [];
  let streaming = 0;
  const endless = (response: ServerResponse): void => {
    streaming += 1;
    response.once("close", () => (streaming -= 1));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = (): void => {
      // Bounded: 256 MB at most, though a stalled client stops it long before.
      while (sent < 4096 && !response.destroyed) {
        sent += 1;
        if (!response.write(chunk)) return void response.once("drain", pump);
      }
      response.end();
    };
    response.writeHead(200, { "content-type": "application/json" });
    pump();
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    seen.push(`${request.method ?? ""} ${request.url ?? ""}`);
    request.resume();
    if ((request.url ?? "").startsWith("/physical/v2/Prices/History")) return endless(response);
    if ((request.url ?? "").includes("slow")) {
      setTimeout(() => response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'), SLOW_MS);
      return;
    }
    if ((request.url ?? "").includes("unavailable")) {
      response.writeHead(503, { "content-type": "application/problem+json", "retry-after": "5" }).end('{"status":503}');
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      resolve({ server, seen, origin: `http://127.0.0.1:${port}`, streaming: () => streaming });
    }),
  );
}

let upstream: Awaited<ReturnType<typeof startUpstream>>;
const opened: Socket[] = [];

beforeAll(async () => {
  upstream = await startUpstream();
});
afterEach(() => {
  for (const socket of opened.splice(0)) socket.destroy();
});
afterAll(async () => {
  upstream.server.closeAllConnections();
  await new Promise<void>((resolve) => upstream.server.close(() => resolve()));
});

async function relayOn(options: Partial<RelayOptions> = {}): Promise<FastifyInstance> {
  const relay = await buildRelay({ apiUrl: `${upstream.origin}/physical/v2`, tokenUrl: `${upstream.origin}/connect/token`, ...options });
  await relay.listen({ port: 0, host: "127.0.0.1" });
  return relay;
}

describe("the relay against hostile clients", () => {
  it("keeps answering others while one client's readers stall on large answers", async () => {
    const relay = await relayOn({ upstream: { perCaller: 2, total: 4 } });
    try {
      const before = upstream.seen.length;
      // Four stalled readers from one address (127.0.0.2): they ask for an endless answer and never read it.
      for (let i = 0; i < 4; i++) {
        const socket = await silentConnection(portOf(relay), "127.0.0.2");
        opened.push(socket);
        socket.pause();
        socket.write("GET /physical/v2/Prices/History?Symbols=A HTTP/1.1\r\nHost: localhost\r\n\r\n");
      }
      await eventually(async () => upstream.seen.length - before >= 2, "the stalled readers' requests upstream");
      // Another client's request is answered while the stalled answers still hold their share of the pool: it did not
      // wait for them to be let go (the 20 s bound only keeps a hang from lasting until the idle timeout).
      const probe = await fetch(`http://127.0.0.1:${portOf(relay)}/physical/v2/Prices?Symbols=B`, { signal: AbortSignal.timeout(20_000) });
      expect(probe.status).toBe(200);
      await probe.arrayBuffer();
      expect(upstream.streaming()).toBeGreaterThanOrEqual(2);
      // The stalled client holds its own share of the pool and no more.
      expect(upstream.seen.slice(before).filter((line) => line.includes("History"))).toHaveLength(2);
    } finally {
      for (const socket of opened.splice(0)) socket.destroy();
      await relay.close();
    }
  });

  it("lets a reader that stopped reading go after the write timeout, however long the idle timeout, and its upstream with it", async () => {
    // The idle timeout far away: only the write timeout can end the stalled answer within this test.
    const relay = await relayOn({ sockets: { idleTimeoutMs: 600_000, writeTimeoutMs: 300 } });
    const held: Socket[] = [];
    relay.server.on("connection", (socket: Socket) => held.push(socket));
    // Every connection the relay's upstream pool begins (undici publishes it synchronously, before the TCP connect).
    let upstreamConnects = 0;
    const counted = (): void => void (upstreamConnects += 1);
    subscribe("undici:client:beforeConnect", counted);
    try {
      const socket = await silentConnection(portOf(relay), "127.0.0.2");
      opened.push(socket);
      const status = new Promise<string>((resolve) => socket.once("data", (chunk: Buffer) => resolve(chunk.toString("latin1", 0, 12))));
      socket.write("GET /physical/v2/Prices/History?Symbols=A HTTP/1.1\r\nHost: localhost\r\n\r\n");
      expect(await status).toBe("HTTP/1.1 200");
      socket.pause();
      await eventually(async () => held.length === 1 && held.every((each) => each.destroyed), "the stalled reader's socket destroyed by the relay");
      await eventually(async () => upstream.streaming() === 0, "the stalled reader's upstream answer closed");
      // undici 7 put the aborted request back in its queue and opened a connection for it, which then idled in the
      // pool (undici #5845): the upstream's descriptor outlived the client's.
      expect(upstreamConnects).toBe(1);
    } finally {
      unsubscribe("undici:client:beforeConnect", counted);
      await relay.close();
    }
  });

  it("keeps a client whose answer is still being made past the write timeout (nothing waits to be written)", async () => {
    const relay = await relayOn({ sockets: { writeTimeoutMs: 100 } });
    try {
      const answer = await fetch(`http://127.0.0.1:${portOf(relay)}/physical/v2/Prices?Symbols=A&slow=1`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ ok: true });
    } finally {
      await relay.close();
    }
  });

  it("lets an idle upstream connection go within the idle timeout, though the upstream would keep it for 10 minutes", async () => {
    // An upstream whose Keep-Alive says 600 s, which undici would honour (up to its own 10 minutes).
    const lingering = createServer((_request, response) => response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
    lingering.keepAliveTimeout = 600_000;
    await new Promise<void>((resolve) => lingering.listen(0, "127.0.0.1", resolve));
    const address = lingering.address();
    const origin = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
    const relay = await buildRelay({ apiUrl: `${origin}/physical/v2`, tokenUrl: `${origin}/connect/token`, sockets: { idleTimeoutMs: 300 } });
    await relay.listen({ port: 0, host: "127.0.0.1" });
    const upstreamConnections = (): Promise<number> => new Promise((resolve, reject) => lingering.getConnections((error, count) => (error ? reject(error) : resolve(count))));
    try {
      const direct = new Client(origin);
      const said = await direct.request({ method: "GET", path: "/physical/v2/Prices?Symbols=A" });
      await said.body.dump();
      expect(said.headers["keep-alive"]).toBe("timeout=600");
      await direct.close();
      await eventually(async () => (await upstreamConnections()) === 0, "the direct request's connection closed");
      const answer = await fetch(`http://127.0.0.1:${portOf(relay)}/physical/v2/Prices?Symbols=A`, { headers: { connection: "close" } });
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
      await eventually(async () => (await upstreamConnections()) === 0, "the relay's idle upstream connection closed");
    } finally {
      await relay.close();
      lingering.closeAllConnections();
      await new Promise<void>((resolve) => lingering.close(() => resolve()));
    }
  });

  it("passes a 503 on once, without retrying it upstream", async () => {
    const relay = await relayOn();
    try {
      const before = upstream.seen.length;
      const answer = await relay.inject({ method: "GET", url: "/physical/v2/Prices?Symbols=A&unavailable=1" });
      expect(answer.statusCode).toBe(503);
      expect(answer.headers["retry-after"]).toBe("5");
      expect(upstream.seen.slice(before)).toEqual(["GET /physical/v2/Prices?Symbols=A&unavailable=1"]);
    } finally {
      await relay.close();
    }
  });

  it("does not pass a client's query string on to the token endpoint", async () => {
    const relay = await relayOn();
    try {
      const before = upstream.seen.length;
      const answer = await relay.inject({ method: "POST", url: "/connect/token?client_secret=leaked&x=1", headers: { "content-type": "application/x-www-form-urlencoded" }, payload: "grant_type=client_credentials" });
      expect(answer.statusCode).toBe(200);
      expect(upstream.seen.slice(before)).toEqual(["POST /connect/token"]);
    } finally {
      await relay.close();
    }
  });

  it("destroys HTTPS connections that never begin their TLS handshake, after the client has left", async () => {
    const certificates = await ensureCertificates();
    const relay = await relayOn({ https: { key: certificates.key, cert: certificates.cert }, sockets: { handshakeTimeoutMs: 300 } });
    try {
      let timedOut = 0;
      relay.server.on("tlsClientError", () => (timedOut += 1));
      const sockets = await Promise.all([1, 2, 3].map(() => silentConnection(portOf(relay))));
      opened.push(...sockets);
      await eventually(async () => timedOut === 3, "three handshake timeouts");
      for (const socket of sockets) socket.end();
      await eventually(async () => (await openConnections(relay)) === 0, "every connection closed by the relay");
    } finally {
      await relay.close();
    }
  });
});
