/**
 * The in-memory token store shared by the pane and the functions (one page, the shared runtime).
 * It implements the client's TokenProvider, renews before expiry (refresh token for a user, the
 * key again for a service key) and reports "not signed in" when renewal fails. Nothing it holds is
 * ever written to storage, settings, logs or URLs.
 */
import { AuthError } from "../prices/errors";
import type { TokenProvider } from "../prices/types";
import { requestToken, type TokenRequestOptions, type TokenResponse } from "./token-response";

export type SignInMethod = "user" | "service-key";

export type AuthState =
  | { status: "signed-out"; reason?: string }
  | { status: "signed-in"; method: SignInMethod; account: string; expiresAt: number; renewable: boolean };

/** A timer the tests drive by hand. */
export interface Timer {
  set(callback: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

export const realTimer: Timer = {
  set: (callback, delayMs) => setTimeout(callback, Math.min(delayMs, 2_147_483_647)),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface TokenStoreOptions {
  /** Resolves the token endpoint (discovery); called when first needed. */
  tokenUrl: () => Promise<string>;
  clientId: string;
  scope: string;
  fetch?: typeof fetch;
  now?: () => number;
  timer?: Timer;
  /** Milliseconds a token request may take (default TOKEN_REQUEST_TIMEOUT_MS); a hung endpoint fails the renewal. */
  timeoutMs?: number;
}

export interface TokenStore extends TokenProvider {
  state(): AuthState;
  subscribe(listener: (state: AuthState) => void): () => void;
  /** Takes the tokens a user sign-in returned (from the dialog). */
  acceptUserTokens(tokens: TokenResponse, account: string): void;
  /** Signs in with the vendor's service name and key (`grant_type=servicekey`); the key stays in this closure only. */
  signInWithServiceKey(serviceName: string, serviceKey: string): Promise<void>;
  /** Renews now (tests, and the pane's "renew" on wake); resolves false and signs out when renewal fails. */
  renew(): Promise<boolean>;
  signOut(reason?: string): void;
}

interface Session {
  method: SignInMethod;
  account: string;
  accessToken: string;
  expiresAt: number;
  issuedAt: number;
  refreshToken?: string;
  serviceKey?: { name: string; key: string };
}

export const NOT_SIGNED_IN = "not signed in: sign in from the Prices pane";

/** Renew when this share of the lifetime is left, at least 10 s and at most 5 min before expiry. */
export function renewLead(lifetimeMs: number): number {
  return Math.min(300_000, Math.max(10_000, lifetimeMs * 0.2));
}

export function createTokenStore(options: TokenStoreOptions): TokenStore {
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  const now = options.now ?? Date.now;
  const timer = options.timer ?? realTimer;
  const listeners = new Set<(state: AuthState) => void>();
  let session: Session | undefined;
  let lastReason: string | undefined;
  let renewal: Promise<boolean> | undefined;
  let timerHandle: unknown;
  let generation = 0;
  const requestOptions: TokenRequestOptions = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };

  const state = (): AuthState =>
    session
      ? {
          status: "signed-in",
          method: session.method,
          account: session.account,
          expiresAt: session.expiresAt,
          renewable: session.refreshToken !== undefined || session.serviceKey !== undefined,
        }
      : { status: "signed-out", ...(lastReason !== undefined ? { reason: lastReason } : {}) };

  const emit = (): void => {
    const current = state();
    for (const listener of listeners) listener(current);
  };

  const cancelTimer = (): void => {
    if (timerHandle !== undefined) timer.clear(timerHandle);
    timerHandle = undefined;
  };

  const schedule = (): void => {
    cancelTimer();
    if (!session) return;
    const lifetime = session.expiresAt - session.issuedAt;
    const renewable = session.refreshToken !== undefined || session.serviceKey !== undefined;
    const at = renewable ? session.expiresAt - renewLead(lifetime) : session.expiresAt;
    timerHandle = timer.set(() => {
      timerHandle = undefined;
      if (renewable) void renew();
      else signOut("the session expired");
    }, Math.max(0, at - now()));
  };

  const install = (next: Session): void => {
    generation++;
    session = next;
    lastReason = undefined;
    schedule();
    emit();
  };

  const fromResponse = (response: TokenResponse, base: Omit<Session, "accessToken" | "expiresAt" | "issuedAt">): Session => {
    const issuedAt = now();
    return {
      ...base,
      accessToken: response.accessToken,
      issuedAt,
      expiresAt: issuedAt + response.expiresIn * 1000,
      ...(response.refreshToken !== undefined ? { refreshToken: response.refreshToken } : {}),
    };
  };

  const signOut = (reason?: string): void => {
    generation++;
    cancelTimer();
    if (session) {
      // overwrite before dropping so no reference keeps the secrets alive in this object
      session.accessToken = "";
      delete session.refreshToken;
      if (session.serviceKey) session.serviceKey = { name: "", key: "" };
    }
    session = undefined;
    renewal = undefined;
    lastReason = reason;
    emit();
  };

  const doRenew = async (): Promise<boolean> => {
    const current = session;
    if (!current) return false;
    const started = generation;
    try {
      const tokenUrl = await options.tokenUrl();
      let response: TokenResponse;
      if (current.serviceKey) {
        response = await requestToken(fetchFn, tokenUrl, {
          grant_type: "servicekey",
          serviceName: current.serviceKey.name,
          serviceKey: current.serviceKey.key,
        }, requestOptions);
      } else if (current.refreshToken) {
        response = await requestToken(fetchFn, tokenUrl, {
          grant_type: "refresh_token",
          refresh_token: current.refreshToken,
          client_id: options.clientId,
        }, requestOptions);
      } else {
        throw new Error("the session expired and cannot be renewed");
      }
      if (generation !== started) return session !== undefined;
      install(
        fromResponse(
          // a server that does not rotate refresh tokens keeps the old one valid
          current.refreshToken !== undefined && response.refreshToken === undefined ? { ...response, refreshToken: current.refreshToken } : response,
          { method: current.method, account: current.account, ...(current.serviceKey ? { serviceKey: current.serviceKey } : {}) },
        ),
      );
      return true;
    } catch (error) {
      if (generation === started) signOut(`renewal failed: ${error instanceof Error ? error.message : "unknown error"}`);
      return false;
    }
  };

  const renew = (): Promise<boolean> => {
    renewal ??= doRenew().finally(() => {
      renewal = undefined;
    });
    return renewal;
  };

  return {
    state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    acceptUserTokens(tokens, account) {
      install(fromResponse(tokens, { method: "user", account }));
    },
    async signInWithServiceKey(serviceName, serviceKey) {
      const name = serviceName.trim();
      if (name === "" || serviceKey === "") throw new AuthError({ reason: "not-signed-in", message: "service name and key are both required" });
      const response = await requestToken(fetchFn, await options.tokenUrl(), { grant_type: "servicekey", serviceName: name, serviceKey }, requestOptions);
      install(fromResponse({ accessToken: response.accessToken, expiresIn: response.expiresIn }, { method: "service-key", account: name, serviceKey: { name, key: serviceKey } }));
    },
    renew,
    signOut,
    async getToken(request) {
      if (!session) throw new AuthError({ reason: "not-signed-in", message: NOT_SIGNED_IN });
      const expired = now() >= session.expiresAt - 5_000;
      if (request?.forceRefresh || expired) {
        const ok = await renew();
        if (!ok || !session) throw new AuthError({ reason: "not-signed-in", message: NOT_SIGNED_IN });
      }
      return session.accessToken;
    },
  };
}
