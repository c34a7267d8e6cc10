/**
 * Conversion of prices between currencies and units (convention 21): the request's target, and the unit
 * factors the contract names (exact for mass units; bushels per commodity). No I/O; FX rates are data.
 */

/** The targets a request asks for; ids upper-case, undefined for the instrument's own. */
export interface ConversionTarget {
  currency?: string;
  unit?: string;
}

/** Kilograms in one of each mass unit (exact by definition: the pound is 0.45359237 kg). */
const POUND_KG = 0.45359237;
export const MASS_UNIT_KG: Readonly<Record<string, number>> = {
  MT: 1000,
  KG: 1,
  LB: POUND_KG,
  ST: 2000 * POUND_KG,
};

/** Kilograms in one bushel, by commodity id: the trade's standard bushel weights (60, 56 and 60 lb). */
export const BUSHEL_KG: Readonly<Record<string, number>> = {
  WHEAT: 60 * POUND_KG,
  CORN: 56 * POUND_KG,
  SOYBEANS: 60 * POUND_KG,
};
export const BUSHEL = "BU";

function kilogramsIn(unit: string, commodityId: string): number | undefined {
  if (unit === BUSHEL) return BUSHEL_KG[commodityId];
  return MASS_UNIT_KG[unit];
}

/**
 * The factor that turns a price per `from` into a price per `to` for an instrument of `commodityId`, or
 * undefined where no honest factor exists (dry and wet tonnes, metal units, mass and volume).
 */
export function unitFactor(from: string, to: string, commodityId: string): number | undefined {
  if (from === to) return 1;
  const fromKg = kilogramsIn(from, commodityId);
  const toKg = kilogramsIn(to, commodityId);
  if (fromKg === undefined || toKg === undefined) return undefined;
  return toKg / fromKg;
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

/** `EUR/LB`, `EUR`, `/LB`, or "" for none: a short name of a target in keys and messages. */
export function conversionLabel(target: ConversionTarget | undefined): string {
  if (!isConversion(target)) return "";
  if (target.unit === undefined) return target.currency ?? "";
  return `${target.currency ?? ""}/${target.unit}`;
}
