/**
 * First script of workbench-pane.html (the real task pane inside the workbench's iframe): before functions.js and
 * taskpane.js run, it gives the page an `Excel` that edits the workbench grid and a `CustomFunctions` registry for
 * the pane's copy of functions.js (the workbench evaluates with its own copy).
 */
import { createCustomFunctionsRuntime } from "../host/runtime";
import { createExcelStub, type GridAccess } from "./excel-stub";

const globals = globalThis as unknown as Record<string, unknown>;
const parentGrid = ((): GridAccess | undefined => {
  try {
    return (window.parent as unknown as { WorkbenchGrid?: GridAccess }).WorkbenchGrid;
  } catch {
    return undefined;
  }
})();

if (parentGrid) globals.Excel = createExcelStub(parentGrid);
globals.CustomFunctions = createCustomFunctionsRuntime().global;
// the workbench's grid shows cards whatever this frame's functions know: Settings reports the grid's support
if (parentGrid) globals.PricesPaneDataTypes = parentGrid.dataTypes?.();
if (parentGrid) globals.PricesPaneSignedOutEffect = "The workbench fills its sheet with the sandbox's demo key meanwhile; sign in to use your own account.";
