/**
 * The fixed part of each assessment's JSON (`,"assessmentDate":...` through `forwardCurves`), written once per
 * series and kept within a memory budget: long histories then copy bytes instead of formatting them again.
 */
import { JsonWriter } from "../data/json";
import type { AssessmentSeries } from "../data/model";

export interface SeriesBytes {
  bytes: Buffer;
  /** Record i's part is bytes[offsets[i], offsets[i + 1]). */
  offsets: Uint32Array;
}

/** Writes what every answer with this assessment holds, whatever its date and optional fields. */
export function writeFixedPart(out: JsonWriter, series: AssessmentSeries, index: number): void {
  out.raw(',"assessmentDate":');
  if (series.writeAssessmentDate !== undefined) series.writeAssessmentDate(index, out);
  else out.string(series.assessmentDate(index));
  out.raw(',"revision":').number(series.revision[index] as number);
  out.raw(',"low":').number(series.low[index] as number);
  out.raw(',"mid":').number(series.mid[index] as number);
  out.raw(',"high":').number(series.high[index] as number);
  if (series.writeForwardCurves !== undefined) {
    const mark = out.length;
    out.raw(',"forwardCurves":');
    if (!series.writeForwardCurves(index, out)) out.truncate(mark);
    return;
  }
  const curves = series.forwardCurves(index);
  if (curves === undefined) return;
  out.raw(',"forwardCurves":[');
  for (let i = 0; i < curves.length; i++) {
    const c = curves[i];
    if (c === undefined) continue;
    if (i > 0) out.raw(",");
    out.raw('{"forwardCode":').string(c.forwardCode).raw(',"forwardMonth":').string(c.forwardMonth);
    out.raw(',"low":').number(c.low).raw(',"mid":').number(c.mid).raw(',"high":').number(c.high).raw("}");
  }
  out.raw("]");
}

/** Default budget: the fixed parts of a few dozen long series (the whole generated set needs about 100 MB). */
export const DEFAULT_RECORD_BYTES_BUDGET = 64 * 1024 * 1024;

/** Per data set (held by the catalog); least recently used series are dropped beyond the budget. */
export class RecordBytesCache {
  private readonly entries = new Map<AssessmentSeries, SeriesBytes>();
  private total = 0;

  constructor(private readonly budget = DEFAULT_RECORD_BYTES_BUDGET) {}

  /** The series' bytes if written already. */
  get(series: AssessmentSeries): SeriesBytes | undefined {
    const entry = this.entries.get(series);
    if (entry !== undefined) {
      this.entries.delete(series);
      this.entries.set(series, entry);
    }
    return entry;
  }

  /**
   * The series' bytes, written now when `records` (the records a request needs) is at least a quarter of the
   * series, so that writing the whole series costs at most a few times the request itself; else undefined.
   */
  forRequest(series: AssessmentSeries, records: number): SeriesBytes | undefined {
    const cached = this.get(series);
    if (cached !== undefined || records * 4 < series.length || this.budget <= 0) return cached;
    const out = new JsonWriter(series.length * 120 + 1024);
    const offsets = new Uint32Array(series.length + 1);
    for (let i = 0; i < series.length; i++) {
      offsets[i] = out.length;
      writeFixedPart(out, series, i);
    }
    offsets[series.length] = out.length;
    const written = out.bytes();
    const bytes = Buffer.allocUnsafe(written.length);
    written.copy(bytes);
    const entry: SeriesBytes = { bytes, offsets };
    const size = entry.bytes.length + offsets.byteLength;
    if (size > this.budget) return entry;
    this.entries.set(series, entry);
    this.total += size;
    for (const [key, old] of this.entries) {
      if (this.total <= this.budget) break;
      this.entries.delete(key);
      this.total -= old.bytes.length + old.offsets.byteLength;
    }
    return entry;
  }
}
