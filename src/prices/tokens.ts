/**
 * Token providers for scripts, tests and service accounts. Each caches its token until shortly before
 * expiry, shares one refresh among concurrent callers, gives every token request a timeout (a failed
 * or timed-out refresh is dropped, so the next call tries again), and keeps under the vendor's 10 token
 * requests per 5 minutes (convention 18).
 */
import { AuthError, HTTPError, NetworkError, TimeoutError } from "./errors";
import type { TokenProvider } from "./types";

export interface TokenCacheOptions {
  fetch?: typeof fetch;
  /** Refresh this long before expiry, at most; a tenth of the lifetime for short tokens (default 60 s). */
  refreshMarginMs?: number;
  /** Token requests allowed per window (default 10 per 300,000 ms, the vendor's limit). */
  maxRequests?: number;
  windowMs?: number;
  now?: () => number;
  /** Per token request, headers and body (default 10,000 ms: below the client's 20 s, so the cause is named). */
  timeoutMs?: number;
}

/** Lifetime assumed when a token response gives no usable `expires_in` and the token's `exp` cannot be read. */
export const DEFAULT_TOKEN_LIFETIME_S = 3_600;

export interface ClientCredentialsOptions extends TokenCacheOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  /** Resource indicator (RFC 8707): the API base URL, which becomes the token's audience. */
  resource?: string;
  /** How the client authenticates at the token endpoint (default HTTP Basic, the OAuth default). */
  authMethod?: "client_secret_basic" | "client_secret_post";
}

export interface ServiceKeyOptions extends TokenCacheOptions {
  tokenUrl: string;
  serviceName: string;
  serviceKey: string;
}

export function clientCredentialsTokenProvider(options: ClientCredentialsOptions): TokenProvider {
  return cachingTokenProvider(options, options.tokenUrl, () => {
    const body = new URLSearchParams({ grant_type: "client_credentials", scope: options.scope });
    if (options.resource) body.set("resource", options.resource);
    const headers: Record<string, string> = {};
    if (options.authMethod === "client_secret_post") {
      body.set("client_id", options.clientId);
      body.set("client_secret", options.clientSecret);
    } else {
      headers.authorization = `Basic ${base64(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`)}`;
    }
    return { body, headers };
  });
}

export function serviceKeyTokenProvider(options: ServiceKeyOptions): TokenProvider {
  return cachingTokenProvider(options, options.tokenUrl, () => ({
    body: new URLSearchParams({ grant_type: "servicekey", serviceName: options.serviceName, serviceKey: options.serviceKey }),
    headers: {},
  }));
}

/** A fixed token (tests, or a token handed over by another component); `forceRefresh` cannot help it. */
export function staticTokenProvider(token: string): TokenProvider {
  return { getToken: () => Promise.resolve(token) };
}

interface CachedToken {
  token: string;
  refreshAt: number;
}

function cachingTokenProvider(
  options: TokenCacheOptions,
  tokenUrl: string,
  makeRequest: () => { body: URLSearchParams; headers: Record<string, string> },
): TokenProvider {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const now = options.now ?? Date.now;
  const margin = options.refreshMarginMs ?? 60_000;
  const maxRequests = options.maxRequests ?? 10;
  const windowMs = options.windowMs ?? 300_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const sentAt: number[] = [];
  let cached: CachedToken | undefined;
  let pending: Promise<string> | undefined;

  async function request(): Promise<string> {
    const at = now();
    while (sentAt.length > 0 && (sentAt[0] ?? 0) <= at - windowMs) sentAt.shift();
    if (sentAt.length >= maxRequests) {
      throw new AuthError({ reason: "not-signed-in", message: `token requests limited to ${maxRequests} per ${windowMs / 1000} s; try again shortly` });
    }
    sentAt.push(at);
    const { body, headers } = makeRequest();
    const { status, statusText, ok, text } = await post(body.toString(), headers);
    if (!ok) {
      if (status >= 500) throw new HTTPError({ status, statusText, method: "POST", url: tokenUrl });
      throw new AuthError({ reason: "rejected", status, method: "POST", url: tokenUrl, message: `token request refused (${oauthError(text)})` });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (cause) {
      throw new NetworkError({ method: "POST", url: tokenUrl, cause, reason: "truncated or invalid JSON body" });
    }
    const record = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
    if (typeof record.access_token !== "string" || record.access_token === "") {
      throw new AuthError({ reason: "rejected", method: "POST", url: tokenUrl, message: "token response without access_token" });
    }
    const received = now();
    const lifetimeMs = lifetimeOf(record.expires_in, record.access_token, received);
    cached = { token: record.access_token, refreshAt: received + lifetimeMs - Math.min(margin, lifetimeMs / 10) };
    return record.access_token;
  }

  /** The token request with a timeout: an abort, and a race so that a fetch ignoring its signal still settles. */
  async function post(body: string, headers: Record<string, string>): Promise<{ status: number; statusText: string; ok: boolean; text: string }> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new TimeoutError({ method: "POST", url: tokenUrl, timeoutMs }));
      }, timeoutMs);
    });
    expired.catch(() => undefined);
    try {
      const response = await Promise.race([
        fetchImpl(tokenUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", ...headers },
          body,
          signal: controller.signal,
        }),
        expired,
      ]);
      const text = await Promise.race([response.text().catch(() => ""), expired]);
      return { status: response.status, statusText: response.statusText, ok: response.ok, text };
    } catch (cause) {
      if (cause instanceof TimeoutError) throw cause;
      if (controller.signal.aborted) throw new TimeoutError({ method: "POST", url: tokenUrl, timeoutMs });
      throw new NetworkError({ method: "POST", url: tokenUrl, cause });
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    getToken(getOptions?: { forceRefresh?: boolean }): Promise<string> {
      if (pending) return pending;
      if (!getOptions?.forceRefresh && cached && now() < cached.refreshAt) return Promise.resolve(cached.token);
      cached = undefined;
      pending = request().finally(() => {
        pending = undefined;
      });
      return pending;
    },
  };
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

function oauthError(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    return [body.error, body.error_description].filter((part) => typeof part === "string").join(": ") || "no reason given";
  } catch {
    return "no reason given";
  }
}

/** RFC 6749 2.3.1: id and secret are form-encoded before Basic encoding. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, "+");
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
