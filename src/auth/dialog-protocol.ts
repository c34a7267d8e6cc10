/**
 * Messages between the sign-in dialog and the pane (Office `messageParent` / `messageChild`, or `postMessage`
 * outside Office). Secrets travel only in messages, never in the dialog's URL.
 */
import type { TokenResponse } from "./token-response";
import { isRecord } from "../api/json";

export const DIALOG_PAGE = "auth-dialog.html";

/** What the pane hands the dialog in its URL: public configuration only, never a secret. */
export interface DialogConfig {
  authority: string;
  clientId: string;
  scope: string;
}

export type DialogMessage =
  | { type: "signed-in"; tokens: TokenResponse; account: string }
  | { type: "signed-out" }
  | { type: "error"; code: string; message: string }
  /** The sign-out window is loaded and listening: the pane answers with a SignOutHint. */
  | { type: "ready" };

/** The pane's answer to `ready`: the ID token of the session being ended (none when the pane holds none). */
export interface SignOutHint {
  type: "sign-out-hint";
  idToken?: string;
}

/** What the dialog is opened for: a sign-in, or ending the session at the token service (RP-initiated logout). */
export type DialogAction = "sign-in" | "sign-out";

/**
 * The dialog page's URL with the public settings. `hintByMessage` tells a sign-out window that the pane can answer
 * its `ready` with the ID token (the token itself never goes in the URL).
 */
export function dialogUrl(origin: string, config: DialogConfig, action: DialogAction = "sign-in", hintByMessage = false): string {
  const url = new URL(DIALOG_PAGE, origin.endsWith("/") ? origin : `${origin}/`);
  url.searchParams.set("authority", config.authority);
  url.searchParams.set("clientId", config.clientId);
  url.searchParams.set("scope", config.scope);
  if (action === "sign-out") url.searchParams.set("action", action);
  if (action === "sign-out" && hintByMessage) url.searchParams.set("hint", "message");
  return url.href;
}

export function readDialogAction(search: string): DialogAction {
  return new URLSearchParams(search).get("action") === "sign-out" ? "sign-out" : "sign-in";
}

/** True when the pane said it will hand the sign-out hint over by message. */
export function readHintByMessage(search: string): boolean {
  return new URLSearchParams(search).get("hint") === "message";
}

export function readDialogConfig(search: string): DialogConfig | undefined {
  const params = new URLSearchParams(search);
  const authority = params.get("authority");
  const clientId = params.get("clientId");
  const scope = params.get("scope");
  if (!authority?.startsWith("https://") || !clientId || !scope) return undefined;
  return { authority, clientId, scope };
}


/** Parses a message from the dialog; anything malformed becomes an error message, never an exception. */
export function parseDialogMessage(text: unknown): DialogMessage {
  let value: unknown;
  try {
    value = typeof text === "string" ? JSON.parse(text) : undefined;
  } catch {
    value = undefined;
  }
  if (isRecord(value) && value["type"] === "signed-in" && isRecord(value["tokens"])) {
    const tokens = value["tokens"];
    const accessToken = tokens["accessToken"];
    const expiresIn = tokens["expiresIn"];
    const refreshToken = tokens["refreshToken"];
    const idToken = tokens["idToken"];
    if (typeof accessToken === "string" && accessToken !== "" && typeof expiresIn === "number" && expiresIn > 0) {
      return {
        type: "signed-in",
        account: typeof value["account"] === "string" ? value["account"] : "user",
        tokens: {
          accessToken,
          expiresIn,
          ...(typeof refreshToken === "string" && refreshToken !== "" ? { refreshToken } : {}),
          ...(typeof idToken === "string" && idToken !== "" ? { idToken } : {}),
        },
      };
    }
  }
  if (isRecord(value) && value["type"] === "signed-out") return { type: "signed-out" };
  if (isRecord(value) && value["type"] === "ready") return { type: "ready" };
  if (isRecord(value) && value["type"] === "error") {
    return {
      type: "error",
      code: typeof value["code"] === "string" ? value["code"] : "unknown",
      message: typeof value["message"] === "string" ? value["message"] : "sign-in failed",
    };
  }
  return { type: "error", code: "bad_message", message: "the sign-in window sent an unreadable answer" };
}

/** Parses the pane's answer to `ready`; undefined for anything else (the window then signs out without a hint). */
export function parseSignOutHint(text: unknown): SignOutHint | undefined {
  let value: unknown;
  try {
    value = typeof text === "string" ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value["type"] !== "sign-out-hint") return undefined;
  const idToken = value["idToken"];
  return { type: "sign-out-hint", ...(typeof idToken === "string" && idToken !== "" ? { idToken } : {}) };
}
