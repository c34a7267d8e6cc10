/** Bundled by persistent-idb.test.ts for Chromium: the real client and the persistent cache over real IndexedDB. */
import { createPricesClient, staticTokenProvider } from "../../src/prices";
import { openPersistentCache } from "../../src/prices/persistent";
import { IndexedDbCacheBackend } from "../../src/prices/persistent/indexeddb-backend";

const persistentTest = { createPricesClient, staticTokenProvider, openPersistentCache, IndexedDbCacheBackend };
export type PersistentTestApi = typeof persistentTest;

declare global {
  interface Window {
    persistentTest?: PersistentTestApi;
  }
}

window.persistentTest = persistentTest;
