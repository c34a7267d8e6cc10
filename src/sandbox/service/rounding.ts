/** How the service rounds what it computes: prices to their decimals, converted values to significant digits. */

// Held locally: under jest's vm context every global lookup is slow.
const mathRound = Math.round;

/** Rounds to `places` decimals; float noise of sums and differences never reaches a response. */
export function round(value: number, places: number): number {
  const factor = 10 ** places;
  const rounded = mathRound(value * factor) / factor;
  return rounded === 0 ? 0 : rounded;
}

/** Significant digits a converted value keeps (convention 22 asks for at least 6). */
export const CONVERTED_DIGITS = 8;

/** Rounds to `digits` significant digits: a converted value keeps its precision whatever its size. */
export function significant(value: number, digits = CONVERTED_DIGITS): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  return Number(value.toPrecision(digits)) || 0;
}
