/** OAuth 2.0 token endpoint answers (RFC 6749 section 5), read defensively. */

export interface TokenResponse {
  accessToken: string;
  /** Seconds from issue. */
  expiresIn: number;
  refreshToken?: string;
  scope?: string;
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

function field(body: Record<string, unknown>, name: string): unknown {
  return body[name];
}

export function parseTokenResponse(body: unknown): TokenResponse {
  if (typeof body !== "object" || body === null) throw new TokenRequestError("token response is not a JSON object", 200);
  const record = body as Record<string, unknown>;
  const accessToken = field(record, "access_token");
  const expiresIn = Number(field(record, "expires_in"));
  if (typeof accessToken !== "string" || accessToken === "") throw new TokenRequestError("token response has no access_token", 200);
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) throw new TokenRequestError("token response has no valid expires_in", 200);
  const refreshToken = field(record, "refresh_token");
  const scope = field(record, "scope");
  return {
    accessToken,
    expiresIn,
    ...(typeof refreshToken === "string" && refreshToken !== "" ? { refreshToken } : {}),
    ...(typeof scope === "string" ? { scope } : {}),
  };
}

/** How long a token or discovery request may take before it fails (a hung endpoint must never leave renewal pending). */
export const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

export interface TokenRequestOptions {
  /** Milliseconds before the request (answer and body) is abandoned; default TOKEN_REQUEST_TIMEOUT_MS. */
  timeoutMs?: number;
}

function isAbort(cause: unknown): boolean {
  return cause instanceof Error && (cause.name === "TimeoutError" || cause.name === "AbortError");
}

function timedOut(what: string, timeoutMs: number): TokenRequestError {
  return new TokenRequestError(`${what} did not answer within ${Math.max(1, Math.round(timeoutMs / 1000))} s`, 0, "timeout");
}

/** POSTs a form to the token endpoint; errors carry the status and OAuth error code, never the request body. */
export async function requestToken(fetchFn: typeof fetch, tokenUrl: string, form: Record<string, string>, options: TokenRequestOptions = {}): Promise<TokenResponse> {
  const timeoutMs = options.timeoutMs ?? TOKEN_REQUEST_TIMEOUT_MS;
  // one signal for the answer and its body: a server that sends headers and then stalls is cut off too
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetchFn(tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(form).toString(),
      cache: "no-store",
      credentials: "omit",
      signal,
    });
  } catch (cause) {
    if (isAbort(cause) || signal.aborted) throw timedOut("the token service", timeoutMs);
    throw new TokenRequestError(`token service unreachable (${cause instanceof Error ? cause.name : "error"})`, 0);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (cause) {
    if (isAbort(cause) || signal.aborted) throw timedOut("the token service", timeoutMs);
    body = undefined;
  }
  if (!response.ok) {
    const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
    const code = typeof record["error"] === "string" ? record["error"] : undefined;
    const description = typeof record["error_description"] === "string" ? `: ${record["error_description"]}` : "";
    throw new TokenRequestError(`token request failed with status ${response.status}${code ? ` (${code}${description})` : ""}`, response.status, code);
  }
  return parseTokenResponse(body);
}

/**
 * The token endpoint of an OpenID Connect issuer, from its discovery document (`{issuer}/token` when the document
 * names none or there is no document). Rejects when the issuer cannot be reached, answers 5xx or does not answer in
 * time, so a caller that caches the answer can try again later instead of keeping a guess.
 */
export async function discoverTokenEndpoint(fetchFn: typeof fetch, authority: string, options: TokenRequestOptions = {}): Promise<string> {
  const base = authority.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? TOKEN_REQUEST_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetchFn(`${base}/.well-known/openid-configuration`, { credentials: "omit", signal });
  } catch (cause) {
    if (isAbort(cause) || signal.aborted) throw timedOut("the token service's discovery", timeoutMs);
    throw new TokenRequestError(`token service unreachable (${cause instanceof Error ? cause.name : "error"})`, 0);
  }
  if (response.status >= 500) throw new TokenRequestError(`token service discovery failed with status ${response.status}`, response.status);
  let doc: unknown;
  if (response.ok) {
    try {
      doc = await response.json();
    } catch (cause) {
      if (isAbort(cause) || signal.aborted) throw timedOut("the token service's discovery", timeoutMs);
      doc = undefined;
    }
  }
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
