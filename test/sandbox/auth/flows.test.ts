/**
 * The token service over real HTTPS on a random port: discovery, client credentials, the service-key
 * grant, and the add-in's authorization code + PKCE sign-in through the login page.
 */
import { createHash } from "node:crypto";
import { decodeJwt, decodeProtectedHeader } from "jose";
import type { Response } from "undici";
import { ADDIN_CLIENT_ID } from "../../../src/sandbox/auth";
import { CookieJar, basicAuth, pkcePair, startAuthServer, type AuthServer } from "./support";

const ADDIN_ORIGIN = "https://localhost:3000";
const REDIRECT_URI = `${ADDIN_ORIGIN}/auth-dialog.html`;
const SCOPE = "sandbox.physicalprices.api";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

let server: AuthServer;

beforeAll(async () => {
  server = await startAuthServer({ corsOrigins: ["https://addin.example.test"] });
});

afterAll(async () => {
  await server.close();
});

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

describe("discovery", () => {
  it("serves the OpenID configuration with the issuer and endpoints under /auth", async () => {
    const response = await server.request("/auth/.well-known/openid-configuration", {
      headers: { origin: ADDIN_ORIGIN },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(ADDIN_ORIGIN);
    const document = await json(response);
    expect(document.issuer).toBe(`${server.origin}/auth`);
    expect(document.token_endpoint).toBe(`${server.origin}/auth/token`);
    expect(document.authorization_endpoint).toBe(`${server.origin}/auth/auth`);
    expect(document.jwks_uri).toBe(`${server.origin}/auth/jwks`);
    expect(document.code_challenge_methods_supported).toEqual(["S256"]);
    expect(document.grant_types_supported).toEqual(
      expect.arrayContaining(["authorization_code", "refresh_token", "client_credentials", "servicekey"]),
    );
  });

  it("publishes one RS256 signing key without its private part", async () => {
    const response = await server.request("/auth/jwks");
    const { keys } = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
    expect(keys[0]).not.toHaveProperty("d");
  });

  it("answers a path the token service does not serve with a 404 problem", async () => {
    for (const [method, path] of [["GET", "/auth/nonexistent"], ["POST", "/auth/jwks"], ["DELETE", "/auth/token"]] as const) {
      const response = await server.request(path, { method });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ status: 404, title: "Not Found" });
    }
  });
});

describe("client credentials", () => {
  it.each([
    ["sandbox-full", "sandbox-full-secret", "MB-AL-0004", true, "AG-WHE-0058", true],
    ["sandbox-trial", "sandbox-trial-secret", "MB-AL-0004", true, "AG-WHE-0058", false],
  ])("issues %s an RS256 at+jwt for the API that maps to its entitlement", async (id, secret, metal, seesMetal, grain, seesGrain) => {
    const response = await server.postForm("/auth/token", { grant_type: "client_credentials", scope: SCOPE }, basicAuth(id, secret));
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: SCOPE });
    const token = String(body.access_token);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: "RS256", typ: "at+jwt" });
    expect(decodeJwt(token)).toMatchObject({ iss: server.issuer, aud: server.apiUrl, sub: id, client_id: id });
    const caller = await server.tokenService.verify(`Bearer ${token}`);
    expect(caller).toMatchObject({ id, kind: "client" });
    expect(caller.canSee(metal)).toBe(seesMetal);
    expect(caller.canSee(grain)).toBe(seesGrain);
  });

  it("accepts the secret in the form body too (client_secret_post)", async () => {
    const response = await server.postForm("/auth/token", {
      grant_type: "client_credentials",
      scope: SCOPE,
      client_id: "sandbox-full",
      client_secret: "sandbox-full-secret",
    });
    expect(response.status).toBe(200);
  });

  it("refuses a wrong client secret with invalid_client", async () => {
    const response = await server.postForm("/auth/token", { grant_type: "client_credentials", scope: SCOPE }, basicAuth("sandbox-full", "wrong"));
    expect(response.status).toBe(401);
    expect(await json(response)).toMatchObject({ error: "invalid_client" });
  });
});

describe("service-key grant", () => {
  const grant = (serviceName: string, serviceKey: string, headers: Record<string, string> = {}) =>
    server.postForm("/auth/token", { grant_type: "servicekey", serviceName, serviceKey }, headers);

  it("issues a Bearer token for the service without client authentication, with CORS for the add-in", async () => {
    const response = await grant("sandbox-trial-service", "sandbox-trial-service-key", { origin: ADDIN_ORIGIN });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(ADDIN_ORIGIN);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await json(response);
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 7200 });
    const caller = await server.tokenService.verify(`Bearer ${String(body.access_token)}`);
    expect(caller).toMatchObject({ id: "sandbox-trial-service", kind: "service" });
    expect(caller.canSee("MB-CU-0001")).toBe(true);
    expect(caller.canSee("FP-PLP-0034")).toBe(false);
  });

  it("refuses a bad key with invalid_grant", async () => {
    const response = await grant("sandbox-trial-service", "not-the-key");
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ error: "invalid_grant" });
  });

  it("answers 429 with Retry-After after 10 token requests in 5 minutes for one service name", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await grant("sandbox-service", "sandbox-service-key")).status);
    expect(statuses).toEqual(Array(10).fill(200));
    const refused = await grant("sandbox-service", "sandbox-service-key");
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(300);
    expect(await json(refused)).toMatchObject({ error: "too_many_requests" });
    // Another service name has its own budget.
    expect((await grant("sandbox-trial-service", "sandbox-trial-service-key")).status).toBe(200);
  });
});

/** The add-in's authorization request, as MSAL sends it, with some parameters changed or removed. */
function authorizationQuery(changes: Record<string, string | undefined> = {}): URLSearchParams {
  const query = new URLSearchParams({
    client_id: ADDIN_CLIENT_ID,
    response_type: "code",
    redirect_uri: REDIRECT_URI,
    scope: `openid profile offline_access ${SCOPE}`,
    code_challenge: pkcePair().challenge,
    code_challenge_method: "S256",
    nonce: "n-0S6_WzA2Mj",
  });
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) query.delete(name);
    else query.set(name, value);
  }
  return query;
}

interface SignIn {
  username: string;
  password: string;
  redirectUri?: string;
  scope?: string;
  prompt?: string;
}

/** Plays the browser: authorization request, login page, form post, resume; returns the final redirect. */
async function signIn(
  options: SignIn,
): Promise<{ location: URL; verifier: string; state: string; pages: string[]; jar: CookieJar }> {
  const jar = new CookieJar();
  const { verifier, challenge } = pkcePair();
  const state = `state-${Math.random()}`;
  const query = authorizationQuery({
    redirect_uri: options.redirectUri ?? REDIRECT_URI,
    scope: options.scope ?? `openid profile offline_access ${SCOPE}`,
    code_challenge: challenge,
    state,
    prompt: options.prompt,
  });
  const pages: string[] = [];
  let response = await server.request(`/auth/auth?${query}`);
  for (let step = 0; step < 10; step += 1) {
    jar.store(response);
    if (response.status === 303 || response.status === 302) {
      const location = new URL(response.headers.get("location") ?? "", server.origin);
      if (location.origin !== server.origin) return { location, verifier, state, pages, jar };
      response = await server.request(location.href, { headers: jar.header() });
      continue;
    }
    const html = await response.text();
    pages.push(html);
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || action === undefined || pages.length > 3) {
      throw new Error(`Sign-in stopped with ${response.status}: ${html.slice(0, 300)}`);
    }
    response = await server.postForm(action, { username: options.username, password: options.password }, jar.header());
  }
  throw new Error("Too many redirects");
}

async function redeem(code: string, verifier: string, redirectUri = REDIRECT_URI): Promise<Response> {
  return server.postForm(
    "/auth/token",
    { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: redirectUri, client_id: ADDIN_CLIENT_ID },
    { origin: ADDIN_ORIGIN },
  );
}

describe("authorization code with PKCE (the add-in)", () => {
  it.each([
    ["analyst", true],
    ["trial", false],
  ])("signs %s in through the login page and issues tokens for the API", async (username, seesGrain) => {
    const { location, verifier, state } = await signIn({ username, password: username });
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get("state")).toBe(state);
    expect(location.searchParams.get("iss")).toBe(server.issuer);
    const code = location.searchParams.get("code") ?? "";
    expect(code).not.toBe("");

    const response = await redeem(code, verifier);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(ADDIN_ORIGIN);
    const body = await json(response);
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect(typeof body.refresh_token).toBe("string");
    expect(decodeJwt(String(body.id_token))).toMatchObject({ sub: username, preferred_username: username, aud: ADDIN_CLIENT_ID });
    expect(decodeJwt(String(body.access_token))).toMatchObject({ sub: username, client_id: ADDIN_CLIENT_ID, aud: server.apiUrl });

    const caller = await server.tokenService.verify(`Bearer ${String(body.access_token)}`);
    expect(caller).toMatchObject({ id: username, kind: "user", clientId: ADDIN_CLIENT_ID });
    expect(caller.canSee("MB-AL-0004")).toBe(true);
    expect(caller.canSee("AG-WHE-0058")).toBe(seesGrain);
  });

  it("renews the access token with the refresh token, as MSAL does from the browser", async () => {
    const { location, verifier } = await signIn({ username: "trial", password: "trial" });
    const first = await json(await redeem(location.searchParams.get("code") ?? "", verifier));
    const response = await server.postForm(
      "/auth/token",
      {
        grant_type: "refresh_token",
        refresh_token: String(first.refresh_token),
        client_id: ADDIN_CLIENT_ID,
        scope: `openid profile offline_access ${SCOPE}`,
      },
      { origin: ADDIN_ORIGIN },
    );
    const renewed = await json(response);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(ADDIN_ORIGIN);
    expect(renewed.access_token).not.toBe(first.access_token);
    expect(typeof renewed.refresh_token).toBe("string");
    const caller = await server.tokenService.verify(`Bearer ${String(renewed.access_token)}`);
    expect(caller).toMatchObject({ id: "trial", kind: "user" });
  });

  it("issues a refresh token even when offline_access was not asked for", async () => {
    const { location, verifier } = await signIn({ username: "analyst", password: "analyst", scope: `openid ${SCOPE}` });
    const body = await json(await redeem(location.searchParams.get("code") ?? "", verifier));
    expect(typeof body.refresh_token).toBe("string");
  });

  it("grants consent by itself when the client asks for prompt=consent", async () => {
    const { location, verifier, pages } = await signIn({ username: "analyst", password: "analyst", prompt: "consent" });
    expect(pages).toHaveLength(1);
    expect((await redeem(location.searchParams.get("code") ?? "", verifier)).status).toBe(200);
  });

  it("rejects a redirect URI that is not registered exactly, without redirecting", async () => {
    for (const redirectUri of [`${ADDIN_ORIGIN}/auth-dialog.html/x`, `${ADDIN_ORIGIN}/AUTH-DIALOG.html`, "https://evil.example/cb"]) {
      const query = authorizationQuery({ redirect_uri: redirectUri });
      const response = await server.request(`/auth/auth?${query}`);
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).toContain("redirect_uri");
    }
  });

  it("requires PKCE", async () => {
    const query = authorizationQuery({ code_challenge: undefined, code_challenge_method: undefined });
    const response = await server.request(`/auth/auth?${query}`);
    const location = new URL(response.headers.get("location") ?? "", server.origin);
    expect(location.searchParams.get("error")).toBe("invalid_request");
  });

  it("refuses the code with a wrong PKCE verifier", async () => {
    const { location } = await signIn({ username: "analyst", password: "analyst" });
    const response = await redeem(location.searchParams.get("code") ?? "", pkcePair().verifier);
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ error: "invalid_grant" });
  });

  it("shows an accessible error on the login page after a wrong password", async () => {
    const jar = new CookieJar();
    const query = authorizationQuery();
    const start = await server.request(`/auth/auth?${query}`);
    jar.store(start);
    const page = await server.request(start.headers.get("location") ?? "", { headers: jar.header() });
    const html = await page.text();
    expect(html).toContain('<label for="username">Username</label>');
    expect(html).toContain('<label for="password">Password</label>');
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? "";
    const wrong = await server.postForm(action, { username: "analyst", password: "nope" }, jar.header());
    expect(wrong.status).toBe(200);
    const again = await wrong.text();
    expect(again).toMatch(/<p class="error" id="login-error" role="alert">The username or password is incorrect/);
    expect(again).toContain('value="analyst"');
    expect(again).not.toContain("nope");
  });

  it("returns access_denied to the add-in when the user cancels", async () => {
    const jar = new CookieJar();
    const query = authorizationQuery({ state: "s1" });
    const start = await server.request(`/auth/auth?${query}`);
    jar.store(start);
    const interaction = start.headers.get("location") ?? "";
    const cancelled = await server.request(`${interaction}/abort`, { method: "POST", headers: { ...FORM, ...jar.header() }, body: "" });
    jar.store(cancelled);
    const resumed = await server.request(cancelled.headers.get("location") ?? "", { headers: jar.header() });
    const location = new URL(resumed.headers.get("location") ?? "");
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe("s1");
  });

  /** The logout page's form: where it posts and its hidden fields (those tied to it by `form=` too). */
  function logoutForm(html: string): { action: string; hidden: Record<string, string> } {
    const action = /<form[^>]* action="([^"]+)"/.exec(html)?.[1] ?? "";
    const hidden = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" (?:form="op\.logoutForm" )?name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    return { action, hidden };
  }

  /** Signs in and asks the end-session endpoint (a form POST, as the add-in does) with `params`. */
  async function endSession(params: (idToken: string) => Record<string, string>, username = "analyst") {
    const { location, verifier, jar } = await signIn({ username, password: username });
    const tokens = await json(await redeem(location.searchParams.get("code") ?? "", verifier));
    const page = await server.postForm("/auth/session/end", params(String(tokens.id_token)), jar.header());
    jar.store(page);
    return { page, html: await page.text(), jar };
  }

  it("asks before signing out when the request carries no id_token_hint, and returns to the add-in on Sign out", async () => {
    const { page, html, jar } = await endSession(() => ({ client_id: ADDIN_CLIENT_ID, post_logout_redirect_uri: REDIRECT_URI, state: "bye" }));
    expect(page.status).toBe(200);
    expect(html).toContain("Sign out of the Physical Prices sandbox?");
    expect(html).not.toContain("<script");
    const { action, hidden } = logoutForm(html);
    const confirmed = await server.postForm(action, { ...hidden, logout: "yes" }, jar.header());
    expect(confirmed.status).toBe(303);
    const back = new URL(confirmed.headers.get("location") ?? "");
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("state")).toBe("bye");
  });

  it("signs out without asking when the id_token_hint is the signed-in user's, and the next sign-in asks for credentials", async () => {
    const { page, html, jar } = await endSession((idToken) => ({ id_token_hint: idToken, post_logout_redirect_uri: REDIRECT_URI, state: "bye" }));
    expect(page.status).toBe(200);
    expect(html).not.toContain("Sign out of the Physical Prices sandbox?");
    expect(html).not.toContain("Stay signed in");
    // the page submits itself, and its script is the only one the policy lets run
    const script = /<script>([^<]*)<\/script>/.exec(html)?.[1] ?? "";
    expect(script).toContain("submit()");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(`script-src 'sha256-${createHash("sha256").update(script).digest("base64")}'`);
    const { action, hidden } = logoutForm(html);
    expect(hidden).toMatchObject({ logout: "yes" });
    const confirmed = await server.postForm(action, hidden, jar.header());
    jar.store(confirmed);
    expect(confirmed.status).toBe(303);
    const back = new URL(confirmed.headers.get("location") ?? "");
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("state")).toBe("bye");
    // the session is gone: an authorization request in this browser gets the login form, with no "Continue as"
    const start = await server.request(`/auth/auth?${authorizationQuery({ prompt: "login" })}`, { headers: jar.header() });
    jar.store(start);
    const login = await (await server.request(start.headers.get("location") ?? "", { headers: jar.header() })).text();
    expect(login).toContain('<label for="password">Password</label>');
    expect(login).not.toContain("Continue as");
  });

  it("still asks when the id_token_hint is another user's than the session's", async () => {
    const { location, verifier } = await signIn({ username: "trial", password: "trial" });
    const trialIdToken = String((await json(await redeem(location.searchParams.get("code") ?? "", verifier))).id_token);
    const { page, html } = await endSession(() => ({ id_token_hint: trialIdToken, post_logout_redirect_uri: REDIRECT_URI }));
    expect(page.status).toBe(200);
    expect(html).toContain("Sign out of the Physical Prices sandbox?");
  });

  it("refuses a post_logout_redirect_uri that is not registered exactly, even with a valid hint", async () => {
    for (const uri of [`${REDIRECT_URI}/x`, `${REDIRECT_URI}?a=1`, `${ADDIN_ORIGIN}/AUTH-DIALOG.html`, "https://evil.example/cb"]) {
      const { page, html } = await endSession((idToken) => ({ id_token_hint: idToken, post_logout_redirect_uri: uri }));
      expect({ uri, status: page.status }).toEqual({ uri, status: 400 });
      expect(html).toContain("post_logout_redirect_uri");
      expect(page.headers.get("location")).toBeNull();
    }
  });

  it("answers an expired or foreign sign-in page with an error page, not a form", async () => {
    const response = await server.request("/auth/interaction/not-a-real-uid");
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Sign-in expired");
  });
});

describe("CORS at the token endpoint", () => {
  it("answers the browser's preflight", async () => {
    const response = await server.request("/auth/token", {
      method: "OPTIONS",
      headers: { origin: ADDIN_ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(ADDIN_ORIGIN);
  });

  it("allows the extra corsOrigins and refuses other origins", async () => {
    const { location, verifier } = await signIn({ username: "analyst", password: "analyst" });
    const code = location.searchParams.get("code") ?? "";
    const form = { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT_URI, client_id: ADDIN_CLIENT_ID };
    const foreign = await server.postForm("/auth/token", form, { origin: "https://evil.example" });
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    const extra = await server.postForm("/auth/token", form, { origin: "https://addin.example.test" });
    expect(extra.status).toBe(200);
    expect(extra.headers.get("access-control-allow-origin")).toBe("https://addin.example.test");
  });
});
