/** Helpers for tests of servers on the wire: their open connections, silent clients, a bounded wait. */
import { connect, type Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/** Resolves once `check` holds, polling every 20 ms; rejects with `what` after `ms` (a bound against a hang, generous for two busy cores). */
export async function eventually(check: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`still not true after ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function portOf(app: FastifyInstance): number {
  const address = app.server.address();
  return typeof address === "object" && address !== null ? address.port : 0;
}

export function openConnections(app: FastifyInstance): Promise<number> {
  return new Promise((resolve, reject) => app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

/** Opens a TCP connection that sends nothing and resolves once it is connected. */
export function silentConnection(port: number, localAddress = "127.0.0.1"): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress }, () => resolve(socket));
    socket.on("error", reject);
  });
}
