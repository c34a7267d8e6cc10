/** The pane keeps settings in the user's localStorage, never in the workbook's document settings. */
import { loadSettings, SANDBOX_ENVIRONMENT, saveSettings, SETTINGS_KEY } from "../../src/auth/settings";
import { userSettingsStorage } from "../../src/taskpane/settings-storage";

/** A Storage over a Map. */
function fakeLocalStorage(initial: Record<string, string> = {}): Storage & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

/** Workbook settings as a shared workbook could carry them, recording every use. */
function workbookSettings() {
  const used: string[] = [];
  const values = new Map<string, unknown>([[SETTINGS_KEY, { environment: { kind: "service", baseUrl: "https://evil.example/physical/v2", authority: "https://evil.example/auth" } }]]);
  return {
    used,
    settings: {
      get: (key: string) => (used.push(`get ${key}`), values.get(key)),
      set: (key: string, value: unknown) => (used.push(`set ${key}`), values.set(key, value)),
      saveAsync: (callback: (result: { status: string }) => void) => (used.push("saveAsync"), callback({ status: "succeeded" })),
    },
  };
}

describe("the pane's settings storage", () => {
  it("reads and writes the user's localStorage and never the workbook's settings", async () => {
    const workbook = workbookSettings();
    const local = fakeLocalStorage();
    const scope = { localStorage: local, Office: { context: { document: { settings: workbook.settings } } } };
    const storage = userSettingsStorage(scope);
    const settings = loadSettings(storage);
    expect(settings.environment).toEqual(SANDBOX_ENVIRONMENT);
    await saveSettings(storage, { ...settings, maxInFlight: 7 });
    expect(JSON.parse(local.items.get(SETTINGS_KEY) ?? "{}")).toMatchObject({ maxInFlight: 7, environment: SANDBOX_ENVIRONMENT });
    expect(workbook.used).toEqual([]);
  });

  it("treats unreadable text as no settings, and falls back to memory where localStorage is blocked", async () => {
    expect(loadSettings(userSettingsStorage({ localStorage: fakeLocalStorage({ [SETTINGS_KEY]: "{not json" }) })).environment).toEqual(SANDBOX_ENVIRONMENT);
    const blocked = Object.defineProperty({}, "localStorage", {
      get() {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
    }) as { localStorage?: Storage };
    const storage = userSettingsStorage(blocked);
    await storage.write("k", 1);
    expect(storage.read("k")).toBe(1);
  });
});
