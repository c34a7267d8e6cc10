/**
 * The task pane: sign-in, instrument search and detail, reference lists, the formula builder,
 * refresh and the selected cell's diagnostics. Office globals arrive through the adapters in
 * `PaneDependencies`, so this module runs against a stub workbook as well as against Excel.
 */
import { addDays, INSTRUMENT_FIELD_NAMES, PRICE_OPTIONAL_FIELDS, REFERENCE_TYPES, todayIso, type InstrumentRecord, type ReferenceGroup, type ReferenceType } from "../api";
import type { DialogHost } from "../auth/dialog-host";
import { confirmedTokenProvider } from "../auth/confirmed-provider";
import { apiHostLabel, confirmBaseUrl, confirmedBaseUrl, loadSettings, saveSettings, type AddinSettings, type SettingsStorage } from "../auth/settings";
import { signInWithDialog } from "../auth/sign-in";
import { cachedTokenEndpoint } from "../auth/token-response";
import { createTokenStore, type AuthState, type TokenStore } from "../auth/token-store";
import type { PricesAddin } from "../functions/hook";
import type { LineageKey, PricesClient, PricesClientOptions } from "../prices/types";
import { FUNCTIONS, findFunction, type FunctionSpec, type ParameterSpec } from "./catalogue";
import { assessedOrCarried, cellText, describeKey, describeLineage, historySummary, symbolsInFormulas, traceFormula } from "./diagnostics";
import { byId, h, replace, setUpTabs } from "./dom";
import type { RefreshScope, WorkbookHost } from "./excel-host";
import { argFromInput, buildFormula, FormulaError, type FormulaArg } from "./formula";
import { ErrorLog, plainWords } from "./plain-errors";
import { recordingClient } from "./recording-client";
import { FILTER_KEYS, FILTER_LABELS, facetOptions, searchInstruments, searchReferences, type Filters } from "./search";

export interface PaneDependencies {
  workbook: WorkbookHost;
  settingsStorage: SettingsStorage;
  dialogHost: DialogHost;
  /** Folder URL of the pane page; the dialog page sits beside it. */
  pageBase: string;
  /** The functions' hook (shared runtime); undefined when the pane runs alone. */
  addin: () => PricesAddin | undefined;
  createClient(options: PricesClientOptions): PricesClient;
  fetch?: typeof fetch;
  now?: () => number;
}

/** Instrument fields asked with the list, so search and detail show full names without more requests. */
const LIST_FIELDS = [...INSTRUMENT_FIELD_NAMES];
const RESULT_LIMIT = 50;

export interface Pane {
  readonly store: TokenStore;
  client(): PricesClient;
  settings(): AddinSettings;
}

export function startPane(deps: PaneDependencies): Pane {
  const now = deps.now ?? Date.now;
  const fetchFn = deps.fetch ?? ((input, init) => fetch(input, init));
  const errors = new ErrorLog();
  let settings = loadSettings(deps.settingsStorage);
  /** The base URL the user last confirmed for tokens; the client gets a token only for this one. */
  let trusted = confirmedBaseUrl(deps.settingsStorage);
  let instruments: InstrumentRecord[] = [];
  let references: ReferenceGroup[] = [];
  const filters: Filters = {};

  // ---- token store and client ------------------------------------------------------------------
  const makeStore = (): TokenStore =>
    createTokenStore({
      tokenUrl: cachedTokenEndpoint(fetchFn, settings.environment.authority, { timeoutMs: settings.timeoutMs }),
      clientId: settings.environment.clientId,
      scope: settings.environment.scope,
      fetch: fetchFn,
      now,
      timeoutMs: settings.timeoutMs,
    });
  const makeClient = (): PricesClient =>
    recordingClient(deps.createClient({
      baseUrl: settings.environment.baseUrl,
      tokenProvider: confirmedTokenProvider(store, settings.environment.baseUrl, () => trusted),
      fetch: fetchFn,
      limits: settings.limits,
      maxInFlight: settings.maxInFlight,
      timeoutMs: settings.timeoutMs,
      cache: {
        recentTtlMs: settings.cache.latestSeconds * 1000,
        pastTtlMs: settings.cache.pastSeconds * 1000,
        referenceTtlMs: settings.cache.referenceSeconds * 1000,
      },
      now,
    }), (where, error) => {
      errors.add(where, error, now());
      scheduleCounters();
    });
  let store = makeStore();
  let client = makeClient();
  let unsubscribe = store.subscribe(onAuthChange);

  function announce(text: string): void {
    byId("announce").textContent = text;
  }

  function recordError(where: string, error: unknown): string {
    const entry = errors.add(where, error, now());
    renderCounters();
    return entry.text;
  }

  // ---- sign-in ---------------------------------------------------------------------------------
  function renderAuth(state: AuthState): void {
    const signedIn = state.status === "signed-in";
    byId("sign-in").hidden = signedIn;
    byId("sign-out").hidden = !signedIn;
    byId("signin-extra").hidden = signedIn;
    const api = `API ${apiHostLabel(settings.environment)}`;
    byId("auth-status").textContent = signedIn
      ? `Signed in as ${state.account}${state.method === "service-key" ? " (service key)" : ""} · ${api}`
      : `Not signed in${state.reason ? ` (${state.reason})` : ""}. Functions answer #N/A until you sign in. ${api}.`;
  }

  let trustQuestion: Promise<boolean> | undefined;
  /**
   * Asks in the pane before a token may go to a base URL other than the one last confirmed (settings come from
   * per-user storage, but a changed or tampered base URL must still be seen and accepted by the user).
   */
  function askToTrust(): Promise<boolean> {
    const baseUrl = settings.environment.baseUrl;
    if (baseUrl === trusted) return Promise.resolve(true);
    trustQuestion ??= new Promise<boolean>((resolve) => {
      const box = byId("confirm-api");
      const yes = byId<HTMLButtonElement>("confirm-api-yes");
      const no = byId<HTMLButtonElement>("confirm-api-no");
      byId("confirm-api-host").textContent = new URL(baseUrl).host;
      byId("confirm-api-url").textContent = baseUrl;
      box.hidden = false;
      yes.focus();
      const answer = (ok: boolean): void => {
        yes.removeEventListener("click", onYes);
        no.removeEventListener("click", onNo);
        box.hidden = true;
        trustQuestion = undefined;
        if (!ok) return resolve(false);
        confirmBaseUrl(deps.settingsStorage, baseUrl)
          .then((confirmed) => {
            trusted = confirmed;
            resolve(true);
          })
          .catch((error: unknown) => {
            recordError("settings", error);
            resolve(false);
          });
      };
      const onYes = (): void => answer(true);
      const onNo = (): void => answer(false);
      yes.addEventListener("click", onYes);
      no.addEventListener("click", onNo);
    });
    return trustQuestion;
  }

  const notTrusted = (): string => `Sign-in cancelled: ${new URL(settings.environment.baseUrl).host} was not confirmed, so no token was requested for it.`;

  function onAuthChange(state: AuthState): void {
    renderAuth(state);
    const addin = deps.addin();
    if (state.status === "signed-in") {
      // every sign-in (and each renewal) hands the functions the same client; only a sign-in recalculates
      if (addin && addin.client !== client) void addin.configure({ client, recalculate: true });
      if (instruments.length === 0) void loadLists();
    } else {
      client.invalidate();
      instruments = [];
      references = [];
      renderResults();
      renderDetail(undefined);
      if (addin?.configured) void addin.reset({ recalculate: true });
    }
  }

  byId("sign-in").addEventListener("click", () => {
    const button = byId<HTMLButtonElement>("sign-in");
    button.disabled = true;
    askToTrust()
      .then(async (ok) => {
        if (!ok) {
          byId("auth-status").textContent = notTrusted();
          return;
        }
        byId("auth-status").textContent = "Signing in… complete the sign-in in the window that opened.";
        const { authority, clientId, scope } = settings.environment;
        const account = await signInWithDialog(deps.dialogHost, store, deps.pageBase, { authority, clientId, scope });
        announce(`Signed in as ${account}`);
      })
      .catch((error: unknown) => {
        byId("auth-status").textContent = `Sign-in did not complete: ${recordError("sign-in", error)}`;
      })
      .finally(() => {
        button.disabled = false;
      });
  });

  byId("sign-out").addEventListener("click", () => {
    store.signOut();
    announce("Signed out");
    byId<HTMLButtonElement>("sign-in").focus();
  });

  byId<HTMLFormElement>("sk-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = byId<HTMLInputElement>("sk-name");
    const key = byId<HTMLInputElement>("sk-key");
    const serviceKey = key.value;
    key.value = ""; // the key lives in the token store's closure only, not in the page
    askToTrust()
      .then((ok) => {
        if (!ok) {
          byId("auth-status").textContent = notTrusted();
          return;
        }
        return store.signInWithServiceKey(name.value, serviceKey);
      })
      .catch((error: unknown) => {
        byId("auth-status").textContent = `Service key sign-in failed: ${recordError("service key", error)}`;
      });
  });

  // ---- lists -------------------------------------------------------------------------------------
  async function loadLists(): Promise<void> {
    byId("result-count").textContent = "Loading instruments…";
    try {
      const [list, groups] = await Promise.all([
        client.instruments(LIST_FIELDS),
        Promise.all(REFERENCE_TYPES.map((type) => client.references(type))),
      ]);
      instruments = list;
      references = groups;
      renderFilters();
      renderResults();
      renderReferences();
    } catch (error) {
      byId("result-count").textContent = recordError("instrument list", error);
    }
  }

  // ---- search ------------------------------------------------------------------------------------
  function renderFilters(): void {
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

  function renderResults(): void {
    const query = byId<HTMLInputElement>("search-text").value;
    const found = searchInstruments(instruments, query, filters);
    const shown = found.slice(0, RESULT_LIMIT);
    byId("result-count").textContent =
      instruments.length === 0 ? (store.state().status === "signed-in" ? "" : "Sign in to search instruments.") : `${found.length} of ${instruments.length} instruments${found.length > shown.length ? `, first ${shown.length} shown` : ""}`;
    replace(
      byId("results"),
      ...shown.map((i) =>
        h(
          "li",
          { class: "result" },
          h("button", { type: "button", class: "link symbol", "aria-label": `${i.symbol}: show details`, onclick: () => renderDetail(i) }, i.symbol),
          h("div", { class: "muted" }, i.descriptionShort || i.description),
          h(
            "div",
            { class: "actions" },
            h("button", { type: "button", "aria-label": `Insert latest mid of ${i.symbol}`, onclick: () => void insert(buildFormula("MID", [{ kind: "text", value: i.symbol }])) }, "Latest mid"),
            h("button", { type: "button", "aria-label": `Insert a year of history of ${i.symbol}`, onclick: () => void insert(yearOfHistory(i.symbol)) }, "1y history"),
            h("button", { type: "button", "aria-label": `Insert metadata of ${i.symbol}`, onclick: () => void insert(buildFormula("INSTRUMENT", [{ kind: "text", value: i.symbol }])) }, "Metadata"),
            h("button", { type: "button", "aria-label": `Use ${i.symbol} in the formula builder`, onclick: () => useInBuilder(i.symbol) }, "Build…"),
          ),
        ),
      ),
    );
  }

  function yearOfHistory(symbol: string): string {
    const today = todayIso(new Date(now()));
    return buildFormula("HISTORY", [
      { kind: "text", value: symbol },
      { kind: "text", value: addDays(today, -365) },
      { kind: "text", value: today },
    ]);
  }

  function fullName(type: ReferenceType, id: string): string {
    return references.find((g) => g.type === type)?.items.find((item) => item.id === id)?.description ?? id;
  }

  function renderDetail(instrument: InstrumentRecord | undefined): void {
    const detail = byId("detail");
    if (!instrument) {
      replace(detail);
      return;
    }
    const row = (label: string, value: unknown): HTMLTableRowElement =>
      h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, Array.isArray(value) ? value.join(", ") || "none" : value === undefined ? "" : String(value)));
    const named = (label: string, id: string, name: string | undefined): HTMLTableRowElement => row(label, name && name !== id ? `${name} (${id})` : id);
    const averages = instrument.priceCalculationTypeIds.filter((t) => t !== "None");
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
          named("Commodity", instrument.commodityId, instrument.commodity ?? fullName("Commodity", instrument.commodityId)),
          named("Location", instrument.locationId, instrument.location),
          named("Currency", instrument.currencyId, instrument.currency ?? fullName("Currency", instrument.currencyId)),
          named("Unit", instrument.unitOfMeasureId, instrument.unitOfMeasure ?? fullName("UnitOfMeasure", instrument.unitOfMeasureId)),
          named("Incoterm", instrument.incotermId, instrument.incoterm ?? fullName("Incoterm", instrument.incotermId)),
          named("Source", instrument.sourceId, instrument.source ?? fullName("Source", instrument.sourceId)),
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
        instrument.hasForwardCurves ? h("button", { type: "button", onclick: () => void insert(buildFormula("CURVE", [{ kind: "text", value: instrument.symbol }])) }, "Insert forward curve") : null,
        instrument.forecastTypeIds?.length ? h("button", { type: "button", onclick: () => void insert(buildFormula("FORECAST", [{ kind: "text", value: instrument.symbol }])) }, "Insert forecast") : null,
        averages.length ? h("button", { type: "button", onclick: () => void insert(buildFormula("AVERAGE", [{ kind: "text", value: instrument.symbol }, { kind: "text", value: averages.includes("MonthlyAverage") ? "MonthlyAverage" : averages[0] ?? "" }])) }, "Insert average") : null,
      ),
    );
    detail.focus();
  }

  byId("search-text").addEventListener("input", () => renderResults());
  byId("clear-filters").addEventListener("click", () => {
    for (const key of FILTER_KEYS) delete filters[key];
    renderFilters();
    renderResults();
  });

  // ---- references --------------------------------------------------------------------------------
  const refType = byId<HTMLSelectElement>("ref-type");
  replace(refType, ...REFERENCE_TYPES.map((t) => h("option", { value: t }, t)));
  function renderReferences(): void {
    const group = references.find((g) => g.type === refType.value);
    const table = byId("ref-table");
    if (!group) {
      byId("ref-count").textContent = store.state().status === "signed-in" ? "Loading…" : "Sign in to see reference lists.";
      replace(table);
      return;
    }
    const items = searchReferences(group, byId<HTMLInputElement>("ref-text").value);
    byId("ref-count").textContent = `${items.length} of ${group.items.length} ${group.type} items`;
    replace(
      table,
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Id"), h("th", { scope: "col" }, "Description"), h("th", { scope: "col" }, "Sign"))),
      h("tbody", {}, ...items.map((item) => h("tr", {}, h("td", {}, item.id), h("td", {}, item.description), h("td", {}, item.sign)))),
    );
  }
  refType.addEventListener("change", renderReferences);
  byId("ref-text").addEventListener("input", renderReferences);

  // ---- formula builder ---------------------------------------------------------------------------
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
      deps.workbook
        .selection()
        .then((selection) => {
          const input = h("input", { id, "data-index": index, "data-ref": "1", value: selection.address, "aria-describedby": `${id}-help`, autocomplete: "off" });
          input.addEventListener("input", updatePreview);
          control.replaceWith(input);
          control = input;
          updatePreview();
        })
        .catch((error: unknown) => {
          byId("build-error").textContent = recordError("selection", error);
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
    selectTab("panel-build");
    const first = document.querySelector<HTMLInputElement>('#args [data-index="0"]');
    if (first && first.tagName === "INPUT") {
      first.value = symbol;
      updatePreview();
      first.focus();
    }
  }

  async function insert(formula: string): Promise<void> {
    try {
      const address = await deps.workbook.insertFormula(formula);
      announce(`Inserted ${formula} at ${address}`);
      byId("auth-status").dataset["lastInsert"] = address;
    } catch (error) {
      announce(recordError("insert", error));
    }
  }

  fnSelect.addEventListener("change", renderBuilder);
  byId("insert").addEventListener("click", () => {
    const formula = updatePreview();
    if (formula) void insert(formula);
  });

  // ---- refresh and diagnostics -------------------------------------------------------------------
  async function refresh(scope: RefreshScope): Promise<void> {
    const result = byId("refresh-result");
    try {
      let dropped: number;
      if (scope === "workbook") {
        dropped = client.invalidate();
      } else {
        const symbols = await symbolsInFormulas(await deps.workbook.formulas(scope), (address) => deps.workbook.values(address));
        dropped = symbols.length > 0 ? client.invalidate({ symbols }) : 0;
      }
      await deps.workbook.recalculate(scope);
      result.textContent = `Refreshed the ${scope}: ${dropped} cached ${dropped === 1 ? "value" : "values"} dropped, recalculated.`;
      renderCounters();
    } catch (error) {
      result.textContent = recordError(`refresh ${scope}`, error);
    }
  }
  byId("refresh-selection").addEventListener("click", () => void refresh("selection"));
  byId("refresh-sheet").addEventListener("click", () => void refresh("sheet"));
  byId("refresh-workbook").addEventListener("click", () => void refresh("workbook"));

  async function explainSelection(): Promise<void> {
    const out = byId("diagnostics");
    replace(out, h("p", { class: "muted" }, "Reading the selected cell…"));
    try {
      const selection = await deps.workbook.selection();
      const formula = selection.formulas[0]?.[0];
      if (typeof formula !== "string" || !formula.startsWith("=")) {
        replace(out, h("p", {}, `${selection.cell} holds no formula.`));
        return;
      }
      const traced = await traceFormula(formula, (address) => deps.workbook.values(address), todayIso(new Date(now())));
      if (!traced) {
        replace(out, h("p", {}, `${selection.cell}: `, h("code", {}, formula)), h("p", {}, "This is not a single PRICES call with plain arguments, so it cannot be traced."));
        return;
      }
      const blocks: HTMLElement[] = [];
      for (const key of traced.keys) blocks.push(await explainKey(key));
      replace(
        out,
        h("p", {}, h("strong", {}, selection.cell), " · ", h("code", {}, formula)),
        h("p", { class: "cell-value" }, "Value ", h("strong", {}, cellText(selection.values[0]?.[0]))),
        h("p", { class: "muted" }, `Function PRICES.${traced.call.name}: ${findFunction(traced.call.name)?.help ?? ""}`),
        ...blocks,
        traced.truncated ? h("p", { class: "muted" }, `Only the first ${traced.keys.length} values are explained.`) : null,
      );
    } catch (error) {
      replace(out, h("p", { class: "error" }, recordError("diagnostics", error)));
    }
  }

  async function explainKey(key: LineageKey): Promise<HTMLElement> {
    // lineage first: asking for the value below would itself count as a cache hit
    const line = describeLineage(client.lineage(key), now());
    const rows: [string, string][] = [["Asked for", describeKey(key)], ["Source", line.source], ["Request", line.request], ["Age", line.age]];
    if (line.request) {
      try {
        if ("fromDate" in key) rows.push(["Rows", historySummary(await client.history(key))]);
        else if ("symbol" in key) {
          const record = await client.price(key);
          rows.push(["Service answer", `low ${record.low} · mid ${record.mid} · high ${record.high}`], ["Assessment", record.assessmentDate], ["Revision", String(record.revision)], ["Assessed or carried", assessedOrCarried(record)]);
        }
      } catch (error) {
        rows.push(["Answer", plainWords(error)]);
      }
    }
    return h("table", { class: "lineage", "aria-label": `Lineage of ${describeKey(key)}` }, h("tbody", {}, ...rows.filter(([, v]) => v !== "").map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, v)))));
  }
  byId("trace").addEventListener("click", () => void explainSelection());

  let countersQueued = false;
  /** Many cells may fail at once (a recalculation): one redraw of the counters for all of them. */
  function scheduleCounters(): void {
    if (countersQueued) return;
    countersQueued = true;
    queueMicrotask(() => {
      countersQueued = false;
      renderCounters();
    });
  }

  function renderCounters(): void {
    const stats = client.stats();
    const rows: [string, number][] = [
      ["Values asked", stats.keysAsked],
      ["Cache hits", stats.cacheHits],
      ["Requests sent", stats.requestsSent],
      ["Retries", stats.retries],
      ["Values answered with an error", stats.errors],
      ["Failed requests", stats.failedRequests],
      ["In flight", stats.inFlight],
      ["Cached entries", stats.cacheEntries],
    ];
    replace(byId("counters"), h("tbody", {}, ...rows.map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, String(v))))));
    const list = errors.list();
    replace(
      byId("errors"),
      ...(list.length === 0 ? [h("li", { class: "muted" }, "No errors.")] : list.map((e) => h("li", { class: "error" }, `${new Date(e.at).toLocaleTimeString()} · ${e.where}: ${e.text}`))),
    );
  }

  // ---- settings ----------------------------------------------------------------------------------
  const field = (id: string): HTMLInputElement => byId<HTMLInputElement>(id);
  function renderSettings(): void {
    const env = settings.environment;
    field(env.kind === "sandbox" ? "env-sandbox" : "env-service").checked = true;
    field("set-baseUrl").value = env.baseUrl;
    field("set-authority").value = env.authority;
    field("set-clientId").value = env.clientId;
    field("set-scope").value = env.scope;
    field("set-maxSymbols").value = String(settings.limits.maxSymbols);
    field("set-maxDates").value = String(settings.limits.maxDates);
    field("set-maxRecords").value = String(settings.limits.maxRecords);
    field("set-maxInFlight").value = String(settings.maxInFlight);
    field("set-latest").value = String(settings.cache.latestSeconds);
    field("set-past").value = String(settings.cache.pastSeconds);
    field("set-reference").value = String(settings.cache.referenceSeconds);
    field("set-timeout").value = String(settings.timeoutMs);
  }

  byId<HTMLFormElement>("settings-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const number = (id: string): number => Number(field(id).value);
    const next: AddinSettings = {
      environment: {
        kind: field("env-service").checked ? "service" : "sandbox",
        baseUrl: field("set-baseUrl").value,
        authority: field("set-authority").value,
        clientId: field("set-clientId").value,
        scope: field("set-scope").value,
      },
      limits: { maxSymbols: number("set-maxSymbols"), maxDates: number("set-maxDates"), maxRecords: number("set-maxRecords") },
      cache: { latestSeconds: number("set-latest"), pastSeconds: number("set-past"), referenceSeconds: number("set-reference") },
      maxInFlight: number("set-maxInFlight"),
      timeoutMs: number("set-timeout"),
    };
    saveSettings(deps.settingsStorage, next)
      .then((saved) => {
        const environmentChanged = JSON.stringify(saved.environment) !== JSON.stringify(settings.environment);
        settings = saved;
        if (environmentChanged) {
          store.signOut("the environment changed");
          unsubscribe();
          store = makeStore();
          unsubscribe = store.subscribe(onAuthChange);
        }
        client = makeClient();
        const addin = deps.addin();
        if (addin?.configured && store.state().status === "signed-in") void addin.configure({ client, recalculate: true });
        renderSettings();
        renderAuth(store.state());
        byId("settings-result").textContent = "Settings saved.";
      })
      .catch((error: unknown) => {
        byId("settings-result").textContent = recordError("settings", error);
      });
  });

  // ---- start -------------------------------------------------------------------------------------
  const selectTab = setUpTabs(byId("tabs"), (panel) => {
    if (panel === "panel-cell") renderCounters();
    if (panel === "panel-refs") renderReferences();
  });
  renderAuth(store.state());
  renderSettings();
  renderBuilder();
  renderResults();
  renderCounters();

  return {
    get store() {
      return store;
    },
    client: () => client,
    settings: () => settings,
  };
}
