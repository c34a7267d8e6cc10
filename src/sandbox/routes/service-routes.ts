/**
 * The `/physical/v2` routes (spec 4): parameters from query and form body alike, auth and entitlement on
 * every request, injected faults and the rate limit. Registered under the prefix by `buildApp`.
 */
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import cors from "@fastify/cors";
import {
  AVERAGE_TYPES,
  HistoryResponseSchema,
  InstrumentsResponseSchema,
  PricesResponseSchema,
  ReferencesResponseSchema,
  type CalculationType,
} from "../../api";
import type { ApiCaller, Catalogue } from "../service/catalogue";
import type { FaultInjector } from "../service/faults";
import { historyQuery } from "../service/history";
import { instrumentsQuery, referencesQuery } from "../service/instruments";
import { collectParams } from "../service/params";
import { pricesQuery } from "../service/prices";
import { ProblemError } from "../service/problems";
import type { RateLimiter } from "../service/rate-limit";
import { WHOLE_ANSWER_BYTES } from "../service/answer";
import type { InFlightBudget } from "../../hardening/budget";
import {
  parseHistoryRequest,
  parseInstrumentsRequest,
  parsePricesRequest,
  parseReferencesRequest,
  type RequestRules,
} from "../service/requests";
import { parseMultipartForm, parseUrlEncodedForm } from "./forms";
import { ParametersSchema, responsesWith } from "./schemas";

export interface ApiVerifier {
  verify(authorization: string | undefined): Promise<ApiCaller>;
}

export interface ApiRoutesOptions {
  catalogue: Catalogue;
  auth: ApiVerifier;
  /** Limits, and `strictFields` (`--strict-fields`). */
  limits: RequestRules;
  corsOrigins: string[];
  faults: FaultInjector | undefined;
  rateLimiter: RateLimiter | undefined;
  /** Large answers in flight, per caller and in bytes (see LARGE_ANSWER_BYTES). */
  answerBudget: InFlightBudget;
  /** The app's error answer; errors while a multipart body is read are turned into 400 first. */
  answerError(error: Error, request: FastifyRequest, reply: FastifyReply): void;
}

/** Paths served, lower-cased, relative to the prefix; the app's 404 handler uses them to answer 405. */
export const API_ROUTES: readonly string[] = [
  "/prices",
  "/prices/history",
  ...AVERAGE_TYPES.map((type) => `/prices/${type.toLowerCase()}`),
  "/instruments",
  "/references",
];
export const API_METHODS = "GET, POST, OPTIONS";

/** An answer this large counts against the caller's budget of large answers in flight (a stalled reader pins it). */
export const LARGE_ANSWER_BYTES = 256 * 1024;
/** What a streamed answer holds while its client does not read: its first part and the socket's buffers. */
const STREAMED_ANSWER_BYTES = 2 * WHOLE_ANSWER_BYTES;


/** The first piece of a stream, which is then dropped (an injected truncation of a streamed answer). */
async function* firstPiece(stream: Readable): AsyncGenerator<Buffer> {
  for await (const piece of stream) {
    yield piece as Buffer;
    break;
  }
  stream.destroy();
}

export async function apiRoutes(app: FastifyInstance, options: ApiRoutesOptions): Promise<void> {
  const { catalogue, auth, limits, faults, rateLimiter, answerBudget } = options;
  const callers = new WeakMap<FastifyRequest, ApiCaller>();
  const truncated = new WeakSet<FastifyRequest>();

  app.setErrorHandler((error: Error, request, reply) => { options.answerError(error, request, reply); });
  refuseNonPreflightOptions(app);

  await app.register(cors, {
    origin: ["https://localhost:3000", ...options.corsOrigins],
    methods: ["GET", "POST"],
    allowedHeaders: ["Authorization", "Content-Type", "Cache-Control", "Accept", "Accept-Language"],
    exposedHeaders: ["Retry-After", "WWW-Authenticate"],
    maxAge: 600,
  });
  readBodies(app);

  app.addHook("onRequest", async (request, reply) => {
    if (request.method === "OPTIONS") return;
    if (faults !== undefined) {
      const decision = faults.next();
      if (decision.latencyMs > 0) await sleep(decision.latencyMs);
      switch (decision.outcome) {
        case "500":
          throw new ProblemError(500, "Injected fault: internal error (--faults)");
        case "503":
          throw new ProblemError(503, "Injected fault: service unavailable (--faults)");
        case "429":
          throw new ProblemError(429, "Injected fault: too many requests (--faults)", undefined, { "retry-after": String(decision.retryAfter) });
        case "drop":
          reply.hijack();
          request.raw.destroy();
          reply.raw.destroy();
          return;
        case "truncate":
          truncated.add(request);
          break;
        case "none":
          break;
      }
    }
    const caller = await auth.verify(request.headers.authorization);
    callers.set(request, caller);
    const wait = rateLimiter?.take(caller.id);
    if (wait !== undefined) {
      throw new ProblemError(429, "Over the rate limit of this sandbox (--rate-limit) for this caller", undefined, { "retry-after": String(wait) });
    }
  });

  // The service's time is its publication clock (convention 20): a frozen sandbox says its own day, which clients take as today.
  app.addHook("onSend", async (_request, reply, payload) => {
    reply.header("date", new Date(catalogue.now()).toUTCString());
    return payload;
  });
  if (faults !== undefined) truncateAnswers(app, truncated);

  const callerOf = (request: FastifyRequest): ApiCaller => {
    const caller = callers.get(request);
    if (caller === undefined) throw new ProblemError(401, "The access token is missing or invalid", undefined, { "www-authenticate": 'Bearer error="invalid_token"' });
    return caller;
  };
  const paramsOf = (request: FastifyRequest) => collectParams(request.query, request.body);
  // No automatic HEAD routes: fastify refuses a body schema on HEAD, and a HEAD answers 405.
  const schemaOf = (ok: Parameters<typeof responsesWith>[0], summary: string) => ({
    summary,
    querystring: ParametersSchema,
    body: ParametersSchema,
    response: responsesWith(ok),
  });
  const methods: ("GET" | "POST")[] = ["GET", "POST"];

  // Price bodies are written straight to JSON text in the schema's field order (service/records.ts): building the
  // objects and serializing them cost 5-10 times more on big answers; the route tests check every body against the schema.
  const JSON_TYPE = "application/json; charset=utf-8";
  /**
   * A large answer is sent only within the budget: a caller's readers that stall each pin one, so one caller holds
   * a few at a time and all callers a bounded number of bytes; past it a 429 or 503 with Retry-After (issue 17).
   * The slot is given back when the answer is sent or its client is gone (the idle timeout ends a stalled one).
   */
  const overBudget = (perCaller: number): ProblemError =>
    new ProblemError(429, `At most ${perCaller} large answers at a time for one caller; retry when one has been read`, undefined, { "retry-after": "1" });
  // A caller whose large answers are all still being sent is refused before any work: 252 stalled readers'
  // first 2 MB each, written only to be refused, took the other callers' p99 to 600 ms.
  const checkBudget = (request: FastifyRequest): void => {
    if (answerBudget.full(callerOf(request).id)) throw overBudget(answerBudget.limits.perCaller);
  };
  const withinBudget = (request: FastifyRequest, reply: FastifyReply, body: string | Buffer | Readable): string | Buffer | Readable => {
    const bytes = body instanceof Readable ? STREAMED_ANSWER_BYTES : body.length;
    if (bytes < LARGE_ANSWER_BYTES) return body;
    const slot = answerBudget.take(callerOf(request).id, bytes);
    if (slot === "caller" || slot === "total") {
      if (body instanceof Readable) body.destroy();
      if (slot === "caller") throw overBudget(answerBudget.limits.perCaller);
      throw new ProblemError(503, "The sandbox is sending as many large answers as it holds at once; retry shortly", undefined, { "retry-after": "1" });
    }
    reply.raw.once("close", () => { slot.release(); });
    return body;
  };
  const prices = (type: CalculationType | undefined) => async (request: FastifyRequest, reply: FastifyReply) => {
    checkBudget(request);
    const body = pricesQuery(catalogue, callerOf(request), parsePricesRequest(paramsOf(request), limits, type));
    reply.type(JSON_TYPE);
    return withinBudget(request, reply, body);
  };

  app.route({ method: methods, exposeHeadRoute: false, url: "/Prices", schema: schemaOf(PricesResponseSchema, "Latest or dated prices"), handler: prices(undefined) });
  for (const type of AVERAGE_TYPES) {
    app.route({ method: methods, exposeHeadRoute: false, url: `/Prices/${type}`, schema: schemaOf(PricesResponseSchema, `${type} prices`), handler: prices(type) });
  }
  app.route({
    method: methods,
    exposeHeadRoute: false,
    url: "/Prices/History",
    schema: schemaOf(HistoryResponseSchema, "Price history"),
    handler: async (request, reply) => {
      checkBudget(request);
      const body = historyQuery(catalogue, callerOf(request), parseHistoryRequest(paramsOf(request), limits), limits.maxRecords, limits.countCalendarDays === true);
      reply.type(JSON_TYPE);
      return withinBudget(request, reply, body);
    },
  });
  app.route({
    method: methods,
    exposeHeadRoute: false,
    url: "/Instruments",
    schema: schemaOf(InstrumentsResponseSchema, "Instruments the caller may view"),
    handler: (request) => instrumentsQuery(catalogue, callerOf(request), parseInstrumentsRequest(paramsOf(request), limits)),
  });
  app.route({
    method: methods,
    exposeHeadRoute: false,
    url: "/References",
    schema: schemaOf(ReferencesResponseSchema, "Reference lists"),
    handler: (request) => {
      callerOf(request);
      return referencesQuery(catalogue, parseReferencesRequest(paramsOf(request), limits));
    },
  });
}

/** @fastify/cors answers an OPTIONS that is no preflight with a text/plain 400; this answers it as a problem first. */
function refuseNonPreflightOptions(app: FastifyInstance): void {
  app.addHook("onRequest", (request, _reply, done) => {
    const missing = request.method === "OPTIONS" ? (["Origin", "Access-Control-Request-Method"] as const).filter((name) => !request.headers[name.toLowerCase()]) : [];
    if (missing.length === 0) {
      done();
      return;
    }
    done(new ProblemError(400, "OPTIONS is served only as a CORS preflight, with Origin and Access-Control-Request-Method; use GET or POST", missing.map((parameter) => ({
      parameter,
      message: "is required in a CORS preflight",
    }))));
  });
}

/** Query data, a urlencoded form or a multipart form are the request's parameters; any other body is a 415. */
function readBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    done(null, parseUrlEncodedForm(typeof body === "string" ? body : body.toString("utf8")));
  });
  // Our own reader, not @fastify/multipart: that refuses any field named like a member of Object.prototype.
  app.addContentTypeParser("multipart/form-data", { parseAs: "buffer" }, (request, body, done) => {
    try {
      done(null, parseMultipartForm(Buffer.isBuffer(body) ? body : Buffer.from(body), request.headers["content-type"] ?? ""));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // Any other media type: an empty body is no body (a GET with a stray Content-Type); a non-empty one is a 415.
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => {
    if (body.length === 0) done(null, undefined);
    else done(new ProblemError(415, "Send parameters as query data, application/x-www-form-urlencoded or multipart/form-data", [
      { parameter: "Content-Type", message: "is not a supported media type" },
    ]), undefined);
  });
  // No body is an empty form, so that the body schema holds for plain GETs too.
  // Callback hooks: no promise per request on the hot path.
  app.addHook("preValidation", (request, _reply, done) => {
    if (request.body === undefined || request.body === null) request.body = Object.create(null);
    done();
  });
}

/** The answers `--faults` chose to truncate: cut in half, or a streamed one ended after its first piece. */
function truncateAnswers(app: FastifyInstance, truncated: WeakSet<FastifyRequest>): void {
  app.addHook("onSend", async (request, reply, payload) => {
    if (!truncated.has(request) || reply.statusCode !== 200) return payload;
    // Price bodies are bytes, the others strings: either is cut in half; a streamed answer ends after its first piece.
    if (payload instanceof Readable) return Readable.from(firstPiece(payload), { objectMode: false });
    if (Buffer.isBuffer(payload)) return payload.subarray(0, Math.floor(payload.length / 2));
    if (typeof payload !== "string") return payload;
    return payload.slice(0, Math.floor(payload.length / 2));
  });
}
