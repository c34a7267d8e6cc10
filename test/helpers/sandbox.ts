/** Helpers for tests that need the real sandbox over HTTPS: start it, trust its CA, get tokens. */
import { Agent } from "undici";
import { dispatcherFetch } from "../../src/prices/dispatcher-fetch";
import { startSandbox, type RunningSandbox, type SandboxOptions, type StartHooks } from "../../src/sandbox/server";

/** The sandbox on a free port with the data frozen at `today` (default 2025-06-30), printing nothing. */
export async function startTestSandbox(options: Partial<SandboxOptions> = {}, hooks: StartHooks = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, today: "2025-06-30", quiet: true, ...options }, hooks);
}

/** A `fetch` that trusts the sandbox's CA (PEM), through undici. */
export function caFetch(ca: string): typeof fetch {
  return dispatcherFetch(new Agent({ connect: { ca } }));
}

/** A client-credentials access token from `{issuer}/token` for the scope `<vendor>.physicalprices.api`. */
export async function clientCredentialsToken(
  issuer: string,
  clientId: string,
  clientSecret: string,
  ca: string,
  scope = "sandbox.physicalprices.api",
): Promise<string> {
  const response = await caFetch(ca)(`${issuer}/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "client_credentials", scope }).toString(),
  });
  if (!response.ok) throw new Error(`token request failed with status ${response.status}`);
  const body = (await response.json()) as { access_token?: unknown };
  if (typeof body.access_token !== "string") throw new Error("token response without access_token");
  return body.access_token;
}
