/**
 * The header: Sign in (Office dialog), Sign out (here at once, then at the token service in the dialog), the
 * service-key form, the account line, the trust prompt for a new API host, and the silent sign-in on load (a
 * reload keeps the user while the token service's session lives).
 */
import { apiHostLabel, confirmBaseUrl } from "../../auth/settings";
import { signInWithDialog, signOutWithDialog } from "../../auth/sign-in";
import type { AuthState } from "../../auth/token-store";
import { authStatusText } from "../auth-status";
import { byId } from "../dom";
import type { PaneContext } from "../pane-context";
import { rememberSignedOut, signInSilently } from "./account-silent";

export { SIGNED_OUT_KEY } from "./account-silent";

export function accountPanel(context: PaneContext): void {
  let lookingForSession = false;

  function renderAuth(state: AuthState): void {
    const signedIn = state.status === "signed-in";
    byId("sign-in").hidden = signedIn;
    byId("sign-out").hidden = !signedIn;
    byId("signin-extra").hidden = signedIn;
    const api = `API ${apiHostLabel(context.settings().environment)}`;
    const status = byId("auth-status");
    status.textContent = authStatusText(state, api, Date.now(), context.deps.signedOutEffect, lookingForSession && !signedIn);
    status.classList.toggle("warning", signedIn && state.renewal !== undefined);
  }

  let trustQuestion: Promise<boolean> | undefined;
  /**
   * Asks in the pane before a token may go to a base URL other than the one last confirmed (settings come from
   * per-user storage, but a changed or tampered base URL must still be seen and accepted by the user).
   */
  function askToTrust(): Promise<boolean> {
    const baseUrl = context.settings().environment.baseUrl;
    if (baseUrl === context.session.trusted()) return Promise.resolve(true);
    trustQuestion ??= new Promise<boolean>((resolve) => {
      const box = byId("confirm-api");
      const yes = byId("confirm-api-yes", HTMLButtonElement);
      const no = byId("confirm-api-no", HTMLButtonElement);
      byId("confirm-api-host").textContent = new URL(baseUrl).host;
      byId("confirm-api-url").textContent = baseUrl;
      box.hidden = false;
      yes.focus();
      const answer = (ok: boolean): void => {
        yes.removeEventListener("click", onYes);
        no.removeEventListener("click", onNo);
        box.hidden = true;
        trustQuestion = undefined;
        if (!ok) {
          resolve(false);
          return;
        }
        confirmBaseUrl(context.deps.settingsStorage, baseUrl)
          .then((confirmed) => {
            context.session.setTrusted(confirmed);
            resolve(true);
          })
          .catch((error: unknown) => {
            context.recordError("settings", error);
            resolve(false);
          });
      };
      const onYes = (): void => { answer(true); };
      const onNo = (): void => { answer(false); };
      yes.addEventListener("click", onYes);
      no.addEventListener("click", onNo);
    });
    return trustQuestion;
  }

  const notTrusted = (): string => `Sign-in cancelled: ${new URL(context.settings().environment.baseUrl).host} was not confirmed, so no token was requested for it.`;

  byId("sign-in").addEventListener("click", () => {
    const button = byId("sign-in", HTMLButtonElement);
    button.disabled = true;
    askToTrust()
      .then(async (ok) => {
        if (!ok) {
          byId("auth-status").textContent = notTrusted();
          return;
        }
        byId("auth-status").textContent = "Signing in… complete the sign-in in the window that opened.";
        const { authority, clientId, scope } = context.settings().environment;
        const account = await signInWithDialog(context.deps.dialogHost, context.store(), context.deps.pageBase, { authority, clientId, scope });
        context.announce(`Signed in as ${account}`);
        rememberSignedOut(context, false);
      })
      .catch((error: unknown) => {
        // Signed in meanwhile another way (the silent sign-in on load, while this window was open): closing the window is no failure.
        const state = context.store().state();
        if (state.status === "signed-in") {
          renderAuth(state);
          return;
        }
        byId("auth-status").textContent = `Sign-in did not complete: ${context.recordError("sign-in", error)}`;
      })
      .finally(() => {
        button.disabled = false;
      });
  });

  byId("sign-out").addEventListener("click", () => {
    const before = context.store().state();
    // the ended session's ID token, in memory only: the token service's sign-out needs no confirmation with it
    const idTokenHint = context.store().signOut();
    context.announce("Signed out");
    rememberSignedOut(context, true);
    const signIn = byId("sign-in", HTMLButtonElement);
    signIn.focus();
    // a service key has no session at the token service; a user's ends there too, so the next sign-in asks again
    if (before.status !== "signed-in" || before.method !== "user") return;
    const status = byId("auth-status");
    const api = `API ${apiHostLabel(context.settings().environment)}`;
    status.textContent = `Signed out of the add-in. Ending the session at the token service in the window that opened${idTokenHint === undefined ? " (confirm there)" : ""}. ${api}.`;
    signIn.disabled = true;
    const { authority, clientId, scope } = context.settings().environment;
    signOutWithDialog(context.deps.dialogHost, context.deps.pageBase, { authority, clientId, scope }, idTokenHint)
      .then(() => {
        status.textContent = `Signed out of the add-in and of the token service. Sign in asks for an account. ${api}.`;
        context.announce("Signed out of the token service");
      })
      .catch((error: unknown) => {
        status.textContent = `Signed out of the add-in; the token service's session was not ended (${context.recordError("sign-out", error)}) Sign in still asks which account to use. ${api}.`;
      })
      .finally(() => {
        signIn.disabled = false;
      });
  });

  byId("sk-form", HTMLFormElement).addEventListener("submit", (event) => {
    event.preventDefault();
    const name = byId("sk-name", HTMLInputElement);
    const key = byId("sk-key", HTMLInputElement);
    const serviceKey = key.value;
    key.value = ""; // the key lives in the token store's closure only, not in the page
    askToTrust()
      .then((ok) => {
        if (!ok) {
          byId("auth-status").textContent = notTrusted();
          return;
        }
        return context.store().signInWithServiceKey(name.value, serviceKey);
      })
      .catch((error: unknown) => {
        byId("auth-status").textContent = `Service key sign-in failed: ${context.recordError("service key", error)}`;
      });
  });

  context.events.on("auth", renderAuth);
  context.events.on("settings", () => { renderAuth(context.store().state()); });
  renderAuth(context.store().state());
  void signInSilently(context, {
    looking: (asking) => (lookingForSession = asking),
    render: () => { renderAuth(context.store().state()); },
  });
}
