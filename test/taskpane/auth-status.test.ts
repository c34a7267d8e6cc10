/** The pane's account line: a renewal that fails for a transient reason shows "retrying", never a sign-out. */
import { authStatusText } from "../../src/taskpane/auth-status";

const NOW = Date.parse("2026-11-24T10:00:00Z");

describe("the account line", () => {
  it("shows a failing renewal as retrying, with when, while the user stays signed in", () => {
    const text = authStatusText(
      { status: "signed-in", method: "user", account: "analyst", expiresAt: NOW + 120_000, renewable: true, renewal: { reason: "renewal-failing", message: "token renewal failing (...)", retryAt: NOW + 4_000, failures: 2 } },
      "API localhost:4000",
      NOW,
    );
    expect(text).toBe("Signed in as analyst · API localhost:4000 · renewal failing, retrying in 4 s (still signed in until 10:02 UTC)");
    expect(text).not.toMatch(/Not signed in/);
  });

  it("names a busy token service", () => {
    const text = authStatusText(
      { status: "signed-in", method: "service-key", account: "svc", expiresAt: NOW + 600_000, renewable: true, renewal: { reason: "token-service-busy", message: "", retryAt: NOW + 42_000, failures: 1 } },
      "API x",
      NOW,
    );
    expect(text).toMatch(/^Signed in as svc \(service key\) · API x · token service busy, retrying in 42 s/);
  });

  it("says signed in plainly when renewal is fine, and why not when signed out", () => {
    expect(authStatusText({ status: "signed-in", method: "user", account: "a", expiresAt: NOW, renewable: true }, "API x", NOW)).toBe("Signed in as a · API x");
    expect(authStatusText({ status: "signed-out", reason: "renewal failed: invalid_grant" }, "API x", NOW)).toBe("Not signed in (renewal failed: invalid_grant). Functions answer #N/A until you sign in. API x.");
  });
});
