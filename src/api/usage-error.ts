/** The one error of a bad command line, for every tool (sandbox, relay, runner, start): its message is shown with the usage, exit code 2. */
import { SECURE_URL_RULE, secureUrl } from "./urls";

export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** `text` as given when it follows the URL rule, else a UsageError naming the flag and only the scheme and host (a path or query may hold a secret). */
export function urlArgument(flag: string, text: string): string {
  if (secureUrl(text) !== undefined) return text;
  let shown = "no URL";
  try {
    const url = new URL(text);
    shown = `${url.protocol}//${url.host}`;
  } catch {
    // an unreadable URL is shown as "no URL": its text may be a secret pasted in the wrong place
  }
  throw new UsageError(`${flag} must be ${SECURE_URL_RULE}, got ${shown}`);
}
