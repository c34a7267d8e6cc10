/**
 * The `/physical/v2` routes (spec 4): parameters from query and form body alike, auth and entitlement on
 * every request, injected faults and the rate limit. Registered under the prefix by `buildApp`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import cors from "@fastify/cors";
import {
  AVERAGE_TYPES,
  HistoryResponseSchema,
  InstrumentsResponseSchema,
  PricesResponseSchema,
  ReferencesResponseSchema,
  type CalculationType,
  type Limits,
} from "../../api";
import type { ApiCaller, Catalog } from "../service/catalog";
import type { FaultInjector } from "../service/faults";
import { historyQuery } from "../service/history";
import { instrumentsQuery, referencesQuery } from "../service/instruments";
import { collectParams } from "../service/params";
import { pricesQuery } from "../service/prices";
import { ProblemError } from "../service/problems";
import type { RateLimiter } from "../service/rate-limit";
import {
  parseHistoryRequest,
  parseInstrumentsRequest,
  parsePricesRequest,
  parseReferencesRequest,
} from "../service/requests";
import { parseMultipartForm, parseUrlEncodedForm } from "./forms";
import { ParametersSchema, responsesWith } from "./schemas";

export interface ApiVerifier {
  verify(authorization: string | undefined): Promise<ApiCaller>;
}

export interface ApiRoutesOptions {
  catalog: Catalog;
  auth: ApiVerifier;
  limits: Limits;
  corsOrigins: string[];
  faults: FaultInjector | undefined;
  rateLimiter: RateLimiter | undefined;
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

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function apiRoutes(app: FastifyInstance, options: ApiRoutesOptions): Promise<void> {
  const { catalog, auth, limits, faults, rateLimiter } = options;
  const callers = new WeakMap<FastifyRequest, ApiCaller>();
  const truncated = new WeakSet<FastifyRequest>();

  app.setErrorHandler((error: Error, request, reply) => options.answerError(error, request, reply));

  // @fastify/cors answers an OPTIONS that is no preflight with a text/plain 400; this answers it as a problem first.
  app.addHook("onRequest", (request, _reply, done) => {
    if (request.method !== "OPTIONS") return done();
    const missing = (["Origin", "Access-Control-Request-Method"] as const).filter((name) => !request.headers[name.toLowerCase()]);
    if (missing.length === 0) return done();
    done(new ProblemError(400, "OPTIONS is served only as a CORS preflight, with Origin and Access-Control-Request-Method; use GET or POST", missing.map((parameter) => ({
      parameter,
      message: "is required in a CORS preflight",
    }))));
  });

  await app.register(cors, {
    origin: ["https://localhost:3000", ...options.corsOrigins],
    methods: ["GET", "POST"],
    allowedHeaders: ["Authorization", "Content-Type", "Cache-Control", "Accept", "Accept-Language"],
    exposedHeaders: ["Retry-After", "WWW-Authenticate"],
    maxAge: 600,
  });

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

  if (faults !== undefined) {
    app.addHook("onSend", async (request, reply, payload) => {
      if (!truncated.has(request) || reply.statusCode !== 200) return payload;
      // Price bodies are bytes, the others strings: either is cut in half.
      if (Buffer.isBuffer(payload)) return payload.subarray(0, Math.floor(payload.length / 2));
      if (typeof payload !== "string") return payload;
      return payload.slice(0, Math.floor(payload.length / 2));
    });
  }

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
  const prices = (type: CalculationType | undefined) => async (request: FastifyRequest, reply: FastifyReply) => {
    const body = pricesQuery(catalog, callerOf(request), parsePricesRequest(paramsOf(request), limits, type));
    reply.type(JSON_TYPE);
    return body;
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
      const body = historyQuery(catalog, callerOf(request), parseHistoryRequest(paramsOf(request), limits), limits.maxRecords);
      reply.type(JSON_TYPE);
      return body;
    },
  });
  app.route({
    method: methods,
    exposeHeadRoute: false,
    url: "/Instruments",
    schema: schemaOf(InstrumentsResponseSchema, "Instruments the caller may view"),
    handler: async (request) => instrumentsQuery(catalog, callerOf(request), parseInstrumentsRequest(paramsOf(request), limits)),
  });
  app.route({
    method: methods,
    exposeHeadRoute: false,
    url: "/References",
    schema: schemaOf(ReferencesResponseSchema, "Reference lists"),
    handler: async (request) => {
      callerOf(request);
      return referencesQuery(catalog, parseReferencesRequest(paramsOf(request)));
    },
  });
}
