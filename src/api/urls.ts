/**
 * The one URL rule for the service, its token service and every origin a command line names: https, or http to this
 * machine only (a bearer token or client secret must not cross a network in clear text), and no user or password in it.
 */

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

export const SECURE_URL_RULE = "an https URL (http only for localhost, 127.0.0.1 or [::1])";

/** The URL when `text` follows the rule, else undefined. */
export function secureUrl(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.username !== "" || url.password !== "") return undefined;
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) ? url : undefined;
}
