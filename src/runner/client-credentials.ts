/**
 * The OAuth client-credentials token request as the runner makes it (audience = the API URL): its form body and
 * headers, and the token read from the answer. The runner sends it through undici (host-page.ts `fetchClientToken`),
 * its sandbox's thread through node:https (sandbox-worker.ts), which loads no HTTP client of its own.
 */
export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly apiUrl: string;
  readonly scope: string;
}

/** The POST's form body and headers (the client's id and secret in Basic authorization). */
export function tokenRequest(client: ClientCredentials): { readonly body: string; readonly headers: Readonly<Record<string, string>> } {
  const body = new URLSearchParams({ grant_type: "client_credentials", scope: client.scope, resource: client.apiUrl }).toString();
  const basic = Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString("base64");
  return { body, headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` } };
}

/** The access token of an answer (its status and parsed body), or why there is none, with the service's error code. */
export function accessTokenOf(status: number, json: unknown): string {
  const { access_token: token, error } = (typeof json === "object" && json !== null ? json : {}) as { access_token?: unknown; error?: unknown };
  if (status < 200 || status > 299 || typeof token !== "string") throw new Error(`token request failed with status ${String(status)}${typeof error === "string" ? `: ${error}` : ""}`);
  return token;
}
