/** The pane's side of the sign-in dialog: sign in (tokens to the store) or sign out at the token service; one answer each. */
import type { DialogHost, ReplyToDialog } from "./dialog-host";
import { dialogUrl, parseDialogMessage, type DialogAction, type DialogConfig, type DialogMessage, type SignOutHint } from "./dialog-protocol";
import type { TokenStore } from "./token-store";

export class SignInError extends Error {
  override name = "SignInError";
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * Opens the dialog for `action` and settles on its one answer: a message, the user closing the window, or the
 * window failing to open. The dialog is closed in every case. A sign-out window's `ready` is answered with
 * `idTokenHint` by message (never in its URL) and is not the answer.
 */
function runDialog(host: DialogHost, origin: string, config: DialogConfig, action: DialogAction, idTokenHint?: string): Promise<Exclude<DialogMessage, { type: "ready" }>> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let dialog: { close(): void } | undefined;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      dialog?.close();
      outcome();
    };
    const what = action === "sign-out" ? "sign-out" : "sign-in";
    const onMessage = (text: string, reply?: ReplyToDialog): void => {
      const message = parseDialogMessage(text);
      if (message.type !== "ready") {
        finish(() => { resolve(message); });
        return;
      }
      if (action !== "sign-out" || !reply) return;
      const hint: SignOutHint = { type: "sign-out-hint", ...(idTokenHint !== undefined ? { idToken: idTokenHint } : {}) };
      reply(JSON.stringify(hint));
    };
    host
      .open(
        dialogUrl(origin, config, action, action === "sign-out" && host.canReply),
        onMessage,
        () => { finish(() => { reject(new SignInError(`the ${what} window was closed`, "closed")); }); },
      )
      .then(
        (opened) => {
          dialog = opened;
          if (settled) opened.close();
        },
        (error: unknown) => { finish(() => { reject(new SignInError(error instanceof Error ? error.message : `the ${what} window could not open`, "open_failed")); }); },
      );
  });
}

/** Resolves with the account name once the store holds the new tokens; rejects with a SignInError otherwise. */
export async function signInWithDialog(host: DialogHost, store: TokenStore, origin: string, config: DialogConfig): Promise<string> {
  const message = await runDialog(host, origin, config, "sign-in");
  if (message.type === "signed-in") {
    store.acceptUserTokens(message.tokens, message.account);
    return message.account;
  }
  if (message.type === "error") throw new SignInError(message.message, message.code);
  throw new SignInError("the sign-in window answered a sign-out", "bad_message");
}

/**
 * Ends the user's session at the token service (its sign-out page, in the dialog); resolves once it confirms.
 * With `idTokenHint` (the ended session's ID token) the token service does so without asking.
 */
export async function signOutWithDialog(host: DialogHost, origin: string, config: DialogConfig, idTokenHint?: string): Promise<void> {
  const message = await runDialog(host, origin, config, "sign-out", idTokenHint);
  if (message.type === "signed-out") return;
  if (message.type === "error") throw new SignInError(message.message, message.code);
  throw new SignInError("the sign-out window answered a sign-in", "bad_message");
}
