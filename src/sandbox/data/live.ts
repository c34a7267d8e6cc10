/**
 * The sandbox publishing while you watch: a clock that can be set or run faster than the real one (the next
 * assessments, generated ahead, appear at their publication instants on it), and corrections published at chosen
 * instants (decision 23: a new revision of the same day, with its own later `assessmentDate`).
 */
import { fromEpochDay } from "../../api";
import type { PublicationClock } from "./clock";
import { utcDateOf } from "./clock";
import type { AssessmentSeries, InstrumentData } from "./model";
import { SeriesView } from "./series-view";

/** A clock tests set (`set`, `advance`) or that runs `speed` times faster than the real one from its start. */
export interface LiveClock extends PublicationClock {
  /** Moves the clock to an instant (it then runs on from there at its speed). */
  set(instant: number): void;
  advance(ms: number): void;
  readonly speed: number;
  /** Runs on from now at another speed (a test sets the instant with speed 0, then lets it run). */
  setSpeed(speed: number): void;
  /** The fast clock's setting a page shares to run the same clock: it stood at `origin` when the real one stood at `since`. */
  setting(): { origin: number; since: number; speed: number };
}

/** `speed` 0 stands still until set (tests); 1 is real time; 60 a minute a second. */
export function liveClock(start: number, speed: number, realNow: () => number = Date.now): LiveClock {
  let origin = start;
  let since = realNow();
  const now = (): number => origin + (realNow() - since) * speed;
  return {
    now,
    today: utcDateOf(start),
    frozen: speed === 0,
    get speed() {
      return speed;
    },
    setSpeed(next) {
      origin = now();
      since = realNow();
      speed = next;
    },
    set(instant) {
      origin = instant;
      since = realNow();
    },
    advance(ms) {
      origin = now() + ms;
      since = realNow();
    },
    setting: () => ({ origin, since, speed }),
  };
}

export interface LiveCorrection {
  symbol: string;
  date: string;
  /** When it is published. */
  at: number;
  /** Added to low, mid and high. */
  shift: number;
}

/** Corrections published at chosen instants, by symbol (upper case). */
export class LiveCorrections {
  private readonly bySymbol = new Map<string, LiveCorrection[]>();
  /** Bumped by every `add`: views made before it are made again. */
  version = 0;

  add(correction: LiveCorrection): void {
    this.version += 1;
    const symbol = correction.symbol.toUpperCase();
    const list = this.bySymbol.get(symbol) ?? [];
    list.push({ ...correction, symbol });
    list.sort((a, b) => a.at - b.at);
    this.bySymbol.set(symbol, list);
  }

  /** The instrument's view with the corrections published by `now`, and the instant of its next one (Infinity when none). */
  apply(view: InstrumentData, now: number): { view: InstrumentData; next: number } {
    const list = this.bySymbol.get(view.record.symbol.toUpperCase());
    if (!list) return { view, next: Number.POSITIVE_INFINITY };
    const next = list.find((c) => c.at > now)?.at ?? Number.POSITIVE_INFINITY;
    const series = view.series;
    const made = list.filter((c) => c.at <= now).flatMap((c) => {
      const index = indexOfDay(series, c.date);
      return index === undefined ? [] : [{ index, correction: c }];
    });
    if (made.length === 0) return { view, next };
    return { view: { ...view, series: new CorrectedSeries(series, made) }, next };
  }
}

function indexOfDay(series: AssessmentSeries, date: string): number | undefined {
  for (let i = series.length - 1; i >= 0; i--) if (fromEpochDay(series.days[i] ?? 0) === date) return i;
  return undefined;
}

const isoUtc = (instant: number): string => new Date(instant).toISOString().replace(/\.\d{3}Z$/, "+00:00");

/** A published series with some days corrected: its own copies of the numbers, the rest read through. */
class CorrectedSeries extends SeriesView {
  readonly length: number;
  readonly days: Int32Array;
  readonly low: Float64Array;
  readonly mid: Float64Array;
  readonly high: Float64Array;
  readonly revision: Uint16Array;
  private readonly published = new Map<number, number>();

  constructor(base: AssessmentSeries, made: readonly { index: number; correction: LiveCorrection }[]) {
    super(base);
    this.length = base.length;
    this.days = base.days;
    this.low = base.low.slice();
    this.mid = base.mid.slice();
    this.high = base.high.slice();
    this.revision = base.revision.slice();
    for (const { index, correction } of made) {
      this.low[index] = (this.low[index] ?? 0) + correction.shift;
      this.mid[index] = (this.mid[index] ?? 0) + correction.shift;
      this.high[index] = (this.high[index] ?? 0) + correction.shift;
      this.revision[index] = (this.revision[index] ?? 0) + 1;
      this.published.set(index, correction.at);
    }
  }

  override assessmentDate(index: number): string {
    const at = this.published.get(index);
    return at === undefined ? this.inner.assessmentDate(index) : isoUtc(at);
  }
  override publishedAt(index: number): number {
    return this.published.get(index) ?? this.inner.publishedAt(index);
  }
}
