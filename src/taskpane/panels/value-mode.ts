/**
 * The value setting on the Settings tab: plain numbers (the default, what existing models expect) or prices that
 * carry their record as Excel data types (docs/data-types.md). Kept per user, like the other settings; says
 * whether this Excel can show data types at all.
 */
import type { SettingsStorage } from "../../auth/settings";
import type { DataTypeSupport, ValueMode } from "../../functions/data-types";
import type { PricesAddin } from "../../functions/hook";
import { byId, h } from "../dom";
import type { PaneContext } from "../pane-context";

export const VALUE_MODE_KEY = "prices.valueMode";

export function storedValueMode(storage: SettingsStorage): ValueMode {
  return storage.read(VALUE_MODE_KEY) === "rich" ? "rich" : "plain";
}

/** Hands the stored setting to the functions at start; plain needs nothing (it is their default). */
export async function applyStoredValueMode(storage: SettingsStorage, addin: Pick<PricesAddin, "setValueMode"> | undefined): Promise<void> {
  if (storedValueMode(storage) === "rich") await addin?.setValueMode("rich");
}

export async function saveValueMode(storage: SettingsStorage, addin: Pick<PricesAddin, "setValueMode"> | undefined, mode: ValueMode): Promise<void> {
  await storage.write(VALUE_MODE_KEY, mode);
  await addin?.setValueMode(mode);
}

/** What this Excel shows of the setting, in words. */
export function supportText(support: DataTypeSupport): string {
  if (support.numbers) return "This Excel shows them: prices display their currency and unit, and =A1.[Assessment date] reads their record.";
  if (support.entities) return "This Excel shows PRICES.ENTITY cards but not numbers with a record (that needs ExcelApi 1.19, Microsoft 365 Version 2504 or later): prices stay plain numbers.";
  return "This Excel has no data types (they need Microsoft 365 Version 2208 or later, or Excel on the web): every value stays a plain number.";
}

export function valueModePanel(context: PaneContext): void {
  const storage = context.deps.settingsStorage;
  const addin = context.deps.addin;
  void applyStoredValueMode(storage, addin()).catch((error: unknown) => context.recordError("value setting", error));
  const box = h("input", { type: "checkbox", id: "set-rich-values" });
  box.checked = storedValueMode(storage) === "rich";
  // a host page that evaluates with its own functions (the workbench) says what its grid shows
  const hostTypes = (globalThis as { PricesPaneDataTypes?: DataTypeSupport }).PricesPaneDataTypes;
  const status = h("p", { class: "muted", id: "rich-values-status", role: "status" }, supportText(hostTypes ?? addin()?.dataTypes ?? { entities: false, numbers: false }));
  box.addEventListener("change", () => {
    saveValueMode(storage, addin(), box.checked ? "rich" : "plain").then(
      () => { context.announce(box.checked ? "Prices now carry their record." : "Prices are plain numbers again."); },
      (error: unknown) => {
        status.textContent = context.recordError("value setting", error);
      },
    );
  });
  const fieldset = h(
    "fieldset",
    { id: "rich-values" },
    h("legend", {}, "Values"),
    h("label", {}, box, " Prices carry their record (Excel data types; plain numbers when off, the default)"),
    status,
  );
  byId("panel-settings").prepend(fieldset);
}
