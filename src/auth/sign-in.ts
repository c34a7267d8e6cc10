/** The pane's side of a user sign-in: open the dialog, wait for its one answer, hand the tokens to the store. */
import type { DialogHost } from "./dialog-host";
import { dialogUrl, parseDialogMessage, type DialogConfig } from "./dialog-protocol";
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

/** Resolves with the account name once the store holds the new tokens; rejects with a SignInError otherwise. */
export function signInWithDialog(host: DialogHost, store: TokenStore, origin: string, config: DialogConfig): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    let dialog: { close(): void } | undefined;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      dialog?.close();
      outcome();
    };
    host
      .open(
        dialogUrl(origin, config),
        (text) => {
          const message = parseDialogMessage(text);
          if (message.type === "signed-in") {
            finish(() => {
              store.acceptUserTokens(message.tokens, message.account);
              resolve(message.account);
            });
          } else {
            finish(() => reject(new SignInError(message.message, message.code)));
          }
        },
        () => finish(() => reject(new SignInError("the sign-in window was closed", "closed"))),
      )
      .then(
        (opened) => {
          dialog = opened;
          if (settled) opened.close();
        },
        (error: unknown) => finish(() => reject(new SignInError(error instanceof Error ? error.message : "the sign-in window could not open", "open_failed"))),
      );
  });
}
