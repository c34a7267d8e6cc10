/**
 * The silent sign-in (prompt=none through MSAL's ssoSilent) with a stand-in MSAL: it resolves, never rejects,
 * keeps MSAL's cache in memory, answers through auth-silent.html beside the pane, and says why it did not sign in.
 */
import type { CapturingNetworkClient } from "../../src/auth/capture-network";
import type { MsalModule } from "../../src/auth/msal-result";
import { SILENT_PAGE, silentSignIn } from "../../src/auth/silent-sign-in";

const CONFIG = { authority: "https://localhost:4000/auth", clientId: "prices-excel-addin", scope: "sandbox.physicalprices.api" };
const NOW = 1_000_000;

const network = (refreshToken: string | undefined): CapturingNetworkClient => ({
  sendGetRequestAsync: () => Promise.reject(new Error("not used")),
  sendPostRequestAsync: () => Promise.reject(new Error("not used")),
  takeRefreshToken: () => refreshToken,
});

/** An MSAL whose ssoSilent answers `answer`; records the configuration, the request and whether the cache was cleared. */
function fakeMsal(answer: () => Promise<unknown>) {
  const seen = { configurations: [] as unknown[], requests: [] as unknown[], cleared: 0 };
  const module = {
    PublicClientApplication: function PublicClientApplication(configuration: unknown) {
      seen.configurations.push(configuration);
      return {
        initialize: () => Promise.resolve(),
        ssoSilent: (request: unknown) => {
          seen.requests.push(request);
          return answer();
        },
        clearCache: () => {
          seen.cleared += 1;
          return Promise.resolve();
        },
      };
    },
    BrowserCacheLocation: { MemoryStorage: "memoryStorage", SessionStorage: "sessionStorage", LocalStorage: "localStorage" },
    ProtocolMode: { OIDC: "OIDC" },
  } as unknown as MsalModule;
  return { module, seen };
}

describe("silentSignIn", () => {
  it("signs in from the token service's session: tokens, the refresh token MSAL keeps private, the account; MSAL's cache in memory, then cleared", async () => {
    const msal = fakeMsal(() =>
      Promise.resolve({ accessToken: "access-1", idToken: "id-1", expiresOn: new Date(NOW + 600_000), idTokenClaims: { sub: "analyst", preferred_username: "analyst" }, account: { username: "analyst" } }),
    );
    const outcome = await silentSignIn({ config: CONFIG, pageBase: "https://localhost:3000/", loadMsal: async () => msal.module, networkClient: () => network("refresh-1"), now: () => NOW, timeoutMs: 5_000 });
    expect(outcome).toEqual({ status: "signed-in", account: "analyst", tokens: { accessToken: "access-1", expiresIn: 600, refreshToken: "refresh-1", idToken: "id-1" } });
    expect(msal.seen.configurations[0]).toMatchObject({
      auth: { clientId: CONFIG.clientId, authority: CONFIG.authority, redirectUri: `https://localhost:3000/${SILENT_PAGE}` },
      cache: { cacheLocation: "memoryStorage" },
      system: { protocolMode: "OIDC", iframeBridgeTimeout: 5_000 },
    });
    expect(msal.seen.requests).toEqual([{ scopes: [CONFIG.scope, "offline_access"], prompt: "none" }]);
    expect(msal.seen.cleared).toBe(1);
  });

  it("says login_required, quietly, when the token service has no session for this browser", async () => {
    const msal = fakeMsal(() => Promise.reject(Object.assign(new Error("login_required: End-User authentication is required"), { errorCode: "login_required" })));
    await expect(silentSignIn({ config: CONFIG, pageBase: "https://localhost:3000/", loadMsal: async () => msal.module, networkClient: () => network(undefined) })).resolves.toEqual({
      status: "no-session",
      code: "login_required",
    });
  });

  it("resolves with the reason when MSAL cannot load or times out, never rejecting", async () => {
    const chunk = Object.assign(new Error("Loading chunk msal failed"), { name: "ChunkLoadError" });
    await expect(silentSignIn({ config: CONFIG, pageBase: "https://localhost:3000/", loadMsal: () => Promise.reject(chunk) })).resolves.toEqual({ status: "no-session", code: "ChunkLoadError" });
    const msal = fakeMsal(() => Promise.reject(Object.assign(new Error("timed out"), { errorCode: "timed_out" })));
    await expect(silentSignIn({ config: CONFIG, pageBase: "https://localhost:3000/", loadMsal: async () => msal.module, networkClient: () => network(undefined) })).resolves.toEqual({ status: "no-session", code: "timed_out" });
  });

  it("settles as timed_out when MSAL never answers (a token service that hangs on discovery): the pane is never left looking", async () => {
    const msal = fakeMsal(() => new Promise<never>(() => undefined));
    await expect(silentSignIn({ config: CONFIG, pageBase: "https://localhost:3000/", loadMsal: async () => msal.module, networkClient: () => network(undefined), timeoutMs: 1 })).resolves.toEqual({
      status: "no-session",
      code: "timed_out",
    });
  });
});
