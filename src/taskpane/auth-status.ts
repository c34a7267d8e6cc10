/** The account line's words: signed in (and, while renewal fails, that it is retrying), or why not. */
import type { AuthState } from "../auth/token-store";

/** What the functions do while nobody is signed in here; a host that fills them otherwise (the workbench's demo key) says so instead. */
export const SIGNED_OUT_EFFECT = "Functions answer #N/A until you sign in.";

/** While the pane asks the token service, without a window, whether its session still holds (silent sign-in). */
export const LOOKING_FOR_SESSION = "looking for your session at the token service…";

export function authStatusText(state: AuthState, api: string, now: number, signedOutEffect = SIGNED_OUT_EFFECT, lookingForSession = false): string {
  const why = lookingForSession ? LOOKING_FOR_SESSION : state.status === "signed-out" ? state.reason : undefined;
  if (state.status !== "signed-in") return `Not signed in${why ? ` (${why})` : ""}. ${signedOutEffect} ${api}.`;
  const who = `Signed in as ${state.account}${state.method === "service-key" ? " (service key)" : ""} · ${api}`;
  if (!state.renewal) return who;
  const inSeconds = Math.max(1, Math.ceil((state.renewal.retryAt - now) / 1000));
  const what = state.renewal.reason === "token-service-busy" ? "token service busy" : "renewal failing";
  return `${who} · ${what}, retrying in ${inSeconds} s (still signed in until ${new Date(state.expiresAt).toISOString().slice(11, 16)} UTC)`;
}
