/**
 * The sandbox's token service: oidc-provider under `/auth` of the API's own fastify instance, the
 * service-key grant beside it, and the verifier the API calls on every request.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type Provider from "oidc-provider";
import { API_BASE_PATH, DEFAULT_VENDOR, PROBLEM_CONTENT_TYPE, scopeFor } from "../../api";
import { ProblemError } from "../service/problems";
import { ADDIN_CLIENT_ID, SANDBOX_ACCOUNTS, checkAccounts, type Accounts } from "./accounts";
import { defaultCertificatesDir } from "./certs";
import { registerInteractions } from "./interactions";
import { SIGNING_KEY_FILE, loadSigningKey, type SigningKey } from "./keys";
import type * as ProviderModule from "./provider";
import {
  DEFAULT_SERVICE_KEY_RATE_LIMIT,
  SERVICE_KEY_GRANT,
  SlidingWindowLimiter,
  createServiceKeyGrant,
  type RateLimit,
  type ServiceKeyGrant,
} from "./servicekey";
import { createVerifier, type Caller, type Verify } from "./verify";

export const AUTH_PREFIX = "/auth";
/** The vendor's token path on its own host (convention 18): served too, so that scripts change only the host. */
export const VENDOR_TOKEN_PATH = "/connect/token";
export const DEFAULT_TOKEN_TTL = 3600;
/** Vendor: service-key tokens live 7200 s. */
export const DEFAULT_SERVICE_KEY_TTL = 7200;
/** The add-in's dev server (webpack-dev-server over HTTPS). */
export const DEFAULT_ADDIN_ORIGIN = "https://localhost:3000";
/** The add-in's pages that may receive the authorization code, matched exactly. */
export const DEFAULT_REDIRECT_URIS: readonly string[] = [
  `${DEFAULT_ADDIN_ORIGIN}/taskpane.html`,
  `${DEFAULT_ADDIN_ORIGIN}/auth-dialog.html`,
  `${DEFAULT_ADDIN_ORIGIN}/workbench.html`,
  // the silent sign-in's hidden iframe (prompt=none) comes back here
  `${DEFAULT_ADDIN_ORIGIN}/auth-silent.html`,
];
const SERVICE_KEY_PARAMETERS = ["serviceName", "serviceKey"] as const;
/** Wrong client secrets a client may send per window before its token requests get a 429 (guessing is slow). */
export const DEFAULT_CLIENT_SECRET_ATTEMPTS: RateLimit = { requests: 10, windowSeconds: 60 };
/** The attempt limiter's one key for every client id that is no confidential client's. */
const UNKNOWN_CLIENT = "\u0000unknown";
/** oidc-provider reads at most 56 KiB of form body; so does the service-key route. */
const BODY_LIMIT = 56 * 1024;

export interface TokenServiceOptions {
  /**
   * Where the sandbox is reached, e.g. `https://localhost:4000`. May be a function when the port is
   * known only after `listen`: it is called once, on the first request, `verify`, or read of
   * `issuer`/`apiUrl`, which must therefore come after `listen`.
   */
  origin: string | (() => string);
  /** The API base URL (audience of the tokens); default origin + `/physical/v2`. */
  apiUrl?: string;
  /** The scope is `<vendor>.physicalprices.api`; default `sandbox`. */
  vendor?: string;
  /** Access and ID token lifetime in seconds (`--token-ttl`); default 3600. */
  tokenTtl?: number;
  /** Service-key token lifetime (`--servicekey-ttl`); default 7200 (vendor), whatever `tokenTtl` says. */
  serviceKeyTtl?: number;
  serviceKeyRateLimit?: RateLimit;
  /** Wrong client secrets per client and window (`invalid_client` answers); default 10 a minute. */
  clientSecretAttempts?: RateLimit;
  /** Exact redirect URIs of the add-in client, besides the default ones. */
  redirectUris?: string[];
  /** Browser origins besides https://localhost:3000 (and those of `redirectUris`) allowed at the token endpoint. */
  corsOrigins?: string[];
  /** Folder of the persisted signing key (default `<repo>/.certs`); null keeps a fresh key in memory only. */
  keysDir?: string | null;
  accounts?: Accounts;
  /** Leeway for `exp` and `nbf` when verifying; default 5 s. */
  clockToleranceSeconds?: number;
  /** Milliseconds since the epoch, for the service-key rate limit. */
  now?: () => number;
}

export interface TokenService {
  /** `<origin>/auth`. */
  readonly issuer: string;
  /** The access tokens' audience. */
  readonly apiUrl: string;
  /** `<vendor>.physicalprices.api`. */
  readonly scope: string;
  /** Mounts the token service under `/auth` of the API's fastify instance. Call before `listen`/`ready`. */
  register(app: FastifyInstance): Promise<void>;
  /**
   * Checks an `Authorization` header value; resolves the caller or rejects with an AuthFailure
   * (401 invalid_token, 403 insufficient_scope).
   */
  verify(authorization: string | undefined): Promise<Caller>;
  /**
   * Loads and sets up the provider now rather than on the first request (which would otherwise wait for it);
   * needs the origin, so call it after `listen` when `origin` is a function.
   */
  prepare?(): Promise<void>;
}

interface Running {
  readonly provider: Provider;
  /** oidc-provider and its setup, loaded when the service first runs (it is large: a start need not wait for it). */
  readonly providerModule: typeof ProviderModule;
  readonly handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  readonly verify: Verify;
  readonly serviceKeyGrant: ServiceKeyGrant;
  /** Host of the origin, e.g. `localhost:4000`. */
  readonly host: string;
}

export async function createTokenService(options: TokenServiceOptions): Promise<TokenService> {
  const { keysDir = defaultCertificatesDir() } = options;
  const signingKey = await loadSigningKey(keysDir === null ? null : join(keysDir, SIGNING_KEY_FILE));
  return new SandboxTokenService(options, checkAccounts(options.accounts ?? SANDBOX_ACCOUNTS), signingKey);
}

class SandboxTokenService implements TokenService {
  readonly scope: string;
  readonly #options: TokenServiceOptions;
  readonly #accounts: Accounts;
  readonly #signingKey: SigningKey;
  readonly #redirectUris: readonly string[];
  readonly #corsOrigins: ReadonlySet<string>;
  #origin: string | undefined;
  #running: Promise<Running> | undefined;
  /** Failed client authentications, per known client id (all unknown ids count as one). */
  readonly #secretAttempts: SlidingWindowLimiter;

  constructor(options: TokenServiceOptions, accounts: Accounts, signingKey: SigningKey) {
    this.#options = options;
    this.#accounts = accounts;
    this.#signingKey = signingKey;
    this.#secretAttempts = new SlidingWindowLimiter(options.clientSecretAttempts ?? DEFAULT_CLIENT_SECRET_ATTEMPTS, options.now);
    this.scope = scopeFor(options.vendor ?? DEFAULT_VENDOR);
    this.#redirectUris = [...new Set([...DEFAULT_REDIRECT_URIS, ...(options.redirectUris ?? [])])];
    // The add-in redeems the code from the browser, so each redirect URI's origin may call the token endpoint.
    this.#corsOrigins = new Set(
      [DEFAULT_ADDIN_ORIGIN, ...(options.corsOrigins ?? []), ...this.#redirectUris].map(normalizeOrigin),
    );
  }

  get #originUrl(): string {
    if (this.#origin === undefined) {
      const { origin } = this.#options;
      this.#origin = normalizeOrigin(typeof origin === "function" ? origin() : origin);
    }
    return this.#origin;
  }

  get issuer(): string {
    return this.#originUrl + AUTH_PREFIX;
  }

  get apiUrl(): string {
    return this.#options.apiUrl ?? this.#originUrl + API_BASE_PATH;
  }

  verify(authorization: string | undefined): Promise<Caller> {
    return this.#start().then((running) => running.verify(authorization));
  }

  async prepare(): Promise<void> {
    await this.#start();
  }

  #start(): Promise<Running> {
    this.#running ??= this.#build();
    return this.#running;
  }

  async #build(): Promise<Running> {
    const { issuer, apiUrl, scope } = this;
    const options = this.#options;
    const tokenTtl = options.tokenTtl ?? DEFAULT_TOKEN_TTL;
    const providerModule = await import("./provider");
    const provider = providerModule.createProvider({
      issuer,
      apiUrl,
      scope,
      tokenTtl,
      accounts: this.#accounts,
      signingKey: this.#signingKey,
      corsOrigins: this.#corsOrigins,
      redirectUris: this.#redirectUris,
    });
    const [verify, serviceKeyGrant] = await Promise.all([
      createVerifier({
        issuer,
        audience: apiUrl,
        scope,
        publicJwk: this.#signingKey.publicJwk,
        accounts: this.#accounts,
        clockToleranceSeconds: options.clockToleranceSeconds ?? 5,
      }),
      createServiceKeyGrant({
        issuer,
        audience: apiUrl,
        scope,
        ttlSeconds: options.serviceKeyTtl ?? DEFAULT_SERVICE_KEY_TTL,
        signingKey: this.#signingKey,
        accounts: this.#accounts,
        rateLimit: options.serviceKeyRateLimit ?? DEFAULT_SERVICE_KEY_RATE_LIMIT,
        ...(options.now ? { now: options.now } : {}),
      }),
    ]);
    // Listed in discovery's grant_types_supported. The token route answers a servicekey request before the
    // provider sees it (the provider would demand client authentication first); this handler answers alike.
    provider.registerGrantType(
      SERVICE_KEY_GRANT,
      async (ctx) => {
        const params = new URLSearchParams();
        for (const name of SERVICE_KEY_PARAMETERS) {
          const value = ctx.oidc.params?.[name];
          if (typeof value === "string") params.set(name, value);
        }
        const answer = await serviceKeyGrant(params);
        ctx.status = answer.status;
        for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
        ctx.body = answer.body;
      },
      [...SERVICE_KEY_PARAMETERS],
    );
    // Discovery lists the OIDC scopes; the API's scope belongs to its resource server, and clients look for it too.
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body;
      if (ctx.oidc?.route !== "discovery" || typeof body !== "object" || body === null) return;
      const listed = (body as { scopes_supported?: unknown }).scopes_supported;
      const scopes = Array.isArray(listed) ? listed.filter((item): item is string => typeof item === "string") : [];
      (body as { scopes_supported: string[] }).scopes_supported = [...new Set([...scopes, scope])];
    });
    // A path the provider does not serve is a problem like any other 404 of the sandbox (convention 8a), not Koa's text.
    provider.use(async (ctx, next) => {
      await next();
      if (ctx.status !== 404 || (ctx.body !== undefined && ctx.body !== null)) return;
      ctx.status = 404;
      ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = JSON.stringify(new ProblemError(404, `No endpoint at this path of the token service; discovery is at ${AUTH_PREFIX}/.well-known/openid-configuration`).toProblem());
    });
    return { provider, providerModule, handle: provider.callback(), verify, serviceKeyGrant, host: new URL(this.#originUrl).host };
  }

  /**
   * Makes a raw request look, to oidc-provider, as if it came to the configured origin: its URLs
   * and cookies then follow the issuer whatever Host was used, over inject as over TLS.
   */
  async #prepare(req: IncomingMessage): Promise<Running> {
    const running = await this.#start();
    req.headers["x-forwarded-proto"] = "https";
    req.headers["x-forwarded-host"] = running.host;
    delete req.headers["x-forwarded-for"];
    return running;
  }

  /**
   * Hands a request to oidc-provider, with the mount prefix stripped as Koa's mount would; `providerPath` replaces
   * the whole path (the vendor's `/connect/token` is the provider's `/token`).
   */
  async #forward(request: FastifyRequest, reply: FastifyReply, body?: Buffer, providerPath?: string): Promise<void> {
    const running = await this.#prepare(request.raw);
    reply.hijack();
    const req = body === undefined ? request.raw : replay(request.raw, body);
    const url = request.raw.url ?? "/";
    const query = url.indexOf("?") >= 0 ? url.slice(url.indexOf("?")) : "";
    const inner = providerPath === undefined ? url.slice(AUTH_PREFIX.length) || "/" : providerPath + query;
    Object.assign(req, { originalUrl: providerPath === undefined ? url : AUTH_PREFIX + inner, url: inner });
    await running.handle(req, reply.raw);
  }

  /** The attempt limiter's key of a token request that authenticates with a client secret; undefined without one. */
  #secretClient(request: FastifyRequest, params: URLSearchParams): string | undefined {
    const authorization = request.headers.authorization;
    let clientId: string | undefined;
    if (typeof authorization === "string" && /^basic /i.test(authorization)) {
      const decoded = Buffer.from(authorization.slice(6).trim(), "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      try {
        clientId = decodeURIComponent(colon < 0 ? decoded : decoded.slice(0, colon));
      } catch {
        clientId = "";
      }
    } else if (params.has("client_secret")) {
      clientId = params.get("client_id") ?? "";
    } else {
      return undefined;
    }
    return this.#accounts.clients.some((client) => client.clientId === clientId) ? clientId : UNKNOWN_CLIENT;
  }

  async register(app: FastifyInstance): Promise<void> {
    const leaveBody = (_request: FastifyRequest, _payload: IncomingMessage, done: (err: null) => void) => { done(null); };

    // Everything oidc-provider serves: it reads request bodies itself.
    await app.register((scope, _options, done) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", leaveBody);
      scope.all(`${AUTH_PREFIX}/*`, (request, reply) => this.#forward(request, reply));
      done();
    });

    // The token endpoint (for the service-key grant) and the sign-in pages read forms here.
    await app.register((scope, _options, done) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        "application/x-www-form-urlencoded",
        { parseAs: "buffer", bodyLimit: BODY_LIMIT },
        (_request, body, done) => { done(null, body); },
      );
      scope.addContentTypeParser("*", leaveBody);

      const token = (providerPath: string | undefined) => async (request: FastifyRequest, reply: FastifyReply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : undefined;
        const params = new URLSearchParams(body?.toString("utf8") ?? "");
        const grantTypes = params.getAll("grant_type");
        if (grantTypes.length !== 1 || grantTypes[0] !== SERVICE_KEY_GRANT) {
          const client = this.#secretClient(request, params);
          if (client !== undefined) {
            const wait = this.#secretAttempts.wait(client);
            if (wait !== undefined) {
              return reply.code(429).headers({ "cache-control": "no-store", "retry-after": String(wait) }).send({
                error: "too_many_requests",
                error_description: `Too many wrong client secrets for this client; retry after ${wait} s`,
              });
            }
            // oidc-provider answers a wrong secret with 401 invalid_client: that answer counts an attempt.
            reply.raw.once("finish", () => {
              if (reply.raw.statusCode === 401) this.#secretAttempts.record(client);
            });
          }
          await this.#forward(request, reply, grantTypes[0] === "refresh_token" ? refreshBody(params, body) : body, providerPath);
          return reply;
        }
        const answer = await (await this.#start()).serviceKeyGrant(params);
        const origin = request.headers.origin;
        reply.header("vary", "Origin");
        if (origin !== undefined && this.#corsOrigins.has(origin)) reply.header("access-control-allow-origin", origin);
        return reply.code(answer.status).headers(answer.headers).send(answer.body);
      };
      scope.post(`${AUTH_PREFIX}/token`, token(undefined));
      // Every grant, as at the issuer's own token endpoint; `client_id=service_client` beside a service key is ignored.
      scope.post(VENDOR_TOKEN_PATH, token("/token"));

      registerInteractions(scope, {
        prefix: AUTH_PREFIX,
        accounts: this.#accounts,
        provider: async (req) => (await this.#prepare(req)).provider,
        consent: async (provider, details) => {
          const accountId = details.session?.accountId;
          if (accountId === undefined) throw new Error("Consent asked before sign-in");
          const grant = new provider.Grant({ accountId, clientId: ADDIN_CLIENT_ID });
          return (await this.#start()).providerModule.grantFirstPartyAccess(grant, details.params.scope, this);
        },
      });
      done();
    });
  }
}

function normalizeOrigin(origin: string): string {
  return new URL(origin).origin;
}

/**
 * MSAL asks for `offline_access` again when it refreshes, but oidc-provider grants that scope only
 * with `prompt=consent` (OIDC Core 11), so the refresh token lacks it and the refresh would fail with
 * invalid_scope. Holding a refresh token is offline access already: the scope is dropped from the request.
 */
function refreshBody(params: URLSearchParams, body: Buffer | undefined): Buffer | undefined {
  const scope = params.get("scope");
  if (scope === null || !scope.split(" ").includes("offline_access")) return body;
  params.set("scope", scope.split(" ").filter((s) => s !== "offline_access").join(" "));
  return Buffer.from(params.toString());
}

/** The request again, with its already-read body readable once more for oidc-provider. */
function replay(req: IncomingMessage, body: Buffer): IncomingMessage {
  const copy = Readable.from([body], { objectMode: false });
  return Object.assign(copy, {
    headers: { ...req.headers, "content-length": String(body.length) },
    rawHeaders: req.rawHeaders,
    method: req.method,
    url: req.url,
    httpVersion: req.httpVersion,
    httpVersionMajor: req.httpVersionMajor,
    httpVersionMinor: req.httpVersionMinor,
    socket: req.socket,
    connection: req.socket,
    complete: true,
  }) as unknown as IncomingMessage;
}
