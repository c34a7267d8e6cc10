/**
 * The sign-in dialog page (auth-dialog.html): runs MSAL's redirect flow (authorization code + PKCE,
 * OIDC mode) against the configured authority, then hands the tokens to the pane with
 * `Office.context.ui.messageParent` (or `postMessage` to the opener outside Office). MSAL is loaded
 * with a dynamic import, so it sits in its own chunk and only this page ever downloads it.
 */
import { createCapturingNetworkClient } from "./capture-network";
import { runDialogFlow } from "./dialog-flow";
import { readDialogAction, readDialogConfig, type DialogConfig, type DialogMessage } from "./dialog-protocol";
import { finishSignOut, isSignOutReturn, runSignOut, type SignOutPage } from "./sign-out-flow";
import { officeReady } from "./office-ready";

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
  // office.js may be loaded outside Office (a browser window): no context, or a ui without messageParent
  const office = (globalThis as { Office?: { context?: { ui?: { messageParent?: (message: string) => void } } } }).Office;
  const ui = office?.context?.ui;
  return typeof ui?.messageParent === "function" ? (message) => ui.messageParent?.(message) : undefined;
}

/** Sends a message to the pane: Office dialog channel inside Office, the opener window (same origin only) outside. */
function send(message: DialogMessage): void {
  const text = JSON.stringify(message);
  const parent = officeMessageParent();
  if (parent) parent(text);
  else if (window.opener) (window.opener as Window).postMessage(text, window.location.origin);
  if (message.type === "ready") return;
  // the one answer: nothing of this window's settings is kept past it
  window.sessionStorage.removeItem(CONFIG_KEY);
  status(message.type === "signed-in" ? "Signed in. You can close this window." : message.type === "signed-out" ? "Signed out. You can close this window." : `Failed: ${message.message}`);
}

/** The pane's messages to this window: `messageChild` inside Office, `postMessage` from the opener (same origin) outside. */
async function onParentMessage(handler: (text: string) => void): Promise<() => void> {
  let listening = true;
  const office = (globalThis as { Office?: typeof Office }).Office;
  if (officeMessageParent() && office) {
    const registered = new Promise<void>((resolve) => {
      office.context.ui.addHandlerAsync(
        office.EventType.DialogParentMessageReceived,
        (arg) => {
          if (listening && (arg.origin === undefined || arg.origin === window.location.origin)) handler(arg.message);
        },
        () => { resolve(); }, // registered or refused: without it the hint never comes, and the wait ends by its timeout
      );
    });
    await registered;
    return () => {
      listening = false;
    };
  }
  const listener = (event: MessageEvent): void => {
    if (event.origin === window.location.origin && event.source === window.opener && typeof event.data === "string") handler(event.data);
  };
  window.addEventListener("message", listener);
  return () => { window.removeEventListener("message", listener); };
}

/** Sends this window to `url` by a form POST (the fields, an ID token among them, stay out of URLs and history). */
function post(url: string, fields: Record<string, string>): void {
  const form = document.createElement("form");
  form.method = "post";
  form.action = url;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}

export async function runDialog(): Promise<void> {
  await officeReady();
  const redirectUri = new URL("auth-dialog.html", window.location.href).href.split("?")[0] ?? "";
  const signOut: SignOutPage = {
    search: window.location.search,
    redirectUri,
    storage: window.sessionStorage,
    fetch: (input, init) => fetch(input, init),
    post,
    send,
    status,
    onParentMessage,
    newState: () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(""),
  };
  if (isSignOutReturn(signOut)) {
    finishSignOut(signOut);
    return;
  }
  if (readDialogAction(window.location.search) === "sign-out") {
    const config = rememberedConfig();
    if (!config) {
      send({ type: "error", code: "bad_config", message: "the sign-out window was opened without its settings" });
      return;
    }
    return runSignOut(signOut, config);
  }
  await runDialogFlow({
    config: rememberedConfig,
    search: window.location.search,
    hash: window.location.hash,
    redirectUri,
    send,
    status,
    loadMsal: () => import(/* webpackChunkName: "msal" */ "@azure/msal-browser"),
    networkClient: () => createCapturingNetworkClient(),
  });
}

void runDialog();
