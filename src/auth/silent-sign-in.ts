/**
 * Signing in again without a click, from the token service's own session (OpenID Connect `prompt=none`, MSAL's
 * `ssoSilent`): a hidden iframe asks the authorization endpoint; while the token service's session cookie lives it
 * answers with a code at once (exchanged here, PKCE), otherwise with `login_required`. The answer comes back through
 * auth-silent.html (MSAL's redirect bridge). MSAL's cache is in memory and cleared after: tokens reach only the store.
 */
import { withTimeout } from "../prices/timeout";
import { createCapturingNetworkClient, type CapturingNetworkClient } from "./capture-network";
import type { DialogConfig } from "./dialog-protocol";
import { msalErrorCode, signedInTokens, type MsalModule, type SignedInTokens } from "./msal-result";

/** The page the token service sends the hidden iframe back to: it only hands the answer over (a registered redirect URI). */
export const SILENT_PAGE = "auth-silent.html";

/** How long the iframe may take before the attempt counts as failed (MSAL's own bound on the bridge). */
export const SILENT_TIMEOUT_MS = 10_000;
/** The whole attempt: discovery, the iframe and the code exchange (MSAL's own requests have no timeout of their own). */
const ATTEMPT_BOUND_FACTOR = 3;

export type SilentOutcome = ({ status: "signed-in" } & SignedInTokens) | { status: "no-session"; code: string };

export interface SilentSignInOptions {
  config: DialogConfig;
  /** Folder URL of the pane's pages; the silent page sits beside the pane. */
  pageBase: string;
  loadMsal(): Promise<MsalModule>;
  networkClient?: () => CapturingNetworkClient;
  timeoutMs?: number;
  now?: () => number;
}

/** Resolves, never rejects: signed in, or why not (`login_required` when the token service has no session for this browser). */
export async function silentSignIn(options: SilentSignInOptions): Promise<SilentOutcome> {
  const now = options.now ?? Date.now;
  const iframeMs = options.timeoutMs ?? SILENT_TIMEOUT_MS;
  try {
    const signed = await withTimeout(iframeMs * ATTEMPT_BOUND_FACTOR, () => attempt(options, iframeMs, now), () => Object.assign(new Error("the token service did not answer"), { name: "timed_out" }));
    return { status: "signed-in", ...signed };
  } catch (error) {
    return { status: "no-session", code: msalErrorCode(error) };
  }
}

async function attempt(options: SilentSignInOptions, iframeMs: number, now: () => number): Promise<SignedInTokens> {
  const msal = await options.loadMsal();
  const network = (options.networkClient ?? createCapturingNetworkClient)();
  const pca = new msal.PublicClientApplication({
    auth: {
      clientId: options.config.clientId,
      authority: options.config.authority,
      knownAuthorities: [new URL(options.config.authority).host],
      redirectUri: new URL(SILENT_PAGE, options.pageBase).href,
      postLogoutRedirectUri: null,
    },
    cache: { cacheLocation: msal.BrowserCacheLocation.MemoryStorage },
    system: { protocolMode: msal.ProtocolMode.OIDC, networkClient: network, iframeBridgeTimeout: iframeMs },
  });
  await pca.initialize();
  const result = await pca.ssoSilent({ scopes: [options.config.scope, "offline_access"], prompt: "none" });
  const signed = signedInTokens(result, network, now);
  await pca.clearCache().catch(() => undefined);
  return signed;
}
