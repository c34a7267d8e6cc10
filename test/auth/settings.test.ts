/** Settings read from storage: the local sandbox pinned to localhost, the confirmed API, and the token gate. */
import { confirmedTokenProvider } from "../../src/auth/confirmed-provider";
import {
  apiHostLabel,
  CONFIRMED_API_KEY,
  confirmBaseUrl,
  confirmedBaseUrl,
  loadSettings,
  memorySettingsStorage,
  parseSettings,
  SANDBOX_ENVIRONMENT,
  saveSettings,
  SETTINGS_KEY,
} from "../../src/auth/settings";
import { isAuthError } from "../../src/prices/errors";

const EVIL = { baseUrl: "https://evil.example/physical/v2", authority: "https://evil.example/auth", clientId: "evil-client", scope: "evil.scope" };

describe("the local sandbox environment", () => {
  it("is pinned: a 'sandbox' that points elsewhere becomes the default local sandbox", () => {
    expect(parseSettings({ environment: { kind: "sandbox", ...EVIL } }).environment).toEqual(SANDBOX_ENVIRONMENT);
    expect(parseSettings({ environment: { ...SANDBOX_ENVIRONMENT, baseUrl: EVIL.baseUrl } }).environment).toEqual(SANDBOX_ENVIRONMENT);
    expect(parseSettings({ environment: { kind: "sandbox", baseUrl: "https://localhost.evil.example/physical/v2", authority: "https://localhost.evil.example/auth" } }).environment).toEqual(SANDBOX_ENVIRONMENT);
  });

  it("may run on another localhost port, with its token service on the same port", () => {
    const moved = { kind: "sandbox", baseUrl: "https://localhost:4567/physical/v2", authority: "https://localhost:4567/auth", clientId: "other", scope: "other" };
    expect(parseSettings({ environment: moved }).environment).toEqual({ ...SANDBOX_ENVIRONMENT, baseUrl: moved.baseUrl, authority: moved.authority });
    expect(parseSettings({ environment: { ...moved, authority: "https://localhost:4999/auth" } }).environment).toEqual(SANDBOX_ENVIRONMENT);
    expect(parseSettings({ environment: { ...moved, baseUrl: "https://localhost:4567/elsewhere" } }).environment).toEqual(SANDBOX_ENVIRONMENT);
  });

  it("keeps a service's own URLs, and names the API host the status line shows", () => {
    const service = parseSettings({ environment: { kind: "service", ...EVIL } }).environment;
    expect(service).toEqual({ kind: "service", ...EVIL });
    expect(apiHostLabel(service)).toBe("evil.example");
    expect(apiHostLabel(SANDBOX_ENVIRONMENT)).toBe("localhost:4000 (local sandbox)");
  });

  it("round-trips through storage with the sandbox still pinned", async () => {
    const storage = memorySettingsStorage({ [SETTINGS_KEY]: { environment: { kind: "sandbox", ...EVIL } } });
    expect(loadSettings(storage).environment).toEqual(SANDBOX_ENVIRONMENT);
    const saved = await saveSettings(storage, { ...loadSettings(storage), environment: { ...SANDBOX_ENVIRONMENT, baseUrl: EVIL.baseUrl } });
    expect(saved.environment).toEqual(SANDBOX_ENVIRONMENT);
    expect(storage.values[SETTINGS_KEY]).toEqual(saved);
  });

  it("memory storage finds no Object.prototype members", () => {
    expect(memorySettingsStorage().read("constructor")).toBeUndefined();
  });
});

describe("the confirmed API", () => {
  it("is the built-in local sandbox until the user confirms another, then the one confirmed last", async () => {
    const storage = memorySettingsStorage();
    expect(confirmedBaseUrl(storage)).toBe(SANDBOX_ENVIRONMENT.baseUrl);
    await confirmBaseUrl(storage, "https://prices.example/physical/v2/");
    expect(storage.values[CONFIRMED_API_KEY]).toBe("https://prices.example/physical/v2");
    expect(confirmedBaseUrl(storage)).toBe("https://prices.example/physical/v2");
    await confirmBaseUrl(storage, "https://other.example/physical/v2");
    expect(confirmedBaseUrl(storage)).toBe("https://other.example/physical/v2");
  });

  it("cannot be an http URL, and a stored non-https value counts as none", async () => {
    const storage = memorySettingsStorage({ [CONFIRMED_API_KEY]: "http://evil.example/physical/v2" });
    expect(confirmedBaseUrl(storage)).toBe(SANDBOX_ENVIRONMENT.baseUrl);
    await expect(confirmBaseUrl(storage, "http://evil.example/physical/v2")).rejects.toThrow("only an https base URL can be confirmed");
  });
});

describe("the token gate", () => {
  it("hands out no token for a base URL other than the confirmed one", async () => {
    const asked: unknown[] = [];
    const store = { getToken: async (options?: { forceRefresh?: boolean }) => (asked.push(options), "user-token") };
    let confirmed = "https://trusted.example/physical/v2";
    const gate = confirmedTokenProvider(store, EVIL.baseUrl, () => confirmed);
    const refusal = await gate.getToken().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isAuthError(refusal)).toBe(true);
    expect((refusal as Error).message).toBe("not signed in: confirm evil.example in the Prices pane first");
    expect(asked).toEqual([]);
    confirmed = EVIL.baseUrl;
    await expect(gate.getToken({ forceRefresh: true })).resolves.toBe("user-token");
    expect(asked).toEqual([{ forceRefresh: true }]);
  });
});
