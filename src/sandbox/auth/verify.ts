/**
 * Checks the bearer token of an API request (convention 8): signature with the token service's own
 * key, RS256 only, `typ: at+jwt`, issuer, audience, expiry and scope, then maps the token to the
 * caller's entitlement. No network call: the public key is imported once.
 */
import { errors as joseErrors, importJWK, jwtVerify, type JWK, type JWTPayload } from "jose";
import { ADDIN_CLIENT_ID, type Accounts, type Entitlement } from "./accounts";
import { SIGNING_ALG } from "./keys";

export type CallerKind = "user" | "client" | "service";

/** Who made an API request, as the verified token says. */
export interface Caller {
  /** The username, client id or service name. */
  readonly id: string;
  /** `user`: signed in through the add-in; `client`: client credentials; `service`: service key. */
  readonly kind: CallerKind;
  /** Whether the caller may see the instrument with this symbol (its entitlement). */
  canSee(symbol: string): boolean;
  readonly entitlement: Entitlement;
  /** The OAuth client the token was issued to (`prices-excel-addin` for users). */
  readonly clientId: string;
  readonly scopes: readonly string[];
  /** Token expiry, seconds since the epoch. */
  readonly expiresAt: number;
}

export type AuthError = "invalid_token" | "insufficient_scope";

/** A request the API must refuse: 401 `invalid_token` or 403 `insufficient_scope`. Never carries the token. */
export class AuthFailure extends Error {
  override name = "AuthFailure";

  constructor(
    readonly status: 401 | 403,
    readonly code: AuthError,
    message: string,
    /** The scope a 403 asks for. */
    readonly scope?: string,
  ) {
    super(message);
  }

  /** The `WWW-Authenticate` header value for this failure (RFC 6750 section 3). */
  get wwwAuthenticate(): string {
    const parts = [`error="${this.code}"`, `error_description="${this.message.replace(/["\\]/g, "")}"`];
    if (this.scope !== undefined) parts.push(`scope="${this.scope}"`);
    return `Bearer ${parts.join(", ")}`;
  }
}

export function isAuthFailure(value: unknown): value is AuthFailure {
  return value instanceof AuthFailure || (value instanceof Error && value.name === "AuthFailure");
}

export interface VerifierSettings {
  readonly issuer: string;
  /** The API base URL, which the token's `aud` must contain. */
  readonly audience: string;
  readonly scope: string;
  readonly publicJwk: JWK;
  readonly accounts: Accounts;
  readonly clockToleranceSeconds: number;
}

/** How many verified tokens are remembered; the oldest is forgotten first. */
const VERIFIED_CACHE_SIZE = 1000;

/** `Bearer` (any letter case), one space, a token68 value. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

export type Verify = (authorization: string | undefined) => Promise<Caller>;

export async function createVerifier(settings: VerifierSettings): Promise<Verify> {
  const key = await importJWK(settings.publicJwk, SIGNING_ALG);
  const options = {
    algorithms: [SIGNING_ALG],
    issuer: settings.issuer,
    audience: settings.audience,
    typ: "at+jwt",
    clockTolerance: settings.clockToleranceSeconds,
    requiredClaims: ["exp", "iat", "sub", "client_id"],
  };
  // Clients reuse a token for its whole life: remember the callers of tokens already verified, so a
  // repeat costs a map lookup instead of an RSA verification. Only the expiry can change the answer.
  const verified = new Map<string, Caller>();
  return async (authorization) => {
    if (authorization === undefined || authorization.trim() === "") {
      throw new AuthFailure(401, "invalid_token", "The request has no access token (Authorization: Bearer <token>)");
    }
    const token = BEARER.exec(authorization.trim())?.[1];
    if (token === undefined) {
      throw new AuthFailure(401, "invalid_token", "The Authorization header must be the Bearer scheme and one access token");
    }
    const known = verified.get(token);
    if (known !== undefined && Date.now() / 1000 < known.expiresAt + settings.clockToleranceSeconds) return known;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key, options));
    } catch (error) {
      throw new AuthFailure(401, "invalid_token", describeFailure(error));
    }
    const scopes = typeof payload.scope === "string" ? payload.scope.split(" ").filter(Boolean) : [];
    if (!scopes.includes(settings.scope)) {
      throw new AuthFailure(403, "insufficient_scope", `The access token lacks the scope ${settings.scope}`, settings.scope);
    }
    const caller = toCaller(settings.accounts, payload, scopes);
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value ?? "");
    verified.set(token, caller);
    return caller;
  };
}

function describeFailure(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return "The access token has expired";
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case "iss":
        return "The access token was not issued by this service";
      case "aud":
        return "The access token is not meant for this API (audience)";
      case "nbf":
      case "iat":
        return "The access token is not valid yet";
      case "typ":
        return "The token is not an access token (typ must be at+jwt)";
      default:
        return `The access token's ${error.claim} claim is missing or invalid`;
    }
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return "The access token's signature is invalid";
  if (error instanceof joseErrors.JOSEAlgNotAllowed || error instanceof joseErrors.JOSENotSupported) {
    return `The access token must be signed with ${SIGNING_ALG}`;
  }
  return "The access token is malformed";
}

function toCaller(accounts: Accounts, payload: JWTPayload, scopes: string[]): Caller {
  const subject = payload.sub;
  const clientId = payload.client_id;
  const expiresAt = payload.exp;
  if (typeof subject !== "string" || typeof clientId !== "string" || typeof expiresAt !== "number") {
    throw new AuthFailure(401, "invalid_token", "The access token's sub, client_id or exp claim is invalid");
  }
  const found = principal(accounts, subject, clientId);
  if (!found) throw new AuthFailure(401, "invalid_token", "The access token's subject is not known to this service");
  const { kind, entitlement } = found;
  return { id: subject, kind, canSee: entitlement.allows, entitlement, clientId, scopes, expiresAt };
}

function principal(
  accounts: Accounts,
  subject: string,
  clientId: string,
): { kind: CallerKind; entitlement: Entitlement } | undefined {
  if (clientId === ADDIN_CLIENT_ID) {
    const user = accounts.users.find((u) => u.username === subject);
    return user && { kind: "user", entitlement: user.entitlement };
  }
  if (subject !== clientId) return undefined;
  const client = accounts.clients.find((c) => c.clientId === clientId);
  if (client) return { kind: "client", entitlement: client.entitlement };
  const service = accounts.serviceKeys.find((s) => s.serviceName === clientId);
  return service && { kind: "service", entitlement: service.entitlement };
}
