/**
 * The relay for deployments (issue 10): one origin that serves the built add-in and forwards the API
 * (`/physical/v2/*`) and the token path (`/connect/token`) to configured upstream URLs, so the browser add-in calls
 * its own origin and the vendor's service need not allow it by CORS. Forwarding is @fastify/reply-from over an
 * undici agent of our own (certificates verified, timeouts); only allow-listed paths and methods pass, with an
 * allow-listed set of headers. `Authorization` is forwarded and never logged. The relay's own errors are problem
 * bodies (RFC 9457).
 */
import { existsSync } from "node:fs";
import { rootCertificates } from "node:tls";
import replyFrom from "@fastify/reply-from";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Agent } from "undici";
import { API_BASE_PATH, AVERAGE_TYPES } from "../api";
import { InFlightBudget, type BudgetLimits } from "../hardening/budget";
import { problemTitle, sendProblem as writeReply, type ProblemAnswer } from "../hardening/problems";
import { createHardenedServer } from "../hardening/server";
import { DEFAULT_SOCKET_LIMITS, type SocketLimits } from "../hardening/sockets";

export interface RelayOptions {
  /** The upstream API base URL, e.g. `https://api.vendor.example/physical/v2`. */
  apiUrl: string;
  /** The upstream token endpoint, e.g. `https://api.vendor.example/connect/token`. */
  tokenUrl: string;
  /**
   * The upstream OpenID Connect issuer, e.g. `https://api.vendor.example`: the relay then serves its discovery
   * document at `/auth/.well-known/openid-configuration` with the relay's own token path, so the pane's sign-in
   * (Authority `https://<relay>/auth`) makes no cross-origin call. Absent = no discovery (scripts only).
   */
  authority?: string;
  /** The relay's origin as browsers see it, e.g. `https://prices.example.com`; default from the request's Host. */
  publicOrigin?: string;
  /**
   * Hosts (`name` or `name:port`, any letter case) whose `Host` header may name the relay's origin when
   * `publicOrigin` is not given; default the loopback names. Any other Host gets a 400, never an issuer.
   */
  allowedHosts?: readonly string[];
  /** fastify's `trustProxy` (e.g. the TLS front's address): callers are then told apart by X-Forwarded-For. */
  trustProxy?: boolean | string | string[];
  /** The built add-in (`dist/`) to serve at `/`; absent = forward only. */
  staticDir?: string;
  /** Extra CA certificates (PEM) to trust for the upstreams (a local sandbox's CA); the system's are trusted too. */
  ca?: string;
  /** Milliseconds for the upstream's headers and for each gap in its body; default 30 s. */
  upstreamTimeoutMs?: number;
  /** Request, idle (and write), TLS handshake timeouts and most connections; defaults in DEFAULT_SOCKET_LIMITS. */
  sockets?: Partial<SocketLimits>;
  /**
   * Upstream requests in flight: `perCaller` for one client address, `total` for all (the upstream pool's size).
   * Past them a 429 or 503 with Retry-After, at once; default 16 and 128.
   */
  upstream?: Partial<BudgetLimits>;
  /** Largest request body forwarded; default 1 MiB (the service's own limit). */
  bodyLimit?: number;
  /** Key and certificate (PEM) to serve HTTPS; absent = plain HTTP (behind a TLS-terminating front). */
  https?: { key: string; cert: string };
  /** Where log lines go (one JSON object a line; never a header); absent = no logging. */
  logStream?: NodeJS.WritableStream;
}

export const DEFAULT_RELAY_TIMEOUT_MS = 30_000;
export const DEFAULT_RELAY_BODY_LIMIT = 1_048_576;
/** A caller cannot hold more than an eighth of the upstream pool, so a few stalled readers leave it to the others. */
export const DEFAULT_UPSTREAM_BUDGET: BudgetLimits = { perCaller: 16, total: 128 };
/** Hosts a discovery document may be named after without `publicOrigin`: the loopback ones. */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];
/** The token path on the relay's origin: the vendor's own (convention 18). */
export const RELAY_TOKEN_PATH = "/connect/token";
/** The Authority the pane uses behind the relay: `https://<relay>/auth`. */
export const RELAY_AUTHORITY_PATH = "/auth";
const DISCOVERY_PATH = "/.well-known/openid-configuration";
/** How long an upstream discovery document is reused (a failed fetch is not kept). */
const DISCOVERY_TTL_MS = 5 * 60_000;

/** API paths forwarded, lower-cased (convention 1 matches without regard to case), to the spelling sent upstream. */
const API_PATHS: ReadonlyMap<string, string> = new Map(
  ["/Prices", "/Prices/History", ...AVERAGE_TYPES.map((type) => `/Prices/${type}`), "/Instruments", "/References"].map((path) => [
    path.toLowerCase(),
    path,
  ]),
);
const API_METHODS = ["GET", "POST"];
const ALL_METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] as const;
/** Request headers passed upstream; everything else (cookies, forwarding headers, ...) stays at the relay. */
const FORWARDED_HEADERS = ["authorization", "content-type", "accept", "accept-language", "cache-control", "user-agent"];
/** Response headers passed back. */
const RETURNED_HEADERS = ["content-type", "content-length", "retry-after", "www-authenticate", "cache-control", "pragma", "transfer-encoding"];

/** The relay's own problem answer: `type` names the relay and the status, so a client tells it from the upstream's. */
function problem(status: number, detail: string, headers: Record<string, string> = {}): ProblemAnswer {
  return { status, body: { type: `about:blank#relay-${status}`, title: problemTitle(status), status, detail }, headers };
}

function sendProblem(reply: FastifyReply, status: number, detail: string, headers: Record<string, string> = {}): FastifyReply {
  return writeReply(reply, problem(status, detail, headers));
}

/** The path of a URL, decoded and with repeated slashes collapsed; undefined when it cannot be decoded. */
function decodedPath(url: string): string | undefined {
  try {
    return decodeURIComponent(url.split("?")[0] ?? "").replace(/\/+/g, "/").replace(/(.)\/$/, "$1");
  } catch {
    return undefined;
  }
}

/** The query of a URL without its `?`, as written. */
function queryOf(url: string): string {
  const at = url.indexOf("?");
  return at < 0 ? "" : url.slice(at + 1);
}

/** Where a request goes upstream (`url` without query, `query` as written), or why it does not. */
type Route = { url: string; query: string } | { status: 404 | 405; allow?: string } | { status: 400 };

function routeOf(request: FastifyRequest, options: RelayOptions): Route | undefined {
  const path = decodedPath(request.url);
  if (path === undefined) return { status: 400 };
  const lower = path.toLowerCase();
  const prefix = API_BASE_PATH.toLowerCase();
  if (lower.startsWith(`${prefix}/`)) {
    const upstreamPath = API_PATHS.get(lower.slice(prefix.length));
    if (upstreamPath === undefined) return { status: 404 };
    if (!API_METHODS.includes(request.method)) return { status: 405, allow: API_METHODS.join(", ") };
    return { url: `${options.apiUrl.replace(/\/+$/, "")}${upstreamPath}`, query: queryOf(request.url) };
  }
  if (lower === RELAY_TOKEN_PATH) {
    if (request.method !== "POST") return { status: 405, allow: "POST" };
    // A token request's parameters go in its body; a client's query string is not passed on.
    return { url: options.tokenUrl, query: "" };
  }
  return undefined;
}

function splitUrl(url: string): { origin: string; path: string } {
  const parsed = new URL(url);
  return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
}

function pick(headers: Record<string, unknown>, names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (typeof value === "string") picked[name] = value;
    else if (typeof value === "number") picked[name] = String(value);
  }
  return picked;
}

/** Whether a Host header names one of `allowed` (a bare name allows any port of it). */
export function hostAllowed(host: string | undefined, allowed: readonly string[]): boolean {
  if (host === undefined) return false;
  const match = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i.exec(host);
  if (match === null) return false;
  const name = (match[1] ?? "").toLowerCase();
  return allowed.some((entry) => {
    const lower = entry.toLowerCase();
    return lower === name || lower === host.toLowerCase();
  });
}

/**
 * The relay's origin as the browser sees it: the configured one, else the Host it was asked at when the allow-list
 * holds it (https when the relay serves TLS or a TLS front says so); undefined for any other Host.
 */
function originOf(request: FastifyRequest, options: RelayOptions): string | undefined {
  if (options.publicOrigin !== undefined) return options.publicOrigin.replace(/\/+$/, "");
  const host = request.headers.host;
  if (!hostAllowed(host, options.allowedHosts ?? DEFAULT_ALLOWED_HOSTS)) return undefined;
  const forwarded = request.headers["x-forwarded-proto"];
  const secure = options.https !== undefined || (typeof forwarded === "string" && forwarded.split(",")[0]?.trim() === "https");
  return `${secure ? "https" : "http"}://${host}`;
}

/** Log lines hold no query string, from any layer (a query may carry a token): cut from every string of the line. */
function withoutQueries(line: string): string {
  return line.replace(/\?[^"\s]*/g, "");
}

/**
 * The upstream's discovery document as the relay serves it: the issuer and the token endpoint on the relay's origin
 * (MSAL accepts an issuer only on the Authority's host; the token endpoint is a CORS call), everything else (the
 * sign-in and sign-out pages, keys) the upstream's own, since the browser navigates to those.
 */
export function relayedDiscovery(upstream: Record<string, unknown>, origin: string): Record<string, unknown> {
  return { ...upstream, issuer: `${origin}${RELAY_AUTHORITY_PATH}`, token_endpoint: `${origin}${RELAY_TOKEN_PATH}` };
}

export async function buildRelay(options: RelayOptions): Promise<FastifyInstance> {
  const timeout = options.upstreamTimeoutMs ?? DEFAULT_RELAY_TIMEOUT_MS;
  // A client idle (or not reading) longer than the upstream may take to answer is let go.
  const sockets: SocketLimits = { ...DEFAULT_SOCKET_LIMITS, idleTimeoutMs: Math.max(DEFAULT_SOCKET_LIMITS.idleTimeoutMs, timeout * 2), ...options.sockets };
  const budgetLimits: BudgetLimits = { ...DEFAULT_UPSTREAM_BUDGET, ...options.upstream };
  const upstreamBudget = new InFlightBudget(budgetLimits);
  const app = createHardenedServer({
    sockets,
    https: options.https,
    fastify: {
      // Request lines only (method, path, status, time): reply-from and fastify log no headers, and no line a query.
      logger: options.logStream === undefined ? false : { level: "info", stream: options.logStream, hooks: { streamWrite: withoutQueries } },
      bodyLimit: options.bodyLimit ?? DEFAULT_RELAY_BODY_LIMIT,
      ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    },
    problem,
    // A URL the router cannot decode is the relay's own 400.
    frameworkError: () => problem(400, "The request URL could not be read: malformed percent-encoding"),
  });

  // Bodies pass through unread, as bytes, up to the body limit.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => { done(null, body.length === 0 ? undefined : body); });

  const agent = new Agent({
    connect: { ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] }), rejectUnauthorized: true },
    headersTimeout: timeout,
    bodyTimeout: timeout,
    // As many upstream connections as requests the budget lets in flight: none waits in undici's queue unbounded.
    connections: budgetLimits.total,
    // An idle upstream connection lives no longer than the idle timeout, whatever the upstream's Keep-Alive says (undici
    // honours up to 10 min): the connections a burst of requests opened, an attacker's too, are let go within it.
    keepAliveTimeout: Math.min(4_000, sockets.idleTimeoutMs),
    keepAliveMaxTimeout: sockets.idleTimeoutMs,
  });
  // The request line is the relay's own; reply-from's would repeat it with the upstream URL.
  await app.register(replyFrom, { undici: agent, disableRequestLogging: true });
  app.addHook("onClose", async () => {
    await agent.close();
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, _request, reply) => {
    if (error.statusCode === 413 || error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return sendProblem(reply, 413, "The request body is over the relay's size limit");
    if (error.code === "FST_ERR_BAD_URL") return sendProblem(reply, 400, "The request URL could not be read: malformed percent-encoding");
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) return sendProblem(reply, 400, "The request could not be read");
    return sendProblem(reply, 502, "The relay could not forward this request");
  });

  const forward = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const route = routeOf(request, options);
    if (route === undefined) return sendProblem(reply, 404, "Nothing here");
    if ("status" in route) {
      if (route.status === 400) return sendProblem(reply, 400, "The request URL could not be read: malformed percent-encoding");
      if (route.status === 405) return sendProblem(reply, 405, `${request.method} is not forwarded here; use ${route.allow}`, { allow: route.allow ?? "" });
      return sendProblem(reply, 404, `No such API path; the relay forwards ${API_BASE_PATH}: /Prices, /Prices/History, /Prices/<type>Average, /Instruments, /References`);
    }
    const slot = upstreamBudget.take(request.ip);
    if (slot === "caller") return sendProblem(reply, 429, `At most ${budgetLimits.perCaller} requests of one client at a time pass the relay`, { "retry-after": "1" });
    if (slot === "total") return sendProblem(reply, 503, "The relay's upstream connections are all busy", { "retry-after": "1" });
    // Given back when the answer is sent or its client is gone (a stalled reader's socket ends at the idle timeout).
    reply.raw.once("close", () => { slot.release(); });
    const body = Buffer.isBuffer(request.body) ? request.body : undefined;
    return reply.from(route.url, {
      // A GET with a form body (convention 2) goes on as the POST it is equivalent to: undici sends no GET body.
      ...(request.method === "GET" && body !== undefined ? { method: "POST" as const } : {}),
      // The body's bytes as they came: reply-from would re-encode a JSON body (and its length would no longer match).
      ...(body === undefined ? {} : { body, contentType: request.headers["content-type"] ?? "application/octet-stream" }),
      // The query as the client wrote it, not decoded (reply-from refuses `%zz` and `../` in what it decodes).
      queryString: () => route.query,
      // No retries: the add-in's client retries with its own budget, and a vendor meters every request.
      retryDelay: () => null,
      rewriteRequestHeaders: (incoming) => {
        const headers = pick(incoming.headers, FORWARDED_HEADERS);
        if (body !== undefined) headers["content-length"] = String(body.length);
        return headers;
      },
      rewriteHeaders: (headers) => pick(headers, RETURNED_HEADERS),
      onError: (errorReply, { error }) => {
        const code = (error as { code?: string }).code ?? "";
        const timedOut = code === "FST_REPLY_FROM_GATEWAY_TIMEOUT" || /TIMEOUT/i.test(code);
        if (timedOut) sendProblem(errorReply as FastifyReply, 504, `The upstream did not answer within ${timeout / 1000} s`);
        else sendProblem(errorReply as FastifyReply, 502, "The upstream could not be reached");
      },
    });
  };

  const authority = options.authority?.replace(/\/+$/, "");
  if (authority !== undefined) serveDiscovery(app, agent, authority, options);

  if (options.staticDir !== undefined && existsSync(options.staticDir)) {
    // The files there at start only (no wildcard: a file added later, or a dotfile, is never served).
    await app.register(fastifyStatic, { root: options.staticDir, index: ["taskpane.html"], wildcard: false, serveDotFiles: false, dotfiles: "deny" });
  }
  // Every method reaches the forwarder, which allows GET and POST (API) or POST (token) and answers 405 otherwise.
  app.route({ method: [...ALL_METHODS], url: `${API_BASE_PATH}/*`, handler: forward, exposeHeadRoute: true });
  app.route({ method: [...ALL_METHODS], url: RELAY_TOKEN_PATH, handler: forward, exposeHeadRoute: true });
  // A method no route lists (TRACE, PROPFIND, ...) on a forwarded path is a 405 too, however the path is encoded.
  app.setNotFoundHandler((request, reply) => {
    const route = routeOf(request, options);
    if (route !== undefined && "status" in route && route.status === 405) {
      return sendProblem(reply, 405, `${request.method} is not forwarded here; use ${route.allow}`, { allow: route.allow ?? "" });
    }
    return sendProblem(reply, 404, `Nothing at ${(decodedPath(request.url) ?? "this path").slice(0, 80)}`);
  });
  return app;
}

/** The upstream authority's OpenID Connect discovery, read once a while and rewritten to the relay's own origin. */
function serveDiscovery(app: FastifyInstance, agent: Agent, authority: string, options: RelayOptions): void {
  let kept: { at: number; document: Promise<Record<string, unknown>> } | undefined;
  const upstreamDiscovery = (): Promise<Record<string, unknown>> => {
    if (kept !== undefined && Date.now() - kept.at < DISCOVERY_TTL_MS) return kept.document;
    const document = (async () => {
      const answer = await agent.request({ ...splitUrl(`${authority}${DISCOVERY_PATH}`), method: "GET", headers: { accept: "application/json" } });
      if (answer.statusCode !== 200) {
        await answer.body.dump();
        throw new Error(`status ${answer.statusCode}`);
      }
      const body: unknown = await answer.body.json();
      if (typeof body !== "object" || body === null || Array.isArray(body)) throw new Error("not a JSON object");
      return body as Record<string, unknown>;
    })();
    const entry = { at: Date.now(), document };
    kept = entry;
    document.catch(() => {
      if (kept === entry) kept = undefined;
    });
    return document;
  };
  app.route({
    method: [...ALL_METHODS],
    url: `${RELAY_AUTHORITY_PATH}${DISCOVERY_PATH}`,
    exposeHeadRoute: true,
    handler: async (request, reply) => {
      if (request.method !== "GET" && request.method !== "HEAD") return sendProblem(reply, 405, `${request.method} is not served here; use GET`, { allow: "GET, HEAD" });
      let upstream: Record<string, unknown>;
      try {
        upstream = await upstreamDiscovery();
      } catch {
        return sendProblem(reply, 502, "The upstream's OpenID Connect discovery could not be read");
      }
      const origin = originOf(request, options);
      if (origin === undefined) return sendProblem(reply, 400, "This Host is not one the relay serves; start it with --public-origin or --allowed-host");
      return reply.header("cache-control", "no-store").type("application/json").send(relayedDiscovery(upstream, origin));
    },
  });
}
