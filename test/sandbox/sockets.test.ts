/**
 * The sandbox's sockets on the wire (issue 17): a TLS connection that never handshakes is destroyed, not left
 * half-closed, and an HTTP/1.1 request without Host gets a problem body.
 */
import { connect } from "node:net";
import { ensureCertificates } from "../../src/sandbox/auth";
import { eventually, openConnections, portOf, silentConnection } from "../helpers/sockets";
import { fixtureApp } from "./routes/setup";

jest.setTimeout(30_000);

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
