/** The dialog's sign-out steps against the real sandbox's discovery: where it sends the window, and what it tells the pane. */
import type { DialogMessage } from "../../src/auth/dialog-protocol";
import { finishSignOut, isSignOutReturn, receiveHint, runSignOut, SIGN_OUT_STATE_KEY, startSignOut, type SignOutPage } from "../../src/auth/sign-out-flow";
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

/** A dialog page over a plain map; returns it with what it sent, where it posted, and `fromPane` to play the pane's messages. */
function fakePage(
  search: string,
  storage = new Map<string, string>(),
  fetchFn: typeof fetch = caFetch(sandbox.ca),
): [SignOutPage, { sent: DialogMessage[]; posted: { url: string; fields: Record<string, string> }[]; fromPane(text: string): void }] {
  const handlers = new Set<(text: string) => void>();
  const seen = {
    sent: [] as DialogMessage[],
    posted: [] as { url: string; fields: Record<string, string> }[],
    fromPane: (text: string) => handlers.forEach((handler) => handler(text)),
  };
  return [
    {
      search,
      redirectUri: REDIRECT_URI,
      storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v), removeItem: (k) => void storage.delete(k) },
      fetch: fetchFn,
      post: (url, fields) => void seen.posted.push({ url, fields }),
      send: (message) => void seen.sent.push(message),
      status: () => undefined,
      newState: () => "state-1",
      onParentMessage: async (handler) => {
        handlers.add(handler);
        return () => void handlers.delete(handler);
      },
    },
    seen,
  ];
}

describe("sign-out in the dialog", () => {
  it("posts the window to the issuer's end_session_endpoint with the client id, the exact redirect URI, a state and the hint; nothing in the URL", async () => {
    const storage = new Map<string, string>();
    const [page, seen] = fakePage("?action=sign-out", storage);
    await startSignOut(page, { authority: sandbox.issuer, clientId: "prices-excel-addin", scope: "sandbox.physicalprices.api" }, "id-token-1");
    expect(seen.sent).toEqual([]);
    expect(seen.posted).toEqual([
      {
        url: `${sandbox.issuer}/session/end`,
        fields: { client_id: "prices-excel-addin", post_logout_redirect_uri: REDIRECT_URI, state: "state-1", id_token_hint: "id-token-1" },
      },
    ]);
    expect(new URL(seen.posted[0]?.url ?? "").search).toBe("");
    expect(storage.get(SIGN_OUT_STATE_KEY)).toBe("state-1");
    expect([...storage.values()].join("\n")).not.toContain("id-token-1");
  });

  it("asks the pane for the ID token by message when the URL says it can answer, and posts it", async () => {
    const [page, seen] = fakePage("?action=sign-out&hint=message");
    const running = runSignOut(page, { authority: sandbox.issuer, clientId: "prices-excel-addin", scope: "sandbox.physicalprices.api" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.sent).toEqual([{ type: "ready" }]);
    seen.fromPane(JSON.stringify({ type: "something-else" }));
    seen.fromPane(JSON.stringify({ type: "sign-out-hint", idToken: "id-token-2" }));
    await running;
    expect(seen.posted[0]?.fields["id_token_hint"]).toBe("id-token-2");
  });

  it("signs out without a hint when the pane has none, cannot answer, or does not answer in time", async () => {
    const config = { authority: sandbox.issuer, clientId: "prices-excel-addin", scope: "sandbox.physicalprices.api" };
    const [none, noneSeen] = fakePage("?action=sign-out&hint=message");
    const running = runSignOut(none, config);
    await new Promise((resolve) => setImmediate(resolve));
    noneSeen.fromPane(JSON.stringify({ type: "sign-out-hint" }));
    await running;
    expect(noneSeen.posted[0]?.fields).not.toHaveProperty("id_token_hint");

    const [old, oldSeen] = fakePage("?action=sign-out");
    await runSignOut(old, config);
    expect(oldSeen.sent).toEqual([]);
    expect(oldSeen.posted[0]?.fields).not.toHaveProperty("id_token_hint");

    const [silent, silentSeen] = fakePage("?action=sign-out&hint=message");
    await expect(receiveHint({ ...silent, hintTimeoutMs: 1 })).resolves.toBeUndefined();
    expect(silentSeen.sent).toEqual([{ type: "ready" }]);
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
    expect(seen.posted).toEqual([]);
    expect(seen.sent[0]).toMatchObject({ type: "error", code: "no_end_session" });
  });
});
