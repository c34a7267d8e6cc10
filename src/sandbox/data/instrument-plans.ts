/** The instruments a seed defines (independent of `today`): catalogue combinations, symbols, records and models. */
import { AVERAGE_TYPES, fromEpochDay, toEpochDay, type AverageType, type EpochDay, type Frequency, type InstrumentRecord } from "../../api";
import {
  COMMODITIES,
  CURRENCIES,
  INCOTERMS,
  LOCATIONS,
  SECTOR_SOURCES,
  SOURCES,
  UNITS,
  type CommodityDef,
  type CurrencyDef,
  type LocationDef,
  type MarketDef,
  type ProductDef,
  type Sector,
  type UnitDef,
} from "./catalogue";
import { MID_PLACES } from "./mids";
import { hashString, Random } from "./random";
import { firstAssessmentDayFrom } from "./schedule";

// Math functions held locally: under jest's vm context every global lookup is slow, and these run millions of times.
const { floor, max, abs } = Math;

/** Instruments per sector: metals a large minority. */
const SECTOR_QUOTAS: Readonly<Record<Sector, number>> = { MB: 132, AG: 108, FP: 80 };
const FIRST_LAUNCH = toEpochDay("2005-01-03");
/** Launches end here so that any `today` from 2025 on sees every instrument. */
const LAST_LAUNCH = toEpochDay("2024-06-28");
const LAST_DISCONTINUATION = toEpochDay("2024-09-30");

const FREQUENCY_WEIGHTS: Readonly<Record<Sector, readonly (readonly [Frequency, number])[]>> = {
  MB: [["Daily", 45], ["Twice weekly", 20], ["Weekly", 25], ["Monthly", 10]],
  AG: [["Daily", 55], ["Twice weekly", 5], ["Weekly", 30], ["Monthly", 10]],
  FP: [["Daily", 5], ["Twice weekly", 10], ["Weekly", 60], ["Monthly", 25]],
};

interface Combo {
  commodity: CommodityDef;
  product: ProductDef;
  market: MarketDef;
  location: LocationDef;
  currency: CurrencyDef;
}

/** Everything about an instrument that depends on the seed alone. */
export interface Plan {
  combo: Combo;
  unit: UnitDef;
  key: number;
  record: Required<InstrumentRecord>;
  frequency: Frequency;
  weeklyDay: number;
  launchDay: EpochDay;
  discontinueDay: EpochDay | undefined;
  singleValue: boolean;
  /** Price: typical level; Premium/Discount: mean. In the instrument's currency. */
  level: number;
  /** Premium/Discount swing in the instrument's currency. */
  swing: number;
  beta: number;
  idioSigma: number;
  kappa: number;
  decimals: number;
  publishMinute: number;
  appraisalRate: number;
  forwardMonths: number;
  forwardCarry: number;
  hasForecast: boolean;
}

function byId<T extends { id: string }>(items: readonly T[], id: string, kind: string): T {
  const found = items.find((item) => item.id === id);
  if (found === undefined) throw new Error(`catalogue: unknown ${kind} ${id}`);
  return found;
}

function combosOf(commodity: CommodityDef): Combo[] {
  const combos: Combo[] = [];
  for (const product of commodity.products) {
    for (const market of product.markets) {
      const location = byId(LOCATIONS, market.location, "location");
      for (const currencyId of market.currencies ?? location.currencies) {
        combos.push({ commodity, product, market, location, currency: byId(CURRENCIES, currencyId, "currency") });
      }
    }
  }
  return combos;
}

/** Takes a sector's quota round-robin across its commodities, so that every commodity is represented. */
function selectCombos(rng: Random, sector: Sector): Combo[][] {
  const groups = COMMODITIES.filter((c) => c.sector === sector).map((c) => rng.fork(`combos:${c.id}`).shuffle(combosOf(c)));
  const available = groups.reduce((sum, group) => sum + group.length, 0);
  const quota = SECTOR_QUOTAS[sector];
  if (available < quota) throw new Error(`catalogue: ${sector} has ${available} combinations for a quota of ${quota}`);
  const taken: Combo[][] = groups.map(() => []);
  let count = 0;
  for (let round = 0; count < quota; round++) {
    groups.forEach((group, g) => {
      const combo = group[round];
      if (combo !== undefined && count < quota) {
        taken[g]?.push(combo);
        count++;
      }
    });
  }
  // Within a commodity, catalogue order: related instruments get neighbouring numbers.
  return taken.map((group) => {
    const all = combosOf(group[0]?.commodity ?? (COMMODITIES[0] as CommodityDef));
    return group.slice().sort((a, b) => all.findIndex((c) => sameCombo(c, a)) - all.findIndex((c) => sameCombo(c, b)));
  });
}

function sameCombo(a: Combo, b: Combo): boolean {
  return a.product === b.product && a.market === b.market && a.currency === b.currency;
}

/** Decimal places of low and high: 2 (as every mid has, convention 10), whole numbers for six-figure prices. */
function decimalsFor(magnitude: number): number {
  return magnitude >= 100_000 ? 0 : MID_PLACES;
}

export function describe(combo: Combo, unit: UnitDef): { description: string; descriptionShort: string; subject: string; units: string } {
  const { product, market, location, currency } = combo;
  const place = `${market.basis} ${location.short}`;
  const qualifier = market.qualifier === undefined ? "" : `, ${market.qualifier}`;
  const units = `${currency.text}/${unit.text}`;
  const shortQualifier = market.qualifier === undefined ? "" : ` ${market.qualifier.split(" ").map((w) => w[0]?.toUpperCase()).join("")}`;
  return {
    description: `${product.name}, ${place}${qualifier}, ${units}`,
    descriptionShort: `${product.short} ${place}${shortQualifier} ${currency.id}/${unit.sign}`,
    subject: `${product.name}, ${place}${qualifier},`,
    units,
  };
}

function calculationTypes(rng: Random, frequency: Frequency): AverageType[] {
  const [, monthly, quarterly, yearly] = AVERAGE_TYPES;
  const all = AVERAGE_TYPES.slice();
  const noWeekly = [monthly, quarterly, yearly] as AverageType[];
  switch (frequency) {
    case "Daily":
      return rng.chance(0.9) ? all : noWeekly;
    case "Twice weekly":
      return rng.chance(0.5) ? all : noWeekly;
    case "Weekly":
      return rng.weighted<AverageType[]>([[noWeekly, 60], [[monthly, yearly] as AverageType[], 20], [[], 20]]);
    case "Monthly":
      return rng.weighted<AverageType[]>([[[quarterly, yearly] as AverageType[], 50], [[yearly] as AverageType[], 20], [[], 30]]);
  }
}

function planInstrument(seed: number, symbol: string, combo: Combo, featured = false): Plan {
  const { commodity, product, market, location, currency } = combo;
  const unit = byId(UNITS, product.unit, "unit");
  const incoterm = byId(INCOTERMS, market.incoterm, "incoterm");
  const key = hashString(symbol, seed);
  const rng = new Random(key).fork("attributes");
  const sector = commodity.sector;
  const isPrice = product.priceType === "Price";

  const frequency = rng.weighted(FREQUENCY_WEIGHTS[sector]);
  const weeklyDay = rng.pick([0, 1, 2, 2, 3, 3, 4, 4, 4]);
  const launchFrom = FIRST_LAUNCH + floor(rng.next() ** 1.3 * (LAST_LAUNCH - FIRST_LAUNCH));
  const launchDay = firstAssessmentDayFrom(frequency, weeklyDay, launchFrom);
  const agForwardMonths = sector === "AG" && isPrice && (frequency === "Daily" || frequency === "Weekly") && rng.chance(0.4) ? rng.int(3, 12) : 0;
  const forwardCarry = rng.float(-0.008, 0.012);
  const drawnForecast = sector !== "FP" && isPrice && agForwardMonths === 0 && rng.chance(0.14);
  // Metals get forward curves from a generator of their own, so that no other attribute changes with them; the
  // documented examples' metal (MB-AL-0004) always has curves and a forecast, for every sandbox user.
  const metal = new Random(key).fork("metal-curves");
  const metalCurves = sector === "MB" && frequency !== "Monthly" && (featured || metal.chance(0.2));
  const forwardMonths = metalCurves ? (featured ? 12 : metal.int(3, 12)) : agForwardMonths;
  const hasForecast = drawnForecast || featured;
  const discontinueSpan = LAST_DISCONTINUATION - launchDay - 365;
  const discontinueDay = !hasForecast && discontinueSpan > 30 && rng.chance(0.09) ? launchDay + 365 + rng.int(0, discontinueSpan) : undefined;
  const sourceId = rng.weighted([
    [SECTOR_SOURCES[sector], 80],
    [frequency === "Daily" ? SECTOR_SOURCES[sector] : "SURVEY", 10],
    ["INDEX", 10],
  ]);
  const source = byId(SOURCES, sourceId, "source");
  const priceCalculationTypeIds = calculationTypes(rng, frequency);
  const level = product.level * currency.perUsd;
  const swing = (product.swing ?? 0) * currency.perUsd;
  const { description, descriptionShort } = describe(combo, unit);

  const record: Required<InstrumentRecord> = {
    symbol,
    productId: `${commodity.code}-${product.key}`,
    description,
    descriptionShort,
    commodityId: commodity.id,
    priceType: product.priceType,
    locationId: location.id,
    currencyId: currency.id,
    unitOfMeasureId: unit.id,
    incotermId: incoterm.id,
    launchDate: fromEpochDay(launchDay),
    frequency,
    sourceId: source.id,
    status: "Active",
    priceCalculationTypeIds,
    commodity: commodity.name,
    location: location.name,
    currency: currency.description,
    unitOfMeasure: unit.description,
    incoterm: incoterm.description,
    source: source.description,
    forecastTypeIds: hasForecast ? ["F24M"] : [],
    hasForwardCurves: forwardMonths > 0,
  };
  return {
    combo,
    unit,
    key,
    record,
    frequency,
    weeklyDay,
    launchDay,
    discontinueDay,
    singleValue: rng.chance(0.15),
    level,
    swing,
    beta: rng.float(0.8, 1.15),
    idioSigma: isPrice ? rng.float(0.04, 0.12) : 1,
    // A premium reverts to its mean over years, not months (half-life about two years): see premiumCenter.
    kappa: isPrice ? 1.5 : 0.35,
    decimals: decimalsFor(isPrice ? level : max(abs(level), swing)),
    publishMinute: (sector === "MB" ? 16 * 60 : sector === "AG" ? 17 * 60 : 15 * 60) + rng.int(0, 30),
    appraisalRate: rng.float(0.01, 0.06),
    forwardMonths,
    forwardCarry,
    hasForecast,
  };
}

/** The first number of these groups is fixed so the symbols the docs and help use as examples always exist. */
const ANCHOR_NUMBERS: Readonly<Record<string, number>> = { "MB-AL": 4, "AG-WHE": 58, "FP-PLP": 34 };

/** Symbols of the docs' examples that always carry forward curves and a forecast (PRICES.CURVE, PRICES.FORECAST). */
const FEATURED = new Set(["MB-AL-0004"]);

/** Every instrument the seed defines, sorted by symbol; independent of `today`. */
export function planInstruments(seed: number): Plan[] {
  const rng = new Random(seed);
  const plans: Plan[] = [];
  for (const sector of ["MB", "AG", "FP"] as const) {
    for (const group of selectCombos(rng.fork(`sector:${sector}`), sector)) {
      const first = group[0];
      if (first === undefined) continue;
      const numbering = rng.fork(`numbers:${sector}-${first.commodity.code}`);
      const drawn = numbering.int(1, 12);
      let number = ANCHOR_NUMBERS[`${sector}-${first.commodity.code}`] ?? drawn;
      for (const combo of group) {
        const symbol = `${sector}-${combo.commodity.code}-${String(number).padStart(4, "0")}`;
        plans.push(planInstrument(seed, symbol, combo, FEATURED.has(symbol)));
        number += numbering.int(1, 25);
      }
    }
  }
  return plans.sort((a, b) => (a.record.symbol < b.record.symbol ? -1 : a.record.symbol > b.record.symbol ? 1 : 0));
}
