/**
 * The rounding error of a product, exactly: `a*b - product` where `product` is the double `a*b` rounded, by Dekker's
 * splitting of each factor into halves whose products are exact (JavaScript has no fused multiply-add). MOD keeps the
 * remainder's low digits with it, and IRR's compensated Horner sum carries it along.
 */
export function exactProductError(a: number, b: number, product: number): number {
  const [aHigh, aLow] = split(a);
  const [bHigh, bLow] = split(b);
  return aHigh * bHigh - product + aHigh * bLow + aLow * bHigh + aLow * bLow;
}

/** `value` as a high half of 26 bits and the rest (2^27 + 1 is Dekker's splitter for doubles). */
function split(value: number): [number, number] {
  const scaled = 134217729 * value;
  const high = scaled - (scaled - value);
  return [high, value - high];
}
