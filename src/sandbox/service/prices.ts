/**
 * `/Prices` and its averages (spec 4.1, 4.3; conventions 9, 10). One record per distinct requested date, in
 * the order asked; a date before the first assessment has no record.
 */
import { toEpochDay, type AverageType, type PriceRecord, type PricesResponse } from "../../api";
import type { InstrumentData } from "../data/model";
import { priceBlock } from "./blocks";
import { calculationRequirement, withInvalid, type ApiCaller, type Catalog } from "./catalog";
import { dayString, firstIndexOnOrAfter, lastIndexOnOrBefore } from "./days";
import { periodOf } from "./periods";
import { assessmentRecord, averageOver, averageRecord, selectFields, type FieldSelection } from "./records";
import type { ParsedPricesRequest } from "./requests";

/** The assessment on or before `day` (latest when undefined), standing for `date`. */
function plainRecord(instrument: InstrumentData, day: number | undefined, date: string | undefined, sel: FieldSelection): PriceRecord | undefined {
  const series = instrument.series;
  const index = day === undefined ? series.length - 1 : lastIndexOnOrBefore(series.days, day);
  if (index < 0) return undefined;
  return assessmentRecord(series, index, date ?? dayString(series.days[index] as number), sel);
}

/**
 * The average of D's period to date. When D's period holds no assessment on or before D, the latest earlier
 * period's average stands for D, as the latest earlier assessment does for a plain price.
 */
function averagedRecord(
  instrument: InstrumentData,
  type: AverageType,
  day: number | undefined,
  date: string | undefined,
  sel: FieldSelection,
): PriceRecord | undefined {
  const series = instrument.series;
  const last = day === undefined ? series.length - 1 : lastIndexOnOrBefore(series.days, day);
  if (last < 0) return undefined;
  const lastDay = series.days[last] as number;
  const ownPeriod = periodOf(type, day ?? lastDay);
  const period = lastDay >= ownPeriod.start ? ownPeriod : periodOf(type, lastDay);
  const average = averageOver(series, firstIndexOnOrAfter(series.days, period.start), last, period);
  return averageRecord(series, type, average, date ?? dayString(day ?? lastDay), sel);
}

export function pricesQuery(catalog: Catalog, caller: ApiCaller, request: ParsedPricesRequest): PricesResponse {
  const type = request.priceCalculationType;
  const { found, invalid } = catalog.resolve(request.symbols, caller, calculationRequirement(type));
  const sel = selectFields(request.fields);
  const dates = request.dates;
  const days = dates?.map(toEpochDay);
  const instruments = found.map((instrument) => {
    const prices: PriceRecord[] = [];
    const one = (day: number | undefined, date: string | undefined): void => {
      const record =
        type === "None" ? plainRecord(instrument, day, date, sel) : averagedRecord(instrument, type, day, date, sel);
      if (record !== undefined) prices.push(record);
    };
    if (dates === undefined || days === undefined) one(undefined, undefined);
    else for (let i = 0; i < dates.length; i++) one(days[i], dates[i]);
    return priceBlock(instrument, prices);
  });
  return withInvalid({ instruments, priceCalculationType: type }, invalid);
}
