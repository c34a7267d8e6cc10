/**
 * What the functions bundle sets up once as it loads: the add-in's hook (`PricesAddin`), the context every cell
 * shares, and the followers of Excel's date system and of the page's state. Errors become CustomFunctions.Error here
 * and nowhere else.
 */
import { todayIso } from "../api/dates";
import { createPricesClient } from "../prices";
import type { ErrorCodeText, Unanswered } from "./errors";
import { createAddinHook } from "./hook";
import { followPageState } from "./live-page";
import { officeDataTypeSupport } from "./data-types";
import { requestFullRecalculation } from "./recalc";
import { followWhenOfficeReady } from "./workbook-date-system";

function makeExcelError(code: ErrorCodeText, message: string, unanswered?: Unanswered): unknown {
  const excelCode = code === "#VALUE!" ? CustomFunctions.ErrorCode.invalidValue : CustomFunctions.ErrorCode.notAvailable;
  const error = new CustomFunctions.Error(excelCode, message);
  // Excel reads the code and message alone; a host that writes files (the runner) reads this too, and keeps the
  // cell's saved value rather than write an error that says nothing of its price
  return unanswered === undefined ? error : Object.assign(error, { unanswered });
}

const hook = createAddinHook({ createClient: createPricesClient, recalculate: requestFullRecalculation, dataTypeSupport: () => officeDataTypeSupport() });
globalThis.PricesAddin = hook.addin;
export const context = hook.context(makeExcelError, () => todayIso());
/** The live cells' registry, as the hook holds it (PRICES.LIVE). */
export const liveRegistry = hook.liveRegistry;
// In Excel's shared runtime, serials follow the workbook's date system (1900 or 1904).
followWhenOfficeReady(hook.addin);
// A hidden or offline page asks nothing for live cells, and catches up in one request when it comes back.
followPageState(hook.addin);
