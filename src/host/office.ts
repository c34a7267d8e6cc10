/** The little of `Office` and `OfficeRuntime` a custom-functions bundle touches outside Excel. */

export interface OfficeShim {
  onReady(callback?: (info: { host: string; platform: string }) => void): Promise<{ host: string; platform: string }>;
  initialize?: () => void;
  HostType: { Excel: "Excel" };
  PlatformType: { OfficeOnline: "OfficeOnline" };
  context: {
    host: "Excel";
    platform: "OfficeOnline";
    displayLanguage: string;
    contentLanguage: string;
    requirements: { isSetSupported(name: string, version?: string): boolean };
  };
}

export function createOfficeShim(): OfficeShim {
  const info = { host: "Excel", platform: "OfficeOnline" };
  return {
    onReady(callback) {
      callback?.(info);
      return Promise.resolve(info);
    },
    HostType: { Excel: "Excel" },
    PlatformType: { OfficeOnline: "OfficeOnline" },
    context: {
      host: "Excel",
      platform: "OfficeOnline",
      displayLanguage: "en-US",
      contentLanguage: "en-US",
      // The host implements the custom-functions runtime sets; say yes so feature checks take the normal path.
      requirements: { isSetSupported: () => true },
    },
  };
}

/** `OfficeRuntime.storage` kept in memory: enough for a bundle that caches there. */
export function createOfficeRuntimeShim(): { storage: Record<string, (...args: never[]) => Promise<unknown>> } {
  const items = new Map<string, string>();
  return {
    storage: {
      getItem: (key: string) => Promise.resolve(items.get(key) ?? null),
      setItem: (key: string, value: string) => {
        items.set(key, value);
        return Promise.resolve();
      },
      removeItem: (key: string) => {
        items.delete(key);
        return Promise.resolve();
      },
      getItems: (keys: string[]) => Promise.resolve(Object.fromEntries(keys.map((key) => [key, items.get(key) ?? null]))),
      setItems: (entries: Record<string, string>) => {
        for (const [key, value] of Object.entries(entries)) items.set(key, value);
        return Promise.resolve();
      },
      removeItems: (keys: string[]) => {
        for (const key of keys) items.delete(key);
        return Promise.resolve();
      },
      getKeys: () => Promise.resolve([...items.keys()]),
    },
  };
}
