/** Asking a running sandbox directly over HTTPS (trusting its CA), for expected values computed without the client under test. */
import { scopeFor } from "../../src/api";
import type { RunningSandbox } from "../../src/sandbox/server";
import { fetchClientToken } from "../../src/runner/host-page";
import { caFetch } from "../helpers/sandbox";

type Sandbox = Pick<RunningSandbox, "apiUrl" | "issuer" | "ca">;

/** A client-credentials token of a confidential client of the sandbox, for its API (audience = the API URL). */
export function sandboxToken(sandbox: Sandbox, clientId: string, clientSecret: string): Promise<string> {
  return fetchClientToken({ tokenUrl: `${sandbox.issuer}/token`, clientId, clientSecret, apiUrl: sandbox.apiUrl, scope: scopeFor("sandbox"), ca: sandbox.ca });
}

/** GET `path` of the API with `query` and a bearer token; the status and the body's text. */
export async function sandboxGet(sandbox: Sandbox, path: string, query: Readonly<Record<string, string>>, token: string): Promise<{ status: number; text: string }> {
  const response = await caFetch(sandbox.ca)(`${sandbox.apiUrl}${path}?${new URLSearchParams(query).toString()}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, text: await response.text() };
}
