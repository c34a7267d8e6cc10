/** The run's trust: one connection pool for every request of the run, ended with the run. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fetch as undiciFetch } from "undici";
import { trustWith } from "../../src/runner/trust";

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((_request, response) => response.end("ok"));
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

  it("closes without having made a dispatcher when the run made no request", async () => {
    await expect(trustWith().close()).resolves.toBeUndefined();
  });
});
