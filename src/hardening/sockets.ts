/**
 * How the sandbox and the relay hold their client sockets (issue 17): the platform's own timeouts, so that no
 * connection outlives its purpose, and one client-error policy that always destroys the socket. Shared by both
 * servers (`src/hardening/` holds what the two have in common; it imports nothing of either).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

export interface SocketLimits {
  /** Milliseconds a client has to send a whole request (headers and body). */
  requestTimeoutMs: number;
  /** Milliseconds in which a socket moves no byte either way (an idle client, or one that stopped reading). */
  idleTimeoutMs: number;
  /** Milliseconds an answer's waiting bytes may go without moving (a client that stopped reading); default the idle timeout. */
  writeTimeoutMs?: number;
  /** Milliseconds a TLS client has to finish its handshake. */
  handshakeTimeoutMs: number;
  /** Most open connections at once. */
  maxConnections: number;
}

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 60_000,
  handshakeTimeoutMs: 10_000,
  maxConnections: 10_000,
};

/** What `http.createServer` / `https.createServer` take, beside the TLS material. */
export interface NodeServerOptions {
  requestTimeout: number;
  headersTimeout: number;
  keepAliveTimeout: number;
  connectionsCheckingInterval: number;
  requireHostHeader: boolean;
  handshakeTimeout?: number;
}

/** Node's own server settings for these limits, each with its reason. */
export function nodeServerOptions(limits: SocketLimits, tls: boolean): NodeServerOptions {
  const options: NodeServerOptions = {
    // Node takes the request timeout only when the server is made (fastify sets it later, which has no effect).
    requestTimeout: limits.requestTimeoutMs,
    // Slow headers (slowloris) are cut sooner than a slow body; Node wants it no longer than requestTimeout.
    headersTimeout: Math.min(10_000, limits.requestTimeoutMs),
    // An idle keep-alive connection holds a descriptor: Node's 5 s, not fastify's 72 s.
    keepAliveTimeout: 5_000,
    // The timeouts above are checked this often (30 s by default): a quarter keeps a stalled request from living much past them.
    connectionsCheckingInterval: Math.max(100, Math.floor(Math.min(limits.requestTimeoutMs, 10_000) / 4)),
    // Node answers a missing Host with an empty 400; the app answers it with a problem body instead (convention 8a).
    requireHostHeader: false,
  };
  // Node's 120 s let 20,000 connections that never began TLS hold every descriptor for two minutes.
  if (tls) options.handshakeTimeout = limits.handshakeTimeoutMs;
  return options;
}

/** fastify's settings for these limits. */
export function fastifySocketOptions(limits: SocketLimits): { requestTimeout: number; connectionTimeout: number; keepAliveTimeout: number } {
  return {
    requestTimeout: limits.requestTimeoutMs,
    // The socket's inactivity timeout, which Node answers by destroying it: the idle timeout and the write timeout
    // of a client that stopped reading (a write that cannot move is no activity).
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: 5_000,
  };
}

/** Settings that need the server object itself. */
export function limitServer(server: Server, limits: SocketLimits): void {
  // Past this many connections Node closes new ones at once, so files and upstream sockets always find a descriptor.
  server.maxConnections = limits.maxConnections;
  destroyStalledWrites(server, limits.writeTimeoutMs ?? limits.idleTimeoutMs);
}

/** How often an answer with bytes waiting is checked for movement. */
function stallCheckEvery(writeTimeoutMs: number): number {
  return Math.max(10, Math.min(1_000, Math.floor(writeTimeoutMs / 10)));
}

/**
 * The write timeout (nginx's send_timeout): an answer whose waiting bytes have not moved for `writeTimeoutMs` loses
 * its socket. Node's own socket timeout re-arms once while a write is pending (net.Socket#_onTimeout), so a client
 * that stopped reading held its answer, its descriptor and the memory behind them for twice the idle timeout.
 */
export function destroyStalledWrites(server: Server, writeTimeoutMs: number): void {
  const every = stallCheckEvery(writeTimeoutMs);
  server.on("request", (_request: IncomingMessage, response: ServerResponse) => {
    const socket = response.socket;
    if (socket === null) return;
    // Bytes the socket has handed on (written minus still waiting) at the last check, and the check before the one
    // that saw them move: they moved after it, so a destroy at `since + writeTimeoutMs` is never late.
    let moved = -1;
    let since = 0;
    let previous = performance.now();
    let timer: NodeJS.Timeout;
    const check = (): void => {
      const now = performance.now();
      // Nothing waiting to be written (an answer still being made): the idle timeout is the socket's own.
      const handedOn = socket.writableLength === 0 ? -1 : socket.bytesWritten - socket.writableLength;
      if (handedOn !== moved || handedOn === -1) {
        moved = handedOn;
        since = previous;
      } else if (now - since >= writeTimeoutMs) {
        socket.destroy();
        return;
      }
      previous = now;
      timer = setTimeout(check, Math.max(1, Math.min(every, since + writeTimeoutMs - now)));
      timer.unref();
    };
    timer = setTimeout(check, every);
    timer.unref();
    response.once("close", () => { clearTimeout(timer); });
  });
}

/** How long a socket that got an error answer may wait for its client to close it. */
const ANSWER_LINGER_MS = 2_000;

/**
 * The client-error policy of both servers: a client that sent unreadable HTTP or ran out of time gets a short
 * answer when it can read one, and its socket is destroyed in every case: `end` alone, on a socket whose TLS
 * handshake never finished, left it in CLOSE-WAIT forever.
 */
export function clientErrorHandler(answer: (code: string) => string): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    const code = error.code ?? "";
    const readable = code.startsWith("HPE_") || code === "ERR_HTTP_REQUEST_TIMEOUT";
    if (!readable || !socket.writable || socket.destroyed) {
      socket.destroy();
      return;
    }
    // Ended, not destroyed at once: a destroy with unread input (the rest of oversized headers) resets the
    // connection and the client loses the answer. Destroyed when the client closes too, or after a short linger.
    socket.end(answer(code));
    socket.setTimeout(ANSWER_LINGER_MS, () => socket.destroy());
  };
}
