/**
 * What an answer at the clock's "now" may show of an instrument (convention 20): its series cut before the first
 * assessment published later. The cut is a view (typed-array subarrays), kept until the next publication.
 */
import type { JsonWriter } from "./json";
import type { LiveCorrections } from "./live";
import type { AssessmentSeries, InstrumentData } from "./model";
import { SeriesView } from "./series-view";

/** The first `length` assessments of a series; indexes are the whole series' indexes. */
class SeriesPrefix extends SeriesView {
  readonly days: Int32Array;
  readonly low: Float64Array;
  readonly mid: Float64Array;
  readonly high: Float64Array;
  readonly revision: Uint16Array;
  readonly writeAssessmentDate?: (index: number, out: JsonWriter) => void;

  constructor(
    readonly whole: AssessmentSeries,
    readonly length: number,
  ) {
    super(whole);
    this.days = whole.days.subarray(0, length);
    this.low = whole.low.subarray(0, length);
    this.mid = whole.mid.subarray(0, length);
    this.high = whole.high.subarray(0, length);
    this.revision = whole.revision.subarray(0, length);
    if (whole.writeAssessmentDate !== undefined) this.writeAssessmentDate = whole.writeAssessmentDate.bind(whole);
  }

  override publishedCount(now: number): number {
    return Math.min(this.length, this.whole.publishedCount(now));
  }
}

interface Published {
  view: InstrumentData;
  /** The instant the next assessment is published (Infinity when all are): the view holds until then. */
  until: number;
  /** The instant the view was made for: a clock set back (a test's) makes it anew. */
  since: number;
  /** The live corrections' version it was made with: a correction added since makes it anew. */
  corrections: number;
}

/** Each instrument as published at a given instant, made once per publication. */
export class PublishedInstruments {
  private readonly views = new WeakMap<InstrumentData, Published>();

  /** `corrections`: those published at chosen instants (the sandbox's live mode), applied to each view by `now`. */
  constructor(private readonly corrections?: LiveCorrections) {}

  of(instrument: InstrumentData, now: number): InstrumentData {
    const kept = this.views.get(instrument);
    const version = this.corrections?.version ?? 0;
    if (kept !== undefined && now >= kept.since && now < kept.until && kept.corrections === version) return kept.view;
    const series = instrument.series;
    const count = series.publishedCount(now);
    // Forecasts too exist from their publication on (loaded data may hold one published later).
    const forecasts = instrument.forecasts.filter((forecast) => Date.parse(forecast.publicationDate) <= now);
    const laterForecasts = instrument.forecasts.map((forecast) => Date.parse(forecast.publicationDate)).filter((at) => at > now);
    const whole = count === series.length && forecasts.length === instrument.forecasts.length;
    const cut = whole ? instrument : { ...instrument, series: count === series.length ? series : new SeriesPrefix(series, count), forecasts };
    const corrected = this.corrections?.apply(cut, now);
    const view = corrected?.view ?? cut;
    const until = Math.min(count === series.length ? Number.POSITIVE_INFINITY : series.publishedAt(count), ...laterForecasts, corrected?.next ?? Number.POSITIVE_INFINITY);
    this.views.set(instrument, { view, until, since: now, corrections: version });
    return view;
  }
}
