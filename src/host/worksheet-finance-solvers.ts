/**
 * Excel's iterative finance functions: RATE (the annuity identity's root), IRR (NPV's root) and XIRR (XNPV's root),
 * each by Newton's method from Excel's guess of 10% or the one given. Measured on Excel's saved values
 * (test/host/excel-corpus): a step to -100% or below does not end Excel's search (IRR({-70,12,15}) is -44.35%, found
 * from 10% where the first Newton step lands at -134%), a guess of -100% or less is #VALUE!, and #NUM! where no
 * sign change exists or the search settles on no root. Excel stops its iteration a few digits short of the root (its
 * IRR 11 to 14 digits from it, XIRR 8 to 10): the engine returns the Newton iterate within Excel's tolerance.
 */
import { type Arg, type FunctionSpec, num, spec } from "./worksheet-spec";
import { atStart, cashFlows, datedFlows, numError } from "./worksheet-finance";
import { type CellValue, cellError, isCellError } from "./values";

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

function rate(args: readonly Arg[]): CellValue {
  const [count, pay, present, future, type, guess] = [num(args[0]), num(args[1]), num(args[2]), num(args[3]), atStart(args[4]), num(args[5], 0.1)];
  if (count <= 0) return numError("RATE needs a positive number of periods");
  // Excel finds RATE(300,-200,8000) within its 20 tries; this path needs more
  return newton(annuity(count, pay, present, future, type), guess, 50, 1e-7) ?? numError("RATE did not settle");
}

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

function irr(args: readonly Arg[]): CellValue {
  const flows = cashFlows(args[0]);
  if (isCellError(flows)) return flows;
  if (!hasBothSigns(flows)) return numError("IRR needs a positive and a negative cash flow");
  const guess = guessOf(args[1]);
  if (typeof guess !== "number") return guess;
  return newton(discounting(flows, []), guess, 20, 1e-7) ?? numError("IRR did not settle within 20 tries");
}

function xirr(args: readonly Arg[]): CellValue {
  const dated = datedFlows(args[0], args[1], "XIRR");
  if (isCellError(dated)) return dated;
  const { flows, days } = dated;
  if (!hasBothSigns(flows)) return numError("XIRR needs a positive and a negative cash flow");
  const guess = guessOf(args[2]);
  if (typeof guess !== "number") return guess;
  const found = newton(discounting(flows, days.map((day) => day / 365)), guess, 100, 1e-8);
  return found ?? numError("XIRR did not settle within 100 tries");
}

/** The solvers' entries of Excel's worksheet functions, spread into the others beside FINANCE. */
export const FINANCE_SOLVERS: Readonly<Record<string, FunctionSpec>> = {
  RATE: spec("nnnnnn", rate, 3),
  IRR: spec("rn", irr, 1),
  XIRR: spec("rrn", xirr, 2),
};
