/** Tabs a panel adds for itself: a tab button in the tab list and its section in the page's main area. */
import { byId, h } from "./dom";

/** Creates `<button role=tab>` and `<section role=tabpanel id=panelId hidden>`; returns the section to fill. */
export function addPanelTab(panelId: string, label: string): HTMLElement {
  const tabId = `tab-${panelId.replace(/^panel-/, "")}`;
  byId("tabs").append(h("button", { role: "tab", type: "button", id: tabId, "aria-controls": panelId, "aria-selected": "false", tabindex: "-1" }, label));
  const section = h("section", { role: "tabpanel", id: panelId, "aria-labelledby": tabId, hidden: true });
  document.querySelector("main")?.append(section);
  return section;
}
