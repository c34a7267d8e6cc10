/** The pane's value setting: stored per user, handed to the functions, worded by what this Excel shows. */
import { memorySettingsStorage } from "../../src/auth/settings";
import type { ValueMode } from "../../src/functions/data-types";
import { applyStoredValueMode, saveValueMode, storedValueMode, supportText, VALUE_MODE_KEY } from "../../src/taskpane/panels/value-mode";

function recordingAddin() {
  const modes: ValueMode[] = [];
  return { modes, addin: { setValueMode: async (mode: ValueMode) => void modes.push(mode) } };
}

describe("the value setting", () => {
  it("is plain until the user turns rich on, and survives as the user's setting", async () => {
    const storage = memorySettingsStorage();
    const { modes, addin } = recordingAddin();
    await applyStoredValueMode(storage, addin);
    expect(storedValueMode(storage)).toBe("plain");
    expect(modes).toEqual([]);
    await saveValueMode(storage, addin, "rich");
    expect(storage.read(VALUE_MODE_KEY)).toBe("rich");
    await applyStoredValueMode(storage, addin);
    expect(modes).toEqual(["rich", "rich"]);
    await saveValueMode(storage, addin, "plain");
    expect(storedValueMode(storage)).toBe("plain");
  });

  it("reads anything but 'rich' as plain", async () => {
    const storage = memorySettingsStorage();
    await storage.write(VALUE_MODE_KEY, { mode: "rich" });
    expect(storedValueMode(storage)).toBe("plain");
  });

  it("says what this Excel shows", () => {
    expect(supportText({ entities: true, numbers: true })).toMatch(/^This Excel shows them/);
    expect(supportText({ entities: true, numbers: false })).toMatch(/ExcelApi 1.19/);
    expect(supportText({ entities: false, numbers: false })).toMatch(/no data types/);
  });
});
