/**
 * The tokens a user sign-in hands over (RFC 6749 section 5) and the discovery of the token endpoint.
 * Token requests themselves are prices/token-request.ts, the only implementation.
 */
import { withTimeout } from "../prices/timeout";

export interface TokenResponse {
  accessToken: string;
  /** Seconds from issue. */
  expiresIn: number;
  refreshToken?: string;
  scope?: string;
  /** The OpenID Connect ID token: kept in memory only, as the `id_token_hint` of the sign-out at the token service. */
  idToken?: string;
}

export class TokenRequestError extends Error {
  override name = "TokenRequestError";
  constructor(
    message: string,
    readonly status: number,
    /** The OAuth `error` code (`invalid_grant`, ...), never the token. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** How long a token or discovery request may take before it fails (a hung endpoint must never leave renewal pending). */
export const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

export interface TokenRequestOptions {
  /** Milliseconds before the request (answer and body) is abandoned; default TOKEN_REQUEST_TIMEOUT_MS. */
  timeoutMs?: number;
}

function timedOut(what: string, timeoutMs: number): TokenRequestError {
  return new TokenRequestError(`${what} did not answer within ${Math.max(1, Math.round(timeoutMs / 1000))} s`, 0, "timeout");
}

/**
 * The token endpoint of an OpenID Connect issuer, from its discovery document (`{issuer}/token` when the document
 * names none or there is no document). Rejects when the issuer cannot be reached, answers 5xx or does not answer in
 * time, so a caller that caches the answer can try again later instead of keeping a guess.
 */
export async function discoverTokenEndpoint(fetchFn: typeof fetch, authority: string, options: TokenRequestOptions = {}): Promise<string> {
  const base = authority.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? TOKEN_REQUEST_TIMEOUT_MS;
  const doc = await withTimeout(
    timeoutMs,
    async (signal): Promise<unknown> => {
      let response: Response;
      try {
        response = await fetchFn(`${base}/.well-known/openid-configuration`, { credentials: "omit", signal });
      } catch (cause) {
        throw new TokenRequestError(`token service unreachable (${cause instanceof Error ? cause.name : "error"})`, 0);
      }
      if (response.status >= 500) throw new TokenRequestError(`token service discovery failed with status ${response.status}`, response.status);
      // No document (or not JSON): the issuer's /token is the endpoint.
      return response.ok ? response.json().catch(() => undefined) : undefined;
    },
    () => timedOut("the token service's discovery", timeoutMs),
  );
  const endpoint = typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>)["token_endpoint"] : undefined;
  return typeof endpoint === "string" && endpoint.startsWith("https://") ? endpoint : `${base}/token`;
}

/** Discovery done once and shared; a failed or timed-out discovery is forgotten so the next call asks again. */
export function cachedTokenEndpoint(fetchFn: typeof fetch, authority: string, options: TokenRequestOptions = {}): () => Promise<string> {
  let pending: Promise<string> | undefined;
  return () => {
    if (!pending) {
      const attempt = discoverTokenEndpoint(fetchFn, authority, options);
      pending = attempt;
      attempt.catch(() => {
        if (pending === attempt) pending = undefined;
      });
    }
    return pending;
  };
}
