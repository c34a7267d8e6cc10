/**
 * The candidate scripts' exact arithmetic (scripts/exact-rounding.ts) rounded at 53 bits is IEEE 754's: equal to
 * JavaScript's own sums, products, quotients and square roots, and a fused multiply-add keeps what a product then a
 * sum loses.
 */
import { EXTENDED_BITS, arithmetic, correctRoot, exactly, fma, product, quotient, sum, toDouble } from "../../scripts/exact-rounding";

/** Doubles across 20 orders of magnitude, either sign, from a fixed seed (a linear congruential sequence). */
function doubles(count: number): number[] {
  let state = 12345;
  const next = (): number => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  return Array.from({ length: count }, () => (next() - 0.5) * 10 ** (next() * 20 - 10));
}

describe("exact rounding for the candidate scripts", () => {
  const values = doubles(2000);
  const pairs = values.map((value, index) => [value, values[(index * 7 + 3) % values.length] ?? 1] as const);

  it("rounds sums, products and quotients at 53 bits as the double operations do", () => {
    const differ = pairs.filter(([a, b]) => !Object.is(toDouble(sum(exactly(a), exactly(b))), a + b) || !Object.is(toDouble(product(exactly(a), exactly(b))), a * b) || !Object.is(toDouble(quotient(exactly(a), exactly(b), 53)), a / b));
    expect(differ).toEqual([]);
  });

  it("rounds a tie to even", () => {
    expect(toDouble(sum(exactly(1), exactly(2 ** -53)))).toBe(1);
    expect(toDouble(sum(exactly(1 + 2 ** -52), exactly(2 ** -53)))).toBe(1 + 2 ** -51);
  });

  it("fuses a multiply-add: one rounding keeps a product's low bits", () => {
    expect(fma(0.1, 10, -1)).toBe(5.551115123125783e-17);
    expect(0.1 * 10 - 1).toBe(0);
    expect(fma(1 + 2 ** -52, 1 - 2 ** -52, -1)).toBe(-(2 ** -104));
  });

  it("keeps x87's 64 bits until a value is stored: 3 times a third less 1 is 0 kept, -2^-54 stored, 0 in doubles", () => {
    const x = arithmetic(EXTENDED_BITS);
    const third = x.over(x.of(1), x.of(3));
    // kept: 1/3 + 2^-65/3, times 3 is 1 + 2^-65, which rounds to 1 at 64 bits
    expect(x.value(x.minus(x.times(third, x.of(3)), x.of(1)))).toBe(0);
    // stored: the double 1/3 - 2^-54/3, times 3 is 1 - 2^-54, which 64 bits hold and 53 round to 1
    expect(x.value(x.minus(x.times(x.store(third), x.of(3)), x.of(1)))).toBe(-(2 ** -54));
    expect((1 / 3) * 3 - 1).toBe(0);
  });

  it("takes the correctly rounded kth root: Math.sqrt's square roots and exact roots of exact powers", () => {
    const positive = values.map(Math.abs);
    expect(positive.filter((value) => !Object.is(correctRoot(value, 2), Math.sqrt(value)))).toEqual([]);
    expect(correctRoot(27 * 2 ** -300, 3)).toBe(3 * 2 ** -100);
    expect(correctRoot(243, 5)).toBe(3);
    expect(correctRoot(0.9, 2)).toBe(0.9486832980505138);
  });
});
