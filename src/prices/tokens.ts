/**
 * Token providers for scripts, tests and service accounts: a token session (token-session.ts) whose
 * grant is client credentials or the vendor's service key (convention 18). The pane's signed-in user
 * runs on the same session (auth/token-store.ts).
 */
import { requestToken } from "./token-request";
import { type TokenPolicy, type TokenSession, createTokenSession } from "./token-session";
import type { TokenProvider } from "./types";

export { DEFAULT_TOKEN_LIFETIME_S, lifetimeOf } from "./token-request";

export interface TokenCacheOptions {
  fetch?: typeof fetch;
  /** Renewal, retry and request-limit settings (default DEFAULT_TOKEN_POLICY: 10 token requests per 5 minutes). */
  policy?: Partial<TokenPolicy>;
  now?: () => number;
  /** Per token request, headers and body (default 10,000 ms: below the client's 20 s, so the cause is named). */
  timeoutMs?: number;
}

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

export function clientCredentialsTokenProvider(options: ClientCredentialsOptions): TokenSession {
  return grantSession(options, options.tokenUrl, () => {
    const form = new URLSearchParams({ grant_type: "client_credentials", scope: options.scope });
    if (options.resource) form.set("resource", options.resource);
    const headers: Record<string, string> = {};
    if (options.authMethod === "client_secret_post") {
      form.set("client_id", options.clientId);
      form.set("client_secret", options.clientSecret);
    } else {
      headers.authorization = `Basic ${base64(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`)}`;
    }
    return { form, headers };
  });
}

export function serviceKeyTokenProvider(options: ServiceKeyOptions): TokenSession {
  return grantSession(options, options.tokenUrl, () => ({
    form: new URLSearchParams({ grant_type: "servicekey", serviceName: options.serviceName, serviceKey: options.serviceKey }),
    headers: {},
  }));
}

/** A fixed token (tests, or a token handed over by another component); a refresh cannot help it. */
export function staticTokenProvider(token: string): TokenProvider {
  return { getToken: () => Promise.resolve(token) };
}

function grantSession(options: TokenCacheOptions, url: string, makeRequest: () => { form: URLSearchParams; headers: Record<string, string> }): TokenSession {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const now = options.now ?? Date.now;
  return createTokenSession({
    grant: () => requestToken({ fetch: fetchImpl, url, ...makeRequest(), ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}), now }),
    ...(options.policy ? { policy: options.policy } : {}),
    now,
  });
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
