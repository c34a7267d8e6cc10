/**
 * The dialog's side of signing out at the token service (OpenID Connect RP-initiated logout): find the issuer's
 * `end_session_endpoint`, send the window there with the add-in's client id, its exact redirect URI and a fresh
 * state, and when the token service sends the window back with that state, tell the pane. The token service asks
 * the user to confirm, ends its session and revokes the add-in's grant (its refresh tokens).
 */
import type { DialogConfig, DialogMessage } from "./dialog-protocol";

/** The state of a sign-out in progress, kept in the dialog's sessionStorage across the redirect. */
export const SIGN_OUT_STATE_KEY = "prices.dialog.signOutState";
const DISCOVERY_TIMEOUT_MS = 30_000;

export interface SignOutPage {
  /** `location.search` of the page as loaded. */
  search: string;
  /** The dialog page's own URL without query (registered as a post-logout redirect URI). */
  redirectUri: string;
  storage: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  fetch: typeof fetch;
  navigate(url: string): void;
  send(message: DialogMessage): void;
  status(text: string): void;
  /** A fresh unguessable state. */
  newState(): string;
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

/** First half: go to the token service's sign-out page. */
export async function startSignOut(page: SignOutPage, config: DialogConfig): Promise<void> {
  page.status("Opening the token service's sign-out page…");
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
  const url = new URL(endpoint);
  url.searchParams.set("client_id", config.clientId);
  url.searchParams.set("post_logout_redirect_uri", page.redirectUri);
  url.searchParams.set("state", state);
  page.navigate(url.href);
}
