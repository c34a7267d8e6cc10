/**
 * SIN, COS and TAN as Excel computes them: the argument is reduced by multiples of pi/2 taken from pi rounded to 64
 * bits (an x87 extended constant, 565 * 2^-62 above the double nearest pi), which only shows near a multiple of pi/2:
 * Excel's SIN(PI()) is 1.22514845490862E-16 where the exact reduction gives 1.2246467991473532E-16 (measured on the
 * corpus's trigonometry files and IronCalc's documentation examples).
 */

const HALF_PI_HIGH = Math.PI / 2;
/** pi/2 rounded to 64 bits, less the double nearest pi/2. */
const HALF_PI_LOW = 565 * 2 ** -63;
/** Beyond this many quarter turns the product with pi/2 is no longer exact: the plain functions take over. */
const MOST_QUARTERS = 2 ** 26;
const SPLITTER = 2 ** 27 + 1;

/** a * b as the double nearest it and the exact remainder (Dekker's product). */
function exactProduct(a: number, b: number): [number, number] {
  const product = a * b;
  const [aHigh, aLow] = split(a);
  const [bHigh, bLow] = split(b);
  return [product, aHigh * bHigh - product + aHigh * bLow + aLow * bHigh + aLow * bLow];
}

function split(value: number): [number, number] {
  const scaled = SPLITTER * value;
  const high = scaled - (scaled - value);
  return [high, value - high];
}

/** `x` as a count of quarter turns (mod 4) and what is left, within pi/4 of 0. */
function quarters(x: number): { quarter: number; rest: number } | undefined {
  const turns = Math.round(x / HALF_PI_HIGH);
  if (Math.abs(turns) > MOST_QUARTERS) return undefined;
  const [product, remainder] = exactProduct(turns, HALF_PI_HIGH);
  return { quarter: ((turns % 4) + 4) % 4, rest: x - product - remainder - turns * HALF_PI_LOW };
}

export function excelSin(x: number): number {
  const reduced = quarters(x);
  if (reduced === undefined) return Math.sin(x);
  const { quarter, rest } = reduced;
  return [Math.sin(rest), Math.cos(rest), -Math.sin(rest), -Math.cos(rest)][quarter] ?? Math.sin(x);
}

export function excelCos(x: number): number {
  const reduced = quarters(x);
  if (reduced === undefined) return Math.cos(x);
  const { quarter, rest } = reduced;
  return [Math.cos(rest), -Math.sin(rest), -Math.cos(rest), Math.sin(rest)][quarter] ?? Math.cos(x);
}

export function excelTan(x: number): number {
  const reduced = quarters(x);
  if (reduced === undefined) return Math.tan(x);
  const { quarter, rest } = reduced;
  return quarter % 2 === 0 ? Math.tan(rest) : -1 / Math.tan(rest);
}
