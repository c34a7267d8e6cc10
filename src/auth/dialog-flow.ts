/**
 * The sign-in dialog's steps, apart from the page's globals so they run in tests: read the public settings,
 * load MSAL (its own chunk), run the redirect flow, and always answer the pane with exactly one message, errors
 * included (a chunk that fails to load, MSAL refusing its configuration), so the pane never waits for the user
 * to close the window.
 */
import type { CapturingNetworkClient } from "./capture-network";
import type { DialogConfig, DialogMessage } from "./dialog-protocol";
import { msalErrorCode, signedInTokens, type MsalModule } from "./msal-result";

export type { MsalModule } from "./msal-result";

export interface DialogPage {
  /** The public settings from the URL, or kept across the redirect; undefined when missing. */
  config(): DialogConfig | undefined;
  /** `location.search` and `location.hash` of the page as loaded. */
  search: string;
  hash: string;
  /** The dialog page's own URL without query (the redirect URI). */
  redirectUri: string;
  /** Hands the one answer to the pane. */
  send(message: DialogMessage): void;
  status(text: string): void;
  loadMsal(): Promise<MsalModule>;
  networkClient(): CapturingNetworkClient;
  now?: () => number;
}

export async function runDialogFlow(page: DialogPage): Promise<void> {
  const now = page.now ?? Date.now;
  let config: DialogConfig | undefined;
  try {
    config = page.config();
  } catch {
    config = undefined; // unreadable saved settings: same answer as none
  }
  if (!config) {
    page.send({ type: "error", code: "bad_config", message: "the sign-in window was opened without its settings" });
    return;
  }
  const callback = new URLSearchParams(page.search);
  if (callback.has("error")) {
    page.send({ type: "error", code: callback.get("error") ?? "error", message: callback.get("error_description") ?? "the token service refused the sign-in" });
    return;
  }
  let stage = "load";
  try {
    page.status("Loading sign-in…");
    const msal = await page.loadMsal();
    stage = "start";
    const network = page.networkClient();
    // Coming back with the authorization response, tokens stay in this page's memory only. Starting,
    // MSAL refuses a redirect with memory storage; nothing but the request state exists yet then.
    const returning = /[?#&](code|error|state)=/.test(`${page.search}${page.hash}`);
    const pca = new msal.PublicClientApplication({
      auth: {
        clientId: config.clientId,
        authority: config.authority,
        knownAuthorities: [new URL(config.authority).host],
        redirectUri: page.redirectUri,
        postLogoutRedirectUri: null,
      },
      cache: { cacheLocation: returning ? msal.BrowserCacheLocation.MemoryStorage : msal.BrowserCacheLocation.SessionStorage },
      system: { protocolMode: msal.ProtocolMode.OIDC, networkClient: network },
    });
    stage = "sign-in";
    await pca.initialize();
    const result = await pca.handleRedirectPromise({ navigateToLoginRequestUrl: false });
    if (result) {
      page.send({ type: "signed-in", ...signedInTokens(result, network, now) });
      await pca.clearCache().catch(() => undefined);
      return;
    }
    page.status("Opening the sign-in page…");
    await pca.loginRedirect({
      scopes: [config.scope, "offline_access"],
      // always ask: the token service offers "continue as" its signed-in account or another one (switching accounts)
      prompt: "login",
    });
  } catch (error) {
    const code = msalErrorCode(error);
    const message =
      stage === "load"
        ? `the sign-in code could not load (${code}); check the connection and try again`
        : stage === "start"
          ? `sign-in could not start (${code})`
          : `sign-in failed (${code})`;
    page.send({ type: "error", code, message });
  }
}
