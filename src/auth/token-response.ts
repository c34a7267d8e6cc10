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

/** POSTs a form to the token endpoint; errors carry the status and OAuth error code, never the request body. */
export async function requestToken(fetchFn: typeof fetch, tokenUrl: string, form: Record<string, string>): Promise<TokenResponse> {
  let response: Response;
  try {
    response = await fetchFn(tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(form).toString(),
      cache: "no-store",
      credentials: "omit",
    });
  } catch (cause) {
    throw new TokenRequestError(`token service unreachable (${cause instanceof Error ? cause.name : "error"})`, 0);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
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

/** The token endpoint of an OpenID Connect issuer, from its discovery document (`{issuer}/token` if it names none). */
export async function discoverTokenEndpoint(fetchFn: typeof fetch, authority: string): Promise<string> {
  const base = authority.replace(/\/+$/, "");
  try {
    const response = await fetchFn(`${base}/.well-known/openid-configuration`, { credentials: "omit" });
    if (response.ok) {
      const doc = (await response.json()) as unknown;
      const endpoint = typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>)["token_endpoint"] : undefined;
      if (typeof endpoint === "string" && endpoint.startsWith("https://")) return endpoint;
    }
  } catch {
    // fall through to the conventional path
  }
  return `${base}/token`;
}
