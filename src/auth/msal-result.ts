/**
 * What MSAL hands back after an authorization code exchange, as the pane's store takes it: the access token, its
 * lifetime, the refresh token the capturing network client saw, the ID token (the sign-out's hint) and the account
 * name. One conversion for the sign-in dialog and the silent sign-in.
 */
import type * as Msal from "@azure/msal-browser";
import type { CapturingNetworkClient } from "./capture-network";
import type { TokenResponse } from "./token-response";

/** What the flows use of MSAL: the application class and two enumerations. */
export type MsalModule = Pick<typeof Msal, "PublicClientApplication" | "BrowserCacheLocation" | "ProtocolMode">;

export interface SignedInTokens {
  account: string;
  tokens: TokenResponse;
}

export function signedInTokens(result: Msal.AuthenticationResult, network: CapturingNetworkClient, now: () => number): SignedInTokens {
  const expiresOn = result.expiresOn?.getTime() ?? now() + 3_600_000;
  const refreshToken = network.takeRefreshToken();
  const claims = result.idTokenClaims as Record<string, unknown>;
  // typed as always there, but MSAL answers null when the token response had no ID token
  const msalAccount = result.account as Msal.AccountInfo | null;
  const account = [claims["preferred_username"], claims["name"], msalAccount?.username, claims["sub"]].find((v): v is string => typeof v === "string" && v !== "");
  return {
    account: account ?? "user",
    tokens: {
      accessToken: result.accessToken,
      expiresIn: Math.max(1, Math.round((expiresOn - now()) / 1000)),
      ...(refreshToken ? { refreshToken } : {}),
      // the sign-out's id_token_hint, so the token service need not ask again
      ...(result.idToken ? { idToken: result.idToken } : {}),
    },
  };
}

/** MSAL's error code (`login_required`, `timed_out`...), else the error's name: never a token or a URL. */
export function msalErrorCode(error: unknown): string {
  const code = (error as { errorCode?: unknown } | undefined)?.errorCode;
  return typeof code === "string" && code !== "" ? code : error instanceof Error && error.name !== "" ? error.name : "unknown";
}
