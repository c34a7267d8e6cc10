/** The Build tab: pick a function, fill its arguments (typed or from the selection), preview the formula, insert it. */
import { PRICE_OPTIONAL_FIELDS } from "../../api";
import { FUNCTIONS, findFunction, type FunctionSpec, type ParameterSpec } from "../catalogue";
import { byId, h, replace } from "../dom";
import { argFromInput, buildFormula, FormulaError, type FormulaArg } from "../formula";
import type { PaneContext } from "../pane-context";
import { plainWords } from "../plain-errors";

export function builderPanel(context: PaneContext): void {
  const fnSelect = byId<HTMLSelectElement>("fn");
  replace(fnSelect, ...FUNCTIONS.map((f) => h("option", { value: f.name }, `PRICES.${f.name}`)));

  function currentSpec(): FunctionSpec {
    return findFunction(fnSelect.value) ?? (FUNCTIONS[0] as FunctionSpec);
  }

  function argInput(parameter: ParameterSpec, index: number): HTMLElement {
    const id = `arg-${index}`;
    const label = h("label", { for: id }, `${parameter.name}${parameter.optional ? " (optional)" : ""}`);
    const help = h("span", { class: "sr-only", id: `${id}-help` }, parameter.help);
    let control: HTMLInputElement | HTMLSelectElement;
    if (parameter.kind === "choice" && parameter.choices) {
      control = h("select", { id, "data-index": index, "aria-describedby": `${id}-help` }, h("option", { value: "" }, parameter.optional ? "(default)" : "Choose…"), ...parameter.choices.map((c) => h("option", { value: String(c) }, String(c))));
    } else {
      control = h("input", { id, "data-index": index, placeholder: parameter.help, "aria-describedby": `${id}-help`, autocomplete: "off", spellcheck: "false" });
    }
    control.addEventListener("input", updatePreview);
    control.addEventListener("change", updatePreview);
    const fromSelection = h("button", { type: "button", "aria-label": `Fill ${parameter.name} from the selected cells`, title: "Use the selected cells" }, "⤓ Selection");
    fromSelection.addEventListener("click", () => {
      context.workbook
        .selection()
        .then((selection) => {
          const input = h("input", { id, "data-index": index, "data-ref": "1", value: selection.address, "aria-describedby": `${id}-help`, autocomplete: "off" });
          input.addEventListener("input", updatePreview);
          control.replaceWith(input);
          control = input;
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
    const fieldsParameter = spec.parameters.findIndex((p) => p.kind === "fields");
    const box = byId("fields-box");
    const isPrice = spec.name === "PRICE";
    box.hidden = fieldsParameter < 0 && !isPrice;
    const choices = fieldsParameter >= 0 ? spec.parameters[fieldsParameter]?.choices ?? [] : PRICE_OPTIONAL_FIELDS;
    byId("fields-legend").textContent = spec.name === "INSTRUMENTS" ? "Instrument fields (spec 2.6)" : "Price fields (spec 2.5)";
    replace(
      byId("fields"),
      ...choices.map((choice, i) => {
        const id = `field-${i}`;
        const box = h("input", { type: "checkbox", id, value: String(choice), name: isPrice && fieldsParameter < 0 ? "price-field" : "fields" });
        if (isPrice && fieldsParameter < 0) box.setAttribute("type", "radio");
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

  function builderArgs(): FormulaArg[] {
    const spec = currentSpec();
    const checked = [...document.querySelectorAll<HTMLInputElement>('#fields input[name="fields"]:checked')].map((b) => b.value);
    return spec.parameters.map((parameter, index) => {
      const control = document.querySelector<HTMLInputElement | HTMLSelectElement>(`#args [data-index="${index}"]`);
      const raw = control?.value ?? "";
      if (control?.dataset["ref"]) return raw.trim() === "" ? { kind: "omitted" } : { kind: "ref", address: raw.trim() };
      if (parameter.kind === "fields") return raw.trim() === "" && checked.length > 0 ? { kind: "text", value: checked.join(",") } : argFromInput(raw, "text");
      if (parameter.kind === "choice" && typeof parameter.choices?.[0] === "number") return argFromInput(raw, "number");
      if (parameter.kind === "symbol" || parameter.kind === "symbols" || parameter.kind === "choice" || parameter.kind === "text") {
        return raw.trim() === "" ? { kind: "omitted" } : { kind: "text", value: raw.trim() };
      }
      return argFromInput(raw);
    });
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
  renderBuilder();
}
