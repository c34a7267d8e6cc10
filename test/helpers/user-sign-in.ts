/**
 * A user's sign-in to the running sandbox as the add-in does it (authorization code with PKCE through the
 * login page), played without a browser: the tokens the dialog would hand to the pane's token store.
 */
import { Agent, fetch as undiciFetch, type Response } from "undici";
import { ADDIN_CLIENT_ID } from "../../src/sandbox/auth";
import type { RunningSandbox } from "../../src/sandbox/server";
import { CookieJar, pkcePair } from "../sandbox/auth/support";

export const ADDIN_REDIRECT_URI = "https://localhost:3000/auth-dialog.html";

export interface UserTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export async function signInUser(sandbox: RunningSandbox, username: string, scope = "sandbox.physicalprices.api"): Promise<UserTokens> {
  const dispatcher = new Agent({ connect: { ca: sandbox.ca } });
  const request = (url: string, init: Parameters<typeof undiciFetch>[1] = {}): Promise<Response> => undiciFetch(new URL(url, sandbox.origin), { redirect: "manual", ...init, dispatcher });
  try {
    const jar = new CookieJar();
    const { verifier, challenge } = pkcePair();
    const query = new URLSearchParams({
      client_id: ADDIN_CLIENT_ID,
      response_type: "code",
      redirect_uri: ADDIN_REDIRECT_URI,
      scope: `openid profile offline_access ${scope}`,
      code_challenge: challenge,
      code_challenge_method: "S256",
      nonce: "n-user-sign-in",
    });
    let response = await request(`${sandbox.issuer}/auth?${query.toString()}`);
    for (let step = 0; step < 10; step += 1) {
      jar.store(response);
      if (response.status === 302 || response.status === 303) {
        const location = new URL(response.headers.get("location") ?? "", sandbox.origin);
        if (location.origin !== sandbox.origin) return await redeem(request, sandbox, location.searchParams.get("code") ?? "", verifier);
        response = await request(location.href, { headers: jar.header() });
        continue;
      }
      const html = await response.text();
      const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
      if (response.status !== 200 || action === undefined) throw new Error(`the sign-in stopped with ${response.status}`);
      response = await request(action, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...jar.header() },
        body: new URLSearchParams({ username, password: username }).toString(),
      });
    }
    throw new Error("the sign-in redirected too often");
  } finally {
    await dispatcher.close();
  }
}

async function redeem(request: (url: string, init?: Parameters<typeof undiciFetch>[1]) => Promise<Response>, sandbox: RunningSandbox, code: string, verifier: string): Promise<UserTokens> {
  const response = await request(`${sandbox.issuer}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(ADDIN_REDIRECT_URI).origin },
    body: new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: ADDIN_REDIRECT_URI, client_id: ADDIN_CLIENT_ID }).toString(),
  });
  const body = (await response.json()) as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown };
  if (typeof body.access_token !== "string" || typeof body.refresh_token !== "string" || typeof body.expires_in !== "number") throw new Error(`the code was not redeemed (${response.status})`);
  return { accessToken: body.access_token, refreshToken: body.refresh_token, expiresIn: body.expires_in };
}
