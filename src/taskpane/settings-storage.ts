/**
 * The pane's settings storage: the user's own localStorage (the add-in origin, this user's profile), never
 * `Office.context.document.settings`, which is saved inside the workbook and so chosen by whoever shared it.
 */
import { memorySettingsStorage, type SettingsStorage } from "../auth/settings";

/** localStorage when the page has it, else memory (a webview that refuses storage); JSON text per key. */
export function userSettingsStorage(scope: { localStorage?: Storage } = globalThis): SettingsStorage {
  let storage: Storage | undefined;
  try {
    storage = scope.localStorage;
  } catch {
    storage = undefined; // reading localStorage itself throws where storage is blocked
  }
  if (!storage) return memorySettingsStorage();
  const local = storage;
  return {
    read: (key) => {
      const text = local.getItem(key);
      try {
        return text === null ? undefined : (JSON.parse(text) as unknown);
      } catch {
        return undefined;
      }
    },
    // in the executor, a full storage's or an unserialisable value's throw rejects the promise
    write: (key, value) =>
      new Promise((resolve) => {
        local.setItem(key, JSON.stringify(value));
        resolve();
      }),
  };
}
