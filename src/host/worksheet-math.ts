/**
 * Arithmetic, rounding (half away from zero on the decimal Excel shows, so ROUND(2.15,1) is 2.2), information,
 * logic and the dynamic-array builders (SEQUENCE, TRANSPOSE, SORT, UNIQUE, FILTER).
 */
import { compare, significant, toBoolean, toNumber } from "./coerce";
import { LeftForExcelSignal } from "./left-for-excel";
import { excelCos, excelSin, excelTan } from "./worksheet-trig";
import { type Arg, type FunctionSpec, type WorksheetEnv, asArray, cellsOf, num, scalarOf, spec } from "./worksheet-spec";
import { type Value, arrayOf, isArray, toGrid } from "./value-array";
import { type CellError, type CellValue, cellError, isCellError } from "./values";
import { exactProductError } from "./exact-product";

const numError = (message?: string): CellError => cellError("#NUM!", message);

/** Rounds `value` to `digits` decimals in `direction`, on its 15-digit decimal form. */
export function roundTo(value: number, digits: number, direction: "nearest" | "up" | "down"): number {
  const places = Math.trunc(digits);
  const scale = 10 ** Math.abs(places);
  // more places than a number holds leave it as it is; more tens than it holds leave 0
  if (!Number.isFinite(Math.abs(value) * scale)) return places >= 0 ? value : 0;
  const scaled = significant(places >= 0 ? Math.abs(value) * scale : Math.abs(value) / scale);
  const whole = direction === "nearest" ? Math.round(scaled) : direction === "up" ? Math.ceil(scaled) : Math.floor(scaled);
  const magnitude = places >= 0 ? whole / scale : whole * scale;
  return value < 0 ? -magnitude : magnitude;
}

function rounding(direction: "nearest" | "up" | "down"): FunctionSpec {
  return spec("nn", (args) => roundTo(num(args[0]), num(args[1]), direction));
}

function unaryMath(fn: (value: number) => number, domain?: (value: number) => boolean): FunctionSpec {
  return spec("n", (args) => {
    const value = num(args[0]);
    if (domain && !domain(value)) return numError();
    const result = fn(value);
    return Number.isFinite(result) ? result : numError();
  });
}

export function power(base: number, exponent: number): CellValue {
  if (base === 0 && exponent === 0) return numError("0^0");
  if (base === 0 && exponent < 0) return cellError("#DIV/0!");
  // a negative exponent as the reciprocal of the positive power, as Excel's digits show (POWER(4/3,-1/7.2) measured)
  const result = exponent < 0 ? 1 / base ** -exponent : base ** exponent;
  return Number.isFinite(result) ? result : numError();
}

/** `a - b*q` without rounding the product (Dekker's split), as Excel's extended-precision MOD keeps it. */
function exactRemainder(a: number, b: number, q: number): number {
  const product = b * q;
  return a - product - exactProductError(b, q, product);
}

export function modulo(a: number, b: number): CellValue {
  if (b === 0) return cellError("#DIV/0!");
  // Excel floors the exact quotient (5/1E-10 lies just under 5E10 for the double nearest 1E-10) and keeps the
  // remainder's low digits: MOD(5, 1E-10) is 9.99998E-11, not 0
  const quotient = Math.floor(a / b);
  let result = a - b * quotient;
  if (Number.isSafeInteger(quotient)) {
    result = exactRemainder(a, b, quotient);
    if (result !== 0 && Math.sign(result) !== Math.sign(b)) result = exactRemainder(a, b, quotient - 1);
  }
  return significant(result) === significant(b) ? 0 : result;
}

/** CEILING/FLOOR to a multiple of `significance` (same sign as the number, or a negative number with a positive one). */
function multiple(direction: "up" | "down"): FunctionSpec {
  return spec("nn", (args) => {
    const value = num(args[0]);
    const step = num(args[1]);
    // Excel: CEILING(x,0) is 0, FLOOR(0,0) is 0, FLOOR(x,0) otherwise #DIV/0!
    if (step === 0) return direction === "up" || value === 0 ? 0 : cellError("#DIV/0!");
    if (value > 0 && step < 0) return numError("the number and the significance differ in sign");
    const ratio = significant(value / step);
    if (!Number.isFinite(ratio)) return numError("more multiples of the significance than a number holds");
    // counted in multiples of the significance: CEILING(-2.5,-2) is -4, FLOOR(-2.5,-2) is -2
    return (direction === "up" ? Math.ceil(ratio) : Math.floor(ratio)) * step;
  });
}

function mathMultiple(direction: "up" | "down"): FunctionSpec {
  return spec(
    "nnn",
    (args) => {
      const value = num(args[0]);
      const step = Math.abs(args[1] === undefined ? 1 : num(args[1]));
      if (step === 0) return 0;
      const awayFromZero = value < 0 && num(args[2]) !== 0;
      const ratio = significant(value / step);
      if (!Number.isFinite(ratio)) return numError("more multiples of the significance than a number holds");
      const up = direction === "up" !== awayFromZero;
      return (up ? Math.ceil(ratio) : Math.floor(ratio)) * step;
    },
    1,
  );
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function integers(args: readonly Arg[], env: WorksheetEnv): number[] | CellError {
  const out: number[] = [];
  // Excel's GCD and LCM: a blank in a range is 0, a blank given alone is skipped, only skipped blanks is #VALUE!
  for (const cell of args.flatMap((arg) => (isArray(arg) && cellsOf(arg).length > 1 ? cellsOf(arg).map((value) => value ?? 0) : cellsOf(arg)))) {
    if (cell === null) continue;
    if (typeof cell === "boolean") return cellError("#VALUE!", "GCD and LCM take no TRUE or FALSE");
    const value = toNumber(cell, env.dateSystem);
    if (isCellError(value)) return value;
    if (value < 0) return numError("a negative number");
    if (value >= 2 ** 53) return numError("a number past 2^53");
    out.push(Math.trunc(value));
  }
  return out.length === 0 ? cellError("#VALUE!", "no number to take") : out;
}

function factorial(value: number): CellValue {
  if (value < 0) return numError();
  let result = 1;
  for (let n = 2; n <= Math.trunc(value); n += 1) result *= n;
  return Number.isFinite(result) ? result : numError();
}

/** AND, OR, XOR: TRUE/FALSE and numbers count, text in a range is skipped, typed text must be TRUE or FALSE. */
function logical(reduce: (values: boolean[]) => boolean): FunctionSpec {
  return spec(
    "v",
    (args) => {
      const values: boolean[] = [];
      for (const arg of args) {
        if (arg === undefined) continue;
        if (isArray(arg)) {
          for (const cell of arg.rows.flat()) {
            if (isCellError(cell)) return cell;
            if (typeof cell === "boolean") values.push(cell);
            else if (typeof cell === "number") values.push(cell !== 0);
          }
          continue;
        }
        // typed empty text is skipped, as Excel's AND("", TRUE) is TRUE
        if (arg === "") continue;
        const truth = toBoolean(arg);
        if (isCellError(truth)) return truth;
        values.push(truth);
      }
      return values.length === 0 ? cellError("#VALUE!", "no TRUE/FALSE values") : reduce(values);
    },
    1,
    true,
  );
}

function ifs(args: readonly Arg[]): Value {
  if (args.length % 2 !== 0) return cellError("#N/A", "IFS takes conditions and values in pairs");
  for (let index = 0; index < args.length; index += 2) {
    const truth = toBoolean(scalarOf(args[index]));
    if (isCellError(truth)) return truth;
    if (truth) return args[index + 1] ?? null;
  }
  return cellError("#N/A", "no condition is TRUE");
}

function switchOf(args: readonly Arg[]): Value {
  const subject = scalarOf(args[0]);
  if (isCellError(subject)) return subject;
  const pairs = args.length - 1;
  for (let index = 1; index + 1 < args.length; index += 2) {
    const candidate = scalarOf(args[index]);
    if (isCellError(candidate)) return candidate;
    if (typeof candidate === typeof subject && compare(candidate, subject) === 0) return args[index + 1] ?? null;
  }
  return pairs % 2 === 1 ? (args[args.length - 1] ?? null) : cellError("#N/A", "no value matches");
}

const sequence = spec(
  "nnnn",
  (args) => {
    const rows = args[0] === undefined ? 1 : Math.trunc(num(args[0]));
    const cols = args[1] === undefined ? 1 : Math.trunc(num(args[1]));
    const start = args[2] === undefined ? 1 : num(args[2]);
    const step = args[3] === undefined ? 1 : num(args[3]);
    if (rows < 0 || cols < 0) return cellError("#VALUE!", "SEQUENCE of a negative count");
    if (rows === 0 || cols === 0) return cellError("#CALC!", "SEQUENCE of no cells (an empty array)");
    if (rows * cols > 1_048_576) return numError("SEQUENCE too large");
    return arrayOf(Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => start + (r * cols + c) * step)));
  },
  1,
);

function transpose(args: readonly Arg[]): Value {
  const grid = toGrid(asArray(args[0]));
  return arrayOf((grid[0] ?? []).map((_, c) => grid.map((row) => row[c] ?? null)));
}

/** The errors in ERROR.TYPE's order (1 to 14: the classic seven, then the dynamic-array and data-type ones). */
const ERROR_CODES: readonly string[] = ["#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA", "#SPILL!", "#CONNECT!", "#BLOCKED!", "#UNKNOWN!", "#FIELD!", "#CALC!"];

function sortOf(args: readonly Arg[]): Value {
  const grid = toGrid(asArray(args[0]));
  const byColumn = args[3] === true;
  const index = args[1] === undefined ? 1 : Math.trunc(num(args[1]));
  const order = args[2] === undefined ? 1 : num(args[2]);
  if (order !== 1 && order !== -1) return cellError("#VALUE!", "SORT's order is 1 or -1");
  const lines = byColumn ? (grid[0] ?? []).map((_, c) => grid.map((row) => row[c] ?? null)) : grid;
  if (index < 1 || index > (lines[0]?.length ?? 0)) return cellError("#VALUE!", "SORT's index is outside the array");
  const rank = (cell: CellValue): number => (typeof cell === "number" ? 0 : typeof cell === "string" ? 1 : typeof cell === "boolean" ? 2 : isCellError(cell) ? 3 : 4);
  const sorted = [...lines].sort((a, b) => {
    const x = a[index - 1] ?? null;
    const y = b[index - 1] ?? null;
    // blanks go last whatever the order; errors after TRUE/FALSE by their ERROR.TYPE, first when descending (measured)
    if (rank(x) === 4 || rank(y) === 4) return rank(x) - rank(y);
    if (isCellError(x) && isCellError(y)) return order * (ERROR_CODES.indexOf(x.code) - ERROR_CODES.indexOf(y.code));
    return order * (rank(x) - rank(y) || compare(x, y));
  });
  return arrayOf(byColumn ? (sorted[0] ?? []).map((_, r) => sorted.map((line) => line[r] ?? null)) : sorted);
}

function unique(args: readonly Arg[]): Value {
  const grid = toGrid(asArray(args[0]));
  if (args[1] === true || args[2] === true) throw new LeftForExcelSignal("UNIQUE by column or of the values that occur once is left for Excel");
  const key = (row: readonly CellValue[]): string => JSON.stringify(row.map((cell) => (typeof cell === "string" ? cell.toLowerCase() : cell)));
  const seen = new Set<string>();
  return arrayOf(grid.filter((row) => {
    const k = key(row);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  }));
}

/** FILTER(array, include, [if_empty]): include is a column as tall as the array, or a row as wide. */
function filter(args: readonly Arg[]): Value {
  const grid = toGrid(asArray(args[0]));
  const include = toGrid(asArray(args[1]));
  const truth = (cell: CellValue): boolean | CellError => {
    if (isCellError(cell)) return cell;
    if (typeof cell === "number") return cell !== 0;
    if (typeof cell === "boolean") return cell;
    return cell === null ? false : cellError("#VALUE!", "FILTER include must hold TRUE/FALSE or numbers");
  };
  let kept: CellValue[][];
  if ((include[0]?.length ?? 0) === 1 && include.length === grid.length) {
    kept = [];
    for (const [index, row] of grid.entries()) {
      const keep = truth(include[index]?.[0] ?? null);
      if (isCellError(keep)) return keep;
      if (keep) kept.push(row);
    }
  } else if (include.length === 1 && (include[0]?.length ?? 0) === (grid[0]?.length ?? 0)) {
    const columns: number[] = [];
    for (const [index, cell] of (include[0] ?? []).entries()) {
      const keep = truth(cell);
      if (isCellError(keep)) return keep;
      if (keep) columns.push(index);
    }
    kept = columns.length === 0 ? [] : grid.map((row) => columns.map((col) => row[col] ?? null));
  } else {
    return cellError("#VALUE!", "FILTER include must be a column as tall as the array or a row as wide");
  }
  if (kept.length === 0) return args[2] === undefined ? cellError("#CALC!", "FILTER kept nothing") : (args[2] ?? null);
  return arrayOf(kept);
}

function takeOrDrop(take: boolean): FunctionSpec {
  return spec(
    "rnn",
    (args) => {
      const grid = toGrid(asArray(args[0]));
      const slice = <T>(items: readonly T[], count: Arg): T[] => {
        if (count === undefined) return [...items];
        const n = Math.trunc(num(count));
        if (take) return n >= 0 ? items.slice(0, n) : items.slice(Math.max(0, items.length + n));
        return n >= 0 ? items.slice(n) : items.slice(0, Math.max(0, items.length + n));
      };
      const rows = slice(grid, args[1]).map((row) => slice(row, args[2]));
      return rows.length === 0 || rows[0]?.length === 0 ? cellError("#CALC!", "no cells left (an empty array)") : arrayOf(rows);
    },
    2,
  );
}

function errorType(value: Arg): Value {
  const cell = scalarOf(value);
  if (!isCellError(cell)) return cellError("#N/A", "not an error");
  const index = ERROR_CODES.indexOf(cell.code);
  return index < 0 ? cellError("#N/A", "an error ERROR.TYPE does not number") : index + 1;
}

export const MATH: Readonly<Record<string, FunctionSpec>> = {
  ABS: unaryMath(Math.abs),
  INT: unaryMath(Math.floor),
  TRUNC: spec("nn", (args) => roundTo(num(args[0]), num(args[1]), "down"), 1),
  ROUND: rounding("nearest"),
  ROUNDUP: rounding("up"),
  ROUNDDOWN: rounding("down"),
  MROUND: spec("nn", (args) => {
    const value = num(args[0]);
    const step = num(args[1]);
    if (step === 0) return 0;
    if (Math.sign(value) * Math.sign(step) < 0) return numError("the number and the multiple differ in sign");
    return roundTo(value / step, 0, "nearest") * step;
  }),
  CEILING: multiple("up"),
  FLOOR: multiple("down"),
  "CEILING.MATH": mathMultiple("up"),
  "FLOOR.MATH": mathMultiple("down"),
  SQRT: unaryMath(Math.sqrt, (value) => value >= 0),
  EXP: unaryMath(Math.exp),
  LN: unaryMath(Math.log, (value) => value > 0),
  LOG10: unaryMath(Math.log10, (value) => value > 0),
  LOG: spec(
    "nn",
    (args) => {
      const value = num(args[0]);
      const base = args[1] === undefined ? 10 : num(args[1]);
      if (value <= 0 || base <= 0) return numError();
      if (base === 1) return cellError("#DIV/0!");
      return Math.log(value) / Math.log(base);
    },
    1,
  ),
  POWER: spec("nn", (args) => power(num(args[0]), num(args[1]))),
  MOD: spec("nn", (args) => modulo(num(args[0]), num(args[1]))),
  QUOTIENT: spec("nn", (args) => (num(args[1]) === 0 ? cellError("#DIV/0!") : Math.trunc(num(args[0]) / num(args[1])))),
  SIGN: unaryMath(Math.sign),
  PI: spec("", () => Math.PI),
  EVEN: unaryMath((value) => Math.sign(value) * Math.ceil(Math.abs(value) / 2) * 2),
  ODD: unaryMath((value) => {
    const up = Math.ceil(Math.abs(value));
    return Math.sign(value || 1) * (up % 2 === 1 ? up : up + 1);
  }),
  FACT: spec("n", (args) => factorial(num(args[0]))),
  GCD: spec(
    "v",
    (args, env) => {
      const values = integers(args, env);
      return isCellError(values) ? values : values.reduce(gcd, 0);
    },
    1,
    true,
  ),
  LCM: spec(
    "v",
    (args, env) => {
      const values = integers(args, env);
      if (isCellError(values)) return values;
      const multiple = values.reduce((a, b) => (a === 0 || b === 0 ? 0 : (a * b) / gcd(a, b)), 1);
      return multiple >= 2 ** 53 ? numError("the least common multiple passes 2^53") : multiple;
    },
    1,
    true,
  ),
  SIN: unaryMath(excelSin),
  COS: unaryMath(excelCos),
  TAN: unaryMath(excelTan),
  ASIN: unaryMath(Math.asin, (value) => Math.abs(value) <= 1),
  ACOS: unaryMath(Math.acos, (value) => Math.abs(value) <= 1),
  ATAN: unaryMath(Math.atan),
  ATAN2: spec("nn", (args) => (num(args[0]) === 0 && num(args[1]) === 0 ? cellError("#DIV/0!") : Math.atan2(num(args[1]), num(args[0])))),
  DEGREES: unaryMath((value) => (value * 180) / Math.PI),
  RADIANS: unaryMath((value) => (value * Math.PI) / 180),
  ISBLANK: spec("e", (args) => args[0] === null),
  ISTEXT: spec("e", (args) => typeof args[0] === "string"),
  ISNONTEXT: spec("e", (args) => typeof args[0] !== "string"),
  ISNUMBER: spec("e", (args) => typeof args[0] === "number"),
  ISLOGICAL: spec("e", (args) => typeof args[0] === "boolean"),
  ISERROR: spec("e", (args) => isCellError(args[0])),
  ISERR: spec("e", (args) => isCellError(args[0]) && args[0].code !== "#N/A"),
  ISNA: spec("e", (args) => isCellError(args[0]) && args[0].code === "#N/A"),
  ISEVEN: spec("n", (args) => Math.trunc(num(args[0])) % 2 === 0),
  ISODD: spec("n", (args) => Math.abs(Math.trunc(num(args[0])) % 2) === 1),
  "ERROR.TYPE": spec("e", (args) => errorType(args[0])),
  N: spec("e", (args) => {
    const value = args[0];
    if (isCellError(value)) return value;
    return typeof value === "number" ? value : value === true ? 1 : 0;
  }),
  NA: spec("", () => cellError("#N/A")),
  AND: logical((values) => values.every(Boolean)),
  OR: logical((values) => values.some(Boolean)),
  XOR: logical((values) => values.filter(Boolean).length % 2 === 1),
  NOT: spec("b", (args) => args[0] !== true),
  TRUE: spec("", () => true),
  FALSE: spec("", () => false),
  IFS: spec("v", (args) => ifs(args), 2, true),
  SWITCH: spec("v", (args) => switchOf(args), 3, true),
  SEQUENCE: sequence,
  TRANSPOSE: spec("r", transpose),
  SORT: spec("rnnb", sortOf, 1),
  UNIQUE: spec("rbb", unique, 1),
  FILTER: spec("rrv", filter, 2),
  TAKE: takeOrDrop(true),
  DROP: takeOrDrop(false),
};

