/**
 * Conversion on `/Prices`, its averages and `/Prices/History` (convention 21): checks a request's targets,
 * says why an instrument cannot convert, and gives each instrument as it reads in the target currency and unit
 * (a converted view of its series, curves and forecasts), so that the record writers need not know.
 */
import { dateOfTimestamp, isConversion, toEpochDay, unitFactor, type ConversionTarget, type ForwardCurvePoint, type ReferenceItem } from "../../api";
import { fxRate, hasCurrency, type FxRates } from "../data/fx-rates";
import type { JsonWriter } from "../data/json";
import type { AssessmentSeries, DataSet, ForecastData, InstrumentData } from "../data/model";
import type { Requirement } from "./catalogue";
import { significant } from "./rounding";
import { badRequest, type ParameterError } from "./problems";
import { quote } from "./requests";

/**
 * A converted low and high (one record's, at one factor), each to significant digits, and their midpoint as mid
 * (convention 22: 512.37 USD/t is 0.23240623 USD/lb, never 0.23).
 */
export function convertedTriple(low: number, high: number, factor: number): { low: number; mid: number; high: number } {
  const convertedLow = significant(low * factor);
  const convertedHigh = significant(high * factor);
  return { low: convertedLow, mid: (convertedLow + convertedHigh) / 2, high: convertedHigh };
}
/**
 * Converted assessments kept for later requests, counted by assessment (24 bytes each: about 48 MB). Bounded by size,
 * not by instrument: a count of 64 made every converted request for more symbols rebuild each series (200 symbols:
 * about 50 ms and 7 MB of garbage per request); this holds several targets of a whole generated catalogue.
 */
export const KEPT_ASSESSMENTS = 2_000_000;

const NO_RATES: FxRates = { firstDay: 0, length: 0, perUsd: new Map() };

/** An assessment series read through a factor per assessment day. */
class ConvertedSeries implements AssessmentSeries {
  readonly length: number;
  readonly days: Int32Array;
  readonly revision: Uint16Array;
  readonly low: Float64Array;
  readonly mid: Float64Array;
  readonly high: Float64Array;
  readonly converted = true;
  readonly writeAssessmentDate?: (index: number, out: JsonWriter) => void;

  constructor(
    private readonly base: AssessmentSeries,
    private readonly factorOn: (day: number) => number,
  ) {
    this.length = base.length;
    this.days = base.days;
    this.revision = base.revision;
    this.low = new Float64Array(base.length);
    this.mid = new Float64Array(base.length);
    this.high = new Float64Array(base.length);
    for (let i = 0; i < base.length; i++) {
      const triple = convertedTriple(base.low[i] as number, base.high[i] as number, factorOn(base.days[i] as number));
      this.low[i] = triple.low;
      this.mid[i] = triple.mid;
      this.high[i] = triple.high;
    }
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its series bound (write.call(base, ...)) below
    const write = base.writeAssessmentDate;
    if (write !== undefined) this.writeAssessmentDate = (index, out) => { write.call(base, index, out); };
  }

  assessmentDate(index: number): string {
    return this.base.assessmentDate(index);
  }

  appraisalPrice(index: number): boolean {
    return this.base.appraisalPrice(index);
  }

  pricingRationale(index: number): string {
    return this.base.pricingRationale(index);
  }

  publishedAt(index: number): number {
    return this.base.publishedAt(index);
  }

  publishedCount(now: number): number {
    return Math.min(this.length, this.base.publishedCount(now));
  }

  forwardCurves(index: number): ForwardCurvePoint[] | undefined {
    const factor = this.factorOn(this.days[index] as number);
    return this.base.forwardCurves(index)?.map((point) => ({
      forwardCode: point.forwardCode,
      forwardMonth: point.forwardMonth,
      ...convertedTriple(point.low, point.high, factor),
    }));
  }
}

/** The data set's conversions: reference lists, FX rates, unit factors, and the converted instruments kept. */
export class Conversions {
  private readonly data: DataSet;
  private readonly currencies: ReadonlyMap<string, ReferenceItem>;
  private readonly units: ReadonlyMap<string, ReferenceItem>;
  /** By symbol and target: the converted view and the (published) instrument it was made from. */
  private readonly kept = new Map<string, { source: InstrumentData; converted: InstrumentData }>();
  private keptAssessments = 0;

  constructor(data: DataSet) {
    this.data = data;
    const group = (type: string) => new Map((data.references.find((g) => g.type === type)?.items ?? []).map((item) => [item.id.toUpperCase(), item]));
    this.currencies = group("Currency");
    this.units = group("UnitOfMeasure");
  }

  /** The data set's FX rates, read when a conversion first needs them: a generated set makes them only then. */
  private get rates(): FxRates {
    return this.data.fxRates ?? NO_RATES;
  }

  /** The request's targets as canonical ids; a 400 naming the parameter for an id that is no currency or unit at all. */
  target(targetCurrency: string | undefined, targetUnitOfMeasure: string | undefined): ConversionTarget | undefined {
    const faults: ParameterError[] = [];
    const target: ConversionTarget = {};
    if (targetCurrency !== undefined) {
      const item = this.currencies.get(targetCurrency.toUpperCase());
      if (item === undefined) faults.push({ parameter: "targetCurrency", message: `${quote(targetCurrency)} is not a currency id; known: ${[...this.currencies.values()].map((c) => c.id).join(", ")}` });
      else target.currency = item.id;
    }
    if (targetUnitOfMeasure !== undefined) {
      const item = this.units.get(targetUnitOfMeasure.toUpperCase());
      if (item === undefined) faults.push({ parameter: "targetUnitOfMeasure", message: `${quote(targetUnitOfMeasure)} is not a unit of measure id; known: ${[...this.units.values()].map((u) => u.id).join(", ")}` });
      else target.unit = item.id;
    }
    if (faults.length > 0) throw badRequest(faults);
    return isConversion(target) ? target : undefined;
  }

  /** Why an instrument cannot be converted to `target` (undefined when it can), naming the conversion. */
  requirement(target: ConversionTarget | undefined): Requirement | undefined {
    if (target === undefined) return undefined;
    return (instrument) => {
      const { currencyId, unitOfMeasureId, commodityId, commodity } = instrument.record;
      if (target.currency !== undefined && target.currency !== currencyId) {
        const listed = this.currencies.get(currencyId.toUpperCase())?.availableConversionIds.includes(target.currency) ?? false;
        if (!listed || !hasCurrency(this.rates, currencyId) || !hasCurrency(this.rates, target.currency)) {
          return `Conversion from ${currencyId} to ${target.currency} is not available for this instrument`;
        }
      }
      if (target.unit !== undefined && target.unit !== unitOfMeasureId) {
        const listed = this.units.get(unitOfMeasureId.toUpperCase())?.availableConversionIds.includes(target.unit) ?? false;
        if (!listed || unitFactor(unitOfMeasureId, target.unit, commodityId) === undefined) {
          const why = listed ? ` (no factor between ${unitOfMeasureId} and ${target.unit} for ${commodity || commodityId})` : "";
          return `Conversion from ${unitOfMeasureId} to ${target.unit} is not available for this instrument${why}`;
        }
      }
      return undefined;
    };
  }

  /** The instrument as it reads in `target` (which `requirement` has accepted); the instrument itself without one. */
  apply(instrument: InstrumentData, target: ConversionTarget | undefined): InstrumentData {
    if (target === undefined) return instrument;
    const record = instrument.record;
    const currency = target.currency ?? record.currencyId;
    const unit = target.unit ?? record.unitOfMeasureId;
    const key = `${record.symbol}|${currency}|${unit}`;
    const kept = this.kept.get(key);
    // A later publication (convention 20) gives a new source: the view is made anew.
    if (kept !== undefined && kept.source === instrument) {
      this.kept.delete(key);
      this.kept.set(key, kept);
      return kept.converted;
    }
    if (kept !== undefined) this.forget(key, kept.converted);
    const units = unitFactor(record.unitOfMeasureId, unit, record.commodityId) ?? Number.NaN;
    const factorOn = (day: number): number => (fxRate(this.rates, record.currencyId, currency, day) ?? Number.NaN) * units;
    const converted: InstrumentData = {
      record: { ...record, currencyId: currency, unitOfMeasureId: unit },
      series: new ConvertedSeries(instrument.series, factorOn),
      forecasts: instrument.forecasts.map((forecast) => convertForecast(forecast, factorOn)),
    };
    this.kept.set(key, { source: instrument, converted });
    this.keptAssessments += converted.series.length;
    // Least recently used first (a Map iterates in insertion order; a hit moves its entry to the end).
    for (const [oldest, entry] of this.kept) {
      if (this.keptAssessments <= KEPT_ASSESSMENTS || oldest === key) break;
      this.forget(oldest, entry.converted);
    }
    return converted;
  }

  /** How many converted instruments and assessments are kept (for tests and benchmarks). */
  get keptSize(): { instruments: number; assessments: number } {
    return { instruments: this.kept.size, assessments: this.keptAssessments };
  }

  private forget(key: string, converted: InstrumentData): void {
    this.kept.delete(key);
    this.keptAssessments -= converted.series.length;
  }
}

/** A forecast's prices lie ahead of any rate: they convert at the rate of the forecast's publication day. */
function convertForecast(forecast: ForecastData, factorOn: (day: number) => number): ForecastData {
  const factor = factorOn(toEpochDay(dateOfTimestamp(forecast.publicationDate)));
  return {
    ...forecast,
    prices: forecast.prices.map((price) => ({ date: price.date, ...convertedTriple(price.low, price.high, factor) })),
  };
}
