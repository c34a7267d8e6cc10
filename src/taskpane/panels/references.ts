/** The References tab: one reference list (commodities, currencies, units…) at a time, filtered by text. */
import { REFERENCE_TYPES } from "../../api";
import { byId, h, replace } from "../dom";
import type { PaneContext } from "../pane-context";
import { searchReferences } from "../search";

export function referencesPanel(context: PaneContext): void {
  const refType = byId("ref-type", HTMLSelectElement);
  replace(refType, ...REFERENCE_TYPES.map((t) => h("option", { value: t }, t)));

  function renderReferences(): void {
    const group = context.lists().references.find((g) => g.type === refType.value);
    const table = byId("ref-table");
    if (!group) {
      byId("ref-count").textContent = context.store().state().status === "signed-in" ? "Loading…" : "Sign in to see reference lists.";
      replace(table);
      return;
    }
    const items = searchReferences(group, byId("ref-text", HTMLInputElement).value);
    byId("ref-count").textContent = `${items.length} of ${group.items.length} ${group.type} items`;
    replace(
      table,
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Id"), h("th", { scope: "col" }, "Description"), h("th", { scope: "col" }, "Sign"), h("th", { scope: "col" }, "Converts to"))),
      h(
        "tbody",
        {},
        ...items.map((item) =>
          h("tr", {}, h("td", {}, item.id), h("td", {}, item.description), h("td", {}, item.sign), h("td", { class: "conversions" }, item.availableConversionIds.join(", ") || "—")),
        ),
      ),
    );
  }

  refType.addEventListener("change", renderReferences);
  byId("ref-text").addEventListener("input", renderReferences);
  context.events.on("lists", renderReferences);
  context.events.on("tab", (panel) => {
    if (panel === "panel-refs") renderReferences();
  });
}
