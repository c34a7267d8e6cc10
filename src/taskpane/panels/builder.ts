/**
 * The Build tab: pick a function, fill its arguments (typed or from the selection), preview the formula, insert it.
 * What cannot be right is refused with a sentence saying what to fix (builder-input.ts); HISTORY offers rolling ranges.
 */
import { PRICE_OPTIONAL_FIELDS, todayIso } from "../../api";
import { DEFAULT_HISTORY_FIELDS } from "../../functions/fields";
import { checkDateOrder, orderedFields, readDateInput, readFieldsInput } from "../builder-input";
import { FUNCTIONS, findFunction, type FunctionSpec, type ParameterSpec } from "../catalogue";
import { conversionsFromLists } from "../../functions/conversion-args";
import { byId, h, replace } from "../dom";
import { argFromInput, buildFormula, FormulaError, type FormulaArg } from "../formula";
import type { PaneContext } from "../pane-context";
import { plainWords } from "../plain-errors";

/** The rolling ranges HISTORY offers in one click: label and days back from today. */
const ROLLING_RANGES: readonly [string, number][] = [
  ["last 30 days", 30],
  ["last 90 days", 90],
  ["last year", 365],
];

/** HISTORY's default columns ticked and nothing else: the formula leaves `fields` blank, as the function's default. */
function isDefaultHistory(spec: FunctionSpec, ticked: readonly string[]): boolean {
  return spec.name === "HISTORY" && ticked.length === DEFAULT_HISTORY_FIELDS.length && DEFAULT_HISTORY_FIELDS.every((field) => ticked.includes(field));
}

/**
 * The ids a currency or unit argument offers: the conversions of the instrument typed in the first argument, or
 * every id of the reference list while no single known instrument is named.
 */
function conversionChoices(context: PaneContext, kind: "currency" | "unit"): { id: string; description: string }[] {
  const lists = context.lists();
  const first = document.querySelector<HTMLInputElement>('#args [data-index="0"]');
  const symbol = first && argFromInput(first.value, "text").kind === "text" ? first.value.trim().toUpperCase() : "";
  const record = lists.instruments.find((item) => item.symbol.toUpperCase() === symbol);
  if (record !== undefined) {
    const { currencies, units } = conversionsFromLists(record, lists.references);
    return kind === "currency" ? currencies : units;
  }
  return lists.references.find((group) => group.type === (kind === "currency" ? "Currency" : "UnitOfMeasure"))?.items ?? [];
}

/** Fills the currency and unit selects for the instrument now named; a choice still offered stays chosen. */
function fillConversionChoices(context: PaneContext): void {
  for (const select of document.querySelectorAll<HTMLSelectElement>("#args select[data-conversion]")) {
    const kind = select.dataset["conversion"] === "currency" ? "currency" : "unit";
    const chosen = select.value;
    replace(select, h("option", { value: "" }, "(the instrument's own)"), ...conversionChoices(context, kind).map((item) => h("option", { value: item.id }, `${item.id} · ${item.description}`)));
    select.value = [...select.options].some((option) => option.value === chosen) ? chosen : "";
  }
}

/** An argument's box: a select for a currency, a unit or a choice, else a text input. */
function argControl(parameter: ParameterSpec, index: number, id: string): HTMLInputElement | HTMLSelectElement {
  if (parameter.kind === "currency" || parameter.kind === "unit") {
    return h("select", { id, "data-index": index, "data-conversion": parameter.kind, "aria-describedby": `${id}-help` });
  }
  if (parameter.kind === "choice" && parameter.choices) {
    return h("select", { id, "data-index": index, "aria-describedby": `${id}-help` }, h("option", { value: "" }, parameter.optional ? "(default)" : "Choose…"), ...parameter.choices.map((c) => h("option", { value: String(c) }, String(c))));
  }
  return h("input", { id, "data-index": index, placeholder: parameter.help, "aria-describedby": `${id}-help`, autocomplete: "off", spellcheck: "false" });
}

export function builderPanel(context: PaneContext): void {
  const fnSelect = byId("fn", HTMLSelectElement);
  replace(fnSelect, ...FUNCTIONS.map((f) => h("option", { value: f.name }, `PRICES.${f.name}`)));

  function currentSpec(): FunctionSpec {
    return findFunction(fnSelect.value) ?? (FUNCTIONS[0] as FunctionSpec);
  }

  const refreshConversionChoices = (): void => { fillConversionChoices(context); };

  function argInput(parameter: ParameterSpec, index: number): HTMLElement {
    const id = `arg-${index}`;
    const label = h("label", { for: id }, `${parameter.name}${parameter.optional ? " (optional)" : ""}`);
    const help = h("span", { class: "sr-only", id: `${id}-help` }, parameter.help);
    let control = argControl(parameter, index, id);
    control.addEventListener("input", updatePreview);
    control.addEventListener("change", updatePreview);
    const fromSelection = h("button", { type: "button", "aria-label": `Fill ${parameter.name} from the selected cells`, title: "Use the selected cells" }, "⤓ Selection");
    fromSelection.addEventListener("click", () => {
      context.workbook
        .selection()
        .then((selection) => {
          // every box reads a typed A1 reference as one, so what is typed here later is read as typed
          if (control instanceof HTMLInputElement) {
            control.value = selection.address;
          } else {
            const input = h("input", { id, "data-index": index, value: selection.address, "aria-describedby": `${id}-help`, autocomplete: "off" });
            input.addEventListener("input", updatePreview);
            control.replaceWith(input);
            control = input;
          }
          if (index === 0) refreshConversionChoices();
          updatePreview();
        })
        .catch((error: unknown) => {
          byId("build-error").textContent = context.recordError("selection", error);
        });
    });
    return h("div", {}, label, help, h("div", { class: "row" }, control, fromSelection));
  }

  function renderBuilder(): void {
    const spec = currentSpec();
    byId("fn-help").textContent = spec.help;
    replace(byId("args"), ...spec.parameters.map((p, i) => argInput(p, i)));
    refreshConversionChoices();
    document.querySelector('#args [data-index="0"]')?.addEventListener("input", refreshConversionChoices);
    const fieldsParameter = spec.parameters.findIndex((p) => p.kind === "fields");
    const box = byId("fields-box");
    const isPrice = spec.name === "PRICE";
    box.hidden = fieldsParameter < 0 && !isPrice;
    const choices = fieldsParameter >= 0 ? spec.parameters[fieldsParameter]?.choices ?? [] : PRICE_OPTIONAL_FIELDS;
    byId("fields-legend").textContent = spec.name === "PRICE" ? "Field" : spec.name === "HISTORY" ? "Columns (written in the table's order)" : "Columns";
    replace(
      byId("presets"),
      ...(spec.name === "HISTORY"
        ? [
            h("span", { class: "muted" }, "Rolling range: "),
            ...ROLLING_RANGES.map(([label, days]) => h("button", { type: "button", class: "link", onclick: () => { rollingRange(days); } }, label)),
          ]
        : []),
    );
    replace(
      byId("fields"),
      ...choices.map((choice, i) => {
        const id = `field-${i}`;
        const box = h("input", { type: "checkbox", id, value: String(choice), name: isPrice && fieldsParameter < 0 ? "price-field" : "fields" });
        if (isPrice && fieldsParameter < 0) box.setAttribute("type", "radio");
        // HISTORY's own columns start ticked, so ticking an optional one adds to them (the date stays unless unticked)
        if (spec.name === "HISTORY" && (DEFAULT_HISTORY_FIELDS as readonly string[]).includes(String(choice))) box.checked = true;
        box.addEventListener("change", () => {
          if (isPrice) {
            const select = document.querySelector<HTMLSelectElement>('#args [data-index="2"]');
            if (select) select.value = box.value;
          }
          updatePreview();
        });
        return h("label", { for: id }, box, String(choice));
      }),
    );
    updatePreview();
  }

  /** `from` = TODAY()-days and `to` blank: the table keeps the last `days` days as time passes. */
  function rollingRange(days: number): void {
    const spec = currentSpec();
    const set = (name: string, value: string): void => {
      const control = document.querySelector<HTMLInputElement>(`#args [data-index="${spec.parameters.findIndex((p) => p.name === name)}"]`);
      if (control) control.value = value;
    };
    set("from", `TODAY()-${days}`);
    set("to", "");
    updatePreview();
  }

  function builderArgs(): FormulaArg[] {
    const spec = currentSpec();
    const ticked = [...document.querySelectorAll<HTMLInputElement>('#fields input[name="fields"]:checked')].map((b) => b.value);
    const args = spec.parameters.map((parameter, index): FormulaArg => {
      const control = document.querySelector<HTMLInputElement | HTMLSelectElement>(`#args [data-index="${index}"]`);
      const raw = control?.value ?? "";
      if (parameter.kind === "fields") return raw.trim() === "" && ticked.length > 0 && !isDefaultHistory(spec, ticked) ? { kind: "text", value: orderedFields(parameter.choices ?? [], ticked).join(",") } : readFieldsInput(parameter, raw);
      if (parameter.kind === "date") return readDateInput(parameter, raw);
      if (parameter.kind === "choice" && typeof parameter.choices?.[0] === "number") return argFromInput(raw, "number");
      if (["symbol", "symbols", "choice", "text", "currency", "unit"].includes(parameter.kind)) {
        // a typed A1 reference (A4:A8, Sheet1!B2) is a reference, as the Selection button writes it; anything else is text
        return argFromInput(raw, "text");
      }
      return argFromInput(raw);
    });
    checkDateOrder(spec, args, todayIso(new Date(context.now())));
    return args;
  }

  function updatePreview(): string | undefined {
    try {
      const formula = buildFormula(currentSpec(), builderArgs());
      byId("preview").textContent = formula;
      byId("build-error").textContent = "";
      return formula;
    } catch (error) {
      byId("preview").textContent = "";
      byId("build-error").textContent = error instanceof FormulaError ? error.message : plainWords(error);
      return undefined;
    }
  }

  function useInBuilder(symbol: string): void {
    context.selectTab("panel-build");
    const first = document.querySelector<HTMLInputElement>('#args [data-index="0"]');
    if (first && first.tagName === "INPUT") {
      first.value = symbol;
      refreshConversionChoices();
      updatePreview();
      first.focus();
    }
  }

  fnSelect.addEventListener("change", renderBuilder);
  byId("insert").addEventListener("click", () => {
    const formula = updatePreview();
    if (formula) void context.insert(formula);
  });
  context.events.on("build", useInBuilder);
  context.events.on("lists", refreshConversionChoices);
  renderBuilder();
}
