/**
 * The sign-in dialog's flow with a stand-in MSAL, and the Office dialog adapter with a stand-in Office:
 * the pane always gets one answer (errors included), and only the add-in's own pages can answer.
 */
import type { CapturingNetworkClient } from "../../src/auth/capture-network";
import { officeDialogHost, type DialogHost } from "../../src/auth/dialog-host";
import { signOutWithDialog } from "../../src/auth/sign-in";
import { runDialogFlow, type DialogPage, type MsalModule } from "../../src/auth/dialog-flow";
import { parseDialogMessage, type DialogMessage } from "../../src/auth/dialog-protocol";

const CONFIG = { authority: "https://localhost:4000/auth", clientId: "prices-excel-addin", scope: "sandbox.physicalprices.api" };

const network: CapturingNetworkClient = {
  sendGetRequestAsync: () => Promise.reject(new Error("not used")),
  sendPostRequestAsync: () => Promise.reject(new Error("not used")),
  takeRefreshToken: () => "refresh-1",
};

interface FakeApp {
  initialize(): Promise<void>;
  handleRedirectPromise(): Promise<unknown>;
  loginRedirect(request: unknown): Promise<void>;
  clearCache(): Promise<void>;
}

/** An MSAL module whose application class is built by `make`; records the configurations it was given. */
function fakeMsal(make: (configuration: unknown) => FakeApp) {
  const configurations: unknown[] = [];
  const module = {
    PublicClientApplication: function PublicClientApplication(this: unknown, configuration: unknown) {
      configurations.push(configuration);
      return make(configuration);
    },
    BrowserCacheLocation: { MemoryStorage: "memoryStorage", SessionStorage: "sessionStorage" },
    ProtocolMode: { OIDC: "OIDC" },
  } as unknown as MsalModule;
  return { module, configurations };
}

function page(overrides: Partial<DialogPage>) {
  const sent: DialogMessage[] = [];
  const statuses: string[] = [];
  const value: DialogPage = {
    config: () => CONFIG,
    search: "",
    hash: "",
    redirectUri: "https://localhost:3000/auth-dialog.html",
    send: (message) => sent.push(message),
    status: (text) => statuses.push(text),
    loadMsal: () => Promise.reject(new Error("no MSAL in this test")),
    networkClient: () => network,
    now: () => 1_000_000,
    ...overrides,
  };
  return { page: value, sent, statuses };
}

describe("the sign-in dialog's flow", () => {
  it("answers the pane with an error when the MSAL chunk fails to load, instead of an unhandled rejection", async () => {
    const chunkError = Object.assign(new Error("Loading chunk msal failed. (error: https://localhost:3000/msal.js)"), { name: "ChunkLoadError" });
    const { page: dialog, sent } = page({ loadMsal: () => Promise.reject(chunkError) });
    await expect(runDialogFlow(dialog)).resolves.toBeUndefined();
    expect(sent).toEqual([{ type: "error", code: "ChunkLoadError", message: "the sign-in code could not load (ChunkLoadError); check the connection and try again" }]);
  });

  it("answers with an error when MSAL refuses its configuration", async () => {
    const refusing = fakeMsal(() => {
      throw Object.assign(new Error("invalid authority"), { errorCode: "url_parse_error" });
    });
    const { page: dialog, sent } = page({ loadMsal: async () => refusing.module });
    await runDialogFlow(dialog);
    expect(sent).toEqual([{ type: "error", code: "url_parse_error", message: "sign-in could not start (url_parse_error)" }]);
  });

  it("starts the redirect with the API scope and offline access, and sends nothing yet", async () => {
    const requests: unknown[] = [];
    const msal = fakeMsal(() => ({
      initialize: async () => undefined,
      handleRedirectPromise: async () => null,
      loginRedirect: async (request) => void requests.push(request),
      clearCache: async () => undefined,
    }));
    const { page: dialog, sent } = page({ loadMsal: async () => msal.module });
    await runDialogFlow(dialog);
    expect(sent).toEqual([]);
    expect(requests).toEqual([{ scopes: [CONFIG.scope, "offline_access"], prompt: "login" }]);
    expect(msal.configurations[0]).toMatchObject({ auth: { clientId: CONFIG.clientId, authority: CONFIG.authority, knownAuthorities: ["localhost:4000"] }, cache: { cacheLocation: "sessionStorage" } });
  });

  it("hands the tokens to the pane when coming back with the authorization response", async () => {
    const msal = fakeMsal(() => ({
      initialize: async () => undefined,
      handleRedirectPromise: async () => ({ accessToken: "access-1", idToken: "id-1", expiresOn: new Date(1_000_000 + 3_600_000), idTokenClaims: { preferred_username: "analyst" } }),
      loginRedirect: async () => undefined,
      clearCache: async () => undefined,
    }));
    const { page: dialog, sent } = page({ search: "?code=abc&state=xyz", loadMsal: async () => msal.module });
    await runDialogFlow(dialog);
    expect(sent).toEqual([{ type: "signed-in", account: "analyst", tokens: { accessToken: "access-1", expiresIn: 3600, refreshToken: "refresh-1", idToken: "id-1" } }]);
    // the pane reads the ID token back from the message text
    expect(parseDialogMessage(JSON.stringify(sent[0]))).toEqual(sent[0]);
    expect(msal.configurations[0]).toMatchObject({ cache: { cacheLocation: "memoryStorage" } });
  });

  it("answers with an error when the saved settings cannot be read", async () => {
    const { page: dialog, sent } = page({
      config: () => {
        throw new SyntaxError("Unexpected token");
      },
    });
    await runDialogFlow(dialog);
    expect(sent).toEqual([{ type: "error", code: "bad_config", message: "the sign-in window was opened without its settings" }]);
  });
});

/** A stand-in for the parts of Office that officeDialogHost uses; `deliver` plays a message from the dialog. */
function fakeOffice(dialogApi12 = true) {
  type Handler = (arg: { message: string; origin: string | undefined } | { error: number }) => void;
  const handlers = new Map<string, Handler>();
  const toChild: { message: string; options: unknown }[] = [];
  const office = {
    AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
    EventType: { DialogMessageReceived: "dialogMessageReceived", DialogEventReceived: "dialogEventReceived" },
    context: {
      requirements: { isSetSupported: (name: string, version: string) => dialogApi12 && name === "DialogApi" && version === "1.2" },
      ui: {
        displayDialogAsync(_url: string, _options: unknown, callback: (result: unknown) => void) {
          callback({
            status: "succeeded",
            value: {
              addEventHandler: (type: string, handler: Handler) => handlers.set(type, handler),
              messageChild: (message: string, options: unknown) => toChild.push({ message, options }),
              close: () => undefined,
            },
          });
        },
      },
    },
  } as unknown as typeof Office;
  return {
    office,
    toChild,
    deliver: (message: string, origin: string | undefined) => handlers.get("dialogMessageReceived")?.({ message, origin }),
  };
}

describe("the Office dialog adapter", () => {
  const OWN = "https://localhost:3000";
  const answer = JSON.stringify({ type: "signed-in", account: "analyst", tokens: { accessToken: "t", expiresIn: 60 } });

  it("passes on messages from the add-in's own origin only", async () => {
    const { office, deliver } = fakeOffice();
    const received: string[] = [];
    await officeDialogHost(office, OWN).open(`${OWN}/auth-dialog.html`, (text) => received.push(text), () => undefined);
    deliver(answer, "https://evil.example");
    deliver(answer, "https://localhost:4000");
    deliver(answer, "http://localhost:3000");
    expect(received).toEqual([]);
    deliver(answer, OWN);
    expect(received).toEqual([answer]);
  });

  it("refuses a message whose origin Office does not give, telling the pane why", async () => {
    const { office, deliver } = fakeOffice();
    const received: string[] = [];
    await officeDialogHost(office, OWN).open(`${OWN}/auth-dialog.html`, (text) => received.push(text), () => undefined);
    deliver(answer, undefined);
    expect(received).toHaveLength(1);
    expect(parseDialogMessage(received[0])).toMatchObject({ type: "error", code: "unknown_origin" });
  });
});

describe("handing the ID token to the sign-out window", () => {
  const OWN = "https://localhost:3000";

  it("answers the window's ready with the ID token through messageChild to the add-in's origin, never in the URL", async () => {
    const { office, toChild, deliver } = fakeOffice();
    const opened: string[] = [];
    const host: DialogHost = officeDialogHost(office, OWN);
    const wrapped: DialogHost = { canReply: host.canReply, open: (url, onMessage, onClosed) => (opened.push(url), host.open(url, onMessage, onClosed)) };
    const done = signOutWithDialog(wrapped, OWN, CONFIG, "id-token-1");
    await new Promise((resolve) => setImmediate(resolve));
    deliver(JSON.stringify({ type: "ready" }), OWN);
    expect(toChild).toEqual([{ message: JSON.stringify({ type: "sign-out-hint", idToken: "id-token-1" }), options: { targetOrigin: OWN } }]);
    deliver(JSON.stringify({ type: "signed-out" }), OWN);
    await expect(done).resolves.toBeUndefined();
    expect(new URL(opened[0] ?? "").searchParams.get("hint")).toBe("message");
    expect(opened.join(" ")).not.toContain("id-token-1");
  });

  it("does not promise a hint to the window when Office cannot message it (no DialogApi 1.2)", async () => {
    const { office, toChild, deliver } = fakeOffice(false);
    const opened: string[] = [];
    const host = officeDialogHost(office, OWN);
    expect(host.canReply).toBe(false);
    const done = signOutWithDialog({ canReply: false, open: (url, onMessage, onClosed) => (opened.push(url), host.open(url, onMessage, onClosed)) }, OWN, CONFIG, "id-token-1");
    await new Promise((resolve) => setImmediate(resolve));
    expect(new URL(opened[0] ?? "").searchParams.has("hint")).toBe(false);
    deliver(JSON.stringify({ type: "signed-out" }), OWN);
    await done;
    expect(toChild).toEqual([]);
  });
});
