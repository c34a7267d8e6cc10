/**
 * The sandbox service as a fastify instance (style: build and listen apart). `server.ts` listens;
 * route tests use `inject`.
 */
import type https from "node:https";
import Fastify, { type FastifyHttpsOptions, type FastifyError, type FastifyInstance, type FastifyServerOptions, type FastifyReply, type FastifyRequest } from "fastify";
import { API_BASE_PATH, DEFAULT_LIMITS, DEFAULT_VENDOR, PROBLEM_CONTENT_TYPE, scopeFor, type Limits } from "../api";
import type { DataSet } from "./data/model";
import { API_METHODS, API_ROUTES, apiRoutes, type ApiVerifier } from "./routes/api";
import { Catalog } from "./service/catalog";
import { toProblemError } from "./service/errors";
import { createFaultInjector, parseFaultSpec } from "./service/faults";
import { ProblemError } from "./service/problems";
import { createRateLimiter } from "./service/rate-limit";

export interface AppOptions {
  data: DataSet;
  /** Verifies each API request's bearer token; the token service also mounts `/auth` when it has `register`. */
  tokenService: ApiVerifier & { scope?: string; register?(app: FastifyInstance): Promise<void> };
  limits?: Partial<Limits>;
  /** Requests per caller per second; 0 or absent = off. */
  rateLimit?: number;
  /** `--faults` spec (see service/faults.ts); absent = none. */
  faults?: string;
  /** Seed of the fault sequence when the spec names none. */
  seed?: number;
  /** Origins allowed besides https://localhost:3000. */
  corsOrigins?: string[];
  vendor?: string;
  logger?: boolean;
  /** The publication clock's "now" in ms (convention 20); absent = the real time. */
  now?: () => number;
  /** Key and certificate (PEM) to serve HTTPS; absent = plain HTTP (tests use `inject`). */
  https?: { key: string; cert: string };
}

/** Default seed of injected faults when neither the spec nor the options give one. */
export const DEFAULT_FAULT_SEED = 1;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const scope = options.tokenService.scope ?? scopeFor(options.vendor ?? DEFAULT_VENDOR);
  const faults = options.faults ? createFaultInjector(parseFaultSpec(options.faults), options.seed ?? DEFAULT_FAULT_SEED) : undefined;
  const serverOptions: FastifyServerOptions = {
    logger: options.logger ? { level: "warn" } : false,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    bodyLimit: 1_048_576,
    return503OnClosing: true,
    forceCloseConnections: true,
  };
  // fastify types an HTTPS instance apart; the routes do not care which server carries them.
  const app = (options.https
    ? Fastify({ ...serverOptions, https: options.https } as FastifyHttpsOptions<https.Server>)
    : Fastify(serverOptions)) as unknown as FastifyInstance;
  // A GET that carries a form body is read too (convention 2).
  app.addHttpMethod("GET", { hasBody: true, overrideExisting: true });

  const answer = (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): void => {
    const { problem, unexpected } = toProblemError(error, scope);
    if (unexpected) request.log.error({ err: error }, "unexpected error");
    void reply.code(problem.status).headers(problem.headers).type(PROBLEM_CONTENT_TYPE).send(problem.toProblem());
  };
  app.setErrorHandler(answer);

  const apiPrefix = API_BASE_PATH.toLowerCase();
  app.setNotFoundHandler((request, reply) => {
    const path = (request.url.split("?")[0] ?? "").toLowerCase().replace(/\/+/g, "/").replace(/\/$/, "");
    const known = path.startsWith(apiPrefix) && API_ROUTES.includes(path.slice(apiPrefix.length));
    const problem = known
      ? new ProblemError(405, `${request.method} is not served here; use GET or POST`, undefined, { allow: API_METHODS })
      : new ProblemError(404, `No endpoint at this path; the API's paths are under ${API_BASE_PATH}: /Prices, /Prices/History, /Prices/<type>Average, /Instruments, /References`);
    void reply.code(problem.status).headers(problem.headers).type(PROBLEM_CONTENT_TYPE).send(problem.toProblem());
  });

  if (options.tokenService.register) await options.tokenService.register(app);
  await app.register(apiRoutes, {
    prefix: API_BASE_PATH,
    catalog: new Catalog(options.data, undefined, options.now),
    auth: options.tokenService,
    limits,
    corsOrigins: options.corsOrigins ?? [],
    faults,
    rateLimiter: createRateLimiter(options.rateLimit ?? 0),
    answerError: answer,
  });
  return app;
}
