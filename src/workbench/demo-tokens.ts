/**
 * The workbench page's token provider for the demo sheet: the token the dev server holds for the demo service key
 * (demo-token-route.ts), asked on the page's own origin and kept in this closure; a reload asks the dev server again,
 * not the token service. Where no dev server answers that path (the page served some other way), the page asks the
 * token service itself with the demo key, as before.
 */
import { AuthError } from "../prices/errors";
import { withTimeout } from "../prices/timeout";
import type { TokenProvider, TokenRequestOptions } from "../prices/types";
import { DEMO_TOKEN_PATH, type DemoTokenAnswer } from "./demo-token-protocol";

/** A token this close to its expiry is not used: the request must reach the service while it is valid. */
const EXPIRY_MARGIN_MS = 5_000;

export interface DemoTokenOptions {
  readonly fetch: typeof fetch;
  /** The provider used when the dev server has no such path (404). */
  readonly fallback: () => TokenProvider;
  /** Told why the token is late (undefined once one arrived), so the page can say so. */
  readonly onWait: (reason: string | undefined) => void;
  readonly now?: () => number;
  /** How long to wait for the dev server's answer (default 30 s). */
  readonly timeoutMs?: number;
}

/** How long the page waits for the dev server's demo token before it says so and asks again. */
const DEMO_TOKEN_TIMEOUT_MS = 30_000;

export function demoTokenProvider(options: DemoTokenOptions): TokenProvider {
  const now = options.now ?? Date.now;
  let held: { token: string; expiresAt: number } | undefined;
  let fallback: TokenProvider | undefined;
  let inFlight: Promise<string> | undefined;

  async function ask(rejected: string | undefined): Promise<string> {
    const timeoutMs = options.timeoutMs ?? DEMO_TOKEN_TIMEOUT_MS;
    const late = `the dev server did not answer within ${timeoutMs / 1000} s`;
    let response: Response;
    try {
      // every request has a timeout: a dev server that never answers is named, and firstToken asks again
      response = await withTimeout(
        timeoutMs,
        (signal) =>
          options.fetch(DEMO_TOKEN_PATH, {
            method: rejected === undefined ? "GET" : "POST",
            cache: "no-store",
            signal,
            ...(rejected === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify({ rejected }) }),
          }),
        () => new AuthError({ reason: "token-service-busy", message: `the demo key's token is waiting: ${late}` }),
      );
    } catch (error) {
      if (error instanceof AuthError) options.onWait(late);
      throw error;
    }
    if (response.status === 404) {
      fallback ??= options.fallback();
      return fallback.getToken(rejected === undefined ? {} : { rejected });
    }
    const body = (await response.json()) as DemoTokenAnswer;
    if ("accessToken" in body && typeof body.accessToken === "string") {
      held = { token: body.accessToken, expiresAt: now() + body.expiresInMs };
      options.onWait(undefined);
      return body.accessToken;
    }
    const reason = "error" in body && typeof body.error === "string" ? body.error : `the dev server answered ${response.status}`;
    const retryAt = "retryInMs" in body && typeof body.retryInMs === "number" ? now() + body.retryInMs : undefined;
    options.onWait(reason);
    throw new AuthError({ reason: "token-service-busy", message: `the demo key's token is waiting: ${reason}`, ...(retryAt === undefined ? {} : { retryAt }) });
  }

  return {
    getToken(request?: TokenRequestOptions): Promise<string> {
      if (fallback) return fallback.getToken(request);
      const rejected = request?.rejected !== undefined && request.rejected === held?.token ? request.rejected : undefined;
      if (held && rejected === undefined && request?.forceRefresh !== true && now() < held.expiresAt - EXPIRY_MARGIN_MS) return Promise.resolve(held.token);
      if (rejected !== undefined) held = undefined;
      inFlight ??= ask(rejected).finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
  };
}

/** Resolves once a token is there, waiting as long as the dev server says (the page shows why meanwhile). */
export async function firstToken(tokens: TokenProvider, wait: (ms: number) => Promise<void>, now: () => number = Date.now): Promise<void> {
  for (;;) {
    try {
      await tokens.getToken();
      return;
    } catch (error) {
      if (!(error instanceof AuthError) || error.reason !== "token-service-busy") throw error;
      await wait(Math.max(1_000, (error.retryAt ?? now() + 5_000) - now()));
    }
  }
}
