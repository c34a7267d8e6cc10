/**
 * Each assessment's record as JSON on its own day without optional fields (`{"date":...}`), written once per
 * series and kept within a memory budget: repeated and long answers then copy bytes instead of formatting numbers
 * again. Records are kept in the order answers write them, each followed by a comma, so that the records of a
 * history written before are copied in runs of many at once.
 */
import { JsonWriter } from "../data/json";
import { dayString } from "../data/day-strings";
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

/** Parts are stored in chunks of this size, so that a series holds at most one partly used chunk. */
const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const OFFSET_MASK = CHUNK - 1;
/** Parts longer than this (none in generated data) are written each time rather than kept. */
const MAX_KEPT = CHUNK >> 2;

const COMMA = 0x2c;

/** One series' plain records, each written the first time an answer needs it. */
export class SeriesBytes {
  private readonly chunks: Buffer[] = [];
  private used = CHUNK;
  /** Where assessment i's record is (chunk << CHUNK_BITS | offset), or -1 while it has not been kept. */
  private readonly starts: Int32Array;
  private readonly lengths: Uint16Array;

  constructor(
    private readonly series: AssessmentSeries,
    private readonly grew: (bytes: number) => void,
  ) {
    this.starts = new Int32Array(series.length).fill(-1);
    this.lengths = new Uint16Array(series.length);
  }

  /** Bytes held: the chunks and the two indexes. */
  get size(): number {
    return this.chunks.length * CHUNK + this.starts.byteLength + this.lengths.byteLength;
  }

  /** The length of assessment `index`'s record when kept, else `otherwise`. */
  lengthOf(index: number, otherwise: number): number {
    return (this.starts[index] as number) >= 0 ? (this.lengths[index] as number) : otherwise;
  }

  /** Keeps the record, writing it to `out` at its end first (the caller decides whether it stays there). */
  private keep(out: JsonWriter, index: number): number {
    const mark = out.length;
    out.raw('{"date":').quotedAscii(dayString(this.series.days[index] as number));
    writeFixedPart(out, this.series, index);
    out.raw("}");
    const length = out.length - mark;
    if (length > MAX_KEPT) return -1;
    if (this.used + length + 1 > CHUNK) {
      this.chunks.push(Buffer.allocUnsafeSlow(CHUNK));
      this.used = 0;
      this.grew(CHUNK);
    }
    const chunk = this.chunks.length - 1;
    const buffer = this.chunks[chunk] as Buffer;
    out.copyOut(buffer, this.used, mark, mark + length);
    buffer[this.used + length] = COMMA;
    const start = (chunk << CHUNK_BITS) | this.used;
    this.starts[index] = start;
    this.lengths[index] = length;
    this.used += length + 1;
    return start;
  }

  /** Writes the record of `index` on its own day without optional fields. */
  writePlain(out: JsonWriter, index: number): void {
    const start = this.starts[index] as number;
    if (start < 0) {
      this.keep(out, index);
      return;
    }
    const offset = start & OFFSET_MASK;
    out.copy(this.chunks[start >>> CHUNK_BITS] as Buffer, offset, offset + (this.lengths[index] as number));
  }

  /**
   * Writes the plain records of `indexes[from..to)` separated by commas, as far as `plain(k)` says position k wants
   * a plain record; returns the position after the last one written. Records kept one after the other (as an
   * earlier answer wrote them) are copied in one piece, commas included.
   */
  writePlainRun(out: JsonWriter, indexes: Int32Array, from: number, to: number, plain: (k: number) => boolean): number {
    let k = from;
    while (k < to && plain(k)) {
      if (k > from) out.raw(",");
      const index = indexes[k] as number;
      const start = this.starts[index] as number;
      if (start < 0) {
        this.keep(out, index);
        k++;
        continue;
      }
      const chunk = start >>> CHUNK_BITS;
      let end = (start & OFFSET_MASK) + (this.lengths[index] as number);
      k++;
      while (k < to && plain(k)) {
        const next = indexes[k] as number;
        const following = this.starts[next] as number;
        if (following < 0 || following >>> CHUNK_BITS !== chunk || (following & OFFSET_MASK) !== end + 1) break;
        end = (following & OFFSET_MASK) + (this.lengths[next] as number);
        k++;
      }
      out.copy(this.chunks[chunk] as Buffer, start & OFFSET_MASK, end);
    }
    return k;
  }

  /** Writes the fixed part of `index` (`,"assessmentDate":...` through `forwardCurves`), for another date or optional fields. */
  writeFixed(out: JsonWriter, index: number): void {
    let start = this.starts[index] as number;
    if (start < 0) {
      const mark = out.length;
      start = this.keep(out, index);
      out.truncate(mark);
      if (start < 0) {
        writeFixedPart(out, this.series, index);
        return;
      }
    }
    // The record less `{"date":"YYYY-MM-DD"` and its closing brace.
    const skip = 10 + dayString(this.series.days[index] as number).length;
    const offset = start & OFFSET_MASK;
    out.copy(this.chunks[start >>> CHUNK_BITS] as Buffer, offset + skip, offset + (this.lengths[index] as number) - 1);
  }
}

/**
 * Per data set (held by the catalogue): each series' fixed parts, kept as answers write them, least recently used
 * series dropped beyond the budget. Repeated and overlapping requests then copy bytes instead of formatting them.
 */
export class RecordBytesCache {
  private readonly entries = new Map<AssessmentSeries, SeriesBytes>();
  private total = 0;

  constructor(private readonly budget = DEFAULT_RECORD_BYTES_BUDGET) {}

  /** The series' kept parts (made empty when new), or undefined when keeping is off (budget 0). */
  of(published: AssessmentSeries): SeriesBytes | undefined {
    if (this.budget <= 0) return undefined;
    // A published prefix shares the whole series' records: its indexes are the whole's.
    const series = published.whole ?? published;
    let entry = this.entries.get(series);
    if (entry !== undefined) {
      this.entries.delete(series);
      this.entries.set(series, entry);
      return entry;
    }
    entry = new SeriesBytes(series, (bytes) => { this.grow(bytes); });
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
