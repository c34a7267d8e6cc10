/**
 * Excel's time-value-of-money and cash-flow functions, as data like the other families: the annuity identity
 * `pv*(1+r)^n + pmt*(1+r*type)*((1+r)^n-1)/r + fv = 0` solved for each closed-form unknown (PV, FV, PMT, NPER),
 * NPV/XNPV and MIRR; the iterative roots RATE, IRR and XIRR are in worksheet-finance-solvers.ts.
 * Excel's error cases: #NUM! where no answer exists or the search does not settle, #DIV/0! where a rate of -100% divides.
 */
import { type Arg, type FunctionSpec, type WorksheetEnv, asArray, cellsOf, num, spec } from "./worksheet-spec";
import { numbersOf } from "./worksheet-statistics";
import { promisedSum } from "./sum-cancellation";
import { type CellError, type CellValue, cellError, isCellError } from "./values";

export const numError = (message: string): CellError => cellError("#NUM!", message);

/** `type`: payments at the end of each period (0) or at the start (any other number). */
export const atStart = (value: Arg): number => (num(value) !== 0 ? 1 : 0);

/**
 * `base^exponent` as Excel's finance functions compute it: a whole exponent by squaring and multiplying from the
 * lowest bit up (its rounding gives Excel's saved digits where the correctly rounded power differs from the 13th,
 * e.g. FV(0.1/12,36,-10) is 417.8182109025921, not ...929), any other by the plain power.
 */
export function excelPower(base: number, exponent: number): number {
  if (!Number.isInteger(exponent) || Math.abs(exponent) > 2 ** 31) return base ** exponent;
  let result = 1;
  let square = base;
  for (let bits = Math.abs(exponent); bits > 0; bits = Math.floor(bits / 2)) {
    if (bits % 2 === 1) result *= square;
    square *= square;
  }
  return exponent < 0 ? 1 / result : result;
}

/**
 * `(1+rate)^periods` and that less 1, through log1p and expm1 as Excel's results show (its PMT, FV, IPMT and PPMT
 * agree with these to the last digit where the plain power differs from the 13th); a rate of -100% or less by power.
 */
function compounded(rate: number, periods: number): { growth: number; gain: number } {
  if (rate <= -1) {
    const growth = (1 + rate) ** periods;
    return { growth, gain: growth - 1 };
  }
  const log = periods * Math.log1p(rate);
  return { growth: Math.exp(log), gain: Math.expm1(log) };
}

/** FV; `viaLogs` for IPMT's balance, where Excel's results follow log1p/expm1 (its FV cell follows the plain power). */
function futureValue(rate: number, periods: number, payment: number, present: number, type: number, viaLogs = false): number {
  if (rate === 0) return -(present + payment * periods);
  const plain = excelPower(1 + rate, periods);
  const { growth, gain } = viaLogs ? compounded(rate, periods) : { growth: plain, gain: plain - 1 };
  // the two orders of the last step are Excel's digits for FV and for IPMT's balance respectively (measured)
  return viaLogs ? -(present * growth + (payment * (1 + rate * type) * gain) / rate) : -(present * growth + payment * (1 + rate * type) * (gain / rate));
}

function payment(rate: number, periods: number, present: number, future: number, type: number, viaLogs = false): CellValue {
  if (periods === 0) return numError("PMT needs a number of periods other than 0");
  if (rate <= -1) return numError("a rate of -100% or less");
  if (rate === 0) return -(present + future) / periods;
  const plain = excelPower(1 + rate, periods);
  const { growth, gain } = viaLogs ? compounded(rate, periods) : { growth: plain, gain: plain - 1 };
  return -(((future + present * growth) * rate) / ((1 + rate * type) * gain));
}

function presentValue(rate: number, periods: number, payment: number, future: number, type: number): CellValue {
  if (rate === -1) return cellError("#DIV/0!", "a rate of -100% divides by 0");
  if (rate === 0) return -(future + payment * periods);
  // a rate below -100% compounds a negative base, which has a value over whole periods (Excel: PV(-3,5,100,12,1) is -68.375)
  const growth = excelPower(1 + rate, periods);
  if (growth === 0) return cellError("#DIV/0!");
  const value = (-payment * (1 + rate * type) * ((growth - 1) / rate) - future) / growth;
  return Number.isFinite(value) ? value : numError("no real present value at a rate below -100% over part of a period");
}

function periods(rate: number, payment: number, present: number, future: number, type: number): CellValue {
  if (rate === 0) return payment === 0 ? numError("NPER with no rate needs a payment") : -(present + future) / payment;
  const paid = payment * (1 + rate * type);
  const ratio = (paid - future * rate) / (paid + present * rate);
  if (!(ratio > 0) || rate <= -1) return numError("no number of periods reaches that value");
  return Math.log(ratio) / Math.log(1 + rate);
}

/** The interest part of payment `period` (1-based), as Excel splits a level payment. */
function interestPayment(rate: number, period: number, count: number, present: number, future: number, type: number): CellValue {
  // Excel takes a fractional period up to (not including) one past the last: IPMT(0.1, 3.9, 3, ...) has a value
  if (period < 1 || period >= count + 1) return numError("the period must lie between 1 and the number of periods");
  const level = payment(rate, count, present, future, type, true);
  if (isCellError(level) || typeof level !== "number") return level;
  let interest: number;
  if (period === 1) interest = type === 1 ? 0 : -present;
  else interest = type === 1 ? futureValue(rate, period - 2, level, present, 1, true) - level : futureValue(rate, period - 1, level, present, 0, true);
  return interest * rate;
}

/** The number cells of a cash-flow range (text, TRUE/FALSE and blanks skipped), or its first error. */
export function cashFlows(value: Arg): number[] | CellError {
  const flows: number[] = [];
  for (const cell of cellsOf(asArray(value))) {
    if (isCellError(cell)) return cell;
    if (typeof cell === "number") flows.push(cell);
  }
  return flows;
}

const discounted = (r: number, flows: readonly number[]): number => promisedSum(flows.map((flow, index) => flow / (1 + r) ** (index + 1)), "NPV");

function npv(args: readonly Arg[], env: WorksheetEnv): CellValue {
  const r = num(args[0]);
  const flows = numbersOf(args.slice(1), env);
  if (isCellError(flows)) return flows;
  if (r === -1) return cellError("#DIV/0!");
  return discounted(r, flows);
}

function mirr(args: readonly Arg[]): CellValue {
  const flows = cashFlows(args[0]);
  if (isCellError(flows)) return flows;
  const [finance, reinvest] = [num(args[1]), num(args[2])];
  const n = flows.length;
  // Excel's MIRR: the gains compounded to the last period at the reinvestment rate over the costs discounted to the
  // first at the finance rate (a cost at the first period is not discounted, so a finance rate of -100% may still do)
  const gains = flows.reduce((total, flow, index) => (flow > 0 ? total + flow * (1 + reinvest) ** (n - 1 - index) : total), 0);
  const costs = flows.reduce((total, flow, index) => (flow < 0 ? total + flow / (1 + finance) ** index : total), 0);
  if (costs === 0 || n < 2 || !Number.isFinite(costs)) return cellError("#DIV/0!", "MIRR needs a negative cash flow and two periods");
  // Excel's digits: the gains discounted to the first period, then compounded to the last (measured on the corpus)
  const present = flows.reduce((total, flow, index) => (flow > 0 ? total + flow / (1 + reinvest) ** index : total), 0);
  const ratio = (present * (1 + reinvest) ** (n - 1)) / -costs;
  const result = (reinvest > -1 ? ratio : gains / -costs) ** (1 / (n - 1)) - 1;
  return Number.isFinite(result) ? result : numError("MIRR has no real answer for these flows");
}

/** XNPV/XIRR's values and whole-day dates: as many of each, every one a number, no date before the first. */
export function datedFlows(values: Arg, dates: Arg, of: "XIRR" | "XNPV"): { flows: number[]; days: number[] } | CellError {
  // Excel's XIRR counts a blank value as 0 where XNPV answers #NUM! (FINANCIAL__XIRR.xlsx R20 and Q20)
  const flowCells = cellsOf(asArray(values)).map((cell) => (cell === null && of === "XIRR" ? 0 : cell));
  const dateCells = cellsOf(asArray(dates));
  const bad = [...flowCells, ...dateCells].find(isCellError);
  if (bad) return bad;
  if (flowCells.length !== dateCells.length) return numError("the values and dates differ in count");
  if ([...flowCells, ...dateCells].some((cell) => cell === null)) return numError("a value or a date is blank");
  // Excel's XNPV answers #NUM! for text or TRUE among its values, where XIRR answers #VALUE! (measured)
  if ([...flowCells, ...dateCells].some((cell) => typeof cell !== "number")) return cellError(of === "XIRR" ? "#VALUE!" : "#NUM!", "every value and date must be a number");
  const flows = flowCells as number[];
  const days = (dateCells as number[]).map(Math.floor);
  const first = days[0] ?? 0;
  if (days.some((day) => day < 0 || day < first)) return numError("a date lies before the first date");
  return { flows, days: days.map((day) => day - first) };
}

const xDiscounted = (r: number, flows: readonly number[], days: readonly number[]): number => promisedSum(flows.map((flow, index) => flow / (1 + r) ** ((days[index] ?? 0) / 365)), "XNPV");

function xnpv(args: readonly Arg[]): CellValue {
  const r = num(args[0]);
  const dated = datedFlows(args[1], args[2], "XNPV");
  if (isCellError(dated)) return dated;
  // Excel's XNPV takes no negative rate (measured: -0.3 and -0.4 are #NUM!)
  if (r < 0) return numError("XNPV needs a rate of 0 or more");
  return xDiscounted(r, dated.flows, dated.days);
}

export const FINANCE: Readonly<Record<string, FunctionSpec>> = {
  PMT: spec("nnnnn", (args) => payment(num(args[0]), num(args[1]), num(args[2]), num(args[3]), atStart(args[4])), 3),
  FV: spec(
    "nnnnn",
    (args) => {
      const value = futureValue(num(args[0]), num(args[1]), num(args[2]), num(args[3]), atStart(args[4]));
      // (1 + -100%) to a negative power divides by 0
      return !Number.isFinite(value) && num(args[0]) === -1 ? cellError("#DIV/0!") : value;
    },
    3,
  ),
  PV: spec("nnnnn", (args) => presentValue(num(args[0]), num(args[1]), num(args[2]), num(args[3]), atStart(args[4])), 3),
  NPER: spec("nnnnn", (args) => periods(num(args[0]), num(args[1]), num(args[2]), num(args[3]), atStart(args[4])), 3),
  IPMT: spec("nnnnnn", (args) => interestPayment(num(args[0]), num(args[1]), num(args[2]), num(args[3]), num(args[4]), atStart(args[5])), 4),
  PPMT: spec(
    "nnnnnn",
    (args) => {
      const [r, period, count, present, future, type] = [num(args[0]), num(args[1]), num(args[2]), num(args[3]), num(args[4]), atStart(args[5])];
      const interest = interestPayment(r, period, count, present, future, type);
      const level = payment(r, count, present, future, type, true);
      return typeof interest === "number" && typeof level === "number" ? level - interest : isCellError(interest) ? interest : level;
    },
    4,
  ),
  NPV: spec("nv", npv, 2, true),
  MIRR: spec("rnn", mirr),
  XNPV: spec("nrr", xnpv),
};
