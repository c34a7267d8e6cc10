/**
 * The part of oidc-provider 9 (which ships no types) that the sandbox uses. Configuration callbacks
 * are typed where they are written, in provider.ts.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string };
    grantId?: string;
  }

  export interface Grant {
    readonly accountId?: string;
    readonly clientId?: string;
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface GrantModel {
    new (properties: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  export type Configuration = Record<string, unknown>;

  /** The Koa context a grant handler receives: the token request's parameters, and the answer it sets. */
  export interface GrantContext {
    oidc: { params?: Record<string, unknown> };
    status: number;
    body: unknown;
    set(name: string, value: string): void;
  }

  /** What a middleware sees: the route the provider matched, and the answer it set. */
  export interface MiddlewareContext {
    oidc?: { route?: string };
    body: unknown;
    status: number;
    /** Koa's content type of the answer. */
    type: string;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    /** Koa's: trust X-Forwarded-Proto and X-Forwarded-Host. */
    proxy: boolean;
    readonly Grant: GrantModel;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    /** Records the result and returns the URL to send the browser back to. */
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    /** Koa middleware around every request the provider answers (pre and post `next`). */
    use(middleware: (ctx: MiddlewareContext, next: () => Promise<void>) => Promise<void>): void;
    /** Adds a grant type to the token endpoint and to discovery's `grant_types_supported`. */
    registerGrantType(name: string, handler: (ctx: GrantContext, next: () => Promise<void>) => Promise<void>, parameters?: string[]): void;
  }

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
    SessionNotFound: new (description?: string) => Error;
  };
}

declare module "oidc-provider/lib/adapters/memory_adapter.js" {
  /** The provider's own in-memory adapter, with a store of its own (no shared global store, no warning). */
  export function createMemoryAdapter(clockTolerance?: number): (model: string) => unknown;
}
