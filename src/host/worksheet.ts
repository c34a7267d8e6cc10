/**
 * Excel's worksheet functions for the host, as data: each function the host evaluates with Excel's semantics is in
 * WORKSHEET_FUNCTIONS with how it takes its arguments (worksheet-spec.ts); this dispatcher applies that policy
 * (arity, lifting over arrays, single-cell references read as their cell, coercion, errors first). A function not
 * in the table is not guessed at: the engine leaves its formula for Excel.
 */
import { toBoolean, toNumber, toText } from "./coerce";
import { DATES } from "./worksheet-dates";
import { DAY_COUNTS } from "./worksheet-day-counts";
import { FINANCE } from "./worksheet-finance";
import { FINANCE_SOLVERS } from "./worksheet-finance-solvers";
import { LOOKUP } from "./worksheet-lookup";
import { MATH } from "./worksheet-math";
import { type Arg, type FunctionSpec, type ParamLetter, type WorksheetEnv, asArray } from "./worksheet-spec";
import { STATISTICS } from "./worksheet-statistics";
import { TEXT_FUNCTIONS } from "./worksheet-text";
import { type Value, arrayOf, isArray } from "./value-array";
import { type CellValue, cellError, isCellError } from "./values";

export type { WorksheetEnv };

export const WORKSHEET_FUNCTIONS: Readonly<Record<string, FunctionSpec>> = { ...MATH, ...STATISTICS, ...LOOKUP, ...TEXT_FUNCTIONS, ...DATES, ...DAY_COUNTS, ...FINANCE, ...FINANCE_SOLVERS };

/** Whether the host evaluates `name` (canonical, upper case) with Excel's semantics. */
export function isWorksheetFunction(name: string): boolean {
  return Object.hasOwn(WORKSHEET_FUNCTIONS, name);
}

const LIFTED: ReadonlySet<ParamLetter> = new Set(["n", "t", "b", "s", "e"]);

function letterAt(fn: FunctionSpec, index: number): ParamLetter {
  return fn.params[Math.min(index, fn.params.length - 1)] ?? "v";
}

/** One scalar argument coerced for its letter; an error (except for `e`) is the function's answer. */
function coerce(letter: ParamLetter, value: CellValue | undefined, env: WorksheetEnv): Arg {
  if (value === undefined) return undefined;
  if (letter === "e") return value;
  if (isCellError(value)) return value;
  switch (letter) {
    case "n":
      return toNumber(value, env.dateSystem);
    case "t":
      return toText(value);
    case "b":
      return toBoolean(value);
    default:
      return value;
  }
}

/** The smallest normal double; Excel shows anything nearer 0 as 0. */
const SMALLEST_NORMAL = 2.2250738585072014e-308;

/** Excel's functions from the Analysis ToolPak, which answer #VALUE! to TRUE or FALSE in a number's place (measured in the Excel-written corpus). */
const NO_TRUTH_FOR_NUMBERS = new Set(["ISODD", "ISEVEN", "MROUND", "QUOTIENT", "EOMONTH", "EDATE", "WORKDAY", "NETWORKDAYS", "WEEKNUM", "YEARFRAC", "GCD", "LCM"]);

export function callWorksheetFunction(name: string, args: readonly Arg[], env: WorksheetEnv): Value {
  const fn = WORKSHEET_FUNCTIONS[name];
  if (!fn) return cellError("#NAME?", `${name} is not an Excel function`);
  const max = fn.rest ? Number.POSITIVE_INFINITY : fn.params.length;
  if (args.length < fn.min || args.length > max) {
    return cellError("#VALUE!", `${name} takes ${fn.min === max ? fn.min : `${fn.min} to ${fn.rest ? "any number of" : max}`} arguments, got ${args.length}`);
  }
  const letters = args.map((_, index) => letterAt(fn, index));
  // a single-cell range in a scalar place is that cell
  const prepared = args.map((arg, index) => (LIFTED.has(letters[index] ?? "v") && isArray(arg) && arg.rows.length === 1 && arg.rows[0]?.length === 1 ? (arg.rows[0][0] ?? null) : arg));
  const lifted = prepared.some((arg, index) => LIFTED.has(letters[index] ?? "v") && isArray(arg));
  const once = (cells: readonly Arg[]): Value => {
    const coerced: Arg[] = [];
    for (const [index, cell] of cells.entries()) {
      const letter = letters[index] ?? "v";
      if (LIFTED.has(letter)) {
        // the functions that came from the Analysis ToolPak take no TRUE/FALSE where they want a number
        if (letter === "n" && typeof cell === "boolean" && NO_TRUTH_FOR_NUMBERS.has(name)) return cellError("#VALUE!", `${name} takes no TRUE or FALSE for a number`);
        const value = coerce(letter, isArray(cell) ? undefined : cell, env);
        if (letter !== "e" && isCellError(value)) return value;
        coerced.push(value);
      } else coerced.push(letter === "r" && cell !== undefined ? asArray(cell) : cell);
    }
    const result = fn.run(coerced, env);
    // a number past what a cell holds (1e308 * 10, 0/0 in a formula) is Excel's #NUM!, never an empty cell
    if (typeof result !== "number") return result;
    if (!Number.isFinite(result)) return cellError("#NUM!", `${name} gives no finite number`);
    // Excel keeps no subnormal number: EXP(-745) is 0
    return Math.abs(result) < SMALLEST_NORMAL ? 0 : result;
  };
  if (!lifted) return once(prepared);
  return liftOver(prepared, letters, once);
}

/** Runs `once` for each cell of the lifted arguments (broadcasting a row or a column), as dynamic-array Excel does. */
function liftOver(args: readonly Arg[], letters: readonly ParamLetter[], once: (cells: readonly Arg[]) => Value): Value {
  const grids = args.map((arg, index) => (LIFTED.has(letters[index] ?? "v") && isArray(arg) ? arg.rows : undefined));
  const height = Math.max(...grids.map((grid) => grid?.length ?? 1));
  const width = Math.max(...grids.map((grid) => grid?.[0]?.length ?? 1));
  const rows: CellValue[][] = [];
  for (let r = 0; r < height; r += 1) {
    const row: CellValue[] = [];
    for (let c = 0; c < width; c += 1) {
      const cells = args.map((arg, index) => {
        const grid = grids[index];
        return grid ? grid[grid.length === 1 ? 0 : r]?.[(grid[0]?.length ?? 1) === 1 ? 0 : c] : arg;
      });
      const outside = grids.some((grid, index) => grid !== undefined && cells[index] === undefined);
      const result = outside ? cellError("#N/A") : once(cells);
      row.push(isArray(result) ? (result.rows[0]?.[0] ?? null) : result);
    }
    rows.push(row);
  }
  return arrayOf(rows);
}
