/**
 * A view over another series (a published prefix, a series with live corrections): every reading is the inner
 * series' own unless the view overrides it; the view supplies its own columns.
 */
import type { ForwardCurvePoint } from "../../api";
import type { JsonWriter } from "./json";
import type { AssessmentSeries } from "./model";

export abstract class SeriesView implements AssessmentSeries {
  abstract readonly length: number;
  abstract readonly days: Int32Array;
  abstract readonly low: Float64Array;
  abstract readonly mid: Float64Array;
  abstract readonly high: Float64Array;
  abstract readonly revision: Uint16Array;
  readonly writeForwardCurves?: (index: number, out: JsonWriter) => boolean;

  constructor(protected readonly inner: AssessmentSeries) {
    if (inner.writeForwardCurves !== undefined) this.writeForwardCurves = inner.writeForwardCurves.bind(inner);
  }

  assessmentDate(index: number): string {
    return this.inner.assessmentDate(index);
  }
  appraisalPrice(index: number): boolean {
    return this.inner.appraisalPrice(index);
  }
  pricingRationale(index: number): string {
    return this.inner.pricingRationale(index);
  }
  forwardCurves(index: number): ForwardCurvePoint[] | undefined {
    return this.inner.forwardCurves(index);
  }
  publishedAt(index: number): number {
    return this.inner.publishedAt(index);
  }
  publishedCount(now: number): number {
    return this.inner.publishedCount(now);
  }
}
