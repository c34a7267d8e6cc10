/**
 * Conversion of prices between currencies and units (convention 21): the request's target, and the unit
 * factors the contract names (exact for mass units; bushels per commodity). No I/O; FX rates are data.
 */

/** The targets a request asks for; ids upper-case, undefined for the instrument's own. */
export interface ConversionTarget {
  currency?: string;
  unit?: string;
}

/** Size of each unit in its dimension's base (kilogram, cubic metre); exact by definition (the pound is 0.45359237 kg). */
const POUND_KG = 0.45359237;
/** A board foot is 144 cubic inches (nominal board measure, as the lumber trade quotes it). */
const BOARD_FOOT_M3 = 144 * 0.0254 ** 3;
export const UNIT_SIZES: Readonly<Record<string, { dimension: "mass" | "volume"; size: number }>> = {
  MT: { dimension: "mass", size: 1000 },
  KG: { dimension: "mass", size: 1 },
  LB: { dimension: "mass", size: POUND_KG },
  ST: { dimension: "mass", size: 2000 * POUND_KG },
  M3: { dimension: "volume", size: 1 },
  MBF: { dimension: "volume", size: 1000 * BOARD_FOOT_M3 },
};

/** Kilograms in one bushel, by commodity id: the trade's standard bushel weights (60, 56 and 60 lb). */
export const BUSHEL_KG: Readonly<Record<string, number>> = {
  WHEAT: 60 * POUND_KG,
  CORN: 56 * POUND_KG,
  SOYBEANS: 60 * POUND_KG,
};
export const BUSHEL = "BU";

function sizeOf(unit: string, commodityId: string): { dimension: string; size: number } | undefined {
  if (unit === BUSHEL) {
    const kg = BUSHEL_KG[commodityId];
    return kg === undefined ? undefined : { dimension: "mass", size: kg };
  }
  return UNIT_SIZES[unit];
}

/**
 * The factor that turns a price per `from` into a price per `to` for an instrument of `commodityId`, or
 * undefined where no honest factor exists (dry and wet tonnes, metal units, area, mass and volume).
 */
export function unitFactor(from: string, to: string, commodityId: string): number | undefined {
  if (from === to) return 1;
  const fromSize = sizeOf(from, commodityId);
  const toSize = sizeOf(to, commodityId);
  if (fromSize === undefined || toSize === undefined || fromSize.dimension !== toSize.dimension) return undefined;
  return toSize.size / fromSize.size;
}

/** Units `unit` converts into for at least one commodity: what a unit's `availableConversionIds` lists. */
export function unitConversionIds(unit: string, units: readonly string[]): string[] {
  const commodities = Object.keys(BUSHEL_KG);
  return units.filter((other) => other !== unit && commodities.some((commodity) => unitFactor(unit, other, commodity) !== undefined));
}

/** Whether `target` asks for anything. */
export function isConversion(target: ConversionTarget | undefined): target is ConversionTarget {
  return target !== undefined && (target.currency !== undefined || target.unit !== undefined);
}

/** `EUR/LB`, `EUR`, `LB`, or "" for none: how messages name a target. */
export function conversionLabel(target: ConversionTarget | undefined): string {
  if (!isConversion(target)) return "";
  return [target.currency, target.unit].filter((id) => id !== undefined).join("/");
}
