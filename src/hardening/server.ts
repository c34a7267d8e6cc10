/**
 * The one hardened-server factory of the sandbox and the relay: a fastify instance with the socket limits, the
 * client-error policy and the router settings both servers use, and the answers both give before any route runs
 * (unreadable HTTP, a CONNECT, a request without Host, a URL the router cannot decode), each a problem body in the
 * server's own words. The routes and the error handlers stay each server's.
 */
import type http from "node:http";
import type https from "node:https";
import type { Duplex } from "node:stream";
import Fastify, { type FastifyError, type FastifyHttpOptions, type FastifyHttpsOptions, type FastifyInstance, type FastifyServerOptions } from "fastify";
import { connectionProblem, rawProblemResponse, sendProblem, writeProblem, type ConnectionStatus, type ProblemAnswer } from "./problems";
import { clientErrorHandler, fastifySocketOptions, limitServer, nodeServerOptions, type SocketLimits } from "./sockets";

/** Statuses the factory's own answers take. */
export type HardenedStatus = ConnectionStatus | 405;

export interface HardenedServerOptions {
  sockets: SocketLimits;
  /** Key and certificate (PEM) to serve HTTPS; absent = plain HTTP. */
  https?: { key: string; cert: string } | undefined;
  /** fastify's own settings beside the hardening: logger, body limit, proxy trust. */
  fastify: Pick<FastifyServerOptions, "logger" | "bodyLimit" | "trustProxy">;
  /**
   * Check every route schema against JSON Schema's meta-schema as it is compiled (default: no). The schemas are the
   * code's own (TypeBox), the same at every start; the check compiled the meta-schema at each start (~70 ms of a
   * sandbox's start). Requests are validated either way; the schemas' test turns the check on.
   */
  checkSchemas?: boolean;
  /** This server's problem for a status and a detail (its own `type` URIs). */
  problem(status: HardenedStatus, detail: string, headers?: Record<string, string>): ProblemAnswer;
  /** What an error of fastify's router answers (`FST_ERR_BAD_URL`: a URL that cannot be decoded, and others). */
  frameworkError(error: FastifyError): ProblemAnswer;
  /** The Allow header of the 405 a CONNECT gets; absent = none. */
  connectAllow?: string;
}

export function createHardenedServer(options: HardenedServerOptions): FastifyInstance {
  const { sockets } = options;
  const serverOptions: FastifyServerOptions = {
    ...options.fastify,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    return503OnClosing: true,
    ajv: { customOptions: { validateSchema: options.checkSchemas === true } },
    forceCloseConnections: true,
    ...fastifySocketOptions(sockets),
    // Written on the raw response: the generic reply of this hook is typed for no route in particular.
    frameworkErrors: (error, _request, reply) => {
      reply.hijack();
      writeProblem(reply.raw, options.frameworkError(error));
    },
    clientErrorHandler: clientErrorHandler((code) => {
      const { status, detail } = connectionProblem(code, sockets.requestTimeoutMs);
      return rawProblemResponse(options.problem(status, detail));
    }),
  };
  // fastify types an HTTPS instance apart; the routes do not care which server carries them.
  const app = (options.https
    ? Fastify({ ...serverOptions, https: { ...options.https, ...nodeServerOptions(sockets, true) } } as FastifyHttpsOptions<https.Server>)
    : Fastify({ ...serverOptions, http: nodeServerOptions(sockets, false) } as FastifyHttpOptions<http.Server>)) as unknown as FastifyInstance;
  limitServer(app.server, sockets);
  // HTTP/1.1 requires Host (RFC 9112 3.2); Node's own refusal has no body, this one is a problem (convention 8a).
  app.addHook("onRequest", (request, reply, done) => {
    if (request.raw.httpVersion !== "1.1" || request.headers.host !== undefined) {
      done();
      return;
    }
    void sendProblem(reply.header("connection", "close"), options.problem(400, "An HTTP/1.1 request needs a Host header"));
  });
  // A GET that carries a form body is read too (convention 2).
  app.addHttpMethod("GET", { hasBody: true, overrideExisting: true });
  // Node closes a CONNECT's connection unanswered unless someone listens: it gets a 405 like any other method.
  app.server.on("connect", (_request: http.IncomingMessage, socket: Duplex) => {
    const allow: Record<string, string> = options.connectAllow === undefined ? {} : { allow: options.connectAllow };
    socket.end(rawProblemResponse(options.problem(405, "CONNECT is not served here", allow)));
  });
  return app;
}
