/**
 * Entry of workbench.html: the add-in without Excel. Installs the host's CustomFunctions/Office stand-ins, loads
 * the real functions.json and functions.js, fills the demo sheet with the sandbox's demo service key, draws the
 * grid, charts the selected HISTORY spill, and hosts the real task pane in an iframe whose Excel is this grid.
 * Signing in through the pane hands the functions the pane's client (the user's token).
 */
import { formatCellAddress, parseRangeAddress, type CellPosition } from "../formula/a1";
import { printValue, type PrintedValue } from "../host/values";
import { SHEET_NAME } from "../host/addresses";
import { type BookContent, EntrySheet, entryText } from "./cells";
import { Calculator } from "./calculator";
import { CardView } from "./card-view";
import { alignPaneSettings, loadConfig, localSettingsStorage, type WorkbenchConfig } from "./config";
import { DEMO_LAYOUT, type DemoSheet } from "./demo";
import { loadDemoSheet } from "./demo-loader";
import { demoSource } from "./demo-source";
import type { GridAccess } from "./excel-stub";
import { loadFunctions } from "./functions-host";
import { gridBridge } from "./grid-bridge";
import { GridView } from "./grid-view";
import { OtherSheets } from "./other-sheets";
import { byId, position } from "./page";
import { hostPane } from "./pane-frame";
import { sheetTabs } from "./sheet-tabs";
import { SidePanels } from "./side-panels";
import { SourceLine } from "./source-line";
import { typedCellStore } from "./typed-cells";
import { typedOffer } from "./typed-offer";

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

async function start(): Promise<WorkbenchApi> {
  const line = new SourceLine(byId("source"), await loadConfig());
  const config = line.config;
  await alignPaneSettings(localSettingsStorage(window.localStorage), config);
  const { runtime, metadata, addin } = await loadFunctions();
  const demoKey = demoSource(addin, config, line);
  await demoKey.use();

  const sheet = new EntrySheet();
  const otherSheets = new OtherSheets();
  sheetTabs({ bar: byId("sheet-tabs"), main: [byId("grid")], mainName: SHEET_NAME, other: byId("other-sheet"), sheets: otherSheets });
  // Built below, after the calculator and the panels that read them through closures; assigned once each.
  // eslint-disable-next-line prefer-const -- a forward reference: the closures above its assignment need the binding
  let view: GridView | undefined;
  // eslint-disable-next-line prefer-const -- a forward reference, as view
  let card: CardView | undefined;
  const calculator = new Calculator({
    runtime,
    metadata,
    log: (message) => { console.warn(message); },
    // Values arrive formula by formula: one redraw per frame at most, of the cells that changed.
    onSettled: () => {
      view?.scheduleRender();
      side.schedule();
    },
  });
  const redrawn = (done: Promise<void>): Promise<void> =>
    done.then(() => {
      view?.render();
      side.render();
    });
  /** Everything again (a refresh, another sign-in). */
  const recalculate = (): Promise<void> => redrawn(calculator.recalculate(sheet.book()));
  /** After an edit: only the formulas it touches. */
  const update = (): Promise<void> => redrawn(calculator.update(sheet.book()));
  const side = new SidePanels({ chart: byId("chart"), messages: byId("messages"), sheet, calculator, view: () => view, card: () => card });

  const typedCells = typedCellStore(window.localStorage);
  const enter = (at: CellPosition, typed: string): string | undefined => {
    const result = sheet.enter(at, typed);
    if (!result.ok) return result.message;
    typedCells.remember(formatCellAddress(at), typed);
    void update();
    return undefined;
  };
  const selectionListeners = new Set<() => void>();
  view = new GridView(byId("grid"), byId("formula", HTMLInputElement), byId("name-box"), byId("cell-message"), sheet, calculator, {
    onEnter: enter,
    keptSince: () => {
      const state = line.reach().state();
      return state.reachable ? undefined : state.since;
    },
    onSelect: (_selection, active) => {
      for (const listener of selectionListeners) listener();
      card?.show(active);
      const spill = view?.spillAt(active.row, active.col);
      const table = spill && !spill.blocked && spill.area.bottom > spill.area.top;
      if (spill && table && /^=\s*PRICES\.HISTORY\s*\(/i.test(entryText(sheet.get(spill.anchor)))) side.chartAnchor = spill.anchor;
      side.renderChart();
    },
  });
  card = new CardView(document, {
    cellAt: (at) => calculator.resultCell(at.row, at.col),
    cellElement: (at) => byId("grid").querySelector<HTMLElement>(`td[data-address="${formatCellAddress(at)}"]`) ?? undefined,
  });
  view.render();

  // The demo sheet: symbols picked from the instruments the demo account may see.
  line.set("Loading the demo sheet…");
  let demo: DemoSheet | undefined;
  const applyTyped = typedOffer({ store: typedCells, sheet, demoCells: () => demo?.cells ?? {}, recalculate });
  const loadDemo = (): Promise<boolean> =>
    loadDemoSheet({
      addin,
      config,
      tokens: demoKey.tokens,
      demoReach: line.demoReach,
      message: byId("cell-message"),
      loaded: (built) => {
        demo = built;
        sheet.load(built.cells);
        side.chartAnchor = position(built.historyAnchor);
      },
    });
  const retryDemo = (): void => {
    line.demoWaiting = true;
    setTimeout(() => {
      void loadDemo().then((loaded) => {
        if (!loaded) {
          retryDemo();
          return;
        }
        line.demoWaiting = false;
        line.demo();
        applyTyped();
        first = position(DEMO_LAYOUT.latestMids);
        void recalculate();
        view.select({ top: first.row, left: first.col, bottom: first.row, right: first.col });
      });
    }, 10_000);
  };
  if (!(await loadDemo())) retryDemo();
  applyTyped();
  line.demo();
  void recalculate();
  // The first view starts at column A, on the first latest mid; the chart below already shows the year of history.
  let first = demo ? position(DEMO_LAYOUT.latestMids) : { row: 0, col: 0 };
  view.select({ top: first.row, left: first.col, bottom: first.row, right: first.col });
  const onReach = (): void => {
    line.render();
    view.render();
  };
  line.demoReach.subscribe(onReach);

  window.WorkbenchGrid = gridBridge({ sheet, calculator, addin, otherSheets, selectionListeners, view: () => view, enter, update, recalculate, redrawn });
  hostPane({ frame: byId("pane", HTMLIFrameElement), addin, config, line, onReach, useDemo: demoKey.use, recalculate });

  return {
    config,
    // a getter: a demo sheet that could not load at first (service unreachable) fills later
    get demo() {
      return demo;
    },
    source: () => line.source,
    settled: async () => {
      await calculator.settled();
      view.render();
      side.render();
    },
    value: (address) => {
      const at = position(address);
      return printValue(calculator.value(at.row, at.col));
    },
    text: (address) => {
      const at = position(address);
      return view.textAt(at.row, at.col);
    },
    select: (address) => {
      const range = parseRangeAddress(address);
      if (!range) throw new Error(`${address} is not a range address`);
      view.select(range);
    },
    enter: (address, typed) => {
      const refusal = enter(position(address), typed);
      view.render();
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
