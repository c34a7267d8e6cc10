/** Forecasts on history (convention 14). */
import { dateOfTimestamp, matchName, toEpochDay, type Forecast } from "../../api";
import type { ForecastData, InstrumentData } from "../data/model";
import type { Requirement } from "./catalogue";
import { firstIndexOnOrAfter } from "../data/day-search";

/** The instrument's latest version of the type (matched without regard to case), if it has the type at all. */
function forecastOf(instrument: InstrumentData, type: string): ForecastData | undefined {
  const id = matchName(instrument.record.forecastTypeIds, type);
  if (id === undefined) return undefined;
  let latest: ForecastData | undefined;
  for (const forecast of instrument.forecasts) {
    if (forecast.type === id && (latest === undefined || forecast.version > latest.version)) latest = forecast;
  }
  return latest;
}

export function forecastRequirement(type: string): Requirement {
  // The caller's text, at most 40 characters of it (convention 8a): the message repeats once per instrument.
  const shown = type.length > 40 ? `${type.slice(0, 40)}...` : type;
  return (instrument) => (forecastOf(instrument, type) === undefined ? `Forecast type ${shown} is not available for this instrument` : undefined);
}

/** The forecast when [fromDate, toDate] holds at least one actual assessment and one forecast price. */
export function forecastFor(instrument: InstrumentData, type: string, fromDate: string, toDate: string): Forecast | undefined {
  const data = forecastOf(instrument, type);
  if (data === undefined) return undefined;
  const days = instrument.series.days;
  const first = firstIndexOnOrAfter(days, toEpochDay(fromDate));
  if (first >= days.length || (days[first] as number) > toEpochDay(toDate)) return undefined;
  const forecastPrices = data.prices.filter((price) => {
    const day = dateOfTimestamp(price.date);
    return day >= fromDate && day <= toDate;
  });
  if (forecastPrices.length === 0) return undefined;
  return {
    symbol: `${instrument.record.symbol}.${data.type}`,
    version: data.version,
    publicationDate: data.publicationDate,
    forecastPrices: forecastPrices.map((price) => ({ date: price.date, low: price.low, mid: price.mid, high: price.high })),
  };
}
