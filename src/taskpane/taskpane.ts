/**
 * Entry of the task pane (taskpane.html, the shared runtime page that also loads functions.js).
 * Picks the Office adapters when running inside Excel and plain-browser ones otherwise, then starts the pane.
 */
import { createPricesClient } from "../prices";
import { defaultDialogHost } from "../auth/dialog-host";
import { officeReady } from "../auth/office-ready";
import { silentSignIn } from "../auth/silent-sign-in";
import { startPane, type Pane } from "./app";
import { excelWorkbookHost, type WorkbookHost } from "./excel-host";
import { excelFreezeWorkbook } from "./excel-freeze";
import type { FreezeWorkbook } from "./freeze";
import { userSettingsStorage } from "./settings-storage";

/** A workbook that is not there (the pane opened in a plain browser without a host stub). */
const noWorkbook: WorkbookHost = {
  selection: () => Promise.reject(new Error("no workbook: open the pane inside Excel")),
  insertFormula: () => Promise.reject(new Error("no workbook: open the pane inside Excel")),
  formulas: () => Promise.resolve([]),
  values: () => Promise.resolve([]),
  recalculate: () => Promise.resolve(),
  formulaCells: () => Promise.resolve([]),
  select: () => Promise.reject(new Error("no workbook: open the pane inside Excel")),
  onSelectionChanged: () => Promise.resolve(() => undefined),
};

const noWorkbookToFreeze = (): Promise<never> => Promise.reject(new Error("no workbook: open the pane inside Excel"));
const noFreezeWorkbook: FreezeWorkbook = {
  formulaResults: noWorkbookToFreeze,
  writeValues: noWorkbookToFreeze,
  restoreFormula: noWorkbookToFreeze,
  readSheet: noWorkbookToFreeze,
  writeSheet: noWorkbookToFreeze,
  deleteSheet: noWorkbookToFreeze,
  scopeArea: noWorkbookToFreeze,
};

/** Light or dark from the Office theme (body background), else from the browser's preference. */
function applyTheme(): void {
  // Office.context is there only inside Office (and officeTheme in some hosts); jsdom has no matchMedia
  const theme = (globalThis as { Office?: { context?: Partial<Office.Context> } }).Office?.context?.officeTheme;
  const background = theme?.bodyBackgroundColor;
  let dark = (window as { matchMedia?: Window["matchMedia"] }).matchMedia?.("(prefers-color-scheme: dark)").matches ?? false;
  if (typeof background === "string" && /^#?[0-9a-f]{6}$/i.test(background)) {
    const hex = background.replace("#", "");
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
    dark = 0.2126 * (r ?? 255) + 0.7152 * (g ?? 255) + 0.0722 * (b ?? 255) < 128;
  }
  document.documentElement.dataset["theme"] = dark ? "dark" : "light";
}

declare global {
  var PricesPane: Pane | undefined;
  /** Set by a host page that fills the sheet without this pane's sign-in (the workbench's pane bridge). */
  var PricesPaneSignedOutEffect: string | undefined;
  /** Set by taskpane.html's first script: Sign in was clicked before the pane was wired. */
  var PricesPendingSignIn: boolean | undefined;
  var PricesPaneWired: boolean | undefined;
}

async function main(): Promise<void> {
  await officeReady();
  applyTheme();
  const excel = (globalThis as { Excel?: typeof Excel }).Excel;
  const inExcel = excel !== undefined && typeof excel.run === "function";
  globalThis.PricesPane = startPane({
    workbook: inExcel ? excelWorkbookHost(excel) : noWorkbook,
    freezeWorkbook: inExcel ? excelFreezeWorkbook(excel) : noFreezeWorkbook,
    // per-user storage only: settings saved in a shared workbook must not decide where the token goes
    settingsStorage: userSettingsStorage(window),
    dialogHost: defaultDialogHost(),
    silentSignIn: (config) =>
      silentSignIn({ config, pageBase: new URL(".", window.location.href).href, loadMsal: () => import(/* webpackChunkName: "msal" */ "@azure/msal-browser") }),
    pageBase: new URL(".", window.location.href).href,
    addin: () => globalThis.PricesAddin,
    createClient: createPricesClient,
    ...(globalThis.PricesPaneSignedOutEffect === undefined ? {} : { signedOutEffect: globalThis.PricesPaneSignedOutEffect }),
  });
  // a Sign in click made before the pane was wired (taskpane.html remembers it) is acted on now, not lost
  globalThis.PricesPaneWired = true;
  if (globalThis.PricesPendingSignIn === true) document.getElementById("sign-in")?.click();
}

void main();
