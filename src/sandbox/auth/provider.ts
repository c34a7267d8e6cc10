// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- a declaration file of types oidc-provider lacks; it has no module to import
/// <reference path="./oidc-provider.d.ts" />
/**
 * The oidc-provider configuration: clients, users, the API as the one resource server (RS256 JWT
 * access tokens, `typ: at+jwt`), automatic consent for the add-in, CORS for the add-in's origins.
 */
import { randomBytes } from "node:crypto";
import Provider, { errors, type Grant } from "oidc-provider";
import { createMemoryAdapter } from "oidc-provider/lib/adapters/memory_adapter.js";
import { ADDIN_CLIENT_ID, type Accounts } from "./accounts";
import { SIGNING_ALG, type SigningKey } from "./keys";
import { PAGE_HEADERS, SUBMIT_PAGE_HEADERS, logoutConfirmedPage, logoutPage, messagePage } from "./pages";

export interface ProviderSettings {
  readonly issuer: string;
  /** The API base URL: the only resource indicator, and the access tokens' audience. */
  readonly apiUrl: string;
  readonly scope: string;
  readonly tokenTtl: number;
  readonly accounts: Accounts;
  readonly signingKey: SigningKey;
  /** Browser origins allowed to call the token endpoint (the add-in's). */
  readonly corsOrigins: ReadonlySet<string>;
  /** The add-in client's redirect URIs, matched exactly. */
  readonly redirectUris: readonly string[];
}

/** Where oidc-provider sends the browser to sign in: `<issuer path>/interaction/<uid>`. */
export const INTERACTION_PATH = "/interaction";

const REFRESH_TOKEN_TTL = 14 * 24 * 60 * 60;
const SESSION_TTL = 14 * 24 * 60 * 60;
const INTERACTION_TTL = 60 * 60;
const AUTHORIZATION_CODE_TTL = 60;
const OIDC_SCOPES = ["openid", "profile", "offline_access"];

/** The parts of oidc-provider's Koa context that the callbacks below read. */
interface OidcContext {
  oidc: {
    client?: { clientId: string };
    account?: { accountId: string };
    session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
    result?: { consent?: { grantId?: string } };
    params?: { scope?: unknown };
    entities: {
      RotatedRefreshToken?: { remainingTTL: number };
      /** A logout's `id_token_hint`, already verified by oidc-provider (signature, issuer, audience; expiry ignored). */
      IdTokenHint?: { payload: { sub?: unknown } };
    };
    provider: Provider;
  };
  type: string;
  body: unknown;
  set(headers: Record<string, string>): void;
}

interface OidcClient {
  clientId: string;
  grantTypeAllowed(type: string): boolean;
}

export function createProvider(settings: ProviderSettings): Provider {
  const { apiUrl, scope, tokenTtl, accounts } = settings;
  const issuerPath = new URL(settings.issuer).pathname.replace(/\/$/, "");
  const resourceServer = {
    scope,
    audience: apiUrl,
    accessTokenFormat: "jwt",
    accessTokenTTL: tokenTtl,
    jwt: { sign: { alg: SIGNING_ALG } },
  };

  const provider = new Provider(settings.issuer, {
    // Sessions, grants and refresh tokens live in memory, by design: a restart signs everyone out.
    adapter: createMemoryAdapter(),
    clients: [
      {
        client_id: ADDIN_CLIENT_ID,
        client_name: "Physical Prices for Excel",
        application_type: "web",
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        redirect_uris: [...settings.redirectUris],
        post_logout_redirect_uris: [...settings.redirectUris],
      },
      ...accounts.clients.map((client) => ({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
      })),
    ],
    jwks: { keys: [settings.signingKey.privateJwk] },
    // Signs the session and interaction cookies; a new key per start only ends sign-ins in progress. The session
    // cookie is SameSite=None so that a form POST to end_session from the add-in's origin carries it (oidc-provider
    // requires it for POST); its state-changing forms carry their own xsrf token.
    cookies: { keys: [randomBytes(32).toString("base64url")], long: { sameSite: "none" } },
    // The add-in signs out with a form POST, so its id_token_hint is in no URL (OIDC RP-Initiated Logout 1.0 section 2).
    enableHttpPostMethods: true,
    claims: { openid: ["sub"], profile: ["name", "preferred_username"] },
    scopes: OIDC_SCOPES,
    responseTypes: ["code"],
    // MSAL shows the signed-in account from the ID token, so profile claims go there too.
    conformIdTokenClaims: false,
    // oidc-provider awaits each callback below, so those with nothing to wait for answer plainly.
    findAccount(_ctx: unknown, id: string) {
      const user = accounts.users.find((u) => u.username === id);
      return (
        user && {
          accountId: user.username,
          claims: () => ({ sub: user.username, name: user.displayName, preferred_username: user.username }),
        }
      );
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => apiUrl,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx: unknown, indicator: string) {
          if (indicator !== apiUrl) throw new errors.InvalidTarget(`the only resource is ${apiUrl}`);
          return resourceServer;
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        // OIDC RP-Initiated Logout lets the OP skip its question when the RP proves who is signing out: a
        // verified id_token_hint for this session's user. Without one (or for another user) it still asks.
        logoutSource(ctx: OidcContext, form: string) {
          const hinted = ctx.oidc.entities.IdTokenHint?.payload.sub;
          const confirmed = typeof hinted === "string" && hinted === ctx.oidc.session?.accountId;
          ctx.set(confirmed ? SUBMIT_PAGE_HEADERS : PAGE_HEADERS);
          ctx.body = confirmed ? logoutConfirmedPage(form) : logoutPage(form);
        },
        postLogoutSuccessSource(ctx: OidcContext) {
          ctx.set(PAGE_HEADERS);
          ctx.body = messagePage("Signed out", "You are signed out of the Physical Prices sandbox.");
        },
      },
    },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `${issuerPath}${INTERACTION_PATH}/${interaction.uid}`,
    },
    // First-party client: consent is granted without asking, for the API scope and the OIDC scopes asked for.
    async loadExistingGrant(ctx: OidcContext): Promise<Grant | undefined> {
      const { client, account, session, result, params } = ctx.oidc;
      if (!client || !account) return undefined;
      const grantId = result?.consent?.grantId ?? session?.grantIdFor(client.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (client.clientId !== ADDIN_CLIENT_ID) return existing;
      const grant =
        existing && existing.accountId === account.accountId
          ? existing
          : new ctx.oidc.provider.Grant({ accountId: account.accountId, clientId: client.clientId });
      await grantFirstPartyAccess(grant, params?.scope, settings);
      return grant;
    },
    // The add-in always gets a refresh token, whether or not it asked for offline_access
    // (MSAL drops offline_access when it sends prompt=login or select_account).
    issueRefreshToken: (_ctx: unknown, client: OidcClient) => client.grantTypeAllowed("refresh_token"),
    clientBasedCORS: (_ctx: unknown, origin: string) => settings.corsOrigins.has(origin),
    renderError(ctx: OidcContext, out: { error?: string; error_description?: string }) {
      ctx.set(PAGE_HEADERS);
      ctx.body = messagePage(
        "Sign-in failed",
        out.error_description ?? "The sign-in request could not be completed.",
        out.error ? `Error code: ${out.error}` : undefined,
      );
    },
    ttl: {
      AccessToken: (_ctx: unknown, token: { resourceServer?: { accessTokenTTL?: number } }) =>
        token.resourceServer?.accessTokenTTL ?? tokenTtl,
      ClientCredentials: (_ctx: unknown, token: { resourceServer?: { accessTokenTTL?: number } }) =>
        token.resourceServer?.accessTokenTTL ?? tokenTtl,
      IdToken: tokenTtl,
      AuthorizationCode: AUTHORIZATION_CODE_TTL,
      // A rotated refresh token keeps the remaining lifetime of the one it replaces.
      // oidc-provider may call this outside a request, with no context or one without `oidc`
      RefreshToken: (ctx: Partial<Pick<OidcContext, "oidc">> | undefined) =>
        ctx?.oidc?.entities.RotatedRefreshToken?.remainingTTL ?? REFRESH_TOKEN_TTL,
      Interaction: INTERACTION_TTL,
      Session: SESSION_TTL,
      Grant: REFRESH_TOKEN_TTL,
    },
  });
  // The service helper sets X-Forwarded-Proto/Host from the configured origin on every request, so
  // that URLs and secure cookies are right behind fastify inject and whatever Host a client sends.
  provider.proxy = true;
  return provider;
}

/**
 * Grants the add-in what it asked for: the OIDC scopes among openid, profile and offline_access,
 * and the API scope. Saves the grant and returns its id.
 */
export async function grantFirstPartyAccess(
  grant: Grant,
  requestedScope: unknown,
  settings: Pick<ProviderSettings, "apiUrl" | "scope">,
): Promise<string> {
  const asked = typeof requestedScope === "string" ? requestedScope.split(" ") : [];
  const oidcScopes = OIDC_SCOPES.filter((s) => asked.includes(s));
  if (oidcScopes.length > 0) grant.addOIDCScope(oidcScopes.join(" "));
  grant.addResourceScope(settings.apiUrl, settings.scope);
  return grant.save();
}
