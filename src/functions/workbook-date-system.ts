/**
 * The workbook's date system, read in Excel's shared runtime and followed as it changes. The Excel
 * JavaScript API names it `Workbook.use1904DateSystem`, a preview API (ExcelApi BETA, in no numbered
 * requirement set yet); where it is missing the worksheet function DATE(1904, 1, 1) tells, through
 * `workbook.functions` (ExcelApi 1.2): 0 in the 1904 system, 1462 in the 1900 one. No event reports a
 * change of the setting, so it is read again after each calculation (at most every few seconds); outside
 * Excel (the headless host, the workbench) nothing is read and the host's own setting stands.
 */
import type { DateSystem } from "../formula/excel-dates";

/** Serial of 1904-01-01 in the 1900 date system. */
const SERIAL_OF_1904_IN_1900 = 1462;
const REREAD_MS = 3_000;

/** What the follower needs of the functions' hook. */
export interface DateSystemTarget {
  readonly dateSystem: DateSystem;
  setDateSystem(system: DateSystem): void;
  recalculate(): Promise<void>;
}

interface WorkbookWith1904 {
  use1904DateSystem?: boolean;
  load(names: string): unknown;
}

/** The workbook's date system, or undefined when this is not Excel or the host cannot tell. */
export async function readWorkbookDateSystem(): Promise<DateSystem | undefined> {
  if (typeof Excel === "undefined" || typeof Excel.run !== "function") return undefined;
  try {
    return await Excel.run(async (context) => {
      const workbook = context.workbook as unknown as WorkbookWith1904;
      try {
        workbook.load("use1904DateSystem");
        await context.sync();
        if (typeof workbook.use1904DateSystem === "boolean") return workbook.use1904DateSystem ? "1904" : "1900";
      } catch {
        // Not offered by this Excel: ask DATE instead.
      }
      const probe = context.workbook.functions.date(1904, 1, 1);
      probe.load("value");
      await context.sync();
      if (probe.value === 0) return "1904";
      if (probe.value === SERIAL_OF_1904_IN_1900) return "1900";
      return undefined;
    });
  } catch {
    return undefined;
  }
}

/**
 * Reads the setting now and after calculations; a change is handed to the functions and answered with a
 * full recalculation, so no cell keeps a date read in the other system. Resolves once the first read is done.
 */
export async function followWorkbookDateSystem(target: DateSystemTarget, read: () => Promise<DateSystem | undefined> = readWorkbookDateSystem): Promise<void> {
  let readAt = 0;
  let reading = false;
  const update = async (): Promise<void> => {
    if (reading) return;
    reading = true;
    readAt = Date.now();
    try {
      const system = await read();
      if (system !== undefined && system !== target.dateSystem) {
        target.setDateSystem(system);
        await target.recalculate();
      }
    } finally {
      reading = false;
    }
  };
  await update();
  if (typeof Excel === "undefined" || typeof Excel.run !== "function") return;
  try {
    await Excel.run(async (context) => {
      context.workbook.worksheets.onCalculated.add(async () => {
        if (Date.now() - readAt >= REREAD_MS) await update();
      });
      await context.sync();
    });
  } catch {
    // No calculation events (ExcelApi 1.8) here: the first read stands.
  }
}

/** Starts following once Office is ready; a no-op where there is no Office (tests, Node). */
export function followWhenOfficeReady(target: DateSystemTarget): void {
  if (typeof Office === "undefined" || typeof Office.onReady !== "function") return;
  try {
    Promise.resolve(Office.onReady())
      .then(() => followWorkbookDateSystem(target))
      .catch(() => undefined);
  } catch {
    // An Office stand-in without onReady's promise: nothing to follow.
  }
}
