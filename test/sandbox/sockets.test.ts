/**
 * The sandbox's sockets on the wire (issue 17): a TLS connection that never handshakes is destroyed, not left
 * half-closed, an HTTP/1.1 request without Host gets a problem body, and stalled readers hold only their
 * caller's budget of large answers, until the write timeout lets them go.
 */
import { connect, type Socket } from "node:net";
import { buildApp } from "../../src/sandbox/app";
import { ensureCertificates } from "../../src/sandbox/auth";
import { generateDataSet } from "../../src/sandbox/data/generator";
import { eventually, openConnections, portOf, silentConnection } from "../helpers/sockets";
import { fixtureApp } from "./routes/setup";
import { stubTokenService } from "./service/fixtures";

jest.setTimeout(180_000);

describe("the sandbox's sockets", () => {
  it("destroys connections that never begin their TLS handshake, after the client has left", async () => {
    const certificates = await ensureCertificates();
    const app = await fixtureApp({ https: { key: certificates.key, cert: certificates.cert }, sockets: { handshakeTimeoutMs: 300 } });
    try {
      await app.listen({ port: 0, host: "127.0.0.1" });
      let timedOut = 0;
      app.server.on("tlsClientError", () => (timedOut += 1));
      const sockets = await Promise.all([1, 2, 3].map(() => silentConnection(portOf(app))));
      await eventually(async () => timedOut === 3, "three handshake timeouts");
      // The clients leave only after the server's handshake timeout: the server's side must go too.
      for (const socket of sockets) socket.end();
      await eventually(async () => (await openConnections(app)) === 0, "every connection closed by the server");
    } finally {
      await app.close();
    }
  });

  it("answers an HTTP/1.1 request without Host with a 400 problem", async () => {
    const app = await fixtureApp();
    try {
      await app.listen({ port: 0, host: "127.0.0.1" });
      const text = await new Promise<string>((resolve, reject) => {
        const socket = connect({ port: portOf(app), host: "127.0.0.1" }, () => socket.end("GET /physical/v2/Prices HTTP/1.1\r\n\r\n"));
        let received = "";
        socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
        socket.on("close", () => resolve(received));
        socket.on("error", reject);
      });
      expect(text).toMatch(/^HTTP\/1\.1 400 /);
      expect(text).toMatch(/content-type: application\/problem\+json/i);
      expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toMatchObject({ status: 400, detail: expect.stringMatching(/Host/) });
    } finally {
      await app.close();
    }
  });
});

describe("the sandbox's budget of large answers", () => {
  let data: ReturnType<typeof generateDataSet>;
  beforeAll(() => {
    data = generateDataSet({ today: "2008-12-31" });
  });
  /** Tens of megabytes, streamed: more than the sockets' buffers take while nobody reads. */
  const bigAnswer = (): string => {
    const symbols = data.instruments.slice(0, 150).map((i) => i.record.symbol).join(",");
    return `/physical/v2/Prices/History?Symbols=${symbols}&FromDate=2005-01-01&ToDate=2008-12-31&calendarType=CalendarDays&carryForward=true`;
  };
  /** A client that asks for `path`, reads the status line, then stops reading for good; resolves with that line. */
  const stalledReader = async (port: number, path: string): Promise<{ socket: Socket; status: string }> => {
    const socket = await silentConnection(port);
    const status = new Promise<string>((resolve) => socket.once("data", (chunk: Buffer) => resolve(chunk.toString("latin1", 0, 12))));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer full\r\n\r\n`);
    const line = await status;
    socket.pause();
    return { socket, status: line };
  };

  it("lets a caller's stalled readers hold only its own few large answers: the next is a 429, others are served", async () => {
    const app = await buildApp({ data, tokenService: stubTokenService, limits: { maxRecords: 2_000_000 }, answerBudget: { perCaller: 2 } });
    try {
      await app.listen({ port: 0, host: "127.0.0.1" });
      const big = bigAnswer();
      const stalled: Socket[] = [];
      for (let i = 0; i < 2; i++) {
        const reader = await stalledReader(portOf(app), big);
        stalled.push(reader.socket);
        expect(reader.status).toBe("HTTP/1.1 200");
      }
      const base = `http://127.0.0.1:${portOf(app)}`;
      const third = await fetch(`${base}${big}`, { headers: { authorization: "Bearer full" } });
      expect(third.status).toBe(429);
      expect(third.headers.get("retry-after")).toBe("1");
      expect(third.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      await third.text();
      const other = await fetch(`${base}/physical/v2/Prices?Symbols=${data.instruments[0]?.record.symbol ?? ""}`, { headers: { authorization: "Bearer trial" } });
      expect(other.status).toBe(200);
      await other.text();
      // Once the stalled clients are gone, their slots come back.
      for (const socket of stalled) socket.destroy();
      await eventually(async () => {
        const again = await fetch(`${base}${big}`, { headers: { authorization: "Bearer full" } });
        await again.body?.cancel();
        return again.status === 200;
      }, "a large answer for the caller again");
    } finally {
      await app.close();
    }
  });

  it("lets a reader that stopped reading go after the write timeout, however long the idle timeout, and gives its slot back", async () => {
    // The idle timeout far away: only the write timeout can end the stalled answer within this test.
    const app = await buildApp({ data, tokenService: stubTokenService, limits: { maxRecords: 2_000_000 }, answerBudget: { perCaller: 1 }, sockets: { idleTimeoutMs: 600_000, writeTimeoutMs: 300 } });
    const held: Socket[] = [];
    app.server.on("connection", (socket: Socket) => held.push(socket));
    let reader: Socket | undefined;
    try {
      await app.listen({ port: 0, host: "127.0.0.1" });
      const big = bigAnswer();
      const stalled = await stalledReader(portOf(app), big);
      reader = stalled.socket;
      expect(stalled.status).toBe("HTTP/1.1 200");
      await eventually(async () => held.length === 1 && held.every((socket) => socket.destroyed), "the stalled reader's socket destroyed by the server");
      // Its large answer no longer counts against the caller.
      const again = await fetch(`http://127.0.0.1:${portOf(app)}${big}`, { headers: { authorization: "Bearer full" } });
      expect(again.status).toBe(200);
      await again.body?.cancel();
    } finally {
      reader?.destroy();
      await app.close();
    }
  });
});
