/**
 * Excel's iterative finance functions: RATE (the annuity identity's root), IRR (NPV's root) and XIRR (XNPV's root),
 * each by Newton's method from Excel's guess of 10% or the one given; #NUM! where the search does not settle.
 */
import { type Arg, type FunctionSpec, num, spec } from "./worksheet-spec";
import { atStart, cashFlows, datedFlows, numError, xDiscounted } from "./worksheet-finance";
import { type CellValue, isCellError } from "./values";

/** Newton's method from `guess`; undefined when it does not settle within `tries` (Excel's #NUM!). */
function newton(f: (x: number) => number, derivative: (x: number) => number, guess: number, tries: number, tolerance: number): number | undefined {
  let x = guess;
  for (let attempt = 0; attempt < tries; attempt += 1) {
    const slope = derivative(x);
    if (slope === 0 || !Number.isFinite(slope)) return undefined;
    const next = x - f(x) / slope;
    if (!Number.isFinite(next) || next <= -1) return undefined;
    if (Math.abs(next - x) < tolerance) return next;
    x = next;
  }
  return undefined;
}

function rate(args: readonly Arg[]): CellValue {
  const [count, pay, present, future, type, guess] = [num(args[0]), num(args[1]), num(args[2]), num(args[3]), atStart(args[4]), num(args[5], 0.1)];
  if (count <= 0) return numError("RATE needs a positive number of periods");
  // the annuity identity and its derivative in r
  const f = (r: number): number => {
    if (Math.abs(r) < 1e-12) return present + pay * count + future;
    const growth = (1 + r) ** count;
    return present * growth + (pay * (1 + r * type) * (growth - 1)) / r + future;
  };
  const derivative = (r: number): number => {
    const h = Math.max(1e-8, Math.abs(r) * 1e-6);
    return (f(r + h) - f(r - h)) / (2 * h);
  };
  return newton(f, derivative, guess, 20, 1e-7) ?? numError("RATE did not settle within 20 tries");
}

function hasBothSigns(flows: readonly number[]): boolean {
  return flows.some((flow) => flow > 0) && flows.some((flow) => flow < 0);
}

function irr(args: readonly Arg[]): CellValue {
  const flows = cashFlows(args[0]);
  if (isCellError(flows)) return flows;
  if (!hasBothSigns(flows)) return numError("IRR needs a positive and a negative cash flow");
  const f = (r: number): number => flows.reduce((total, flow, index) => total + flow / (1 + r) ** index, 0);
  const derivative = (r: number): number => flows.reduce((total, flow, index) => total - (index * flow) / (1 + r) ** (index + 1), 0);
  return newton(f, derivative, num(args[1], 0.1), 20, 1e-7) ?? numError("IRR did not settle within 20 tries");
}

function xirr(args: readonly Arg[]): CellValue {
  const dated = datedFlows(args[0], args[1]);
  if (isCellError(dated)) return dated;
  const { flows, days } = dated;
  if (!hasBothSigns(flows)) return numError("XIRR needs a positive and a negative cash flow");
  const derivative = (r: number): number => flows.reduce((total, flow, index) => total - ((days[index] ?? 0) / 365) * flow * (1 + r) ** (-(days[index] ?? 0) / 365 - 1), 0);
  return newton((r) => xDiscounted(r, flows, days), derivative, num(args[2], 0.1), 100, 1e-8) ?? numError("XIRR did not settle within 100 tries");
}


/** The solvers' entries of Excel's worksheet functions, spread into the others beside FINANCE. */
export const FINANCE_SOLVERS: Readonly<Record<string, FunctionSpec>> = {
  RATE: spec("nnnnnn", rate, 3),
  IRR: spec("rn", irr, 1),
  XIRR: spec("rrn", xirr, 2),
};
