/** A generated instrument's `F24M` forecast, as last published by the clock's now. */
import { fromEpochDay, isoWeekday, toEpochDay, type EpochDay } from "../../api";
import type { GeneratedSeries } from "./generated-series";
import type { Plan } from "./instrument-plans";
import { midOf, roundTo } from "./mids";
import type { ForecastData } from "./model";
import { hashInts, Random } from "./random";
import { isHoliday } from "./schedule";
import { lastIndexOnOrBefore } from "./series";

const { exp, floor, max } = Math;

const FORECAST_VERSION_START = { year: 2019, month: 0 };
const SALT_FORECAST = 10;

/** The first weekday (not 1 January) of the month of `day`. */
function firstWeekdayOfMonth(year: number, month: number): EpochDay {
  let day = toEpochDay(`${String(year).padStart(4, "0")}-${String(month + 1).padStart(2, "0")}-01`);
  while (isoWeekday(day) > 4 || isHoliday(day)) day++;
  return day;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

/** A month's forecast: its day (the first weekday), its time of day, and the generator the prices continue from. */
function forecastPublication(plan: Plan, year: number, month: number): { publicationDay: EpochDay; time: string; rng: Random } {
  const publicationDay = firstWeekdayOfMonth(year, month);
  const rng = new Random(hashInts(plan.key, SALT_FORECAST, year * 12 + month));
  const time = `${pad(rng.int(6, 9))}:${pad(rng.int(0, 59))}:${pad(rng.int(0, 59))}.${pad(rng.int(0, 999), 3)}`;
  return { publicationDay, time, rng };
}

/** The `F24M` forecast as last published by `now`: on the first weekday of now's month, or of the month before. */
export function buildForecast(plan: Plan, series: GeneratedSeries, now: number): ForecastData {
  const today = new Date(now);
  let year = today.getUTCFullYear();
  let month = today.getUTCMonth();
  let { publicationDay, time, rng } = forecastPublication(plan, year, month);
  if (Date.parse(`${fromEpochDay(publicationDay)}T${time}Z`) > now) {
    month -= 1;
    if (month < 0) {
      month = 11;
      year -= 1;
    }
    ({ publicationDay, time, rng } = forecastPublication(plan, year, month));
  }
  const monthIndex = year * 12 + month;
  const version = max(1, monthIndex - (FORECAST_VERSION_START.year * 12 + FORECAST_VERSION_START.month) + 1);
  const at = lastIndexOnOrBefore(series, publicationDay);
  let value = series.mid[max(0, at)] ?? plan.level;
  const drift = rng.float(-0.006, 0.008);
  const prices: ForecastData["prices"] = [];
  for (let ahead = 1; ahead <= 24; ahead++) {
    value *= exp(drift + 0.02 * rng.normal());
    const half = value * (0.02 + 0.004 * ahead);
    const target = monthIndex + ahead;
    const low = roundTo(value - half, plan.decimals);
    const high = roundTo(value + half, plan.decimals);
    prices.push({
      date: `${pad(floor(target / 12), 4)}-${pad((target % 12) + 1)}-01T00:00:00.000Z`,
      low,
      mid: midOf(low, high),
      high,
    });
  }
  return { type: "F24M", version, publicationDate: `${fromEpochDay(publicationDay)}T${time}Z`, prices };
}
