/**
 * The fixed part of each assessment's JSON (`,"assessmentDate":...` through `forwardCurves`), written once per
 * series and kept within a memory budget: long histories then copy bytes instead of formatting them again.
 */
import { JsonWriter } from "../data/json";
import type { AssessmentSeries } from "../data/model";

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

/** One series' fixed parts, each written the first time an answer needs it. */
export class SeriesBytes {
  private bytes = Buffer.allocUnsafe(4096);
  private used = 0;
  /** Where assessment i's part starts in `bytes`, or -1 while it has not been written. */
  private readonly starts: Int32Array;
  private readonly ends: Uint32Array;

  constructor(
    private readonly series: AssessmentSeries,
    private readonly grew: (bytes: number) => void,
  ) {
    this.starts = new Int32Array(series.length).fill(-1);
    this.ends = new Uint32Array(series.length);
  }

  /** Bytes held: the parts and the two indexes. */
  get size(): number {
    return this.bytes.length + this.starts.byteLength + this.ends.byteLength;
  }

  /** The length of assessment `index`'s part when kept, else `otherwise`. */
  lengthOf(index: number, otherwise: number): number {
    const start = this.starts[index] as number;
    return start >= 0 ? (this.ends[index] as number) - start : otherwise;
  }

  /** Writes assessment `index`'s fixed part to `out`: copied when kept, else written and kept. */
  write(out: JsonWriter, index: number): void {
    const start = this.starts[index] as number;
    if (start >= 0) {
      out.copy(this.bytes, start, this.ends[index] as number);
      return;
    }
    const mark = out.length;
    writeFixedPart(out, this.series, index);
    const length = out.length - mark;
    if (this.used + length > this.bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + length));
      this.bytes.copy(bigger, 0, 0, this.used);
      this.grew(bigger.length - this.bytes.length);
      this.bytes = bigger;
    }
    out.copyOut(this.bytes, this.used, mark, mark + length);
    this.starts[index] = this.used;
    this.used += length;
    this.ends[index] = this.used;
  }
}

/**
 * Per data set (held by the catalog): each series' fixed parts, kept as answers write them, least recently used
 * series dropped beyond the budget. Repeated and overlapping requests then copy bytes instead of formatting them.
 */
export class RecordBytesCache {
  private readonly entries = new Map<AssessmentSeries, SeriesBytes>();
  private total = 0;

  constructor(private readonly budget = DEFAULT_RECORD_BYTES_BUDGET) {}

  /** The series' kept parts (made empty when new), or undefined when keeping is off (budget 0). */
  of(series: AssessmentSeries): SeriesBytes | undefined {
    if (this.budget <= 0) return undefined;
    let entry = this.entries.get(series);
    if (entry !== undefined) {
      this.entries.delete(series);
      this.entries.set(series, entry);
      return entry;
    }
    entry = new SeriesBytes(series, (bytes) => this.grow(bytes));
    this.entries.set(series, entry);
    this.grow(entry.size);
    return entry;
  }

  /** Bytes held by all series. */
  get size(): number {
    return this.total;
  }

  private grow(bytes: number): void {
    this.total += bytes;
    // The most recent series stays even when over budget alone: the answer being written uses it.
    for (const [key, entry] of this.entries) {
      if (this.total <= this.budget || this.entries.size <= 1) break;
      this.entries.delete(key);
      this.total -= entry.size;
    }
  }
}
