/**
 * Binary arithmetic rounded once, at a precision of one's choosing, for the candidate scripts: a double is an integer
 * times a power of 2, so sums and products are exact in BigInt and only the rounding to nearest-even is a choice. It
 * gives what JavaScript lacks: a fused multiply-add (a*b+c rounded once to 53 bits, as MSVC may contract it under
 * /arch:AVX2), x87's extended precision (64 bits, rounded to a double only where a value is stored) and the
 * correctly rounded kth root. test/scripts/exact-rounding.test.ts holds it to the double operations.
 */

/** `mantissa * 2^exponent`, exactly. */
export interface Binary {
  readonly mantissa: bigint;
  readonly exponent: number;
}

const DOUBLE_BITS = 53;
export const EXTENDED_BITS = 64;

/** A finite double as an exact binary number. */
export function exactly(value: number): Binary {
  if (!Number.isFinite(value)) throw new RangeError(`not finite: ${String(value)}`);
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const [high, low] = [view.getUint32(0), view.getUint32(4)];
  const biased = (high >>> 20) & 0x7ff;
  const fraction = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  return { mantissa: high >>> 31 === 1 ? -mantissa : mantissa, exponent: (biased === 0 ? 1 : biased) - 1075 };
}

const magnitude = (value: bigint): bigint => (value < 0n ? -value : value);
const bitLength = (value: bigint): number => (value === 0n ? 0 : magnitude(value).toString(2).length);

/** Rounded to nearest, ties to even, at `bits` significant bits (no exponent range: the scripts' values are moderate). */
export function rounded(value: Binary, bits: number): Binary {
  const excess = bitLength(value.mantissa) - bits;
  if (excess <= 0) return value;
  const size = magnitude(value.mantissa);
  let kept = size >> BigInt(excess);
  const rest = size - (kept << BigInt(excess));
  const half = 1n << BigInt(excess - 1);
  if (rest > half || (rest === half && (kept & 1n) === 1n)) kept += 1n;
  return { mantissa: value.mantissa < 0n ? -kept : kept, exponent: value.exponent + excess };
}

export function sum(a: Binary, b: Binary): Binary {
  const low = Math.min(a.exponent, b.exponent);
  return { mantissa: (a.mantissa << BigInt(a.exponent - low)) + (b.mantissa << BigInt(b.exponent - low)), exponent: low };
}

export const negated = (a: Binary): Binary => ({ mantissa: -a.mantissa, exponent: a.exponent });
export const product = (a: Binary, b: Binary): Binary => ({ mantissa: a.mantissa * b.mantissa, exponent: a.exponent + b.exponent });

/** a/b rounded at `bits`: the quotient to two bits more than needed, and a sticky bit for any remainder. */
export function quotient(a: Binary, b: Binary, bits: number): Binary {
  if (b.mantissa === 0n) throw new RangeError("division by 0");
  const shift = Math.max(0, bits + 2 + bitLength(b.mantissa) - bitLength(a.mantissa));
  const numerator = magnitude(a.mantissa) << BigInt(shift);
  const whole = numerator / magnitude(b.mantissa);
  const sticky = whole * magnitude(b.mantissa) === numerator ? 0n : 1n;
  const sign = a.mantissa < 0n !== b.mantissa < 0n ? -1n : 1n;
  return rounded({ mantissa: sign * ((whole << 1n) | sticky), exponent: a.exponent - b.exponent - shift - 1 }, bits);
}

/** The nearest double (ties to even). */
export function toDouble(value: Binary): number {
  const { mantissa, exponent } = rounded(value, DOUBLE_BITS);
  // two factors so that neither power of 2 under- or overflows on its own
  const half = Math.trunc(exponent / 2);
  return Number(mantissa) * 2 ** half * 2 ** (exponent - half);
}

/** a*b+c rounded once to a double: the fused multiply-add. */
export const fma = (a: number, b: number, c: number): number => toDouble(sum(product(exactly(a), exactly(b)), exactly(c)));

/** Arithmetic rounded at `bits` after each operation (64: x87's extended precision); `store` rounds to a double. */
export function arithmetic(bits: number) {
  return {
    of: exactly,
    plus: (a: Binary, b: Binary): Binary => rounded(sum(a, b), bits),
    minus: (a: Binary, b: Binary): Binary => rounded(sum(a, negated(b)), bits),
    times: (a: Binary, b: Binary): Binary => rounded(product(a, b), bits),
    over: (a: Binary, b: Binary): Binary => quotient(a, b, bits),
    store: (a: Binary): Binary => exactly(toDouble(a)),
    value: toDouble,
  };
}

/** The largest integer whose `k`th power is at most `value` (Newton's method from above, in integers). */
function integerRoot(value: bigint, k: number): bigint {
  const power = BigInt(k);
  let guess = 1n << BigInt(Math.ceil(bitLength(value) / k));
  for (;;) {
    const next = ((power - 1n) * guess + value / guess ** (power - 1n)) / power;
    if (next >= guess) return guess;
    guess = next;
  }
}

/** The `k`th root of a positive double rounded once at `bits` (53: correctly rounded, the exact root rounded once). */
export function rootAt(value: number, k: number, bits: number): Binary {
  const { mantissa, exponent } = exactly(value);
  if (mantissa <= 0n || !Number.isInteger(k) || k < 1) throw new RangeError(`no root: ${String(value)}, ${String(k)}`);
  // scale by 2^(k*t) so the integer root has two bits more than kept, then a sticky bit for any remainder
  const scale = Math.ceil(((bits + 2) * k - bitLength(mantissa) - exponent) / k);
  const scaled = mantissa << BigInt(exponent + k * scale);
  const floor = integerRoot(scaled, k);
  const sticky = floor ** BigInt(k) === scaled ? 0n : 1n;
  return rounded({ mantissa: (floor << 1n) | sticky, exponent: -scale - 1 }, bits);
}

export const correctRoot = (value: number, k: number): number => toDouble(rootAt(value, k, DOUBLE_BITS));
