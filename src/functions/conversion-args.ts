/**
 * The `currency` and `unit` arguments (convention 21) and what an instrument converts to: ids checked against the
 * service's reference lists, and an instrument's conversions from the lists of its own currency and unit.
 */
import { BUSHEL, UNIT_SIZES, unitFactor, type ConversionTarget } from "../api/conversion";
import type { InstrumentRecord, ReferenceGroup, ReferenceItem } from "../api/schemas";
import type { HistoryKey, PriceKey } from "../prices/types";
import { optionalText } from "./coerce";
import type { FunctionsClient } from "./context";
import { ArgumentError, NotAvailableError } from "./errors";

type ListType = "Currency" | "UnitOfMeasure";

/** The reference item of an id (any case), or an ArgumentError naming the argument and the valid ids. */
function itemOf(items: readonly ReferenceItem[], id: string, argument: string, what: string): ReferenceItem {
  const found = items.find((item) => item.id.toUpperCase() === id.toUpperCase());
  if (found === undefined) throw new ArgumentError(`${argument} '${id}' is not a ${what} id; valid: ${items.map((item) => item.id).join(", ")}`);
  return found;
}

async function items(client: FunctionsClient, type: ListType): Promise<ReferenceItem[]> {
  return (await client.references(type)).items;
}

/** The functions' trailing `currency` and `unit`: blank = the instrument's own; an id the service does not list is #VALUE!. */
export async function conversionTarget(client: FunctionsClient, currencyArg: unknown, unitArg: unknown): Promise<ConversionTarget> {
  const currency = optionalText(currencyArg, "currency");
  const unit = optionalText(unitArg, "unit");
  const target: ConversionTarget = {};
  if (currency !== undefined) target.currency = itemOf(await items(client, "Currency"), currency, "currency", "currency").id;
  if (unit !== undefined) target.unit = itemOf(await items(client, "UnitOfMeasure"), unit, "unit", "unit of measure").id;
  return target;
}

/** A key with the target's ids set (none set for the instrument's own). */
export function withTarget<K extends PriceKey | HistoryKey>(key: K, target: ConversionTarget | undefined): K {
  if (target?.currency !== undefined) key.currency = target.currency;
  if (target?.unit !== undefined) key.unit = target.unit;
  return key;
}

function knownUnit(id: string): boolean {
  return id === BUSHEL || UNIT_SIZES[id] !== undefined;
}

export interface InstrumentConversions {
  currencies: ReferenceItem[];
  units: ReferenceItem[];
}

type ConvertingRecord = Pick<InstrumentRecord, "currencyId" | "unitOfMeasureId" | "commodityId">;

/**
 * What an instrument's values convert to: the `availableConversionIds` of its currency and of its unit. Between
 * units the add-in knows (convention 21's mass units and bushels) a unit without a factor for the instrument's
 * commodity is left out (bushels of copper); other units are as the service lists them.
 */
export async function conversionsOf(client: FunctionsClient, record: ConvertingRecord): Promise<InstrumentConversions> {
  const [currencyItems, unitItems] = await Promise.all([items(client, "Currency"), items(client, "UnitOfMeasure")]);
  return conversionChoices(record, currencyItems, unitItems);
}

/** `conversionsOf` from reference lists already at hand (the pane's). */
export function conversionsFromLists(record: ConvertingRecord, references: readonly ReferenceGroup[]): InstrumentConversions {
  const list = (type: ListType) => references.find((group) => group.type === type)?.items ?? [];
  return conversionChoices(record, list("Currency"), list("UnitOfMeasure"));
}

/** Reads the `currency` and `unit` arguments as written (upper-cased), without the reference check: how the pane traces a cell. */
export function targetAsWritten(currencyArg: unknown, unitArg: unknown): ConversionTarget {
  const target: ConversionTarget = {};
  const currency = optionalText(currencyArg, "currency");
  const unit = optionalText(unitArg, "unit");
  if (currency !== undefined) target.currency = currency.toUpperCase();
  if (unit !== undefined) target.unit = unit.toUpperCase();
  return target;
}

function conversionChoices(record: ConvertingRecord, currencyItems: readonly ReferenceItem[], unitItems: readonly ReferenceItem[]): InstrumentConversions {
  const listed = (all: readonly ReferenceItem[], own: string): ReferenceItem[] => {
    const ids = all.find((item) => item.id === own)?.availableConversionIds ?? [];
    return ids.flatMap((id) => all.filter((item) => item.id === id));
  };
  const units = listed(unitItems, record.unitOfMeasureId).filter(
    (item) => !knownUnit(item.id) || !knownUnit(record.unitOfMeasureId) || unitFactor(record.unitOfMeasureId, item.id, record.commodityId) !== undefined,
  );
  return { currencies: listed(currencyItems, record.currencyId), units };
}

/** The target as the instrument would read in it, or #N/A naming the conversion it lacks. */
export async function checkedTarget(client: FunctionsClient, record: InstrumentRecord, target: ConversionTarget): Promise<{ currency: ReferenceItem | undefined; unit: ReferenceItem | undefined }> {
  if (target.currency === undefined && target.unit === undefined) return { currency: undefined, unit: undefined };
  const { currencies, units } = await conversionsOf(client, record);
  const pick = (list: ReferenceItem[], own: string, wanted: string | undefined): ReferenceItem | undefined => {
    if (wanted === undefined || wanted === own) return undefined;
    const found = list.find((item) => item.id === wanted);
    if (found === undefined) throw new NotAvailableError(`'${record.symbol}': no conversion from ${own} to ${wanted}`);
    return found;
  };
  return { currency: pick(currencies, record.currencyId, target.currency), unit: pick(units, record.unitOfMeasureId, target.unit) };
}

/** The record as values read in `target`: currency and unit (ids and full names) are the target's; #N/A when it lacks the conversion. */
export async function recordInTarget(client: FunctionsClient, record: InstrumentRecord, target: ConversionTarget): Promise<InstrumentRecord> {
  const { currency, unit } = await checkedTarget(client, record, target);
  const converted: InstrumentRecord = { ...record };
  if (currency !== undefined) {
    converted.currencyId = currency.id;
    if (converted.currency !== undefined) converted.currency = currency.description;
  }
  if (unit !== undefined) {
    converted.unitOfMeasureId = unit.id;
    if (converted.unitOfMeasure !== undefined) converted.unitOfMeasure = unit.description;
  }
  return converted;
}
