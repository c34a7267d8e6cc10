/**
 * The sign-in dialog page (auth-dialog.html): runs MSAL's redirect flow (authorization code + PKCE,
 * OIDC mode) against the configured authority, then hands the tokens to the pane with
 * `Office.context.ui.messageParent` (or `postMessage` to the opener outside Office). MSAL is loaded
 * with a dynamic import, so it sits in its own chunk and only this page ever downloads it.
 */
import { createCapturingNetworkClient } from "./capture-network";
import { readDialogConfig, type DialogConfig, type DialogMessage } from "./dialog-protocol";

/** Public configuration kept across the redirect (the redirect URI carries no query); never a secret. */
const CONFIG_KEY = "prices.dialog.config";

function rememberedConfig(): DialogConfig | undefined {
  const fromUrl = readDialogConfig(window.location.search);
  if (fromUrl) {
    window.sessionStorage.setItem(CONFIG_KEY, JSON.stringify(fromUrl));
    return fromUrl;
  }
  const saved = window.sessionStorage.getItem(CONFIG_KEY);
  if (!saved) return undefined;
  const params = new URLSearchParams(JSON.parse(saved) as Record<string, string>);
  return readDialogConfig(`?${params.toString()}`);
}

function status(text: string): void {
  const element = document.getElementById("status");
  if (element) element.textContent = text;
}

function officeMessageParent(): ((message: string) => void) | undefined {
  const office = (globalThis as { Office?: typeof Office }).Office;
  const ui = office?.context?.ui as { messageParent?: (message: string) => void } | undefined;
  return typeof ui?.messageParent === "function" ? (message) => ui.messageParent?.(message) : undefined;
}

/** Sends the result to the pane: Office dialog channel inside Office, the opener window (same origin only) outside. */
function send(message: DialogMessage): void {
  window.sessionStorage.removeItem(CONFIG_KEY);
  const text = JSON.stringify(message);
  const parent = officeMessageParent();
  if (parent) parent(text);
  else if (window.opener) (window.opener as Window).postMessage(text, window.location.origin);
  status(message.type === "signed-in" ? "Signed in. You can close this window." : `Sign-in failed: ${message.message}`);
}

function errorCode(error: unknown): string {
  const code = (error as { errorCode?: unknown } | undefined)?.errorCode;
  return typeof code === "string" ? code : error instanceof Error ? error.name : "unknown";
}

async function officeReady(): Promise<void> {
  const office = (globalThis as { Office?: typeof Office }).Office;
  if (!office?.onReady) return;
  await Promise.race([office.onReady(), new Promise((resolve) => setTimeout(resolve, 3000))]);
}

export async function runDialog(): Promise<void> {
  await officeReady();
  const config = rememberedConfig();
  if (!config) {
    send({ type: "error", code: "bad_config", message: "the sign-in window was opened without its settings" });
    return;
  }
  const callback = new URLSearchParams(window.location.search);
  if (callback.has("error")) {
    send({ type: "error", code: callback.get("error") ?? "error", message: callback.get("error_description") ?? "the token service refused the sign-in" });
    return;
  }
  status("Loading sign-in…");
  const msal = await import(/* webpackChunkName: "msal" */ "@azure/msal-browser");
  const network = createCapturingNetworkClient();
  const redirectUri = new URL("auth-dialog.html", window.location.href).href.split("?")[0] ?? "";
  // Coming back with the authorization response, tokens stay in this page's memory only. Starting,
  // MSAL refuses a redirect with memory storage; nothing but the request state exists yet then.
  const returning = /[?#&](code|error|state)=/.test(`${window.location.search}${window.location.hash}`);
  const pca = new msal.PublicClientApplication({
    auth: {
      clientId: config.clientId,
      authority: config.authority,
      knownAuthorities: [new URL(config.authority).host],
      redirectUri,
      postLogoutRedirectUri: null,
    },
    cache: { cacheLocation: returning ? msal.BrowserCacheLocation.MemoryStorage : msal.BrowserCacheLocation.SessionStorage },
    system: { protocolMode: msal.ProtocolMode.OIDC, networkClient: network },
  });
  try {
    await pca.initialize();
    const result = await pca.handleRedirectPromise({ navigateToLoginRequestUrl: false });
    if (result) {
      const expiresOn = result.expiresOn?.getTime() ?? Date.now() + 3_600_000;
      const refreshToken = network.takeRefreshToken();
      const claims = (result.idTokenClaims ?? {}) as Record<string, unknown>;
      const account = [claims["preferred_username"], claims["name"], result.account?.username, claims["sub"]].find(
        (v): v is string => typeof v === "string" && v !== "",
      );
      send({
        type: "signed-in",
        account: account ?? "user",
        tokens: {
          accessToken: result.accessToken,
          expiresIn: Math.max(1, Math.round((expiresOn - Date.now()) / 1000)),
          ...(refreshToken ? { refreshToken } : {}),
        },
      });
      await pca.clearCache().catch(() => undefined);
      return;
    }
    status("Opening the sign-in page…");
    await pca.loginRedirect({
      scopes: [config.scope, "offline_access"],
      // oidc-provider issues a refresh token for offline_access only with an explicit consent prompt
      prompt: "consent",
    });
  } catch (error) {
    send({ type: "error", code: errorCode(error), message: `sign-in failed (${errorCode(error)})` });
  }
}

void runDialog();
