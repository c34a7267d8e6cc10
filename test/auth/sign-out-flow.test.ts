/** The dialog's sign-out steps against the real sandbox's discovery: where it sends the window, and what it tells the pane. */
import type { DialogMessage } from "../../src/auth/dialog-protocol";
import { finishSignOut, isSignOutReturn, SIGN_OUT_STATE_KEY, startSignOut, type SignOutPage } from "../../src/auth/sign-out-flow";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server";
import { caFetch } from "../helpers/sandbox";

const REDIRECT_URI = "https://localhost:3000/auth-dialog.html";
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, redirectUris: [REDIRECT_URI] });
});
afterAll(async () => {
  await sandbox?.close();
});

/** A dialog page over a plain map; returns it with what it sent and where it navigated. */
function fakePage(search: string, storage = new Map<string, string>(), fetchFn: typeof fetch = caFetch(sandbox.ca)): [SignOutPage, { sent: DialogMessage[]; navigated: string[] }] {
  const seen = { sent: [] as DialogMessage[], navigated: [] as string[] };
  return [
    {
      search,
      redirectUri: REDIRECT_URI,
      storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v), removeItem: (k) => void storage.delete(k) },
      fetch: fetchFn,
      navigate: (url) => void seen.navigated.push(url),
      send: (message) => void seen.sent.push(message),
      status: () => undefined,
      newState: () => "state-1",
    },
    seen,
  ];
}

describe("sign-out in the dialog", () => {
  it("sends the window to the issuer's end_session_endpoint with the client id, the exact redirect URI and a state", async () => {
    const storage = new Map<string, string>();
    const [page, seen] = fakePage("?action=sign-out", storage);
    await startSignOut(page, { authority: sandbox.issuer, clientId: "prices-excel-addin", scope: "sandbox.physicalprices.api" });
    expect(seen.sent).toEqual([]);
    const url = new URL(seen.navigated[0] ?? "");
    expect(`${url.origin}${url.pathname}`).toBe(`${sandbox.issuer}/session/end`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: "prices-excel-addin", post_logout_redirect_uri: REDIRECT_URI, state: "state-1" });
    expect(storage.get(SIGN_OUT_STATE_KEY)).toBe("state-1");
  });

  it("tells the pane it signed out only when the window comes back with the state it sent", () => {
    const storage = new Map([[SIGN_OUT_STATE_KEY, "state-1"]]);
    const [back, seen] = fakePage("?state=state-1", storage);
    expect(isSignOutReturn(back)).toBe(true);
    finishSignOut(back);
    expect(seen.sent).toEqual([{ type: "signed-out" }]);
    expect(storage.has(SIGN_OUT_STATE_KEY)).toBe(false);

    const [forged, forgedSeen] = fakePage("?state=other", new Map([[SIGN_OUT_STATE_KEY, "state-1"]]));
    finishSignOut(forged);
    expect(forgedSeen.sent[0]).toMatchObject({ type: "error", code: "bad_state" });
  });

  it("is not a sign-out return without a sign-out in progress (a sign-in callback also carries a state)", () => {
    const [page] = fakePage("?code=abc&state=xyz");
    expect(isSignOutReturn(page)).toBe(false);
  });

  it("answers an error when the token service has no sign-out page", async () => {
    const [page, seen] = fakePage("?action=sign-out", new Map(), (async () => new Response("{}", { status: 200, headers: { "content-type": "application/json" } })) as typeof fetch);
    await startSignOut(page, { authority: "https://issuer.example/auth", clientId: "c", scope: "s" });
    expect(seen.navigated).toEqual([]);
    expect(seen.sent[0]).toMatchObject({ type: "error", code: "no_end_session" });
  });
});
