/**
 * A renewal with the user's refresh token, never abandoned at the token timeout: the attempt fails then (the
 * session retries), but the request runs on, the next attempt joins it, and an answer that comes with no
 * attempt waiting is handed to `late`. Sending the old refresh token again would meet its rotation
 * (invalid_grant) and end the sign-in.
 */
import { TimeoutError } from "../prices/errors";
import { requestToken, type TokenGrant } from "../prices/token-request";
import { withTimeout } from "../prices/timeout";

export const DEFAULT_REFRESH_KEEP_ALIVE_MS = 120_000;

/** A user's refresh token, rotated as the server rotates it, and the request still running with it. */
export interface RefreshCredentials {
  refreshToken: string | undefined;
  pending?: KeptAlive;
}

/** A refresh-token request still running past the token timeout. */
interface KeptAlive {
  answer: Promise<TokenGrant>;
  /** Attempts waiting for it now; with none, a late answer goes to `late`. */
  waiting: number;
  abort: AbortController;
}

export interface RefreshRequest {
  fetch: typeof fetch;
  url: string;
  clientId: string;
  now: () => number;
  /** An attempt's own wait. */
  timeoutMs: number;
  /** How much longer the request itself runs. */
  keepAliveMs: number;
}

export async function refreshGrant(request: RefreshRequest, credentials: RefreshCredentials, late: (granted: TokenGrant) => void): Promise<TokenGrant> {
  const kept = credentials.pending ?? keepAlive(request, credentials, late);
  kept.waiting += 1;
  try {
    return await withTimeout(request.timeoutMs, () => kept.answer, () => new TimeoutError({ method: "POST", url: request.url, timeoutMs: request.timeoutMs }));
  } finally {
    kept.waiting -= 1;
  }
}

/** Stops the request still running (the session ended: nobody wants its answer). */
export function abandonRefresh(credentials: RefreshCredentials): void {
  credentials.pending?.abort.abort();
}

function keepAlive(request: RefreshRequest, credentials: RefreshCredentials, late: (granted: TokenGrant) => void): KeptAlive {
  const abort = new AbortController();
  const form = new URLSearchParams({ grant_type: "refresh_token", refresh_token: credentials.refreshToken ?? "", client_id: request.clientId });
  const answer = requestToken({ fetch: request.fetch, url: request.url, form, now: request.now, timeoutMs: request.timeoutMs + request.keepAliveMs, signal: abort.signal });
  const started: KeptAlive = { answer, waiting: 0, abort };
  credentials.pending = started;
  answer.then(
    (granted) => {
      if (credentials.pending === started) credentials.pending = undefined;
      // A server that does not rotate refresh tokens keeps the old one valid; a session ended meanwhile keeps none.
      if (granted.refreshToken !== undefined && credentials.refreshToken !== undefined) credentials.refreshToken = granted.refreshToken;
      if (started.waiting === 0 && credentials.refreshToken !== undefined) late(granted);
    },
    () => {
      if (credentials.pending === started) credentials.pending = undefined;
    },
  );
  return started;
}
