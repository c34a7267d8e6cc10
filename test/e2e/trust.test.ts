/** The run's trust: one connection pool for every request of the run, ended with the run. */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Agent, fetch as undiciFetch } from "undici";
import { trustWith } from "../../src/runner/trust";

let server: Server;
let origin: string;
/** The connections the server accepted, in order, and the connection each request came on. */
const connections: Socket[] = [];
const requestSockets: Socket[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    requestSockets.push(request.socket);
    response.end("ok");
  });
  server.on("connection", (socket: Socket) => connections.push(socket));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
});

describe("the run's trust", () => {
  it("gives every request of the run the same dispatcher, before and after a request", async () => {
    const trust = trustWith();
    try {
      const first = await trust.dispatcher();
      expect(await trust.dispatcher()).toBe(first);
      expect(await (await undiciFetch(`${origin}/`, { dispatcher: first })).text()).toBe("ok");
      expect(await trust.dispatcher()).toBe(first);
    } finally {
      await trust.close();
    }
  });

  it("ends its connections when the run closes it: a request after that is refused", async () => {
    const trust = trustWith();
    const dispatcher = await trust.dispatcher();
    await (await undiciFetch(`${origin}/`, { dispatcher })).text();
    await trust.close();
    await expect(undiciFetch(`${origin}/`, { dispatcher })).rejects.toThrow();
  });

  it("opens a connection before the first request, which that request then takes", async () => {
    // kept however long the test takes: it waits for events, never for a time
    const trust = trustWith([], Number.POSITIVE_INFINITY);
    try {
      const before = connections.length;
      const accepted = once(server, "connection");
      trust.preconnect(`${origin}/Prices`);
      const [warm] = (await accepted) as [Socket];
      const dispatcher = await trust.dispatcher();
      expect(await (await undiciFetch(`${origin}/`, { dispatcher })).text()).toBe("ok");
      expect(connections.length - before).toBe(1);
      expect(requestSockets.at(-1)).toBe(warm);
    } finally {
      await trust.close();
    }
  });

  it("answers two requests made at once, the connection opened ahead already connected when the first takes it", async () => {
    const trust = trustWith([], Number.POSITIVE_INFINITY);
    const other = new Agent();
    try {
      const accepted = once(server, "connection");
      trust.preconnect(origin);
      const [warm] = (await accepted) as [Socket];
      // a round trip on a pool of its own: the connection opened ahead has long been connected on the client's side too
      expect(await (await undiciFetch(`${origin}/`, { dispatcher: other })).text()).toBe("ok");
      const dispatcher = await trust.dispatcher();
      // undici handed the connected socket inside its own call of the connector wrote nothing on it (a 20-s stall)
      const answers = await Promise.all([undiciFetch(`${origin}/a`, { dispatcher }), undiciFetch(`${origin}/b`, { dispatcher })].map(async (answer) => (await answer).text()));
      expect(answers).toEqual(["ok", "ok"]);
      expect(requestSockets.slice(-2)).toContain(warm);
    } finally {
      await other.close();
      await trust.close();
    }
  });

  it("connects afresh when the connection opened ahead was closed before the request", async () => {
    const trust = trustWith([], Number.POSITIVE_INFINITY);
    try {
      const accepted = once(server, "connection");
      trust.preconnect(origin);
      const [warm] = (await accepted) as [Socket];
      const dispatcher = await trust.dispatcher();
      // ended by the server: its close comes once the client has ended its side too (so the client has seen the end)
      const ended = once(warm, "close");
      warm.end();
      await ended;
      expect(await (await undiciFetch(`${origin}/`, { dispatcher })).text()).toBe("ok");
      expect(requestSockets.at(-1)).not.toBe(warm);
    } finally {
      await trust.close();
    }
  });

  it("connects afresh when the connection opened ahead is older than it may be kept", async () => {
    const trust = trustWith([], -1);
    try {
      const accepted = once(server, "connection");
      trust.preconnect(origin);
      const [warm] = (await accepted) as [Socket];
      const dispatcher = await trust.dispatcher();
      expect(await (await undiciFetch(`${origin}/`, { dispatcher })).text()).toBe("ok");
      expect(requestSockets.at(-1)).not.toBe(warm);
    } finally {
      await trust.close();
    }
  });

  it("closes without having made a dispatcher when the run made no request", async () => {
    await expect(trustWith().close()).resolves.toBeUndefined();
  });
});
