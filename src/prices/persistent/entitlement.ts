/**
 * Whether this session may read a partition, and which of its instruments: the service says so, every session. The
 * access token's signature is verified against its issuer's published keys (OIDC discovery, JWKS) before its subject
 * names a partition (a second line: a forged payload names nobody); the service's own `/Instruments` list, asked once
 * per session with the token, says which instruments the caller may see today (a withdrawn one is not in it). The
 * token is sent only in the `Authorization` header and never kept.
 */
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from "jose";

/** What the signature check found. `unreachable`: the issuer's keys could not be read (then only the service can say). */
export type SubjectCheck = { readonly kind: "verified"; readonly subject: string } | { readonly kind: "invalid"; readonly reason: string } | { readonly kind: "unreachable"; readonly reason: string };

/** What the service said about the caller's instruments this session. */
export type EntitlementAnswer =
  | { readonly kind: "entitled"; readonly symbols: ReadonlySet<string> }
  | { readonly kind: "refused"; readonly status: number }
  | { readonly kind: "unreachable"; readonly reason: string };

type Fetch = (input: string, init?: { headers?: Record<string, string> }) => Promise<Response>;

const origin = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/** The subject a token's claims name (`sub`, else `client_id`/`azp` for a client's own token). */
function subjectOf(claims: Record<string, unknown>): string | undefined {
  const { sub, client_id: clientId, azp } = claims;
  return [sub, clientId, azp].find((value): value is string => typeof value === "string" && value !== "");
}

async function readJson(fetcher: Fetch, url: string): Promise<unknown> {
  const response = await fetcher(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

/**
 * Verifies the token's signature, issuer and expiry against the keys its issuer publishes. The issuer is trusted only
 * when it is `issuer` (given by whoever knows it) or, by default, on the API's own origin: a token naming an issuer of
 * its own choosing cannot bring its own keys.
 */
export async function verifiedSubject(token: string, apiUrl: string, fetcher: Fetch, issuer?: string): Promise<SubjectCheck> {
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(token);
  } catch {
    return { kind: "invalid", reason: "the access token is not a JWT" };
  }
  const iss = claims.iss;
  if (typeof iss !== "string") return { kind: "invalid", reason: "the access token names no issuer" };
  const trusted = issuer === undefined ? origin(iss) !== undefined && origin(iss) === origin(apiUrl) : iss === issuer;
  if (!trusted) return { kind: "invalid", reason: "the access token's issuer is not this service's" };
  let keys: JSONWebKeySet;
  try {
    const discovery = await readJson(fetcher, `${iss.replace(/\/+$/, "")}/.well-known/openid-configuration`);
    const jwksUri = typeof discovery === "object" && discovery !== null ? (discovery as Record<string, unknown>).jwks_uri : undefined;
    if (typeof jwksUri !== "string" || origin(jwksUri) !== origin(iss)) return { kind: "invalid", reason: "the issuer publishes no keys of its own" };
    keys = (await readJson(fetcher, jwksUri)) as JSONWebKeySet;
  } catch (error) {
    return { kind: "unreachable", reason: error instanceof Error ? error.message : String(error) };
  }
  try {
    const { payload } = await jwtVerify(token, createLocalJWKSet(keys), { issuer: iss });
    const subject = subjectOf(payload);
    return subject === undefined ? { kind: "invalid", reason: "the access token names no subject" } : { kind: "verified", subject };
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "invalid";
    return { kind: "invalid", reason: `the access token does not verify against its issuer's keys (${code})` };
  }
}

const UNREACHABLE = new Set([502, 503, 504]);

/**
 * The caller's instruments, as the service lists them with this token (`/Instruments` with no parameters: every
 * instrument the caller is authorized to view, spec 4.4). Upper-case symbols.
 */
export async function entitledSymbols(apiUrl: string, token: string, fetcher: Fetch): Promise<EntitlementAnswer> {
  let response: Response;
  try {
    response = await fetcher(`${apiUrl.replace(/\/+$/, "")}/Instruments`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
  } catch (error) {
    return { kind: "unreachable", reason: error instanceof Error ? error.message : String(error) };
  }
  if (UNREACHABLE.has(response.status)) return { kind: "unreachable", reason: `the service answered ${response.status}` };
  if (!response.ok) return { kind: "refused", status: response.status };
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { kind: "unreachable", reason: "the instrument list did not read" };
  }
  const instruments = typeof body === "object" && body !== null ? (body as Record<string, unknown>).instruments : undefined;
  if (!Array.isArray(instruments)) return { kind: "unreachable", reason: "the instrument list did not read" };
  const symbols = new Set<string>();
  for (const item of instruments) {
    const symbol = typeof item === "object" && item !== null ? (item as Record<string, unknown>).symbol : undefined;
    if (typeof symbol === "string") symbols.add(symbol.toUpperCase());
  }
  return { kind: "entitled", symbols };
}
