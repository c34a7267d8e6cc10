/**
 * Opening the sign-in dialog: Office's `displayDialogAsync` inside Office, a real browser window
 * outside it (the workbench, tests). Thin adapters over the globals; the sign-in logic is in sign-in.ts.
 */

export interface OpenDialog {
  close(): void;
}

/** Sends a message to the page open in the dialog, and only if it is the add-in's own (same origin). */
export type ReplyToDialog = (text: string) => void;

export interface DialogHost {
  /** True when the pane can send the dialog a message (`reply` below); Office needs DialogApi 1.2 for it. */
  readonly canReply: boolean;
  /**
   * Opens `url`; `onMessage` gets each message text with a way to answer it (when `canReply`), `onClosed` fires
   * once if the user closes the window.
   */
  open(url: string, onMessage: (text: string, reply?: ReplyToDialog) => void, onClosed: () => void): Promise<OpenDialog>;
}

/** What the pane is told when Office cannot say which page sent the answer (a client without DialogOrigin 1.1). */
export const UNKNOWN_ORIGIN_ANSWER = JSON.stringify({
  type: "error",
  code: "unknown_origin",
  message: "this version of Office does not say which page sent the sign-in answer, so it was refused; update Office or sign in with a service key",
});

/**
 * Office dialog API (DialogApi 1.1). Only messages from `ownOrigin` (the add-in's pages) count: the dialog also shows
 * the token service's pages, and any page it navigates to could call `messageParent` with a made-up answer.
 */
export function officeDialogHost(office: typeof Office, ownOrigin: string = (globalThis as { location?: Location }).location?.origin ?? ""): DialogHost {
  // the typings say both are there and answer a boolean; an old host has neither or answers undefined
  const requirements = office.context.requirements as { isSetSupported?: (name: string, version: string) => boolean | undefined } | undefined;
  const canReply = requirements?.isSetSupported?.("DialogApi", "1.2") === true;
  return {
    canReply,
    open(url, onMessage, onClosed) {
      return new Promise((resolve, reject) => {
        office.context.ui.displayDialogAsync(url, { height: 60, width: 30, promptBeforeOpen: false }, (result) => {
          if (result.status !== office.AsyncResultStatus.Succeeded) {
            reject(new Error(`the sign-in dialog could not open (${result.error.code}: ${result.error.message})`));
            return;
          }
          const dialog = result.value;
          // targetOrigin: Office delivers the message only while the dialog shows one of the add-in's pages
          const reply: ReplyToDialog | undefined = canReply ? (text) => { dialog.messageChild(text, { targetOrigin: ownOrigin }); } : undefined;
          dialog.addEventHandler(office.EventType.DialogMessageReceived, (arg) => {
            if (!("message" in arg)) return;
            if (arg.origin === ownOrigin) onMessage(arg.message, reply);
            else if (arg.origin === undefined) onMessage(UNKNOWN_ORIGIN_ANSWER);
            // another origin: ignored, so a foreign page can neither sign the user in nor end the sign-in
          });
          dialog.addEventHandler(office.EventType.DialogEventReceived, () => { onClosed(); });
          resolve({ close: () => { dialog.close(); } });
        });
      });
    },
  };
}

/** A popup window that answers with `postMessage` from the same origin. */
export function windowDialogHost(win: Window = window): DialogHost {
  return {
    canReply: true,
    open(url, onMessage, onClosed) {
      const popup = win.open(url, "prices-sign-in", "popup,width=480,height=640");
      if (!popup) return Promise.reject(new Error("the sign-in window was blocked; allow pop-ups for this page"));
      let done = false;
      // the target origin keeps the answer from any page of another origin the popup may show by then
      const reply: ReplyToDialog = (text) => { popup.postMessage(text, win.location.origin); };
      const listener = (event: MessageEvent): void => {
        if (event.origin !== win.location.origin || event.source !== popup) return;
        if (typeof event.data === "string") onMessage(event.data, reply);
      };
      win.addEventListener("message", listener);
      const poll = win.setInterval(() => {
        if (popup.closed) finish(true);
      }, 500);
      const finish = (notify: boolean): void => {
        if (done) return;
        done = true;
        win.clearInterval(poll);
        win.removeEventListener("message", listener);
        if (notify) onClosed();
      };
      return Promise.resolve({
        close() {
          finish(false);
          popup.close();
        },
      });
    },
  };
}

/** Office's dialog when the page runs inside Office, a window otherwise. */
export function defaultDialogHost(): DialogHost {
  const office = (globalThis as { Office?: typeof Office }).Office;
  // office.js loaded outside Office (or before it is ready) has no context
  const context = office?.context as Partial<Office.Context> | undefined;
  const inOffice = Boolean(context?.ui && typeof context.ui.displayDialogAsync === "function" && context.host);
  return inOffice && office ? officeDialogHost(office) : windowDialogHost();
}
