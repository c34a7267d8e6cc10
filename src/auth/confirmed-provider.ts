/** The token provider the pane's client gets: the store's token, but only for the base URL the user confirmed. */
import { AuthError } from "../prices/errors";
import type { TokenProvider } from "../prices/types";

/** Refuses (AuthError, no token handed out) whenever `baseUrl` is not the one `confirmed()` names. */
export function confirmedTokenProvider(provider: TokenProvider, baseUrl: string, confirmed: () => string): TokenProvider {
  return {
    getToken(options) {
      if (confirmed() !== baseUrl) {
        return Promise.reject(new AuthError({ reason: "not-signed-in", message: `not signed in: confirm ${new URL(baseUrl).host} in the Prices pane first` }));
      }
      return provider.getToken(options);
    },
  };
}
