/**
 * One token request to an OAuth token endpoint (RFC 6749 section 5), the only one in the project: a
 * timeout on headers and body, and failures in the client's error family so a token provider's policy
 * can sort them. 429 and 5xx are HTTPError (with `Retry-After`), other 4xx an AuthError ("sign-in-refused")
 * with the OAuth error code and a message naming what refused; an answer that holds no token a
 * ResponseFormatError. No message holds the form, so no secret or refresh token reaches a log.
 */
import { AuthError, HTTPError, NetworkError, ResponseFormatError, TimeoutError } from "./errors";
import { parseRetryAfter, TRANSIENT_STATUSES } from "./retry";
import { withTimeout } from "./timeout";

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
  /** Abandons the request (a session that ended no longer wants its answer). */
  signal?: AbortSignal;
}

/** Lifetime assumed when a token response gives no usable `expires_in` and the token's `exp` cannot be read. */
export const DEFAULT_TOKEN_LIFETIME_S = 3_600;
export const DEFAULT_TOKEN_REQUEST_TIMEOUT_MS = 10_000;

export async function requestToken(request: TokenRequest): Promise<TokenGrant> {
  const now = request.now ?? Date.now;
  const { status, statusText, ok, text, retryAfter, date, contentType } = await post(request);
  if (!ok) {
    const { code, description } = oauthError(text);
    // Any 5xx keeps the session (the token service may come back), besides the transient 4xx of the one list.
    if (status >= 500 || TRANSIENT_STATUSES.includes(status)) {
      // An HTTP date is read against the token service's own `Date`: a skewed local clock cannot stretch it.
      const retryAfterMs = parseRetryAfter(retryAfter, now(), date);
      throw new HTTPError({ status, statusText, method: "POST", url: request.url, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
    }
    const grant = request.form.get("grant_type") ?? "";
    throw new AuthError({ reason: "sign-in-refused", status, method: "POST", url: request.url, message: refusalMessage(request.url, grant, status, code, description, contentType), ...(code ? { code } : {}) });
  }
  // An answer that is not a token still reached the token service: it counts toward its limit (a ResponseFormatError, not a network failure).
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ResponseFormatError("(body)", "is not JSON", { method: "POST", url: request.url });
  }
  const record = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (typeof record.access_token !== "string" || record.access_token === "") {
    throw new ResponseFormatError("access_token", "is missing", { method: "POST", url: request.url });
  }
  const receivedAt = now();
  const served = date ? Date.parse(date) : NaN;
  const grant: TokenGrant = { accessToken: record.access_token, lifetimeMs: lifetimeOf(record.expires_in, record.access_token, receivedAt, Number.isNaN(served) ? undefined : served) };
  if (typeof record.refresh_token === "string" && record.refresh_token !== "") grant.refreshToken = record.refresh_token;
  return grant;
}

/**
 * What a refusal by the token service means, in the words a cell and the pane show: only `invalid_grant`
 * says the sign-in itself is over; a proxy's 403, an HTML 404 or a malformed request are named as such.
 */
function refusalMessage(url: string, grant: string, status: number, code: string | undefined, description: string | undefined, contentType: string | null): string {
  const said = `${status}${description ? `: ${description}` : ""}`;
  switch (code) {
    case "invalid_grant":
      return `the sign-in is no longer valid (invalid_grant, ${said})`;
    case "invalid_client":
    case "unauthorized_client":
      // With a service key the key itself is the client's credential.
      return grant === "servicekey" ? `the sign-in service refused the service name or key (${code}, ${said})` : `the add-in's client id is not registered with the sign-in service (${code}, ${said})`;
    case "invalid_request":
    case "unsupported_grant_type":
    case "invalid_scope":
      return `the sign-in service refused the add-in's request (${code}, ${said})`;
    default: {
      const kind = contentType?.includes("html") ? " with a web page" : "";
      return `sign-in service answered ${status}${kind} from ${hostOf(url)}${code ? ` (${code}${said})` : ""}`;
    }
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The POST with the one timeout helper: headers and body within `timeoutMs`, even if the fetch ignores its signal. */
async function post(request: TokenRequest): Promise<{ status: number; statusText: string; ok: boolean; text: string; retryAfter: string | null; date: string | null; contentType: string | null }> {
  const timeoutMs = request.timeoutMs ?? DEFAULT_TOKEN_REQUEST_TIMEOUT_MS;
  const url = request.url;
  try {
    return await withTimeout(
      timeoutMs,
      async (signal) => {
        const response = await request.fetch(url, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", ...request.headers },
          body: request.form.toString(),
          cache: "no-store",
          credentials: "omit",
          signal,
        });
        const text = await response.text();
        const headers = response.headers;
        return { status: response.status, statusText: response.statusText, ok: response.ok, text, retryAfter: headers.get("retry-after"), date: headers.get("date"), contentType: headers.get("content-type") };
      },
      () => new TimeoutError({ method: "POST", url, timeoutMs }),
      request.signal,
    );
  } catch (cause) {
    if (cause instanceof TimeoutError) throw cause;
    throw new NetworkError({ method: "POST", url, cause });
  }
}

/**
 * Milliseconds the token lives: `expires_in` when it is a positive number; else the JWT's own `exp`, read
 * against its `iat` (the issuer's clock, so a skewed local clock cannot stretch it), else against the
 * answer's `Date`, else against the local clock; else an hour, but only when the answer said nothing: an
 * `expires_in` of 0 is a token that lives no time, not an hour.
 */
export function lifetimeOf(expiresIn: unknown, token: string, receivedAt: number, servedAt?: number): number {
  const seconds = typeof expiresIn === "number" ? expiresIn : typeof expiresIn === "string" && expiresIn.trim() !== "" ? Number(expiresIn) : NaN;
  if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  const claims = jwtClaims(token);
  if (claims.exp !== undefined) {
    const from = claims.iat !== undefined ? claims.iat * 1000 : (servedAt ?? receivedAt);
    return Math.max(0, claims.exp * 1000 - from);
  }
  if (Number.isFinite(seconds)) return 0;
  return DEFAULT_TOKEN_LIFETIME_S * 1000;
}

/** `exp` and `iat` (epoch seconds) of a JWT's payload, if the token is one and says; the signature is not checked (the API does that). */
function jwtClaims(token: string): { exp?: number; iat?: number } {
  const payload = token.split(".")[1];
  if (payload === undefined || payload === "") return {};
  try {
    const base64 = payload.replace(/-/g, "+").replace(/_/g, "/");
    const claims = JSON.parse(atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4))) as { exp?: unknown; iat?: unknown };
    const read = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
    const exp = read(claims.exp);
    const iat = read(claims.iat);
    return { ...(exp !== undefined ? { exp } : {}), ...(iat !== undefined && exp !== undefined && iat <= exp ? { iat } : {}) };
  } catch {
    return {};
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
