/**
 * One token request to an OAuth token endpoint (RFC 6749 section 5), the only one in the project: a
 * timeout on headers and body, and failures in the client's error family so a token provider's policy
 * can sort them. 429 and 5xx are HTTPError (with `Retry-After`), other 4xx an AuthError with the OAuth
 * error code; neither message holds the form, so no secret or refresh token reaches a log.
 */
import { AuthError, HTTPError, NetworkError, TimeoutError } from "./errors";
import { parseRetryAfter } from "./retry";

/** A token the service granted. */
export interface TokenGrant {
  accessToken: string;
  /** Milliseconds the token lives from its receipt. */
  lifetimeMs: number;
  refreshToken?: string;
}

export interface TokenRequest {
  fetch: typeof fetch;
  url: string;
  form: URLSearchParams;
  headers?: Record<string, string>;
  /** Headers and body together (default 10,000 ms). */
  timeoutMs?: number;
  now?: () => number;
}

/** Lifetime assumed when a token response gives no usable `expires_in` and the token's `exp` cannot be read. */
export const DEFAULT_TOKEN_LIFETIME_S = 3_600;
export const DEFAULT_TOKEN_REQUEST_TIMEOUT_MS = 10_000;

export async function requestToken(request: TokenRequest): Promise<TokenGrant> {
  const now = request.now ?? Date.now;
  const { status, statusText, ok, text, retryAfter } = await post(request);
  if (!ok) {
    const { code, description } = oauthError(text);
    const reason = code ? ` (${code}${description ? `: ${description}` : ""})` : "";
    if (status >= 500 || status === 429 || status === 408) {
      const retryAfterMs = parseRetryAfter(retryAfter, now());
      throw new HTTPError({ status, statusText, method: "POST", url: request.url, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
    }
    throw new AuthError({ reason: "rejected", status, method: "POST", url: request.url, message: `token request refused with status ${status}${reason}`, ...(code ? { code } : {}) });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new NetworkError({ method: "POST", url: request.url, cause, reason: "truncated or invalid JSON body" });
  }
  const record = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (typeof record.access_token !== "string" || record.access_token === "") {
    throw new NetworkError({ method: "POST", url: request.url, reason: "token response without access_token" });
  }
  const grant: TokenGrant = { accessToken: record.access_token, lifetimeMs: lifetimeOf(record.expires_in, record.access_token, now()) };
  if (typeof record.refresh_token === "string" && record.refresh_token !== "") grant.refreshToken = record.refresh_token;
  return grant;
}

/** The POST with a timeout: an abort, and a race so that a fetch ignoring its signal still settles. */
async function post(request: TokenRequest): Promise<{ status: number; statusText: string; ok: boolean; text: string; retryAfter: string | null }> {
  const timeoutMs = request.timeoutMs ?? DEFAULT_TOKEN_REQUEST_TIMEOUT_MS;
  const url = request.url;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new TimeoutError({ method: "POST", url, timeoutMs }));
    }, timeoutMs);
  });
  expired.catch(() => undefined);
  try {
    const response = await Promise.race([
      request.fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", ...request.headers },
        body: request.form.toString(),
        cache: "no-store",
        credentials: "omit",
        signal: controller.signal,
      }),
      expired,
    ]);
    const text = await Promise.race([response.text(), expired]);
    return { status: response.status, statusText: response.statusText, ok: response.ok, text, retryAfter: response.headers.get("retry-after") };
  } catch (cause) {
    if (cause instanceof TimeoutError) throw cause;
    if (controller.signal.aborted) throw new TimeoutError({ method: "POST", url, timeoutMs });
    throw new NetworkError({ method: "POST", url, cause });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Milliseconds the token lives: `expires_in` when it is a positive number, else the JWT's own `exp`,
 * else an hour. Without this a missing or odd `expires_in` would expire the token at once and spend the
 * vendor's token budget one call at a time.
 */
export function lifetimeOf(expiresIn: unknown, token: string, receivedAt: number): number {
  const seconds = typeof expiresIn === "number" ? expiresIn : typeof expiresIn === "string" && expiresIn.trim() !== "" ? Number(expiresIn) : NaN;
  if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  const exp = jwtExpiry(token);
  if (exp !== undefined && exp * 1000 > receivedAt) return exp * 1000 - receivedAt;
  return DEFAULT_TOKEN_LIFETIME_S * 1000;
}

/** `exp` (epoch seconds) of a JWT's payload, if the token is one and says; the signature is not checked (the API does that). */
function jwtExpiry(token: string): number | undefined {
  const payload = token.split(".")[1];
  if (payload === undefined || payload === "") return undefined;
  try {
    const base64 = payload.replace(/-/g, "+").replace(/_/g, "/");
    const claims = JSON.parse(atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4))) as { exp?: unknown };
    return typeof claims.exp === "number" && Number.isFinite(claims.exp) ? claims.exp : undefined;
  } catch {
    return undefined;
  }
}

function oauthError(text: string): { code: string | undefined; description: string | undefined } {
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    return { code: typeof body.error === "string" ? body.error : undefined, description: typeof body.error_description === "string" ? body.error_description : undefined };
  } catch {
    return { code: undefined, description: undefined };
  }
}
