/**
 * The pane's session: settings, the base URL the user trusts, the token store and the client built from them.
 * Replaced as a whole when settings change; the functions (shared runtime) get the same client on sign-in and are
 * reset on sign-out.
 */
import { confirmedTokenProvider } from "../auth/confirmed-provider";
import { confirmedBaseUrl, loadSettings, type AddinSettings, type SettingsStorage } from "../auth/settings";
import { cachedTokenEndpoint } from "../auth/token-response";
import { createTokenStore, type AuthState, type TokenStore } from "../auth/token-store";
import type { PricesAddin } from "../functions/hook";
import type { PricesClient, PricesClientOptions } from "../prices/types";
import { recordingClient } from "./recording-client";
import { type PanePersistence, panePersistence } from "../sessions/pane-persistence";
import { IndexedDbCacheBackend } from "../prices/persistent/indexeddb-backend";
import { ServiceReach } from "./service-reach";

export interface SessionOptions {
  settingsStorage: SettingsStorage;
  addin: () => PricesAddin | undefined;
  createClient: (options: PricesClientOptions) => PricesClient;
  fetch: typeof fetch;
  now: () => number;
  /** Every failure the client reports (a cell's value or a request). */
  onClientError: (where: string, error: unknown) => void;
  /** After the session reacted to a change of the token store. */
  onAuth(state: AuthState): void;
}

export interface PaneSession {
  settings: () => AddinSettings;
  store: () => TokenStore;
  client: () => PricesClient;
  /** The base URL the user last confirmed for tokens; the client gets a token only for this one. */
  trusted(): string;
  setTrusted(baseUrl: string): void;
  /** Takes saved settings: a new token store when the environment changed (signing out of the old one), always a new client. */
  applySettings(saved: AddinSettings): void;
  /** The persistent cache of the signed-in user (src/sessions/pane-persistence.ts). */
  persistence(): PanePersistence;
  /** Whether the service answers the client's requests (the header's offline line). */
  readonly reach: ServiceReach;
}

export function createPaneSession(options: SessionOptions): PaneSession {
  const { fetch: fetchFn, now } = options;
  let settings = loadSettings(options.settingsStorage);
  let trusted = confirmedBaseUrl(options.settingsStorage);
  // The local sandbox is pinned to https://localhost (settings.ts), so a token for it never leaves this machine:
  // on whatever port npm start put it, it needs no confirmation.
  const trustedNow = (): string => (settings.environment.kind === "sandbox" ? settings.environment.baseUrl : trusted);
  const reach = new ServiceReach(now);
  const persistence = panePersistence({ backend: new IndexedDbCacheBackend(), settingsStorage: options.settingsStorage });

  const makeStore = (): TokenStore =>
    createTokenStore({
      tokenUrl: cachedTokenEndpoint(fetchFn, settings.environment.authority, { timeoutMs: settings.timeoutMs }),
      clientId: settings.environment.clientId,
      scope: settings.environment.scope,
      fetch: fetchFn,
      now,
      timeoutMs: settings.timeoutMs,
    });
  const makeClient = (): PricesClient =>
    recordingClient(
      options.createClient({
        baseUrl: settings.environment.baseUrl,
        tokenProvider: confirmedTokenProvider(store, settings.environment.baseUrl, trustedNow),
        fetch: reach.wrap(fetchFn, settings.environment.baseUrl),
        limits: settings.limits,
        maxInFlight: settings.maxInFlight,
        timeoutMs: settings.timeoutMs,
        cache: {
          recentTtlMs: settings.cache.latestSeconds * 1000,
          pastTtlMs: settings.cache.pastSeconds * 1000,
          referenceTtlMs: settings.cache.referenceSeconds * 1000,
        },
        now,
        storage: persistence.storage,
      }),
      options.onClientError,
    );

  function onStoreChange(state: AuthState): void {
    const addin = options.addin();
    if (state.status === "signed-in") {
      // every sign-in (and each renewal) hands the functions the same client, once the user's persistent cache is open; only a sign-in recalculates
      // the service's list of what this session may see confirms the cached values first (pane-persistence.ts);
      // a cell typed meanwhile waits for the client (the header already says "Signed in"), never answers "sign in"
      if (addin && addin.client !== client) addin.awaitClient();
      void persistence.signedIn(settings.environment.baseUrl, state.account, () => client.instruments(undefined, { fresh: true })).catch(() => undefined).finally(() => {
        // signed out while the cache opened: the reset below already answered the waiting cells
        if (addin && addin.client !== client && store.state().status === "signed-in") void addin.configure({ client, recalculate: true });
      });
    } else {
      client.invalidate();
      void persistence.signedOut().catch(() => undefined);
      if (addin?.configured || addin?.awaitingClient) void addin.reset({ recalculate: true });
    }
    options.onAuth(state);
  }

  let store = makeStore();
  let client = makeClient();
  let unsubscribe = store.subscribe(onStoreChange);

  return {
    settings: () => settings,
    store: () => store,
    client: () => client,
    trusted: trustedNow,
    persistence: () => persistence,
    reach,
    setTrusted(baseUrl) {
      trusted = baseUrl;
    },
    applySettings(saved) {
      const environmentChanged = JSON.stringify(saved.environment) !== JSON.stringify(settings.environment);
      settings = saved;
      if (environmentChanged) {
        store.signOut("the environment changed");
        unsubscribe();
        store = makeStore();
        unsubscribe = store.subscribe(onStoreChange);
      }
      client = makeClient();
      const addin = options.addin();
      if (addin?.configured && store.state().status === "signed-in") void addin.configure({ client, recalculate: true });
    },
  };
}
