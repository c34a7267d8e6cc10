/** The Search tab: find an instrument by text and filters, insert common formulas for it, show its detail. */
import type { InstrumentRecord } from "../../api";
import { byId, h, replace } from "../dom";
import { buildFormula } from "../formula";
import type { PaneContext } from "../pane-context";
import { FILTER_KEYS, FILTER_LABELS, facetOptions, searchInstruments, type Filters } from "../search";
import { renderInstrumentDetail } from "./instrument-detail";
import { noMatchReason } from "../../functions/instrument-search";
import { plainWords } from "../plain-errors";
import { publicationOf } from "../publication-lookup";

const RESULT_LIMIT = 50;

const sentence = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

export function searchPanel(context: PaneContext): void {
  let filters: Filters = {};
  const insert = (formula: string): void => void context.insert(formula);

  function renderFilters(): void {
    const { instruments, references } = context.lists();
    replace(
      byId("filters"),
      ...FILTER_KEYS.map((key) => {
        const id = `f-${key}`;
        const select = h("select", { id }, h("option", { value: "" }, "Any"), ...facetOptions(instruments, key, references).map((o) => h("option", { value: o.value }, `${o.label} · ${o.count}`)));
        select.value = filters[key] ?? "";
        select.addEventListener("change", () => {
          filters[key] = select.value;
          renderResults();
        });
        return h("div", {}, h("label", { for: id }, FILTER_LABELS[key]), select);
      }),
    );
  }

  /** A rolling year: `from` a year before TODAY() and `to` blank (today), so the table moves forward every day. */
  function yearOfHistory(symbol: string): string {
    return buildFormula("HISTORY", [
      { kind: "text", value: symbol },
      { kind: "today", offsetDays: -365 },
    ]);
  }

  function renderResults(): void {
    const { instruments, references } = context.lists();
    const query = byId("search-text", HTMLInputElement).value;
    const found = searchInstruments(instruments, query, filters);
    const shown = found.slice(0, RESULT_LIMIT);
    byId("result-count").textContent =
      instruments.length === 0
        ? context.store().state().status === "signed-in"
          ? ""
          : "Sign in to search instruments."
        : `${found.length} of ${instruments.length} instruments${found.length > shown.length ? `, first ${shown.length} shown` : ""}`;
    const why = byId("no-match");
    const filtered = FILTER_KEYS.some((key) => filters[key]);
    why.textContent =
      instruments.length > 0 && found.length === 0 && query.trim() !== ""
        ? `${sentence(noMatchReason(instruments, query, references.find((g) => g.type === "Commodity")))}${filtered ? " Filters are on: clear them to search everything." : ""}`
        : "";
    replace(
      byId("results"),
      ...shown.map((i) =>
        h(
          "li",
          { class: "result" },
          h("button", { type: "button", class: "link symbol", "aria-label": `${i.symbol}: show details`, onclick: () => { showDetail(i); } }, i.symbol),
          h("div", { class: "muted" }, i.descriptionShort || i.description),
          h(
            "div",
            { class: "actions" },
            h("button", { type: "button", "aria-label": `Insert latest mid of ${i.symbol}`, onclick: () => { insert(buildFormula("MID", [{ kind: "text", value: i.symbol }])); } }, "Latest mid"),
            h("button", { type: "button", "aria-label": `Insert a year of history of ${i.symbol}`, onclick: () => { insert(yearOfHistory(i.symbol)); } }, "1y history"),
            h("button", { type: "button", "aria-label": `Insert metadata of ${i.symbol}`, onclick: () => { insert(buildFormula("INSTRUMENT", [{ kind: "text", value: i.symbol }])); } }, "Metadata"),
            h("button", { type: "button", "aria-label": `Use ${i.symbol} in the formula builder`, onclick: () => { context.events.emit("build", i.symbol); } }, "Build…"),
          ),
        ),
      ),
    );
  }

  let shownSymbol: string | undefined;
  function showDetail(instrument: InstrumentRecord | undefined): void {
    const detail = byId("detail");
    renderInstrumentDetail(detail, instrument, context.lists().references, { insert });
    shownSymbol = instrument?.symbol;
    if (!instrument) return;
    // when its assessment is due and whether today's is out: one small history request, filled in when it answers
    const line = h("p", { class: "publication muted", "aria-live": "polite" }, "Publication: reading recent assessments…");
    detail.querySelector("table")?.before(line);
    publicationOf(context, instrument.symbol)
      .then((publication) => {
        if (shownSymbol !== instrument.symbol) return;
        line.className = `publication ${publication.state}`;
        replace(line, h("strong", {}, "Publication: "), publication.text);
      })
      .catch((error: unknown) => {
        if (shownSymbol === instrument.symbol) line.textContent = `Publication: not known (${plainWords(error)})`;
      });
  }

  byId("search-text").addEventListener("input", () => { renderResults(); });
  byId("clear-filters").addEventListener("click", () => {
    filters = {};
    renderFilters();
    renderResults();
  });
  context.events.on("lists-loading", () => {
    byId("result-count").textContent = "Loading instruments…";
  });
  context.events.on("lists-failed", (text) => {
    byId("result-count").textContent = text;
  });
  context.events.on("lists", (lists) => {
    if (lists.instruments.length > 0) renderFilters();
    renderResults();
    if (lists.instruments.length === 0) showDetail(undefined);
  });
  renderResults();
}
