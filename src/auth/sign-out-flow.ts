/**
 * The dialog's side of signing out at the token service (OpenID Connect RP-initiated logout): get the ended
 * session's ID token from the pane by message, find the issuer's `end_session_endpoint`, send the window there by a
 * form POST with the add-in's client id, its exact redirect URI, a fresh state and the ID token as `id_token_hint`,
 * and when the token service sends the window back with that state, tell the pane. With the hint the token service
 * ends its session without asking (without one it asks), and revokes the add-in's grant (its refresh tokens).
 */
import { parseSignOutHint, readHintByMessage, type DialogConfig, type DialogMessage } from "./dialog-protocol";

/** The state of a sign-out in progress, kept in the dialog's sessionStorage across the redirect. */
export const SIGN_OUT_STATE_KEY = "prices.dialog.signOutState";
const DISCOVERY_TIMEOUT_MS = 30_000;
/** How long the window waits for the pane's hint before it signs out without one (the token service then asks). */
const HINT_TIMEOUT_MS = 30_000;

export interface SignOutPage {
  /** `location.search` of the page as loaded. */
  search: string;
  /** The dialog page's own URL without query (registered as a post-logout redirect URI). */
  redirectUri: string;
  storage: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  fetch: typeof fetch;
  /** Sends the window to `url` by a form POST of `fields`: none of them ends up in a URL, the history or a log. */
  post(url: string, fields: Record<string, string>): void;
  send(message: DialogMessage): void;
  status(text: string): void;
  /** A fresh unguessable state. */
  newState(): string;
  /** Calls `handler` with each message from the pane (its own origin only); resolves, once listening, to the way to stop. */
  onParentMessage(handler: (text: string) => void): Promise<() => void>;
  /** Milliseconds to wait for the pane's hint; default 10 s. */
  hintTimeoutMs?: number;
}

/** True when the page is the token service sending the window back after a sign-out this dialog started. */
export function isSignOutReturn(page: Pick<SignOutPage, "search" | "storage">): boolean {
  const expected = page.storage.getItem(SIGN_OUT_STATE_KEY);
  return expected !== null && new URLSearchParams(page.search).has("state");
}

/** Second half: the window is back; the state must be the one sent. */
export function finishSignOut(page: SignOutPage): void {
  const expected = page.storage.getItem(SIGN_OUT_STATE_KEY);
  page.storage.removeItem(SIGN_OUT_STATE_KEY);
  const state = new URLSearchParams(page.search).get("state");
  if (expected !== null && state === expected) page.send({ type: "signed-out" });
  else page.send({ type: "error", code: "bad_state", message: "the token service answered a sign-out this window did not start" });
}

async function endSessionEndpoint(fetchFn: typeof fetch, authority: string): Promise<string | undefined> {
  const response = await fetchFn(`${authority.replace(/\/+$/, "")}/.well-known/openid-configuration`, { credentials: "omit", signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
  if (!response.ok) return undefined;
  const doc: unknown = await response.json().catch(() => undefined);
  const endpoint = typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>)["end_session_endpoint"] : undefined;
  return typeof endpoint === "string" && endpoint.startsWith("https://") ? endpoint : undefined;
}

/**
 * Asks the pane for the ID token (`ready`, answered by a SignOutHint message) when the URL says the pane can answer;
 * resolves undefined without it, or once the wait is over (the sign-out then goes on without a hint).
 */
export async function receiveHint(page: Pick<SignOutPage, "search" | "send" | "onParentMessage" | "hintTimeoutMs">): Promise<string | undefined> {
  if (!readHintByMessage(page.search)) return undefined;
  let received: (idToken: string | undefined) => void = () => undefined;
  const answer = new Promise<string | undefined>((resolve) => (received = resolve));
  const stop = await page.onParentMessage((text) => {
    const hint = parseSignOutHint(text);
    if (hint) received(hint.idToken);
  });
  // only now: the pane answers at once, and Office drops a message that comes before the handler is registered
  const timer = setTimeout(() => { received(undefined); }, page.hintTimeoutMs ?? HINT_TIMEOUT_MS);
  page.send({ type: "ready" });
  const idToken = await answer;
  clearTimeout(timer);
  stop();
  return idToken;
}

/** First half: go to the token service's sign-out, with `idTokenHint` when the pane gave one. */
export async function startSignOut(page: SignOutPage, config: DialogConfig, idTokenHint?: string): Promise<void> {
  page.status("Signing out at the token service…");
  let endpoint: string | undefined;
  try {
    endpoint = await endSessionEndpoint(page.fetch, config.authority);
  } catch (error) {
    page.send({ type: "error", code: "unreachable", message: `the token service could not be reached (${error instanceof Error ? error.name : "error"})` });
    return;
  }
  if (!endpoint) {
    page.send({ type: "error", code: "no_end_session", message: "the token service offers no sign-out page (no end_session_endpoint)" });
    return;
  }
  const state = page.newState();
  page.storage.setItem(SIGN_OUT_STATE_KEY, state);
  page.post(endpoint, {
    client_id: config.clientId,
    post_logout_redirect_uri: page.redirectUri,
    state,
    ...(idTokenHint !== undefined ? { id_token_hint: idTokenHint } : {}),
  });
}

/** The whole first half: the hint from the pane, then the token service. */
export async function runSignOut(page: SignOutPage, config: DialogConfig): Promise<void> {
  page.status("Signing out…");
  const idTokenHint = await receiveHint(page);
  await startSignOut(page, config, idTokenHint);
}
