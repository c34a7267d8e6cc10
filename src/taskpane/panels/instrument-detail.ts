/** One instrument's detail under the search results: its fields with full names, what it offers, and insert buttons for those. */
import type { InstrumentRecord, ReferenceGroup, ReferenceType } from "../../api";
import { h, replace } from "../dom";
import { buildFormula } from "../formula";

export interface DetailActions {
  insert(formula: string): void;
}

function fullName(references: readonly ReferenceGroup[], type: ReferenceType, id: string): string {
  return references.find((g) => g.type === type)?.items.find((item) => item.id === id)?.description ?? id;
}

/** Fills `detail` with the instrument (or empties it for undefined). */
export function renderInstrumentDetail(detail: HTMLElement, instrument: InstrumentRecord | undefined, references: readonly ReferenceGroup[], actions: DetailActions): void {
  if (!instrument) {
    replace(detail);
    return;
  }
  const row = (label: string, value: string | readonly string[]): HTMLTableRowElement =>
    h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, typeof value === "string" ? value : value.join(", ") || "none"));
  const named = (label: string, id: string, name: string | undefined): HTMLTableRowElement => row(label, name && name !== id ? `${name} (${id})` : id);
  const averages = instrument.priceCalculationTypeIds.filter((t) => t !== "None");
  const symbolArg = { kind: "text", value: instrument.symbol } as const;
  replace(
    detail,
    h("h2", { style: "font-size:15px;margin:12px 0 4px" }, instrument.symbol),
    h("p", {}, instrument.description),
    h(
      "p",
      {},
      h("span", { class: "badge" }, instrument.hasForwardCurves ? "Forward curves" : "No forward curves"),
      h("span", { class: "badge" }, instrument.forecastTypeIds?.length ? `Forecasts: ${instrument.forecastTypeIds.join(", ")}` : "No forecasts"),
      h("span", { class: "badge" }, averages.length ? `Averages: ${averages.map((a) => a.replace("Average", "")).join(", ")}` : "No averages"),
    ),
    h(
      "table",
      { "aria-label": `Fields of ${instrument.symbol}` },
      h(
        "tbody",
        {},
        row("Symbol", instrument.symbol),
        row("Short description", instrument.descriptionShort),
        row("Product id", instrument.productId),
        named("Commodity", instrument.commodityId, instrument.commodity ?? fullName(references, "Commodity", instrument.commodityId)),
        named("Location", instrument.locationId, instrument.location),
        named("Currency", instrument.currencyId, instrument.currency ?? fullName(references, "Currency", instrument.currencyId)),
        named("Unit", instrument.unitOfMeasureId, instrument.unitOfMeasure ?? fullName(references, "UnitOfMeasure", instrument.unitOfMeasureId)),
        named("Incoterm", instrument.incotermId, instrument.incoterm ?? fullName(references, "Incoterm", instrument.incotermId)),
        named("Source", instrument.sourceId, instrument.source ?? fullName(references, "Source", instrument.sourceId)),
        row("Price type", instrument.priceType),
        row("Frequency", instrument.frequency),
        row("Status", instrument.status),
        row("Launch date", instrument.launchDate),
        row("Calculation types", instrument.priceCalculationTypeIds),
        row("Forecast types", instrument.forecastTypeIds ?? []),
        row("Forward curves", instrument.hasForwardCurves ? "yes" : "no"),
      ),
    ),
    h(
      "div",
      { class: "actions", style: "display:flex;gap:4px;flex-wrap:wrap;margin-top:6px" },
      instrument.hasForwardCurves ? h("button", { type: "button", onclick: () => { actions.insert(buildFormula("CURVE", [symbolArg])); } }, "Insert forward curve") : null,
      instrument.forecastTypeIds?.length ? h("button", { type: "button", onclick: () => { actions.insert(buildFormula("FORECAST", [symbolArg])); } }, "Insert forecast") : null,
      averages.length
        ? h("button", { type: "button", onclick: () => { actions.insert(buildFormula("AVERAGE", [symbolArg, { kind: "text", value: averages.includes("MonthlyAverage") ? "MonthlyAverage" : averages[0] ?? "" }])); } }, "Insert average")
        : null,
    ),
  );
  detail.focus();
}
