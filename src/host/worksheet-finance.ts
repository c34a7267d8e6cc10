/**
 * Excel's time-value-of-money and cash-flow functions, as data like the other families: the annuity identity
 * `pv*(1+r)^n + pmt*(1+r*type)*((1+r)^n-1)/r + fv = 0` solved for each closed-form unknown (PV, FV, PMT, NPER),
 * NPV/XNPV and MIRR; the iterative roots RATE, IRR and XIRR are in worksheet-finance-solvers.ts.
 * Excel's error cases: #NUM! where no answer exists or the search does not settle, #DIV/0! where a rate of -100% divides.
 */
import { type Arg, type FunctionSpec, type WorksheetEnv, asArray, cellsOf, num, spec } from "./worksheet-spec";
import { numbersOf } from "./worksheet-statistics";
import { promisedSum } from "./sum-cancellation";
import { type Nudged, promisedAgainstInputs } from "./input-sensitivity";
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
 * `(1+rate)^periods` and that less 1 through log1p and expm1 (a rate above -100%): PPMT's first payment at the start, as
 * Excel's digits show, and RATE's more exact path (worksheet-finance-solvers.ts).
 */
export function compounded(rate: number, periods: number): { growth: number; gain: number } {
  const log = periods * Math.log1p(rate);
  return { growth: Math.exp(log), gain: Math.expm1(log) };
}

function futureValue(rate: number, periods: number, payment: number, present: number, type: number): number {
  if (rate === 0) return -(present + payment * periods);
  const growth = excelPower(1 + rate, periods);
  return -(present * growth + payment * (1 + rate * type) * ((growth - 1) / rate));
}

function payment(rate: number, periods: number, present: number, future: number, type: number, viaLogs = false): CellValue {
  if (periods === 0) return numError("PMT needs a number of periods other than 0");
  if (rate <= -1) return numError("a rate of -100% or less");
  if (rate === 0) return -(present + future) / periods;
  const plain = excelPower(1 + rate, periods);
  const { growth, gain } = viaLogs ? compounded(rate, periods) : { growth: plain, gain: plain - 1 };
  // present and future value's shares apart, each times the rate over (1+r)^n-1: Excel's last digit on 3 more of
  // the corpus's PMT cells than the single quotient, and NPER of them in FINANCIAL__PMT.xlsx row 27 (measured)
  return -((present * rate * growth) / gain + (future * rate) / gain) / (1 + rate * type);
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

/** Why IPMT/PPMT have no value for a period (1-based; Excel takes a fractional one up to, not including, one past the last), or undefined. */
function periodError(rate: number, period: number, count: number): CellError | undefined {
  if (period < 1 || period >= count + 1) return numError("the period must lie between 1 and the number of periods");
  return rate <= -1 ? numError("a rate of -100% or less") : undefined;
}

/**
 * The interest part of payment `period`: the rate on the balance left after the payments before it, that balance as
 * present value less the share (1+r)^j-1 over (1+r)^n-1 of present plus future value (no difference of two large
 * numbers, so the balance keeps the digits Excel's do: IPMT(0.8,10,36,18000) is -14399.998164265444); for payments
 * at the start, the same discounted one period (over 1+rate).
 */
function interestPayment(rate: number, period: number, count: number, present: number, future: number, type: number): CellValue {
  const invalid = periodError(rate, period, count);
  if (invalid) return invalid;
  if (rate === 0) return 0;
  if (period === 1) return type === 1 ? 0 : -present * rate;
  const log = Math.log1p(rate);
  const balance = present - (present + future) * (Math.expm1((period - 1) * log) / Math.expm1(count * log));
  const interest = (-rate * balance) / (type === 1 ? 1 + rate : 1);
  return Number.isFinite(interest) ? interest : numError("the interest overflows");
}

/**
 * The principal part of payment `period`: the first payment's principal, -(pv+fv)*r/((1+r)^n-1), grown by the rate
 * each period (its own closed form, not the level payment less the interest: that difference of two near-equal
 * numbers loses the digits Excel keeps, PPMT(0.3,5,36,8000) is -0.542073667720037); for payments at the start, the
 * first payment is all principal and the others the same discounted one period (over 1+rate).
 */
function principalPayment(rate: number, period: number, count: number, present: number, future: number, type: number): CellValue {
  const invalid = periodError(rate, period, count);
  if (invalid) return invalid;
  if (rate === 0) return -(present + future) / count;
  if (type === 1 && period === 1) return payment(rate, count, present, future, 1, true);
  const log = Math.log1p(rate);
  const principal = (-(present + future) * (rate / Math.expm1(count * log)) * Math.exp((period - 1) * log)) / (type === 1 ? 1 + rate : 1);
  return Number.isFinite(principal) ? principal : numError("the principal overflows");
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
  const ratio = reinvest > -1 ? (present * (1 + reinvest) ** (n - 1)) / -costs : gains / -costs;
  // the (n-1)th root as exp(log(ratio) * (1/(n-1))): Excel's last digit on 10 more of the corpus's 195 than the power
  const result = (ratio > 0 ? Math.exp(Math.log(ratio) * (1 / (n - 1))) : ratio ** (1 / (n - 1))) - 1;
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

/**
 * A closed form of the annuity identity over its four numbers (rate, periods and two amounts; `type` is a flag) whose
 * numeric result is kept only where one unit in the last place of each number leaves it the same at 15 digits
 * (src/host/input-sensitivity.ts); otherwise it is left for Excel.
 */
function annuityForm(name: string, amounts: Nudged, compute: (numbers: readonly number[], type: number) => CellValue): FunctionSpec {
  return spec(
    "nnnnn",
    (args) => {
      const numbers = [num(args[0]), num(args[1]), num(args[2]), num(args[3])];
      const type = atStart(args[4]);
      const value = compute(numbers, type);
      return typeof value === "number" ? promisedAgainstInputs(name, numbers, amounts, value, (nudged) => compute(nudged, type)) : value;
    },
    3,
  );
}

/** Where an annuity form's four numbers sit, in the function's order: the rate first (then periods and two amounts, or for NPER a payment and two amounts). */
const [RATE_AT, SECOND_AT, THIRD_AT, FOURTH_AT] = [0, 1, 2, 3] as const;
const at = (numbers: readonly number[], index: number): number => numbers[index] ?? 0;

export const FINANCE: Readonly<Record<string, FunctionSpec>> = {
  PMT: annuityForm("PMT", new Map([[THIRD_AT, "its pv"], [FOURTH_AT, "its fv"]]), (x, type) => payment(at(x, RATE_AT), at(x, SECOND_AT), at(x, THIRD_AT), at(x, FOURTH_AT), type)),
  FV: annuityForm("FV", new Map([[THIRD_AT, "its pmt"], [FOURTH_AT, "its pv"]]), (x, type) => {
    const value = futureValue(at(x, RATE_AT), at(x, SECOND_AT), at(x, THIRD_AT), at(x, FOURTH_AT), type);
    // (1 + -100%) to a negative power divides by 0
    return !Number.isFinite(value) && at(x, RATE_AT) === -1 ? cellError("#DIV/0!") : value;
  }),
  PV: annuityForm("PV", new Map([[THIRD_AT, "its pmt"], [FOURTH_AT, "its fv"]]), (x, type) => presentValue(at(x, RATE_AT), at(x, SECOND_AT), at(x, THIRD_AT), at(x, FOURTH_AT), type)),
  NPER: annuityForm("NPER", new Map([[SECOND_AT, "its pmt"], [THIRD_AT, "its pv"], [FOURTH_AT, "its fv"]]), (x, type) => periods(at(x, RATE_AT), at(x, SECOND_AT), at(x, THIRD_AT), at(x, FOURTH_AT), type)),
  IPMT: spec("nnnnnn", (args) => interestPayment(num(args[0]), num(args[1]), num(args[2]), num(args[3]), num(args[4]), atStart(args[5])), 4),
  PPMT: spec("nnnnnn", (args) => principalPayment(num(args[0]), num(args[1]), num(args[2]), num(args[3]), num(args[4]), atStart(args[5])), 4),
  NPV: spec("nv", npv, 2, true),
  MIRR: spec("rnn", mirr),
  XNPV: spec("nrr", xnpv),
};
