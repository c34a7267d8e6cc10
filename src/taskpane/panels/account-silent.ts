/**
 * The account header's memory across reloads: the user's own sign-out (kept in settings), and the silent sign-in on
 * load from the token service's session (prompt=none), which that sign-out turns off.
 */
import type { PaneContext } from "../pane-context";

/** Set when the user signs out here, cleared by a sign-in: a reload then stays signed out even if the token service's session outlived the sign-out. */
export const SIGNED_OUT_KEY = "prices.auth.signedOutByUser";

export function rememberSignedOut(context: PaneContext, signedOut: boolean): void {
  context.deps.settingsStorage.write(SIGNED_OUT_KEY, signedOut).catch((error: unknown) => context.recordError("settings", error));
}

/**
 * Asks the token service, with no window (prompt=none), whether this browser's session with it still holds, and
 * signs in from it. Not after the user signed out here, nor for a service not yet confirmed (that asks first, on a
 * click). A failure is the normal signed-out pane: no message beyond the account line. The account line says
 * "looking" while the question is out.
 */
export async function signInSilently(context: PaneContext, line: { looking(asking: boolean): void; render(): void }): Promise<void> {
  const silent = context.deps.silentSignIn;
  const store = context.store();
  if (!silent || store.state().status === "signed-in" || context.deps.settingsStorage.read(SIGNED_OUT_KEY) === true) return;
  const { baseUrl, authority, clientId, scope } = context.settings().environment;
  if (baseUrl !== context.session.trusted()) return;
  line.looking(true);
  line.render();
  const outcome = await silent({ authority, clientId, scope });
  line.looking(false);
  // a sign-in by click, or new settings, while the token service answered: theirs stands
  if (outcome.status === "signed-in" && context.store() === store && store.state().status !== "signed-in") {
    store.acceptUserTokens(outcome.tokens, outcome.account);
    context.announce(`Signed in as ${outcome.account}`);
  }
  line.render();
}
