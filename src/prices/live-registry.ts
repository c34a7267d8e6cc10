/**
 * The live registry: every live cell's keys, shared by instrument, asked when their instrument is due
 * (live-schedule.ts) in one batched window per poll, and nothing asked while nothing is due. A key whose answer
 * changed (a newer assessment, or a correction of the shown one) tells its cells; a cell that is cancelled leaves.
 * Paused (page hidden or offline, or the setting off), it asks nothing; resumed, it catches up in one poll.
 */
import { todayIso } from "../api/dates";
import type { InstrumentRecord, PriceRecord } from "../api/schemas";
import { type LiveClock, realLiveClock } from "./live-clock";
import { DEFAULT_LIVE_POLICY, learnUsualTime, nextAsk, type LiveInstrumentState, type LivePhase, type LivePolicy, type ShownRecord } from "./live-schedule";
import type { AskOptions, PriceKey } from "./types";

/** The part of the client the registry asks. */
export interface LiveClient {
  price(key: PriceKey, options?: AskOptions): Promise<PriceRecord>;
  instrument(symbol: string, fields?: readonly string[], options?: AskOptions): Promise<InstrumentRecord>;
  /** Requests sent so far (the client's `stats().requestsSent`), to count what live updates cost. */
  stats?(): { requestsSent: number };
}

export interface LiveRegistryOptions {
  client: LiveClient;
  clock?: LiveClock;
  policy?: Partial<LivePolicy>;
}

/** A live cell's hold on the registry. */
export interface LiveSubscription {
  /** Excel cancelled the cell (cleared, closed): its keys leave when no other cell holds them. */
  cancel(): void;
}

export interface LiveInstrumentView {
  symbol: string;
  frequency: string;
  /** The day of the record shown, and its revision. */
  shownDate: string;
  revision: number;
  /** When it is asked next (undefined while paused or unknown), and why. */
  nextAt: number | undefined;
  phase: LivePhase;
  /** The day whose assessment is awaited. */
  awaiting: string;
  cells: number;
}

export interface LiveState {
  /** Live cells (subscriptions) held. */
  cells: number;
  instruments: LiveInstrumentView[];
  /** Polls (one batched window each) and the requests they cost today (UTC, on the registry's clock). */
  pollsToday: number;
  requestsToday: number;
  /** Why nothing is asked, when paused: "setting", "hidden", "offline". */
  paused: readonly string[];
}

interface KeyEntry {
  readonly key: PriceKey;
  readonly symbol: string;
  readonly cells: Set<Cell>;
  /** Identity of the record last seen: day, revision, assessment time. */
  seen: string | undefined;
}

interface Cell {
  readonly keys: readonly KeyEntry[];
  readonly changed: () => void;
}

interface InstrumentEntry {
  readonly symbol: string;
  readonly keys: Set<KeyEntry>;
  state: LiveInstrumentState | undefined;
  /** Asking its frequency or first record failed: asked again when another cell subscribes. */
  failed: boolean;
}

const identity = (record: ShownRecord): string => `${record.date}|${record.revision}|${record.assessmentDate}`;

/** One key per normal form the registry groups by (the client normalises again when asked). */
function keyId(key: PriceKey): string {
  return [key.symbol.trim().toUpperCase(), key.date ?? "", key.calculationType ?? "None", [...(key.fields ?? [])].map((f) => f.toLowerCase()).sort().join(","), (key.currency ?? "").trim().toUpperCase(), (key.unit ?? "").trim().toUpperCase()].join("|");
}

export class LiveRegistry {
  private readonly client: LiveClient;
  private readonly clock: LiveClock;
  private readonly policy: LivePolicy;
  private readonly keys = new Map<string, KeyEntry>();
  private readonly instruments = new Map<string, InstrumentEntry>();
  private readonly cells = new Set<Cell>();
  private readonly pausedFor = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private cancelWake: (() => void) | undefined;
  private wakeAt = Number.POSITIVE_INFINITY;
  private polling: Promise<void> | undefined;
  private readonly work = new Set<Promise<void>>();
  private day = "";
  private polls = 0;
  private requests = 0;

  constructor(options: LiveRegistryOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realLiveClock();
    this.policy = { ...DEFAULT_LIVE_POLICY, ...options.policy };
  }

  /** Holds a cell's keys live; `changed` is called once per poll in which one of their answers changed. */
  subscribe(keys: readonly PriceKey[], changed: () => void): LiveSubscription {
    const entries = keys.map((key) => this.entryOf(key));
    const cell: Cell = { keys: entries, changed };
    this.cells.add(cell);
    for (const entry of entries) entry.cells.add(cell);
    this.track(this.learn(entries));
    this.announce();
    return { cancel: () => { this.leave(cell); } };
  }

  /** Pauses for a reason ("setting", "hidden", "offline") or resumes it; with no reason left, catches up in one poll. */
  setPaused(reason: string, paused: boolean): void {
    const was = this.pausedFor.size > 0;
    if (paused) this.pausedFor.add(reason);
    else this.pausedFor.delete(reason);
    if (was === this.pausedFor.size > 0) return;
    this.reschedule();
    this.announce();
  }

  get paused(): boolean {
    return this.pausedFor.size > 0;
  }

  /** Called whenever the state the pane shows changed; returns the unsubscribe function. */
  onState(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  state(): LiveState {
    const now = this.clock.now();
    this.rollDay(now);
    const instruments = [...this.instruments.values()].flatMap((entry): LiveInstrumentView[] => {
      if (!entry.state) return [];
      const next = nextAsk(entry.state, now, this.policy);
      const cells = new Set([...entry.keys].flatMap((key) => [...key.cells])).size;
      const { frequency, shown } = entry.state;
      return [{ symbol: entry.symbol, frequency, shownDate: shown.date, revision: shown.revision, nextAt: this.paused ? undefined : next.at, phase: next.phase, awaiting: next.day, cells }];
    });
    return { cells: this.cells.size, instruments, pollsToday: this.polls, requestsToday: this.requests, paused: [...this.pausedFor] };
  }

  /** Stops every wake-up (the page closes, the client is replaced); subscriptions are dropped. */
  close(): void {
    this.cancelWake?.();
    this.cancelWake = undefined;
    this.wakeAt = Number.POSITIVE_INFINITY;
    this.cells.clear();
    this.keys.clear();
    this.instruments.clear();
    this.announce();
  }

  private entryOf(key: PriceKey): KeyEntry {
    const id = keyId(key);
    let entry = this.keys.get(id);
    if (!entry) {
      entry = { key, symbol: key.symbol.trim().toUpperCase(), cells: new Set(), seen: undefined };
      this.keys.set(id, entry);
    }
    let instrument = this.instruments.get(entry.symbol);
    if (!instrument) {
      instrument = { symbol: entry.symbol, keys: new Set(), state: undefined, failed: false };
      this.instruments.set(entry.symbol, instrument);
    }
    instrument.keys.add(entry);
    return entry;
  }

  /** Frequency and shown record of new instruments: from the cache the cell just filled, or one batched request. */
  private async learn(entries: readonly KeyEntry[]): Promise<void> {
    const fresh = entries.filter((entry) => entry.seen === undefined);
    const symbols = [...new Set(fresh.map((entry) => entry.symbol))].map((symbol) => this.instruments.get(symbol)).filter((entry): entry is InstrumentEntry => entry !== undefined && (entry.state === undefined || entry.failed));
    const asked = this.clock.now();
    const records = await Promise.all(fresh.map((entry) => this.client.price(entry.key).then((record) => ({ entry, record }), () => undefined)));
    for (const found of records) if (found && found.entry.seen === undefined) found.entry.seen = identity(found.record);
    await Promise.all(
      symbols.map(async (instrument) => {
        try {
          const record = await this.client.instrument(instrument.symbol);
          const shown = records.find((found) => found?.entry.symbol === instrument.symbol)?.record;
          if (!shown || !this.instruments.has(instrument.symbol)) throw new Error("no record");
          const learned = learnUsualTime({ usualMinutes: [], offsetMinutes: 0 }, shown);
          instrument.state = { frequency: record.frequency, shown: { date: shown.date, assessmentDate: shown.assessmentDate, revision: shown.revision }, ...learned, lastAskedAt: asked };
          instrument.failed = false;
        } catch {
          instrument.failed = true;
        }
      }),
    );
    this.reschedule();
    this.announce();
  }

  private leave(cell: Cell): void {
    if (!this.cells.delete(cell)) return;
    for (const entry of cell.keys) {
      entry.cells.delete(cell);
      if (entry.cells.size > 0) continue;
      this.keys.delete(keyId(entry.key));
      const instrument = this.instruments.get(entry.symbol);
      instrument?.keys.delete(entry);
      if (instrument && instrument.keys.size === 0) this.instruments.delete(entry.symbol);
    }
    this.reschedule();
    this.announce();
  }

  /** One wake-up at the earliest instant any instrument is asked; none while paused or nothing is live. */
  private reschedule(): void {
    if (this.polling) return;
    const now = this.clock.now();
    let earliest = Number.POSITIVE_INFINITY;
    if (!this.paused) {
      for (const entry of this.instruments.values()) if (entry.state) earliest = Math.min(earliest, nextAsk(entry.state, now, this.policy).at);
    }
    if (earliest === this.wakeAt) return;
    this.cancelWake?.();
    this.cancelWake = undefined;
    this.wakeAt = earliest;
    if (Number.isFinite(earliest)) this.cancelWake = this.clock.wakeAt(earliest, () => { this.wake(); });
  }

  private wake(): void {
    this.cancelWake = undefined;
    this.wakeAt = Number.POSITIVE_INFINITY;
    if (this.paused || this.polling) return;
    this.polling = this.poll().finally(() => {
      this.polling = undefined;
      this.reschedule();
      this.announce();
    });
    this.track(this.polling);
  }

  /** Resolves once no poll and no first lookup is under way (tests and the benchmark step the clock after it). */
  async whenIdle(): Promise<void> {
    while (this.work.size > 0) await Promise.all([...this.work]);
  }

  private track(work: Promise<void>): void {
    const held = work.catch(() => undefined);
    this.work.add(held);
    void held.then(() => this.work.delete(held));
  }

  /** Asks every key of every instrument due now, in one window: the client sends them as one batched request. */
  private async poll(): Promise<void> {
    const now = this.clock.now();
    const due = [...this.instruments.values()].filter((entry) => entry.state !== undefined && nextAsk(entry.state, now, this.policy).at <= now);
    if (due.length === 0) return;
    this.rollDay(now);
    this.polls += 1;
    const before = this.client.stats?.().requestsSent;
    const asked = due.flatMap((instrument) => [...instrument.keys].map((entry) => ({ instrument, entry })));
    const answers = await Promise.all(asked.map(({ entry }) => this.client.price(entry.key, { fresh: true }).then((record) => record, () => undefined)));
    const after = this.client.stats?.().requestsSent;
    this.requests += before === undefined || after === undefined ? 1 : after - before;
    const changed = new Set<Cell>();
    answers.forEach((record, index) => {
      const item = asked[index];
      if (!item || !record) return;
      const seen = identity(record);
      if (item.entry.seen !== seen) {
        item.entry.seen = seen;
        for (const cell of item.entry.cells) changed.add(cell);
      }
      const state = item.instrument.state;
      if (state && identity(state.shown) !== seen && record.date >= state.shown.date) {
        item.instrument.state = { ...state, ...learnUsualTime(state, record), shown: { date: record.date, assessmentDate: record.assessmentDate, revision: record.revision } };
      }
    });
    for (const instrument of due) if (instrument.state) instrument.state = { ...instrument.state, lastAskedAt: now };
    for (const cell of changed) {
      if (!this.cells.has(cell)) continue;
      try {
        cell.changed();
      } catch {
        // a cell that cannot take its value does not stop its neighbours
      }
    }
  }

  private rollDay(now: number): void {
    const day = todayIso(new Date(now));
    if (day === this.day) return;
    this.day = day;
    this.polls = 0;
    this.requests = 0;
  }

  private announce(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // a view that failed does not stop the registry
      }
    }
  }
}
