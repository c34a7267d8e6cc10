/**
 * Which part of the persistent cache a session may read: one partition per environment (API base URL) and signed-in
 * subject, so that one user's entitlement never serves another's, named by a hash so that neither appears in a file
 * or database name. The token itself is only read for its `sub` claim and never kept.
 */

/** Bumped with every add-in release and whenever the stored form changes: an entry of another version is never read. */
export const CACHE_FORMAT = 5;

export interface Partition {
  /** Hex SHA-256 of base URL and subject: the name of the file or database. */
  readonly id: string;
  readonly baseUrl: string;
  readonly subject: string;
  /** Add-in version and cache format together (`0.1.0/1`). */
  readonly version: string;
}

/** The subject a JWT access token names (`sub`, else `client_id`/`azp` for a client's own token); undefined for an opaque token. */
export function subjectOfToken(token: string): string | undefined {
  const payload = token.split(".")[1];
  if (payload === undefined) return undefined;
  try {
    const base64 = payload.replace(/-/g, "+").replace(/_/g, "/");
    const claims: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))));
    if (typeof claims !== "object" || claims === null) return undefined;
    const { sub, client_id: clientId, azp } = claims as Record<string, unknown>;
    const subject = [sub, clientId, azp].find((value): value is string => typeof value === "string" && value !== "");
    return subject;
  } catch {
    return undefined;
  }
}

/** The base URL as the cache compares it: no trailing slash, host in lower case. */
export function normalBaseUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, "")}`;
  } catch {
    return baseUrl.replace(/\/+$/, "");
  }
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export async function partitionFor(baseUrl: string, subject: string, addinVersion: string): Promise<Partition> {
  const base = normalBaseUrl(baseUrl);
  const version = `${addinVersion}/${CACHE_FORMAT}`;
  return { id: await sha256Hex(`${base}\n${subject}`), baseUrl: base, subject, version };
}
