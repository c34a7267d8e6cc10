/**
 * The in-memory token store shared by the pane and the functions (one page, the shared runtime).
 * The client's TokenProvider for a signed-in user or a service key: a token session
 * (prices/token-session.ts) whose grant is the refresh token or the key. A transient renewal failure
 * keeps the user signed in ("renewal failing, retrying"); the store signs out on `invalid_grant` or
 * another 4xx from the token service, or once a user's token expired without a renewal. Nothing it
 * holds is ever written to storage, settings, logs or URLs.
 */
import { AuthError } from "../prices/errors";
import { DEFAULT_TOKEN_REQUEST_TIMEOUT_MS, requestToken, type TokenGrant } from "../prices/token-request";
import { DEFAULT_REFRESH_KEEP_ALIVE_MS, type RefreshCredentials, abandonRefresh, refreshGrant } from "./refresh-grant";
import { type RenewalFailure, type Timer, type TokenPolicy, type TokenSession, createTokenSession, realTimer } from "../prices/token-session";
import type { TokenProvider } from "../prices/types";
import type { TokenResponse } from "./token-response";

export { renewLead, realTimer, type Timer } from "../prices/token-session";

export type SignInMethod = "user" | "service-key";

export type AuthState =
  | { status: "signed-out"; reason?: string }
  | {
      status: "signed-in";
      method: SignInMethod;
      account: string;
      expiresAt: number;
      renewable: boolean;
      /** Set while renewal fails for a transient reason: the session is kept and renewal retried. */
      renewal?: RenewalFailure;
    };

export interface TokenStoreOptions {
  /** Resolves the token endpoint (discovery); called when first needed. */
  tokenUrl: () => Promise<string>;
  clientId: string;
  scope: string;
  fetch?: typeof fetch;
  now?: () => number;
  timer?: Timer;
  /** Milliseconds a token request may take (default 10 s); a hung endpoint fails the renewal (and it is retried). */
  timeoutMs?: number;
  /**
   * Milliseconds a refresh-token request is kept alive past `timeoutMs` (default 120 s): the token service may
   * have rotated the refresh token already, so a retry joins it rather than sending the old one (invalid_grant).
   */
  refreshKeepAliveMs?: number;
  /** Renewal and retry settings; users' sessions end once their token expired without a renewal. */
  policy?: Partial<TokenPolicy>;
  random?: () => number;
}

export interface TokenStore extends TokenProvider {
  state(): AuthState;
  subscribe(listener: (state: AuthState) => void): () => void;
  /** Takes the tokens a user sign-in returned (from the dialog). */
  acceptUserTokens(tokens: TokenResponse, account: string): void;
  /** Signs in with the vendor's service name and key (`grant_type=servicekey`); the key stays in this closure only. */
  signInWithServiceKey(serviceName: string, serviceKey: string): Promise<void>;
  /** Renews now (tests, and the pane's "renew" on wake); false when it failed (signed out only if the failure ends the session). */
  renew(): Promise<boolean>;
  /**
   * Ends the session here. Returns the ID token of the user session it ended (the `id_token_hint` that lets the
   * token service end its own session without asking), once; undefined for a service key or no session.
   */
  signOut(reason?: string): string | undefined;
  /** Token requests sent by the current session. */
  readonly tokenRequests: number;
}

/** What renews a session: a user's refresh token (rotated as the server rotates it) or a service key. */
type Credentials =
  | ({ kind: "refresh"; idToken: string | undefined } & RefreshCredentials)
  | { kind: "service-key"; name: string; key: string };

interface Signed {
  method: SignInMethod;
  account: string;
  credentials: Credentials;
  session: TokenSession;
}

export const NOT_SIGNED_IN = "not signed in: sign in from the Prices pane";

export function createTokenStore(options: TokenStoreOptions): TokenStore {
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  const now = options.now ?? Date.now;
  const timer = options.timer ?? realTimer;
  const listeners = new Set<(state: AuthState) => void>();
  let signed: Signed | undefined;
  let lastReason: string | undefined;

  const state = (): AuthState => {
    if (!signed) return { status: "signed-out", ...(lastReason !== undefined ? { reason: lastReason } : {}) };
    const session = signed.session.state();
    if (session.status !== "active") return { status: "signed-out", ...(lastReason !== undefined ? { reason: lastReason } : {}) };
    return {
      status: "signed-in",
      method: signed.method,
      account: signed.account,
      expiresAt: session.expiresAt,
      renewable: renewable(signed.credentials),
      ...(session.failing ? { renewal: session.failing } : {}),
    };
  };

  const emit = (): void => {
    const current = state();
    for (const listener of listeners) listener(current);
  };

  const timeoutMs = options.timeoutMs ?? DEFAULT_TOKEN_REQUEST_TIMEOUT_MS;

  const grant = async (credentials: Credentials, late: (granted: TokenGrant) => void = () => undefined): Promise<TokenGrant> => {
    const url = await options.tokenUrl();
    if (credentials.kind === "refresh") return refreshGrant({ fetch: fetchFn, url, clientId: options.clientId, now, timeoutMs, keepAliveMs: options.refreshKeepAliveMs ?? DEFAULT_REFRESH_KEEP_ALIVE_MS }, credentials, late);
    const form = new URLSearchParams({ grant_type: "servicekey", serviceName: credentials.name, serviceKey: credentials.key });
    return requestToken({ fetch: fetchFn, url, form, now, timeoutMs });
  };

  const start = (method: SignInMethod, account: string, credentials: Credentials, first: TokenGrant): void => {
    const previous = signed;
    signed = undefined;
    if (previous?.credentials.kind === "refresh") abandonRefresh(previous.credentials);
    previous?.session.end("replaced by a new sign-in");
    const current: Signed = {
      method,
      account,
      credentials,
      session: createTokenSession({
        // An answer kept alive past the attempt that asked (refresh-grant.ts) renews this session if it is still the one signed in.
        grant: () => grant(credentials, (granted) => {
          if (signed === current) current.session.install(granted);
        }),
        renewable: renewable(credentials),
        // A user's refresh token may lapse while renewal fails: past expiry the user signs in again.
        policy: { endOnExpiry: method === "user", ...options.policy },
        now,
        timer,
        ...(options.random ? { random: options.random } : {}),
        endedError: (reason, cause) => new AuthError({ reason: "not-signed-in", message: NOT_SIGNED_IN, cause: cause ?? reason }),
        onChange: () => {
          if (signed !== current) return;
          const session = current.session.state();
          if (session.status === "ended") finish(`renewal failed: ${session.reason}`);
          else emit();
        },
      }),
    };
    signed = current;
    lastReason = undefined;
    current.session.install(first);
  };

  /** Drops the session and its secrets; returns a user session's ID token, for the sign-out at the token service. */
  const finish = (reason: string | undefined): string | undefined => {
    const current = signed;
    if (!current) return undefined;
    signed = undefined;
    let idToken: string | undefined;
    if (current.credentials.kind === "refresh") {
      idToken = current.credentials.idToken;
      abandonRefresh(current.credentials);
      current.credentials.refreshToken = undefined;
      current.credentials.idToken = undefined;
    } else current.credentials.key = "";
    if (current.session.state().status !== "ended") current.session.end(reason ?? "signed out");
    lastReason = reason;
    emit();
    return idToken;
  };

  return {
    state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    acceptUserTokens(tokens, account) {
      start("user", account, { kind: "refresh", refreshToken: tokens.refreshToken, idToken: tokens.idToken }, { accessToken: tokens.accessToken, lifetimeMs: tokens.expiresIn * 1000 });
    },
    async signInWithServiceKey(serviceName, serviceKey) {
      const name = serviceName.trim();
      if (name === "" || serviceKey === "") throw new AuthError({ reason: "not-signed-in", message: "service name and key are both required" });
      const credentials: Credentials = { kind: "service-key", name, key: serviceKey };
      const first = await grant(credentials);
      start("service-key", name, credentials, first);
    },
    renew() {
      return signed ? signed.session.renew() : Promise.resolve(false);
    },
    signOut(reason) {
      return finish(reason);
    },
    getToken(request) {
      const asked = signed;
      if (!asked) return Promise.reject(new AuthError({ reason: "not-signed-in", message: NOT_SIGNED_IN }));
      // A caller still waiting when the user signs in again wanted a token, not that session: the new one answers it.
      return asked.session.getToken(request).catch((error: unknown) => {
        if (signed !== undefined && signed !== asked) return signed.session.getToken();
        throw error;
      });
    },
    get tokenRequests() {
      return signed?.session.requests ?? 0;
    },
  };
}

function renewable(credentials: Credentials): boolean {
  return credentials.kind === "service-key" || credentials.refreshToken !== undefined;
}
