/**
 * The vendor's service-key grant (convention 18): `grant_type=servicekey&serviceName=..&serviceKey=..`
 * at the token endpoint, no client authentication, at most N token requests per window per service
 * name. The access token is signed with the provider's own key and has the same header and claims
 * as a client-credentials token, so the verifier cannot tell them apart.
 */
import { randomBytes } from "node:crypto";
import { CompactSign, importJWK } from "jose";
import { authenticateServiceKey, type Accounts } from "./accounts";
import { SIGNING_ALG, type SigningKey } from "./keys";

export const SERVICE_KEY_GRANT = "servicekey";

export interface RateLimit {
  /** Token requests allowed per window and service name. */
  readonly requests: number;
  readonly windowSeconds: number;
}

/** Vendor: at most 10 token requests per 5 minutes. */
export const DEFAULT_SERVICE_KEY_RATE_LIMIT: RateLimit = { requests: 10, windowSeconds: 300 };

export interface ServiceKeyGrantSettings {
  readonly issuer: string;
  readonly audience: string;
  readonly scope: string;
  readonly ttlSeconds: number;
  readonly signingKey: SigningKey;
  readonly accounts: Accounts;
  readonly rateLimit: RateLimit;
  /** Milliseconds since the epoch; a test may drive it. */
  readonly now?: () => number;
  /** The limiter to count in (a test reads its size); default a new one of `rateLimit`. */
  readonly limiter?: SlidingWindowLimiter;
}

/** What the token endpoint answers: the OAuth JSON body and the headers specific to it. */
export interface GrantResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Readonly<Record<string, string | number>>;
}

export type ServiceKeyGrant = (params: URLSearchParams) => Promise<GrantResponse>;

export async function createServiceKeyGrant(settings: ServiceKeyGrantSettings): Promise<ServiceKeyGrant> {
  const privateKey = await importJWK(settings.signingKey.privateJwk, SIGNING_ALG);
  const header = { alg: SIGNING_ALG, typ: "at+jwt", kid: settings.signingKey.kid };
  const now = settings.now ?? Date.now;
  const limiter = settings.limiter ?? new SlidingWindowLimiter(settings.rateLimit, now);
  const known = new Set(settings.accounts.serviceKeys.map((service) => service.serviceName));
  const encoder = new TextEncoder();

  return async (params) => {
    const serviceName = single(params, "serviceName");
    const serviceKey = single(params, "serviceKey");
    if (serviceName === undefined || serviceKey === undefined) {
      return oauthError(400, "invalid_request", "serviceName and serviceKey are each required once");
    }
    // Counted per known service, and all unknown names in one count: the limiter holds one entry per account
    // whatever names are sent (20,000 distinct names once kept 1.2 GB for the window).
    const retryAfter = limiter.take(known.has(serviceName) ? serviceName : UNKNOWN_SERVICE);
    if (retryAfter !== undefined) {
      const { requests, windowSeconds } = settings.rateLimit;
      return oauthError(
        429,
        "too_many_requests",
        `At most ${requests} token requests per ${windowSeconds} s for a service name; retry after ${retryAfter} s`,
        { "retry-after": String(retryAfter) },
      );
    }
    const service = authenticateServiceKey(settings.accounts, serviceName, serviceKey);
    if (!service) return oauthError(400, "invalid_grant", "The service name or service key is not valid");

    const iat = Math.floor(now() / 1000);
    // Same claims, in the same order, as oidc-provider's JWT access tokens.
    const payload = {
      jti: randomBytes(32).toString("base64url"),
      sub: service.serviceName,
      iat,
      exp: iat + settings.ttlSeconds,
      scope: settings.scope,
      client_id: service.serviceName,
      iss: settings.issuer,
      aud: settings.audience,
    };
    const accessToken = await new CompactSign(encoder.encode(JSON.stringify(payload)))
      .setProtectedHeader(header)
      .sign(privateKey);
    return {
      status: 200,
      headers: NO_STORE,
      body: { access_token: accessToken, token_type: "Bearer", expires_in: settings.ttlSeconds, scope: settings.scope },
    };
  };
}

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };
/** The limiter's one key for every service name that is no account's. */
const UNKNOWN_SERVICE = "\u0000unknown";

function oauthError(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): GrantResponse {
  return { status, headers: { ...NO_STORE, ...headers }, body: { error, error_description: description } };
}

/** The parameter's value when it is given exactly once and is not blank (RFC 6749 section 3.2). */
function single(params: URLSearchParams, name: string): string | undefined {
  const [value, ...more] = params.getAll(name);
  return value !== undefined && more.length === 0 && value.trim() !== "" ? value : undefined;
}

/** Keys a limiter keeps at most; past it the least recently used goes (callers key it on a bounded set anyway). */
export const LIMITER_MAX_KEYS = 10_000;

/**
 * Counts requests per key over a sliding window. Every answered request counts (a bad key too, so
 * guessing is limited); a refused one does not, so a client that waits as told gets through. Each step costs
 * O(limit): a key's times are pruned when it is used, and the oldest key is dropped when a new one would pass
 * `maxKeys` (a Map iterates in insertion order and a used key moves to the end), so nothing scans all keys.
 */
export class SlidingWindowLimiter {
  readonly #times = new Map<string, number[]>();
  readonly #windowMs: number;

  constructor(
    readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
    readonly maxKeys = LIMITER_MAX_KEYS,
  ) {
    this.#windowMs = limit.windowSeconds * 1000;
  }

  /** Records a request; returns undefined when allowed, else the seconds to wait. */
  take(key: string): number | undefined {
    const wait = this.wait(key);
    if (wait === undefined) this.record(key);
    return wait;
  }

  /** The seconds to wait before `key` may make a request, or undefined when it may now. */
  wait(key: string): number | undefined {
    const times = this.#recent(key);
    const [oldest] = times;
    if (times.length < this.limit.requests || oldest === undefined) return undefined;
    return Math.max(1, Math.ceil((oldest + this.#windowMs - this.now()) / 1000));
  }

  /** Counts a request of `key`. */
  record(key: string): void {
    const times = this.#recent(key);
    times.push(this.now());
    this.#times.delete(key);
    this.#times.set(key, times);
    if (this.#times.size > this.maxKeys) {
      const oldest = this.#times.keys().next().value;
      if (oldest !== undefined) this.#times.delete(oldest);
    }
  }

  /** Keys held (for tests and benchmarks). */
  get size(): number {
    return this.#times.size;
  }

  #recent(key: string): number[] {
    const now = this.now();
    const times = this.#times.get(key);
    if (times === undefined) return [];
    const recent = times.filter((time) => now - time < this.#windowMs);
    if (recent.length === 0) this.#times.delete(key);
    else if (recent.length !== times.length) this.#times.set(key, recent);
    return recent;
  }
}
