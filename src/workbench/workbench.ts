/**
 * Entry of workbench.html: the add-in without Excel. Installs the host's CustomFunctions/Office stand-ins, loads
 * the real functions.json and functions.js, fills the demo sheet with the sandbox's demo service key, draws the
 * grid, charts the selected HISTORY spill, and hosts the real task pane in an iframe whose Excel is this grid.
 * Signing in through the pane hands the functions the pane's client (the user's token).
 */
import { todayIso } from "../api/dates";
import type { PricesAddin } from "../functions/hook";
import { formatCellAddress, parseCellAddress, parseRangeAddress, type CellPosition, type RangeRef } from "../formula/a1";
import { parseFunctionsMetadata } from "../host/metadata";
import { createOfficeRuntimeShim, createOfficeShim } from "../host/office";
import { createCustomFunctionsRuntime } from "../host/runtime";
import { isCellError, printValue, type PrintedValue } from "../host/values";
import { serviceKeyTokenProvider } from "../prices/tokens";
import { sleep } from "../prices/timeout";
import { type BookContent, EntrySheet, entryText } from "./cells";
import { Calculator } from "./calculator";
import { historyChartData, lineChartSvg } from "./chart";
import { alignPaneSettings, DEMO_SERVICE, loadConfig, localSettingsStorage, type WorkbenchConfig } from "./config";
import { buildDemoSheet, DEMO_INSTRUMENT_FIELDS, DEMO_LAYOUT, type DemoInstrument, type DemoSheet } from "./demo";
import type { GridAccess } from "./excel-stub";
import { displayText, errorText } from "./format";
import { GridView } from "./grid-view";
import { CardView, workbenchValueMode } from "./card-view";
import { ALL_DATA_TYPES } from "../functions/data-types";
import type { SpillInfo } from "./spills";
import { loadScript } from "../host/load-script";
import { demoTokenProvider, firstToken } from "./demo-tokens";
import { OtherSheets } from "./other-sheets";
import { sheetTabs } from "./sheet-tabs";
import { SHEET_NAME } from "../host/addresses";
import { ServiceReach, unreachableLine } from "../taskpane/service-reach";
import { typedCellStore } from "./typed-cells";

/** What the browser tests and the screenshot script use. */
export interface WorkbenchApi {
  readonly config: WorkbenchConfig;
  readonly demo: DemoSheet | undefined;
  /** "demo" while the functions use the demo service key, "pane" after sign-in through the pane. */
  source(): "demo" | "pane";
  /** Resolves when the latest recalculation has every value. */
  settled(): Promise<void>;
  /** A cell's value as the runner prints it (errors as `#N/A: message`). */
  value(address: string): PrintedValue;
  /** What the cell shows. */
  text(address: string): string;
  select(address: string): void;
  enter(address: string, typed: string): string | undefined;
  /** Every entry as typed (formulas, literals), by address. */
  entries(): Record<string, BookContent>;
}

declare global {
  interface Window {
    Workbench?: WorkbenchApi;
    WorkbenchReady?: Promise<WorkbenchApi>;
    WorkbenchGrid?: GridAccess;
  }
}

type PaneWindow = Window & { PricesAddin?: PricesAddin; PricesPane?: { store: { state(): { status: string; account?: string } }; reach: ServiceReach } };

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`workbench.html lacks #${id}`);
  return element as T;
}

function position(address: string): CellPosition {
  const parsed = parseCellAddress(address);
  if (!parsed) throw new Error(`${address} is not a cell address`);
  return parsed;
}

async function start(): Promise<WorkbenchApi> {
  const status = byId("source");
  const config = await loadConfig();
  await alignPaneSettings(localSettingsStorage(window.localStorage), config);

  const globals = globalThis as unknown as Record<string, unknown>;
  const runtime = createCustomFunctionsRuntime();
  globals.CustomFunctions = runtime.global;
  globals.Office = createOfficeShim();
  globals.OfficeRuntime = createOfficeRuntimeShim();
  const metadataResponse = await fetch("functions.json", { cache: "no-store" });
  if (!metadataResponse.ok) throw new Error(`could not load functions.json: ${metadataResponse.status}`);
  const metadata = parseFunctionsMetadata(await metadataResponse.json());
  await loadScript("functions.js");
  const addin = globalThis.PricesAddin;
  if (!addin) throw new Error("functions.js did not define PricesAddin");

  let tokenWait: string | undefined;
  const demoTokens = demoTokenProvider({
    fetch: (input, init) => fetch(input, init),
    fallback: () => serviceKeyTokenProvider({ tokenUrl: `${config.issuer}/token`, serviceName: DEMO_SERVICE.name, serviceKey: DEMO_SERVICE.key }),
    onWait: (reason) => {
      tokenWait = reason;
      if (source === "demo") demoStatus();
    },
  });
  let source: "demo" | "pane" = "demo";
  // the demo client's answers; after sign-in the pane's client reports to the pane's own
  const demoReach = new ServiceReach();
  let paneReach: ServiceReach | undefined;
  const reach = (): ServiceReach => (source === "pane" && paneReach ? paneReach : demoReach);
  let sourceText = "";
  /** The line under the title: where the data comes from, or, while the service cannot be reached, that. */
  let demoWaiting = false;
  const renderStatus = (): void => {
    const line = unreachableLine(reach().state());
    const offline = line === undefined ? undefined : demoWaiting ? `${line} The demo sheet fills by itself when the service answers again (tried every 10 s).` : line;
    status.textContent = offline ?? sourceText;
    status.classList.toggle("offline", offline !== undefined);
  };
  const setSource = (text: string): void => {
    sourceText = text;
    renderStatus();
  };
  const demoStatus = (): void => {
    sourceText =
      tokenWait !== undefined
        ? `Waiting for the demo key's token (the sandbox's token service allows a few per minutes): ${tokenWait}. The sheet fills as soon as it arrives.`
        : `Data: ${config.apiUrl}, through the sandbox's demo service key (${DEMO_SERVICE.name}): no account needed; sign in through the pane to use yours.`;
    renderStatus();
  };
  const useDemo = async (): Promise<void> => {
    source = "demo";
    await addin.configure({
      baseUrl: config.apiUrl,
      tokenProvider: demoTokens,
      fetch: demoReach.wrap((input, init) => fetch(input, init), config.apiUrl),
      recalculate: false,
      dataTypes: ALL_DATA_TYPES,
      valueMode: workbenchValueMode(location.search),
      // live cells on the sandbox's fast clock (npm start -- --live-demo)
      ...(config.liveClock ? { live: { clock: config.liveClock } } : {}),
    });
    demoStatus();
  };
  await useDemo();

  const sheet = new EntrySheet();
  const otherSheets = new OtherSheets();
  sheetTabs({ bar: byId("sheet-tabs"), main: [byId("grid")], mainName: SHEET_NAME, other: byId("other-sheet"), sheets: otherSheets });
  let view: GridView | undefined;
  let chartAnchor: CellPosition | undefined;
  const calculator = new Calculator({
    runtime,
    metadata,
    log: (message) => console.warn(message),
    // Values arrive formula by formula: one redraw per frame at most, of the cells that changed.
    onSettled: () => {
      view?.scheduleRender();
      scheduleSide();
    },
  });
  const redrawn = (done: Promise<void>): Promise<void> =>
    done.then(() => {
      view?.render();
      renderSide();
    });
  /** Everything again (a refresh, another sign-in). */
  const recalculate = (): Promise<void> => redrawn(calculator.recalculate(sheet.book()));
  /** After an edit: only the formulas it touches. */
  const update = (): Promise<void> => redrawn(calculator.update(sheet.book()));
  /**
   * Excel's `range.calculate()`: the range's formulas run again (taken out, then put back: the engine runs what an
   * edit touches), and what reads them; the rest of the sheet keeps its values and asks nothing.
   */
  const recalculateRange = async (area: RangeRef): Promise<void> => {
    const book = sheet.book();
    const without = { ...book.cells };
    for (let row = area.top; row <= area.bottom; row += 1) {
      for (let col = area.left; col <= area.right; col += 1) if (sheet.isFormula({ row, col })) delete without[formatCellAddress({ row, col })];
    }
    await calculator.update({ cells: without });
    await redrawn(calculator.update(book));
  };

  const chartBox = byId("chart");
  const messages = byId("messages");
  let chartHtml = "";
  const renderChart = (): void => {
    const spill = chartAnchor ? view?.spillList().find((s) => s.anchor.row === chartAnchor?.row && s.anchor.col === chartAnchor?.col) : undefined;
    const formula = spill ? entryText(sheet.get(spill.anchor)) : "";
    const grid = spill ? rangeValues(spill) : [];
    const data = spill && /^=\s*PRICES\.HISTORY\s*\(/i.test(formula) ? historyChartData(grid, `${formatCellAddress(spill.anchor)} ${formula}`) : undefined;
    const html = data ? lineChartSvg(data, 720, 280) : '<p class="hint">Select a cell of a PRICES.HISTORY result to chart it.</p>';
    if (html !== chartHtml) chartBox.innerHTML = html;
    chartHtml = html;
    chartBox.dataset["anchor"] = data && spill ? formatCellAddress(spill.anchor) : "";
  };
  const rangeValues = (spill: SpillInfo) => {
    const rows = [];
    for (let row = spill.area.top; row <= spill.area.bottom; row += 1) {
      const cells = [];
      for (let col = spill.area.left; col <= spill.area.right; col += 1) cells.push(calculator.value(row, col));
      rows.push(cells);
    }
    return rows;
  };
  let messagesText = "";
  const renderMessages = (): void => {
    const items: string[] = [];
    for (const anchor of view?.spillList() ?? []) {
      for (let row = anchor.area.top; row <= anchor.area.bottom && items.length < 30; row += 1) {
        for (let col = anchor.area.left; col <= anchor.area.right && items.length < 30; col += 1) {
          const text = errorText(calculator.value(row, col));
          if (text) items.push(`${formatCellAddress({ row, col })}  ${text}`);
        }
      }
    }
    const text = items.join("\n");
    if (text === messagesText && messages.firstChild) return;
    messagesText = text;
    const list = document.createElement("ul");
    for (const item of items) list.appendChild(document.createElement("li")).textContent = item;
    messages.replaceChildren(list);
  };
  let card: CardView | undefined;
  const renderSide = (): void => {
    card?.refresh();
    renderChart();
    renderMessages();
  };
  let sideFrame = 0;
  const scheduleSide = (): void => {
    if (sideFrame !== 0) return;
    sideFrame = requestAnimationFrame(() => {
      sideFrame = 0;
      renderSide();
    });
  };

  const typedCells = typedCellStore(window.localStorage);
  const enter = (at: CellPosition, typed: string): string | undefined => {
    const result = sheet.enter(at, typed);
    if (!result.ok) return result.message;
    typedCells.remember(formatCellAddress(at), typed);
    void update();
    return undefined;
  };
  const selectionListeners = new Set<() => void>();
  view = new GridView(byId("grid"), byId<HTMLInputElement>("formula"), byId("name-box"), byId("cell-message"), sheet, calculator, {
    onEnter: enter,
    keptSince: () => {
      const state = reach().state();
      return state.reachable ? undefined : state.since;
    },
    onSelect: (_selection, active) => {
      for (const listener of selectionListeners) listener();
      card?.show(active);
      const spill = view?.spillAt(active.row, active.col);
      const table = spill && !spill.blocked && spill.area.bottom > spill.area.top;
      if (spill && table && /^=\s*PRICES\.HISTORY\s*\(/i.test(entryText(sheet.get(spill.anchor)))) chartAnchor = spill.anchor;
      renderChart();
    },
  });
  card = new CardView(document, {
    cellAt: (at) => calculator.resultCell(at.row, at.col),
    cellElement: (at) => byId("grid").querySelector<HTMLElement>(`td[data-address="${formatCellAddress(at)}"]`) ?? undefined,
  });
  view.render();

  // The demo sheet: symbols picked from the instruments the demo account may see.
  setSource("Loading the demo sheet…");
  let demo: DemoSheet | undefined;
  const offer = byId("typed-offer");
  /** The cells typed before a reload, over the demo sheet, with the offer to clear them. */
  const applyTyped = (): void => {
    const cells = Object.entries(typedCells.all());
    for (const [address, typed] of cells) {
      const at = parseCellAddress(address);
      if (at) sheet.enter(at, typed);
    }
    offer.hidden = cells.length === 0;
    byId("typed-offer-text").textContent = `${cells.length} ${cells.length === 1 ? "cell" : "cells"} you typed before the reload ${cells.length === 1 ? "is" : "are"} kept.`;
  };
  byId("typed-offer-clear").addEventListener("click", () => {
    typedCells.forget();
    sheet.load(demo?.cells ?? {});
    offer.hidden = true;
    void recalculate();
  });
  const loadDemo = async (): Promise<boolean> => {
    try {
      await firstToken(demoTokens, sleep);
      const client = addin.client;
      if (!client) throw new Error("the functions have no client");
      const instruments = (await client.instruments([...DEMO_INSTRUMENT_FIELDS])) as unknown as DemoInstrument[];
      demo = buildDemoSheet(instruments, config.today ?? todayIso());
      sheet.load(demo.cells);
      chartAnchor = position(demo.historyAnchor);
      byId("cell-message").textContent = "";
      return true;
    } catch (error) {
      const offline = !demoReach.state().reachable;
      byId("cell-message").textContent = `The demo sheet could not load: ${error instanceof Error ? error.message : String(error)}. ${offline ? "The service cannot be reached: the sheet fills when it answers again (tried every 10 s)." : "Is the sandbox running (npm start)?"}`;
      return false;
    }
  };
  const retryDemo = (): void => {
    demoWaiting = true;
    setTimeout(() => {
      void loadDemo().then((loaded) => {
        if (!loaded) return retryDemo();
        demoWaiting = false;
        demoStatus();
        applyTyped();
        first = position(DEMO_LAYOUT.latestMids);
        void recalculate();
        view?.select({ top: first.row, left: first.col, bottom: first.row, right: first.col });
      });
    }, 10_000);
  };
  if (!(await loadDemo())) retryDemo();
  applyTyped();
  demoStatus();
  void recalculate();
  // The first view starts at column A, on the first latest mid; the chart below already shows the year of history.
  let first = demo ? position(DEMO_LAYOUT.latestMids) : { row: 0, col: 0 };
  view.select({ top: first.row, left: first.col, bottom: first.row, right: first.col });
  demoReach.subscribe(() => {
    renderStatus();
    view?.render();
  });

  // The pane's Excel: this grid.
  const cellValue = (row: number, col: number): string | number | boolean => {
    const value = calculator.value(row, col);
    if (value === null) return "";
    return isCellError(value) ? value.code : value;
  };
  window.WorkbenchGrid = {
    spillParent: (row, col) => {
      const spill = view?.spillAt(row, col);
      return spill && !spill.blocked && (spill.area.bottom > spill.area.top || spill.area.right > spill.area.left) ? { row: spill.anchor.row, col: spill.anchor.col } : undefined;
    },
    spillArea: (row, col) => {
      const spill = view?.spillAt(row, col);
      const spilled = spill && !spill.blocked && spill.anchor.row === row && spill.anchor.col === col;
      return spilled && (spill.area.bottom > spill.area.top || spill.area.right > spill.area.left) ? spill.area : undefined;
    },
    onSelectionChanged: (listener) => {
      selectionListeners.add(listener);
      return () => selectionListeners.delete(listener);
    },
    selection: () => view?.currentSelection().selection ?? { top: 0, left: 0, bottom: 0, right: 0 },
    entry: (row, col) => sheet.get({ row, col }) ?? "",
    numberFormat: (row, col) => view?.numberFormatAt(row, col) ?? "General",
    setNumberFormats: (cells) => view?.setNumberFormats(cells),
    value: cellValue,
    enter: (row, col, content) => {
      const typed = typeof content === "string" ? content : String(content);
      const refusal = enter({ row, col }, typed);
      if (refusal !== undefined) throw new Error(`InvalidArgument: ${refusal}`);
      view?.render();
    },
    enterAll: (cells) => {
      // one recalculation and one redraw for a whole range (Freeze writes hundreds of cells at once)
      for (const { row, col, content } of cells) {
        const result = sheet.enter({ row, col }, typeof content === "string" ? content : String(content));
        if (!result.ok) throw new Error(`InvalidArgument: ${result.message}`);
      }
      void update();
      view?.render();
    },
    usedRange: () => {
      const spills = view?.spillList() ?? [];
      const cells = sheet.positions();
      if (cells.length === 0) return undefined;
      const range = { top: Infinity, left: Infinity, bottom: 0, right: 0 };
      const grow = (r: RangeRef): void => {
        range.top = Math.min(range.top, r.top);
        range.left = Math.min(range.left, r.left);
        range.bottom = Math.max(range.bottom, r.bottom);
        range.right = Math.max(range.right, r.right);
      };
      for (const cell of cells) grow({ top: cell.row, left: cell.col, bottom: cell.row, right: cell.col });
      for (const spill of spills) grow(spill.area);
      return range;
    },
    recalculate,
    recalculateRange,
    dataTypes: () => addin.dataTypes,
    sheets: otherSheets,
  };
  const frame = byId<HTMLIFrameElement>("pane");
  frame.addEventListener("load", () => {
    const pane = frame.contentWindow as PaneWindow | null;

    pane?.PricesAddin?.onConfigured((client) => {
      if (client) {
        const reachOfPane = pane.PricesPane?.reach;
        if (reachOfPane && reachOfPane !== paneReach) {
          paneReach = reachOfPane;
          reachOfPane.subscribe(() => {
            renderStatus();
            view?.render();
          });
        }
        source = "pane";
        const state = pane.PricesPane?.store.state();
        setSource(`Data: ${config.apiUrl}. The functions use the pane's sign-in${state?.account ? ` (${state.account})` : ""}.`);
        void addin.configure({ client, recalculate: false }).then(recalculate);
      } else {
        void useDemo().then(recalculate);
      }
    });
  });
  frame.src = "workbench-pane.html";

  return {
    config,
    // a getter: a demo sheet that could not load at first (service unreachable) fills later
    get demo() {
      return demo;
    },
    source: () => source,
    settled: async () => {
      await calculator.settled();
      view?.render();
      renderSide();
    },
    value: (address) => {
      const at = position(address);
      return printValue(calculator.value(at.row, at.col));
    },
    text: (address) => {
      const at = position(address);
      return view?.textAt(at.row, at.col) ?? displayText(calculator.value(at.row, at.col));
    },
    select: (address) => {
      const range = parseRangeAddress(address);
      if (!range) throw new Error(`${address} is not a range address`);
      view?.select(range);
    },
    enter: (address, typed) => {
      const refusal = enter(position(address), typed);
      view?.render();
      return refusal;
    },
    entries: () => sheet.book().cells,
  };
}

window.WorkbenchReady = start().then(
  (api) => {
    window.Workbench = api;
    return api;
  },
  (error: unknown) => {
    const text = error instanceof Error ? error.message : String(error);
    const box = document.getElementById("cell-message");
    if (box) box.textContent = `The workbench could not start: ${text}`;
    throw error;
  },
);
