/**
 * Where a closed form's 15th digit rests on the last bit of its inputs. An input computed by another formula may
 * differ from Excel's by a unit in its last place (PMT at a rate of -90 % paid at the start lies 4 units from Excel's
 * under every arrangement tried, scripts/closed-form-candidates.ts), and a formula whose terms cancel (PV of that
 * payment over 3 periods: terms near 300 that leave 0.12, over 0.1^3) amplifies it past Excel's 15-digit comparison.
 * Where one unit in the last place of any one input moves the result that far, the engine cannot promise Excel's
 * digits, and the formula is left for Excel with why; a well-conditioned result survives the nudge unchanged at 15
 * digits and is computed as before.
 */
import { LeftForExcelSignal } from "./left-for-excel";
import { sameNumber } from "./coerce";

/** One unit in the last place of `value` each way (none for 0, which has no last place to move). */
function nudged(value: number): number[] {
  if (value === 0 || !Number.isFinite(value)) return [];
  const unit = 2 ** (Math.floor(Math.log2(Math.abs(value))) - 52);
  return [value - unit, value + unit];
}

/** Which of a function's numbers may carry another engine's rounding, by index, and what its message calls each. */
export type Nudged = ReadonlyMap<number, string>;

/**
 * `result` (the value of `compute` at `inputs`) if each of the `nudged` inputs moved by one unit in its last place
 * gives the same result at Excel's 15 digits (or an error or no number, which that rounding does not decide here);
 * otherwise a signal that leaves the formula for Excel, saying which input and how far.
 */
export function promisedAgainstInputs(name: string, inputs: readonly number[], nudgedInputs: Nudged, result: number, compute: (inputs: readonly number[]) => unknown): number {
  if (!Number.isFinite(result)) return result;
  for (const [index, label] of nudgedInputs) {
    const input = inputs[index] ?? 0;
    for (const moved of nudged(input)) {
      const other = compute(inputs.map((value, at) => (at === index ? moved : value)));
      if (typeof other === "number" && Number.isFinite(other) && !sameNumber(other, result)) {
        throw new LeftForExcelSignal(`${name}'s terms cancel: one unit in the last place of ${label} moves its result from ${String(result)} to ${String(other)}, past Excel's 15 digits, so the rounding of Excel's own arithmetic decides them`);
      }
    }
  }
  return result;
}
