/**
 * The sandbox service as a fastify instance (style: build and listen apart). `server.ts` listens;
 * route tests use `inject`.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { API_BASE_PATH, DEFAULT_LIMITS, DEFAULT_VENDOR, scopeFor, type Limits } from "../api";
import type { DataSet } from "./data/model";
import { API_METHODS, API_ROUTES, apiRoutes, type ApiVerifier } from "./routes/service-routes";
import type { LiveCorrections } from "./data/live";
import { Catalogue } from "./service/catalogue";
import { toProblemError } from "./service/errors";
import { createFaultInjector, parseFaultSpec } from "./service/faults";
import { ProblemError } from "./service/problems";
import { VENDOR_TOKEN_PATH } from "./auth/service";
import { createRateLimiter } from "./service/rate-limit";
import { InFlightBudget, type BudgetLimits } from "../hardening/budget";
import { sendProblem } from "../hardening/problems";
import { createHardenedServer } from "../hardening/server";
import { DEFAULT_SOCKET_LIMITS, type SocketLimits } from "../hardening/sockets";

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
  /** Route schemas checked against JSON Schema's meta-schema at start (HardenedServerOptions.checkSchemas; tests). */
  checkSchemas?: boolean;
  /** `--strict-fields`: an unknown `Fields` name is a 400 instead of being ignored (convention 8). */
  strictFields?: boolean;
  /** `--count-calendar-days`: a history's records count as the calendar days of its range per symbol. */
  countCalendarDays?: boolean;
  /** Request, idle (and write), TLS handshake timeouts and most connections; defaults in DEFAULT_SOCKET_LIMITS. */
  sockets?: Partial<SocketLimits>;
  /** Large answers (over 256 KB) in flight: `perCaller` at once, `total` bytes in all; defaults in DEFAULT_ANSWER_BUDGET. */
  answerBudget?: Partial<BudgetLimits>;
  /** The publication clock's "now" in ms (convention 20); absent = the real time. */
  now?: () => number;
  /** Corrections published at chosen instants (live mode, src/sandbox/data/live.ts). */
  corrections?: LiveCorrections;
  /** Key and certificate (PEM) to serve HTTPS; absent = plain HTTP (tests use `inject`). */
  https?: { key: string; cert: string };
}

/**
 * A caller holds at most 8 large answers at once, and all callers 128 MB of them: 256 stalled readers of maximal
 * answers once held 1.8 GB (issue 17); the full data set itself takes about 500 MB.
 */
export const DEFAULT_ANSWER_BUDGET: BudgetLimits = { perCaller: 8, total: 128 * 1024 * 1024 };
/** Default seed of injected faults when neither the spec nor the options give one. */
export const DEFAULT_FAULT_SEED = 1;
/** Paths served outside the API prefix, lower-cased, with the methods they take (405 names them). */
const OTHER_PATHS: Readonly<Record<string, string>> = { [VENDOR_TOKEN_PATH]: "POST" };

/** The path of a request URL as a router would match it: decoded, lower-cased, slashes collapsed; undefined if undecodable. */
function routablePath(url: string): string | undefined {
  const raw = url.split("?")[0] ?? "";
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  return decoded.toLowerCase().replace(/\/+/g, "/").replace(/(.)\/$/, "$1");
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const scope = options.tokenService.scope ?? scopeFor(options.vendor ?? DEFAULT_VENDOR);
  const faults = options.faults ? createFaultInjector(parseFaultSpec(options.faults), options.seed ?? DEFAULT_FAULT_SEED) : undefined;
  const sockets: SocketLimits = { ...DEFAULT_SOCKET_LIMITS, ...options.sockets };
  const app = createHardenedServer({
    sockets,
    https: options.https,
    fastify: { logger: options.logger ? { level: "warn" } : false, bodyLimit: 1_048_576 },
    checkSchemas: options.checkSchemas === true,
    problem: (status, detail, headers) => new ProblemError(status, detail, undefined, headers).answer(),
    // A URL the router cannot decode (`/Prices/%zz`) is answered as any other bad request: a problem.
    frameworkError: (error) =>
      (error.code === "FST_ERR_BAD_URL"
        ? new ProblemError(400, "The request URL could not be read: malformed percent-encoding", [{ parameter: "url", message: "is malformed" }])
        : toProblemError(error, scope).problem
      ).answer(),
    connectAllow: API_METHODS,
  });

  const answer = (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): void => {
    const { problem, unexpected } = toProblemError(error, scope);
    if (unexpected) request.log.error({ err: error }, "unexpected error");
    void sendProblem(reply, problem.answer());
  };
  app.setErrorHandler(answer);

  const apiPrefix = API_BASE_PATH.toLowerCase();
  // Every method on a known path, however its URL is encoded (`/physical/v2/Pr%69ces`), is a 405 naming those served.
  app.setNotFoundHandler((request, reply) => {
    const path = routablePath(request.url) ?? "";
    const allow = path.startsWith(apiPrefix) && API_ROUTES.includes(path.slice(apiPrefix.length)) ? API_METHODS : OTHER_PATHS[path];
    const problem = allow !== undefined
      ? new ProblemError(405, `${request.method} is not served here; use ${allow.replace(", OPTIONS", "").replace(", ", " or ")}`, undefined, { allow })
      : new ProblemError(404, `No endpoint at this path; the API's paths are under ${API_BASE_PATH}: /Prices, /Prices/History, /Prices/<type>Average, /Instruments, /References`);
    void sendProblem(reply, problem.answer());
  });

  if (options.tokenService.register) await options.tokenService.register(app);
  await app.register(apiRoutes, {
    prefix: API_BASE_PATH,
    catalogue: new Catalogue(options.data, undefined, options.now, options.corrections),
    auth: options.tokenService,
    limits: { ...limits, strictFields: options.strictFields === true, countCalendarDays: options.countCalendarDays === true },
    corsOrigins: options.corsOrigins ?? [],
    faults,
    rateLimiter: createRateLimiter(options.rateLimit ?? 0),
    answerBudget: new InFlightBudget({ ...DEFAULT_ANSWER_BUDGET, ...options.answerBudget }),
    answerError: answer,
  });
  return app;
}
