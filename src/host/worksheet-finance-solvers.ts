/**
 * Excel's iterative finance functions: RATE (the annuity identity's root), IRR (NPV's root) and XIRR (XNPV's root),
 * from Excel's guess of 10% or the one given. Excel stops its search a few digits short of the root, so its saved
 * value is the point its own path reaches: IRR and RATE follow that path here (the secant method, measured on the
 * corpus of Excel-written files, test/host/excel-corpus and scripts/solver-candidates.ts), and where the same search
 * on a more exact evaluation lands elsewhere at the 15th digit, the value is left for Excel. Excel's XIRR path is not
 * found (its values lie 7 to 10 digits from the root), so XIRR finds the root by Newton's method only to tell a
 * number from #NUM!, and leaves a number for Excel. A guess of -100% or less is #VALUE!, and #NUM! where no sign
 * change exists or the search settles on no root.
 */
import { type Arg, type FunctionSpec, num, spec } from "./worksheet-spec";
import { atStart, cashFlows, compounded, datedFlows, excelPower, numError } from "./worksheet-finance";
import { exactProductError } from "./exact-product";
import { type CellValue, cellError, isCellError } from "./values";
import { LeftForExcelSignal } from "./left-for-excel";
import { sameNumber } from "./coerce";

/** A rate's equation: its value, its slope, and the size of its terms (to tell a root from a place where all vanish). */
interface Equation {
  readonly value: (rate: number) => number;
  readonly slope: (rate: number) => number;
  readonly scale: (rate: number) => number;
}

/**
 * Newton's method from `guess`, a step to -100% or below taken halfway to -100% instead; the iterate once a step is
 * under `tolerance`, if it is a root; undefined when none is found within `tries` (Excel's #NUM!).
 */
function newton(equation: Equation, guess: number, tries: number, tolerance: number): number | undefined {
  let x = guess;
  for (let attempt = 0; attempt < tries; attempt += 1) {
    const slope = equation.slope(x);
    if (slope === 0 || !Number.isFinite(slope)) return undefined;
    let next = x - equation.value(x) / slope;
    if (Number.isNaN(next) || next === Infinity) return undefined;
    if (next <= -1) next = (x - 1) / 2;
    if (Math.abs(next - x) < tolerance) return isRoot(equation, next) ? next : undefined;
    x = next;
  }
  return undefined;
}

/**
 * A settled iterate is a root when the equation vanishes against its terms' size and the rate stays clear of -100%
 * (where a search on flows with no root there runs out: Excel's #NUM! for RATE(10,-1200,2000) and such XIRRs).
 */
function isRoot(equation: Equation, x: number): boolean {
  return 1 + x > 1e-6 && Math.abs(equation.value(x)) <= 1e-6 * equation.scale(x);
}

/** The point where the line through (x0, f0) and (x1, f1) crosses 0, in the two arrangements whose rounding is Excel's. */
type SecantStep = (x0: number, f0: number, x1: number, f1: number) => number;
const weighted: SecantStep = (x0, f0, x1, f1) => (x0 * f1 - x1 * f0) / (f1 - f0);
const corrected: SecantStep = (x0, f0, x1, f1) => x1 - ((x1 - x0) * f1) / (f1 - f0);

/** A secant search: where it starts (and its value there, if not `value(start)`), its second point, how it steps and when it has settled. */
interface SecantPath {
  readonly start: number;
  readonly valueAtStart?: number;
  readonly beside: (valueAtStart: number) => number;
  readonly step: SecantStep;
  readonly settled: (previous: number, next: number, valueAtNext: number) => boolean;
}

/** The secant method as Excel runs it: at most 40 steps; undefined when it does not settle (two equal values included). */
function secant(value: (x: number) => number, path: SecantPath): number | undefined {
  let [x0, f0] = [path.start, path.valueAtStart ?? value(path.start)];
  let x1 = path.beside(f0);
  let f1 = value(x1);
  for (let attempt = 0; attempt < 40; attempt += 1) {
    if (f1 === f0 || !Number.isFinite(f1)) return undefined;
    const x2 = path.step(x0, f0, x1, f1);
    if (!Number.isFinite(x2)) return undefined;
    const f2 = value(x2);
    if (path.settled(x1, x2, f2)) return x2;
    [x0, f0, x1, f1] = [x1, f1, x2, f2];
  }
  return undefined;
}

/** RATE's annuity identity `pv*(1+r)^n + pmt*(1+r*type)*((1+r)^n-1)/r + fv` and its slope in r. */
function annuity(count: number, pay: number, present: number, future: number, type: number): Equation {
  return {
    value: (r) => {
      if (r === 0) return present + pay * count + future;
      const growth = (1 + r) ** count;
      return present * growth + (pay * (1 + r * type) * (growth - 1)) / r + future;
    },
    slope: (r) => {
      if (r === 0) return present * count + pay * (type * count + (count * (count - 1)) / 2);
      const growth = (1 + r) ** count;
      const before = (1 + r) ** (count - 1);
      return present * count * before + (pay * type * (growth - 1)) / r + (pay * (1 + r * type) * (count * before * r - (growth - 1))) / (r * r);
    },
    scale: (r) => {
      if (r === 0) return Math.abs(present) + Math.abs(pay * count) + Math.abs(future);
      const growth = (1 + r) ** count;
      return Math.abs(present * growth) + Math.abs((pay * (1 + r * type) * (growth - 1)) / r) + Math.abs(future);
    },
  };
}

/**
 * Excel's RATE path (22 of the corpus's 26 RATE values to 15 digits, against 5 by Newton's): the secant method on the
 * annuity identity with the power by squaring, from the guess and 0.001 below it (above when the identity is not
 * positive there), until the identity is within 1E-7 of 0 and the rate has moved by less than 1E-7, IRR's rule: with
 * the identity alone it stopped a step short of Excel's on RATE(1,-388,22000) (Mac Excel 16, 13th digit) and on Excel
 * 2010's RATE(5,20,120,-50,1,0) and RATE(25,-40,-200,100,1,0.15) (10th; scripts/public-excel-samples.ts), and the
 * corpus's 22 stay. Where it does not settle on a root, Newton's method tells a root (left for Excel) from #NUM!.
 */
function rateBySecant(count: number, pay: number, present: number, future: number, type: number, guess: number, power: Growth = plainGrowth): number | undefined {
  const identity = (r: number): number => {
    if (r === 0) return present + pay * count + future;
    const { growth, gain } = power(r, count);
    return present * growth + pay * (1 + r * type) * (gain / r) + future;
  };
  return secant(identity, { start: guess, beside: (atGuess) => (atGuess > 0 ? guess - 0.001 : guess + 0.001), step: corrected, settled: (previous, next, value) => Math.abs(value) < 1e-7 && Math.abs(next - previous) < 1e-7 });
}

/** `(1+r)^n` and that less 1: by squaring as Excel's digits show, or through log1p and expm1 (`compounded`), the more exact. */
type Growth = (rate: number, count: number) => { growth: number; gain: number };
const plainGrowth: Growth = (rate, count) => {
  const growth = excelPower(1 + rate, count);
  return { growth, gain: growth - 1 };
};

/**
 * Excel's path reaches its iterate through values whose rounding is Excel's: where the same search over a more exact
 * evaluation lands elsewhere at 15 digits, those digits are the rounding's, which the engine cannot promise.
 */
function sameOnAFaithfulPath(name: string, found: number, faithful: number | undefined): number {
  if (faithful !== undefined && sameNumber(faithful, found)) return found;
  throw new LeftForExcelSignal(`${name}'s search lands on ${String(found)}, and on ${faithful === undefined ? "no root" : String(faithful)} when its terms are computed more exactly: the rounding of Excel's own arithmetic decides its 15th digit`);
}

function rate(args: readonly Arg[]): CellValue {
  const [count, pay, present, future, type, guess] = [num(args[0]), num(args[1]), num(args[2]), num(args[3]), atStart(args[4]), num(args[5], 0.1)];
  if (count <= 0) return numError("RATE needs a positive number of periods");
  const equation = annuity(count, pay, present, future, type);
  const found = rateBySecant(count, pay, present, future, type, guess);
  const settled = found !== undefined && isRoot(equation, found) ? found : newton(equation, guess, 50, 1e-7);
  if (settled === undefined) return numError("RATE did not settle");
  // the identity at 0 is pv + pmt*nper + fv: where that is 0 the root is 0, and the search's end beside it is noise
  if (present + pay * count + future === 0 && Math.abs(settled) < ZERO_ROOT_NEAR) throw new LeftForExcelSignal(RATE_AT_ZERO);
  if (settled !== found) throw new LeftForExcelSignal(RATE_OFF_PATH);
  return sameOnAFaithfulPath("RATE", settled, rateBySecant(count, pay, present, future, type, guess, compounded));
}

/** Why a RATE whose secant search does not settle (where Newton's method finds a root) is Excel's to give. */
export const RATE_OFF_PATH = "the engine's secant search, Excel's, does not settle here; Newton's method finds a root, but not the point where Excel's search stops, which decides its last digits";

/** How near 0 a search's end is taken for a root of 0, where the equation is 0 at 0 (far above the 1E-13 and 4E-9 seen). */
const ZERO_ROOT_NEAR = 1e-6;

/** Why a RATE whose root is 0 is Excel's to give: Excel 2010's RATE(10,-10,0,100,0,-0.15) is 4.3E-9, its search's end. */
export const RATE_AT_ZERO = "the root is 0 (pv + pmt*nper + fv is 0), and Excel's search ends beside it, where the rounding of the annuity identity decides the value (Excel 2010's RATE(10,-10,0,100,0,-0.15) is 4.3E-9): a value within rounding of 0 has no digits the engine can promise";

function hasBothSigns(flows: readonly number[]): boolean {
  return flows.some((flow) => flow > 0) && flows.some((flow) => flow < 0);
}

/** NPV from the first flow (at time 0), or XNPV's with `times` in years, as an equation in the rate. */
function discounting(flows: readonly number[], times: readonly number[]): Equation {
  const at = (index: number): number => times[index] ?? index;
  return {
    value: (r) => flows.reduce((total, flow, index) => total + flow / (1 + r) ** at(index), 0),
    slope: (r) => flows.reduce((total, flow, index) => total - (at(index) * flow) / (1 + r) ** (at(index) + 1), 0),
    scale: (r) => flows.reduce((total, flow, index) => total + Math.abs(flow / (1 + r) ** at(index)), 0),
  };
}

/** The guess: 10% when omitted; Excel's #VALUE! for -100% or less (measured: IRR with a guess of -1 or -10). */
function guessOf(value: Arg): CellValue {
  const guess = num(value, 0.1);
  return guess <= -1 ? cellError("#VALUE!", "the guess must be above -100%") : guess;
}

/**
 * Excel's IRR path (57 of the corpus's 69 IRR values to 15 digits, against 16 by Newton's; every IRR value Excel
 * saves is some double less 1, which first pointed to a search on the discount factor): the secant method on the
 * discount factor d = 1/(1+rate), from the guess's and one 0.001 beside it (above when the NPV is positive there),
 * the NPV at each d taken at the rate 1/d - 1 through its discount factor by Horner's rule, until d moves by less
 * than 1E-7 and the NPV there is under 1E-7 in size: Excel 2013's IRR(-70000,12000,15000,18000,21000) takes one step
 * more where d has moved by 7.1E-8 with the NPV at -4.7E-7 (scripts/public-excel-samples.ts), and no bound on the step
 * alone, nor on the NPV against the flows' size, fits it and the corpus together. Where it does not settle on a root
 * (it cycles on -400 and five 1s), Newton's method on the rate, given 100 tries, tells a number from #NUM!, and a number
 * is left for Excel (with 20, twenty payments of -1607, thirty empty years and 250010 were #NUM!, 5.09% in Excel).
 */
function irrBySecant(flows: readonly number[], guess: number, npv: Npv = hornerNpv): number | undefined {
  const npvAtRate = (rate: number): number => npv(flows, 1 / (1 + rate));
  const start = 1 / (1 + guess);
  const found = secant((factor) => npvAtRate(1 / factor - 1), { start, valueAtStart: npvAtRate(guess), beside: (atGuess) => (atGuess > 0 ? start + 0.001 : start - 0.001), step: weighted, settled: (previous, next, valueAtNext) => Math.abs(next - previous) < 1e-7 && Math.abs(valueAtNext) < 1e-7 });
  return found === undefined ? undefined : 1 / found - 1;
}

/** NPV from the first flow as a polynomial in the discount factor. */
type Npv = (flows: readonly number[], discount: number) => number;
const hornerNpv: Npv = (flows, discount) => flows.reduceRight((total, flow) => total * discount + flow, 0);

/**
 * Horner's rule with each step's rounding errors carried along (the compensated Horner scheme, Graillat, Langlois and
 * Louvet 2005: as exact as twice the working precision), from the products' and sums' error-free transformations.
 */
const compensatedNpv: Npv = (flows, discount) => {
  let [total, carried] = [0, 0];
  for (let index = flows.length - 1; index >= 0; index -= 1) {
    const flow = flows[index] ?? 0;
    const product = total * discount;
    const sum = product + flow;
    const back = sum - product;
    const sumError = product - (sum - back) + (flow - back);
    [total, carried] = [sum, carried * discount + (exactProductError(total, discount, product) + sumError)];
  }
  return total + carried;
};

function irr(args: readonly Arg[]): CellValue {
  const flows = cashFlows(args[0]);
  if (isCellError(flows)) return flows;
  if (!hasBothSigns(flows)) return numError("IRR needs a positive and a negative cash flow");
  const guess = guessOf(args[1]);
  if (typeof guess !== "number") return guess;
  const equation = discounting(flows, []);
  const found = irrBySecant(flows, guess);
  if (found !== undefined && isRoot(equation, found)) {
    // a root within rounding of 0 has no digits of its own: which side of 1 the last discount factor rounds to is all there is
    // so too a search's end beside a root of 0 (flows that sum to 0): Excel 2010's IRR(-100,-10,10,100,0.5) is -1.594E-13
    if (Math.abs(found) <= 4 * Number.EPSILON || (flows.reduce((total, flow) => total + flow, 0) === 0 && Math.abs(found) < ZERO_ROOT_NEAR)) throw new LeftForExcelSignal(IRR_AT_ZERO);
    return sameOnAFaithfulPath("IRR", found, irrBySecant(flows, guess, compensatedNpv));
  }
  // Newton's root is the root, not the point Excel's own search stops at, which gives Excel's last digits
  if (newton(equation, guess, 100, 1e-7) === undefined) return numError("IRR did not settle within 100 tries");
  throw new LeftForExcelSignal(IRR_OFF_PATH);
}

/** Why an IRR of 0 (flows that sum to 0) is Excel's to give: Excel saved IRR(-4,4) as 2.2E-16, one unit in the last place of 1 from it. */
export const IRR_AT_ZERO = "the root is 0 (the flows sum to 0), and Excel's search ends on 0 or beside it (IRR(-4,4) is 2.2E-16 in Excel, one unit in the last place of 1 from it): a value within rounding of 0 has no digits the engine can promise";

/** Why an IRR whose secant search does not settle (where Newton's method finds the root) is Excel's to give. */
export const IRR_OFF_PATH = "the engine's secant search, Excel's, does not settle on these flows; Newton's method finds the root, but not the point where Excel's search stops, which decides its last digits";

/** Why a numeric XIRR is Excel's to give (scripts/solver-candidates.ts: no path tried reaches its digits). */
export const XIRR_STOPS_SHORT = "Excel stops XIRR's search short of the root, 7 to 10 digits from it, by a rule the engine does not reproduce (the engine's root agrees with Excel's value to 7 digits at least)";

/** XIRR's errors (#NUM!, #VALUE!), which are Excel's; a numeric result is left for Excel, whose search stops short of the root. */
function xirr(args: readonly Arg[]): CellValue {
  const dated = datedFlows(args[0], args[1], "XIRR");
  if (isCellError(dated)) return dated;
  const { flows, days } = dated;
  if (!hasBothSigns(flows)) return numError("XIRR needs a positive and a negative cash flow");
  const guess = guessOf(args[2]);
  if (typeof guess !== "number") return guess;
  const found = newton(discounting(flows, days.map((day) => day / 365)), guess, 100, 1e-8);
  if (found === undefined) return numError("XIRR did not settle within 100 tries");
  throw new LeftForExcelSignal(XIRR_STOPS_SHORT);
}

/** The solvers' entries of Excel's worksheet functions, spread into the others beside FINANCE. */
export const FINANCE_SOLVERS: Readonly<Record<string, FunctionSpec>> = {
  RATE: spec("nnnnnn", rate, 3),
  IRR: spec("rn", irr, 1),
  XIRR: spec("rrn", xirr, 2),
};
