/**
 * Node side of the workbench's demo sign-in (scripts/start.ts mounts it on the dev server): the dev server holds the
 * demo service key's token session in its own memory and hands the token to the workbench page on the same origin, so
 * reloading the page reuses one token instead of asking the token service (10 tokens per 5 minutes) every time.
 * Nothing is written anywhere: the token lives in this process and in the page's memory only.
 */
import { Agent } from "undici";
import { dispatcherFetch } from "../prices/dispatcher-fetch";
import { AuthError } from "../prices/errors";
import { serviceKeyTokenProvider } from "../prices/tokens";
import type { TokenSession } from "../prices/token-session";
import { DEMO_SERVICE, DEMO_TOKEN_PATH, type DemoTokenAnswer } from "./demo-token-protocol";

export interface DemoTokenRoute {
  readonly path: string;
  /** Answers GET (the held token) and POST `{ "rejected": token }` (the service refused it: renew). */
  handle(request: RouteRequest, response: RouteResponse): void;
  /** Token requests the session sent to the token service. */
  readonly requests: number;
  /** Drops the token and closes the connections to the token service. */
  close(): Promise<void>;
}

interface RouteRequest {
  readonly method?: string;
  on(event: "data", listener: (chunk: Buffer) => void): unknown;
  on(event: "end", listener: () => void): unknown;
}
interface RouteResponse {
  statusCode: number;
  setHeader(name: string, value: string): void;
  end(body: string): void;
}

/** `issuer` is the sandbox's token service; `ca` its certificate authority (PEM), which Node does not trust by itself. */
export function demoTokenRoute(options: { issuer: string; ca: string; now?: () => number }): DemoTokenRoute {
  const dispatcher = new Agent({ connect: { ca: options.ca } });
  const caFetch = dispatcherFetch(dispatcher);
  const now = options.now ?? Date.now;
  let session: TokenSession | undefined;
  const tokens = (): TokenSession =>
    (session ??= serviceKeyTokenProvider({ tokenUrl: `${options.issuer}/token`, serviceName: DEMO_SERVICE.name, serviceKey: DEMO_SERVICE.key, fetch: caFetch, now }));

  const answer = (response: RouteResponse, status: number, body: DemoTokenAnswer): void => {
    response.statusCode = status;
    response.setHeader("content-type", "application/json");
    response.setHeader("cache-control", "no-store");
    response.end(JSON.stringify(body));
  };

  const serve = (response: RouteResponse, rejected: string | undefined): void => {
    const held = tokens();
    held.getToken(rejected === undefined ? {} : { rejected }).then(
      (accessToken) => {
        const state = held.state();
        const expiresAt = state.status === "active" ? state.expiresAt : now();
        answer(response, 200, { accessToken, expiresInMs: Math.max(0, expiresAt - now()) });
      },
      (error: unknown) => {
        const retryAt = error instanceof AuthError ? error.retryAt : undefined;
        const message = error instanceof Error ? error.message : String(error);
        answer(response, 503, { error: message, ...(retryAt === undefined ? {} : { retryInMs: Math.max(0, retryAt - now()) }) });
      },
    );
  };

  return {
    path: DEMO_TOKEN_PATH,
    get requests() {
      return session?.requests ?? 0;
    },
    close: async () => {
      session?.end("the dev server stopped");
      await dispatcher.close();
    },
    handle(request, response) {
      if (request.method === "GET") {
        serve(response, undefined);
        return;
      }
      if (request.method !== "POST") {
        answer(response, 405, { error: "GET or POST only" });
        return;
      }
      const chunks: Buffer[] = [];
      request.on("data", (chunk) => chunks.push(chunk));
      request.on("end", () => {
        let rejected: unknown;
        try {
          rejected = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { rejected?: unknown }).rejected;
        } catch {
          rejected = undefined;
        }
        serve(response, typeof rejected === "string" ? rejected : undefined);
      });
    },
  };
}
