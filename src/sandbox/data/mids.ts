/** The mid rule (convention 10) and the rounding it uses, shared by the generator, loaded data and the service. */

// Math functions held locally: under jest's vm context every global lookup is slow, and these run millions of times.
const { abs, sign, round } = Math;

/** Decimal places of every mid and every average (convention 10, vendor). */
export const MID_PLACES = 2;
const MID_SCALE = 10 ** MID_PLACES;

/**
 * The mid of a low and a high (convention 10): their midpoint rounded to 2 decimals. Only when low and high lie
 * within one cent of each other (loaded data with finer prices) is it kept inside them, as convention 15 wants.
 */
export function midOf(low: number, high: number): number {
  const mid = roundToScale((low + high) / 2, MID_SCALE);
  return mid < low ? low : mid > high ? high : mid;
}

/** Rounds half away from zero to `decimals` places; monotone, so it keeps low <= mid <= high. */
export function roundTo(value: number, decimals: number): number {
  return roundToScale(value, 10 ** decimals);
}

/** roundTo with its `10 ** decimals` given: a loop over one series' values raises 10 to its power once. */
export function roundToScale(value: number, scale: number): number {
  return (sign(value) * round(abs(value) * scale + 1e-9)) / scale || 0;
}
