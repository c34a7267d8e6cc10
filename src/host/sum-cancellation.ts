/**
 * Where a sum's last digits are the rounding of how it was added. A sum of terms whose order and rounding Excel does
 * not document (NPV's and XNPV's discounted flows) differs from Excel's by at most the two rounding errors; when the
 * terms cancel so far that this bound reaches the total's 15th significant digit (an NPV at its own IRR: terms in
 * the hundreds, a total near 1E-12), no sum can promise Excel's digits, and the formula is left for Excel with why.
 */
import { LeftForExcelSignal } from "./left-for-excel";

/** Excel compares numbers at 15 significant digits (src/host/proof.ts). */
const EXCEL_DIGITS = 15;

/** Half a unit in the last place of 1: the most one rounded addition moves its result, relatively. */
const UNIT_ROUNDOFF = Number.EPSILON / 2;

/**
 * The terms' sum added in order, and a bound on its rounding error: each addition is off by at most u = 2^-53 of its
 * result, so the sum by at most u times the sum of the partial sums' sizes (the running error bound of recursive
 * summation, Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., section 4.2). Tighter than the a priori
 * (n - 1) * u * sum of |terms|, and as sound: it bounds the very additions made.
 */
export function sumWithBound(terms: readonly number[]): { total: number; bound: number } {
  let total = 0;
  let partials = 0;
  for (const [index, term] of terms.entries()) {
    total += term;
    // the first addition (0 + term) is exact
    if (index > 0) partials += Math.abs(total);
  }
  return { total, bound: UNIT_ROUNDOFF * partials };
}

/** How many leading significant digits of `total` a rounding error up to `bound` leaves certain (half a unit each). */
export function certainDigits(total: number, bound: number): number {
  if (bound === 0) return Infinity;
  if (total === 0) return 0;
  return Math.floor(Math.floor(Math.log10(Math.abs(total))) + 1 - Math.log10(2 * bound));
}

const ordinal = (n: number): string => `${String(n)}${n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th")}`;
const shown = (value: number): string => value.toExponential(1).toUpperCase();

/**
 * The terms' sum in the order given, unless the terms cancel so far that the rounding of the order and arithmetic
 * (which Excel's may not share) decides one of the total's 15 significant digits: then `LeftForExcelSignal`, saying
 * so (`NPV's terms sum to 1.2E+3 in size but cancel to 6.4E-12: ...`). A sum without such cancellation is the plain sum.
 */
export function promisedSum(terms: readonly number[], of: string): number {
  const { total, bound } = sumWithBound(terms);
  if (!Number.isFinite(total)) return total;
  const digits = certainDigits(total, bound);
  if (digits >= EXCEL_DIGITS) return total;
  const size = terms.reduce((sum, term) => sum + Math.abs(term), 0);
  const decides = digits < 1 ? "every digit of it" : `its digits past the ${ordinal(digits)}`;
  throw new LeftForExcelSignal(`${of}'s terms sum to ${shown(size)} in size but cancel to ${shown(total)}: the order and rounding of Excel's adding decide ${decides}`);
}
