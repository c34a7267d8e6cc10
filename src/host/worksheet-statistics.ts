/**
 * Sums, counts and the statistics family as Excel defines them: in a range or array only numbers count (text,
 * TRUE/FALSE and blanks are skipped, numeric text too), a typed argument is coerced (`SUM("5", TRUE)` is 6), the
 * first error wins; the `A` forms read text as 0 and TRUE as 1; paired functions skip a pair where either is not a number.
 */
import { toNumber } from "./coerce";
import { type Arg, type FunctionSpec, type WorksheetEnv, asArray, cellsOf, num, spec } from "./worksheet-spec";
import { type Value, isArray } from "./value-array";
import { type CellError, type CellValue, cellError, isCellError } from "./values";

type Numbers = number[] | CellError;

/** The numbers of aggregate arguments; `all` is the `A` reading (text 0, TRUE 1 in ranges). */
export function numbersOf(args: readonly Arg[], env: WorksheetEnv, all = false): Numbers {
  const out: number[] = [];
  for (const arg of args) {
    if (arg === undefined) continue;
    if (isArray(arg)) {
      for (const cell of arg.rows.flat()) {
        if (isCellError(cell)) return cell;
        if (typeof cell === "number") out.push(cell);
        else if (all && typeof cell === "boolean") out.push(cell ? 1 : 0);
        else if (all && typeof cell === "string") out.push(0);
      }
      continue;
    }
    const number = toNumber(arg, env.dateSystem);
    if (isCellError(number)) return number;
    out.push(number);
  }
  return out;
}

function over(fn: (numbers: number[]) => CellValue, all = false): FunctionSpec {
  return spec(
    "v",
    (args, env) => {
      const numbers = numbersOf(args, env, all);
      return isCellError(numbers) ? numbers : fn(numbers);
    },
    1,
    true,
  );
}

const sum = (numbers: readonly number[]): number => numbers.reduce((total, value) => total + value, 0);
const mean = (numbers: readonly number[]): number => sum(numbers) / numbers.length;
const divZero = (): CellError => cellError("#DIV/0!");

function deviations(numbers: readonly number[]): number {
  const average = mean(numbers);
  return numbers.reduce((total, value) => total + (value - average) ** 2, 0);
}

function variance(sample: boolean): (numbers: number[]) => CellValue {
  return (numbers) => (numbers.length < (sample ? 2 : 1) ? divZero() : deviations(numbers) / (numbers.length - (sample ? 1 : 0)));
}

function deviation(sample: boolean): (numbers: number[]) => CellValue {
  return (numbers) => {
    const value = variance(sample)(numbers);
    return typeof value === "number" ? Math.sqrt(value) : value;
  };
}

function median(numbers: number[]): CellValue {
  if (numbers.length === 0) return cellError("#NUM!");
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function mode(numbers: number[]): CellValue {
  let best: number | undefined;
  let bestCount = 1;
  const counts = new Map<number, number>();
  for (const value of numbers) counts.set(value, (counts.get(value) ?? 0) + 1);
  for (const value of numbers) {
    const count = counts.get(value) ?? 0;
    if (count > bestCount) {
      best = value;
      bestCount = count;
    }
  }
  return best ?? cellError("#N/A", "no value repeats");
}

/** The numbers of one array argument and one number argument (SMALL, PERCENTILE, ...). */
function withK(fn: (numbers: number[], k: number) => CellValue): FunctionSpec {
  return spec("vn", (args, env) => {
    // a typed value is coerced as a typed argument: SMALL("3.4", 1) is 3.4, SMALL(TRUE, 1) is 1, SMALL("x", 1) #VALUE!
    const typed = isArray(args[0]) ? undefined : toNumber(args[0] ?? null, env.dateSystem);
    if (isCellError(typed)) return typed;
    const numbers = typed === undefined ? numbersOf([asArray(args[0])], env) : [typed];
    if (isCellError(numbers)) return numbers;
    return fn(numbers, num(args[1]));
  });
}

function kth(largest: boolean): (numbers: number[], k: number) => CellValue {
  return (numbers, k) => {
    const index = Math.ceil(k);
    if (numbers.length === 0 || index < 1 || index > numbers.length) return cellError("#NUM!");
    const sorted = [...numbers].sort((a, b) => (largest ? b - a : a - b));
    return sorted[index - 1] ?? cellError("#NUM!");
  };
}

/** The value at 0-based fractional rank `rank` of the sorted numbers. */
function interpolate(sorted: readonly number[], rank: number): number {
  const low = Math.floor(rank);
  const fraction = rank - low;
  const a = sorted[low] ?? 0;
  const b = sorted[Math.min(low + 1, sorted.length - 1)] ?? a;
  return a + fraction * (b - a);
}

function percentileInc(numbers: number[], k: number): CellValue {
  if (numbers.length === 0 || k < 0 || k > 1) return cellError("#NUM!");
  return interpolate([...numbers].sort((a, b) => a - b), k * (numbers.length - 1));
}

function percentileExc(numbers: number[], k: number): CellValue {
  const rank = k * (numbers.length + 1);
  if (numbers.length === 0 || k <= 0 || k >= 1 || rank < 1 || rank > numbers.length) return cellError("#NUM!");
  return interpolate([...numbers].sort((a, b) => a - b), rank - 1);
}

function quartile(exclusive: boolean): (numbers: number[], q: number) => CellValue {
  return (numbers, q) => {
    const quart = Math.trunc(q);
    if (exclusive ? quart < 1 || quart > 3 : quart < 0 || quart > 4) return cellError("#NUM!");
    return exclusive ? percentileExc(numbers, quart / 4) : percentileInc(numbers, quart / 4);
  };
}

function rank(average: boolean): FunctionSpec {
  return spec(
    "nvn",
    (args, env) => {
      const numbers = numbersOf([asArray(args[1])], env);
      if (isCellError(numbers)) return numbers;
      const value = num(args[0]);
      const ascending = num(args[2]) !== 0;
      const equal = numbers.filter((other) => other === value).length;
      if (equal === 0) return cellError("#N/A", `${value} is not in the list`);
      const before = numbers.filter((other) => (ascending ? other < value : other > value)).length;
      return average ? before + (equal + 1) / 2 : before + 1;
    },
    2,
  );
}

/** Pairs of numbers of two equal-sized arrays; a pair where either is not a number is skipped. */
function pairsOf(xs: Arg, ys: Arg): [number[], number[]] | CellError {
  const a = cellsOf(asArray(xs));
  const b = cellsOf(asArray(ys));
  if (a.length !== b.length) return cellError("#N/A", "the two ranges differ in size");
  const left: number[] = [];
  const right: number[] = [];
  for (const [index, x] of a.entries()) {
    const y = b[index] ?? null;
    if (isCellError(x)) return x;
    if (isCellError(y)) return y;
    if (typeof x === "number" && typeof y === "number") {
      left.push(x);
      right.push(y);
    }
  }
  return [left, right];
}

function paired(fn: (xs: number[], ys: number[]) => CellValue, order: "xy" | "yx" = "xy"): FunctionSpec {
  return spec("vv", (args) => {
    const pairs = order === "xy" ? pairsOf(args[0], args[1]) : pairsOf(args[1], args[0]);
    return isCellError(pairs) ? pairs : fn(pairs[0], pairs[1]);
  });
}

function covariance(xs: number[], ys: number[], sample: boolean): CellValue {
  if (xs.length < (sample ? 2 : 1)) return divZero();
  const mx = mean(xs);
  const my = mean(ys);
  const total = xs.reduce((acc, x, index) => acc + (x - mx) * ((ys[index] ?? 0) - my), 0);
  return total / (xs.length - (sample ? 1 : 0));
}

function correl(xs: number[], ys: number[]): CellValue {
  if (xs.length < 2) return divZero();
  const sx = deviations(xs);
  const sy = deviations(ys);
  if (sx === 0 || sy === 0) return divZero();
  const mx = mean(xs);
  const my = mean(ys);
  return xs.reduce((acc, x, index) => acc + (x - mx) * ((ys[index] ?? 0) - my), 0) / Math.sqrt(sx * sy);
}

/** Least squares of y on x: [slope, intercept], or #DIV/0! when x does not vary. */
function fit(xs: number[], ys: number[]): [number, number] | CellError {
  if (xs.length === 0) return divZero();
  const sx = deviations(xs);
  if (sx === 0) return divZero();
  const mx = mean(xs);
  const my = mean(ys);
  const slope = xs.reduce((acc, x, index) => acc + (x - mx) * ((ys[index] ?? 0) - my), 0) / sx;
  return [slope, my - slope * mx];
}

const forecast = spec("nvv", (args) => {
  const pairs = pairsOf(args[2], args[1]);
  if (isCellError(pairs)) return pairs;
  const line = fit(pairs[0], pairs[1]);
  return isCellError(line) ? line : line[1] + line[0] * num(args[0]);
});

function sumproduct(args: readonly Arg[]): Value {
  const grids = args.map((arg) => asArray(arg).rows);
  const height = grids[0]?.length ?? 0;
  const width = grids[0]?.[0]?.length ?? 0;
  if (grids.some((grid) => grid.length !== height || (grid[0]?.length ?? 0) !== width)) return cellError("#VALUE!", "SUMPRODUCT arrays differ in size");
  let total = 0;
  for (let r = 0; r < height; r += 1) {
    for (let c = 0; c < width; c += 1) {
      let product = 1;
      for (const grid of grids) {
        const cell = grid[r]?.[c] ?? null;
        if (isCellError(cell)) return cell;
        product *= typeof cell === "number" ? cell : 0;
      }
      total += product;
    }
  }
  return total;
}

function count(args: readonly Arg[], env: WorksheetEnv): Value {
  let total = 0;
  for (const arg of args) {
    if (arg === undefined) continue;
    if (isArray(arg)) total += arg.rows.flat().filter((cell) => typeof cell === "number").length;
    else if (!isCellError(arg) && arg !== null && !isCellError(toNumber(arg, env.dateSystem))) total += 1;
  }
  return total;
}

function counta(args: readonly Arg[]): Value {
  return args.reduce<number>((total, arg) => total + (arg === undefined ? 0 : cellsOf(arg).filter((cell) => cell !== null).length), 0);
}

function countblank(args: readonly Arg[]): Value {
  return cellsOf(asArray(args[0])).filter((cell) => cell === null || cell === "").length;
}

function extreme(pick: (a: number, b: number) => number): (numbers: number[]) => CellValue {
  return (numbers) => (numbers.length === 0 ? 0 : numbers.reduce((a, b) => pick(a, b)));
}

export const STATISTICS: Readonly<Record<string, FunctionSpec>> = {
  SUM: over(sum),
  PRODUCT: over((numbers) => (numbers.length === 0 ? 0 : numbers.reduce((a, b) => a * b, 1))),
  SUMSQ: over((numbers) => numbers.reduce((a, b) => a + b * b, 0)),
  AVERAGE: over((numbers) => (numbers.length === 0 ? divZero() : mean(numbers))),
  AVERAGEA: over((numbers) => (numbers.length === 0 ? divZero() : mean(numbers)), true),
  MIN: over(extreme(Math.min)),
  MAX: over(extreme(Math.max)),
  MINA: over(extreme(Math.min), true),
  MAXA: over(extreme(Math.max), true),
  MEDIAN: over(median),
  MODE: over(mode),
  "MODE.SNGL": over(mode),
  STDEV: over(deviation(true)),
  "STDEV.S": over(deviation(true)),
  STDEVP: over(deviation(false)),
  "STDEV.P": over(deviation(false)),
  STDEVA: over(deviation(true), true),
  VAR: over(variance(true)),
  "VAR.S": over(variance(true)),
  VARP: over(variance(false)),
  "VAR.P": over(variance(false)),
  VARA: over(variance(true), true),
  DEVSQ: over((numbers) => deviations(numbers)),
  AVEDEV: over((numbers) => (numbers.length === 0 ? cellError("#NUM!") : numbers.reduce((acc, x) => acc + Math.abs(x - mean(numbers)), 0) / numbers.length)),
  GEOMEAN: over((numbers) => (numbers.length === 0 || numbers.some((x) => x <= 0) ? cellError("#NUM!") : Math.exp(numbers.reduce((acc, x) => acc + Math.log(x), 0) / numbers.length))),
  HARMEAN: over((numbers) => (numbers.length === 0 || numbers.some((x) => x <= 0) ? cellError("#NUM!") : numbers.length / numbers.reduce((acc, x) => acc + 1 / x, 0))),
  COUNT: spec("v", count, 1, true),
  COUNTA: spec("v", (args) => counta(args), 1, true),
  COUNTBLANK: spec("r", (args) => countblank(args)),
  LARGE: withK(kth(true)),
  SMALL: withK(kth(false)),
  PERCENTILE: withK(percentileInc),
  "PERCENTILE.INC": withK(percentileInc),
  "PERCENTILE.EXC": withK(percentileExc),
  QUARTILE: withK(quartile(false)),
  "QUARTILE.INC": withK(quartile(false)),
  "QUARTILE.EXC": withK(quartile(true)),
  RANK: rank(false),
  "RANK.EQ": rank(false),
  "RANK.AVG": rank(true),
  CORREL: paired(correl),
  PEARSON: paired(correl),
  RSQ: paired((xs, ys) => {
    const r = correl(xs, ys);
    return typeof r === "number" ? r * r : r;
  }, "yx"),
  SLOPE: paired((xs, ys) => {
    const line = fit(xs, ys);
    return isCellError(line) ? line : line[0];
  }, "yx"),
  INTERCEPT: paired((xs, ys) => {
    const line = fit(xs, ys);
    return isCellError(line) ? line : line[1];
  }, "yx"),
  COVAR: paired((xs, ys) => covariance(xs, ys, false)),
  "COVARIANCE.P": paired((xs, ys) => covariance(xs, ys, false)),
  "COVARIANCE.S": paired((xs, ys) => covariance(xs, ys, true)),
  FORECAST: forecast,
  "FORECAST.LINEAR": forecast,
  SUMPRODUCT: spec("r", (args) => sumproduct(args), 1, true),
};

