/**
 * auth-silent.html, where the token service sends the silent sign-in's hidden iframe back: MSAL's redirect bridge
 * hands the answer (a code or `login_required`) to the pane that started it, over a same-origin BroadcastChannel.
 */
import { broadcastResponseToMainFrame } from "@azure/msal-browser/redirect-bridge";

// an answer MSAL cannot read leaves the pane's attempt to end by its timeout, quietly
broadcastResponseToMainFrame().catch(() => undefined);
