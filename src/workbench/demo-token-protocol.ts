/** What the dev server and the workbench page say about the demo key's token (demo-token-route.ts, demo-tokens.ts). */

/** The sandbox's demo service account (docs/sandbox-auth.md); never a real credential. */
export const DEMO_SERVICE = { name: "sandbox-service", key: "sandbox-service-key" } as const;

/** Same origin as the page: the token never crosses to another site. */
export const DEMO_TOKEN_PATH = "/workbench-token";

export type DemoTokenAnswer =
  | { readonly accessToken: string; readonly expiresInMs: number }
  /** The token service made the dev server wait: why, and when it tries again. */
  | { readonly error: string; readonly retryInMs?: number };
