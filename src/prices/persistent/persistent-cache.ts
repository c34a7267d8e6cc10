/**
 * A cache storage that outlives the session: the client's synchronous `CacheStorage` over an in-memory mirror of one
 * partition (environment and subject), loaded at start and written behind to a backend (IndexedDB in the pane, a file
 * for the runner). What it loads is served only when it was final when fetched (decision 23); the rest is kept as the
 * last known value, asked again, and served only when the service is unreachable and the setting allows it. Bounded
 * in bytes of its stored form, least recently used out first. It stores answers only: never a token, never an error.
 */
import { todayIso } from "../../api/dates";
import type { CacheStorage, StoredEntry } from "../cache";
import { isHTTPError, isNetworkError } from "../errors";
import { DEFAULT_CORRECTION_WINDOW_DAYS, finalSince } from "./finality";
import type { CacheBackend, LoadedLines, SaveOptions } from "./cache-backend";
import type { Partition } from "./partition";
import { readEntry } from "./stored-entry";
import { idSymbol, readHead, storedLine, utf8Length } from "./stored-line";
import { storedValueText } from "./stored-value";

export type { CacheBackend, LoadedLines, SaveOptions } from "./cache-backend";

export const DEFAULT_PERSISTENT_MAX_BYTES = 50 * 1024 * 1024;

/** What the change report hears: a kept value replaced by a new answer, or a key that now fails where it had a value. */
export interface CacheObserver {
  /** `previousDay`: the service's day when the replaced value was fetched. */
  replaced(id: string, previous: StoredEntry, next: StoredEntry, previousDay: string): void;
  failed(id: string, previous: StoredEntry, error: Error): void;
}

export interface PersistentCacheOptions {
  readonly partition: Partition;
  readonly backend: CacheBackend;
  /** Bytes of the stored form (UTF-8 lines); default 50 MB. */
  readonly maxBytes?: number;
  readonly correctionWindowDays?: number;
  /** The service's today (YYYY-MM-DD); default the machine's UTC date. */
  readonly today?: () => string;
  /** The setting "show the last known value when the service is unreachable" (read at each failure; off by default). */
  readonly lastKnownWhenUnreachable?: () => boolean;
  /** When to write behind (default: 1 s after the last change); tests and the runner flush by hand. */
  readonly scheduleFlush?: (flush: () => void) => void;
  readonly observer?: CacheObserver;
  /**
   * The service has not confirmed this session's entitlement (it was unreachable): nothing loaded is served; a key
   * that fails as unreachable gets its last known value only where the setting allows it, marked unconfirmed.
   */
  readonly unconfirmed?: boolean;
}

/** The first character of a price's and of a history's key id. */
const P = "p".charCodeAt(0);
const H = "h".charCodeAt(0);

/** Far enough never to expire, small enough for JSON. */
const NEVER = 8.64e15;

interface Slot {
  /** Undefined until the value of a line loaded from an earlier session is first read. */
  entry: StoredEntry | undefined;
  /** The stored form (stored-line.ts); undefined for what is never stored (errors). */
  line: string | undefined;
  size: number;
  /** When the answer was stored (epoch ms), as the entry says it. */
  storedAt: number;
  /** Where the line's digest and the value's JSON begin in `line`. */
  digestAt: number;
  valueAt: number;
  /** Loaded from a store whose digest over every line held: the line's own digest is not checked again. */
  intact?: boolean;
  /** The service's day when the answer was fetched: final only if it was final then. */
  day: string;
  /** Answered from (false: a last known value, kept for offline use and as the baseline of the change report). */
  served: boolean;
  /** Loaded from an earlier session. */
  restored: boolean;
  /** Loaded, and final when fetched: served once the service confirms the session's entitlement (`confirm`). */
  final?: boolean;
}

export interface OfflineSummary {
  /** Keys answered with a last known value since they last had a fresh one. */
  readonly values: number;
  /** When the oldest of those values was fetched (epoch ms). */
  readonly since: number | undefined;
  /** The service has not confirmed this session's entitlement: these values are unconfirmed. */
  readonly unconfirmed?: true;
}

export class PersistentCache implements CacheStorage {
  private readonly slots = new Map<string, Slot>();
  private servedCount = 0;
  private total = 0;
  private readonly maxBytes: number;
  private readonly windowDays: number;
  private readonly today: () => string;
  /** Keys loaded as not final and fetched again this session. */
  private readonly askedAgain = new Set<string>();
  private readonly lastKnownServed = new Map<string, number>();
  /** The latest kept history of each range that ends on another day (`historyFamily`): what a history asked to today replaces. */
  private readonly histories = new Map<string, string>();
  private flushPending = false;
  /** Loaded lines whose value failed the response checks: dropped and asked again. */
  private rejectedCount = 0;
  /** Keys dropped on purpose (failed the checks, withdrawn): a save's merge with another writer does not bring them back. */
  private readonly dropped = new Set<string>();
  /** The service has not confirmed this session's entitlement yet (option `unconfirmed`, until `confirm`). */
  private unconfirmed: boolean;
  private writing: Promise<void> = Promise.resolve();

  private constructor(private readonly options: PersistentCacheOptions) {
    this.maxBytes = options.maxBytes ?? DEFAULT_PERSISTENT_MAX_BYTES;
    this.windowDays = options.correctionWindowDays ?? DEFAULT_CORRECTION_WINDOW_DAYS;
    this.today = options.today ?? (() => todayIso());
    this.unconfirmed = options.unconfirmed === true;
  }

  /** Opens the partition: what it holds is loaded (oldest use first), final entries served, the rest kept as last known. */
  static async open(options: PersistentCacheOptions): Promise<PersistentCache> {
    const cache = new PersistentCache(options);
    // An unreadable store is an empty one; the session still works from the service.
    const empty: LoadedLines = { lines: [], intact: false };
    cache.restore(await Promise.resolve().then(() => options.backend.load(options.partition)).catch(() => empty));
    return cache;
  }

  get partition(): Partition {
    return this.options.partition;
  }

  /** Reads only each line's head (key, day fetched): a value is parsed when first read (`entryOf`), as most are never read. */
  private restore({ lines, intact, ascii }: LoadedLines): void {
    // Keys of one date and type share their day of finality: computed once per distinct id tail (profiled: a third of the read).
    const finality = { p: new Map<string, string | null>(), h: new Map<string, string | null>() };
    const served = !this.unconfirmed;
    for (const line of lines) {
      const head = readHead(line);
      if (!head) {
        // A line whose head no longer reads (edited, cut short) counts as one that failed the checks.
        if (line !== "") this.rejectedCount += 1;
        continue;
      }
      const { id, day, storedAt, digestAt, valueAt } = head;
      const first = id.charCodeAt(0);
      const known = first === P ? finality.p : first === H ? finality.h : undefined;
      let since: string | null = null;
      if (known !== undefined) {
        // The id after its symbol: every instrument's key of one date, type and conversion shares it (a slice, not a copy).
        const shared = id.slice(id.indexOf("|", 2));
        const seen = known.get(shared);
        since = seen === undefined ? (finalSince(id, this.windowDays) ?? null) : seen;
        if (seen === undefined) known.set(shared, since);
      }
      const final = since !== null && since <= day;
      // A line of an ASCII store is its own UTF-8.
      const size = (ascii === true ? line.length : utf8Length(line)) + 1;
      // Into the map without `put`: the cache opens empty, and a probe per line for a key already there was a tenth of
      // opening (profiled). A key twice (a damaged file) keeps its later line; the totals are counted after.
      this.slots.set(id, { entry: undefined, line, size, storedAt, digestAt, valueAt, day, served: final && served, restored: true, final, intact });
      if (first === H) this.histories.set(historyFamily(id), id);
    }
    for (const slot of this.slots.values()) {
      this.total += slot.size;
      if (slot.served) this.servedCount += 1;
    }
    this.evict();
  }

  /**
   * The entry of a slot, its value parsed and checked on first read; a line whose value does not parse, or does not
   * pass the checks the service's answers pass, is dropped and counted (then asked again).
   */
  private entryOf(id: string, slot: Slot): StoredEntry | undefined {
    if (slot.entry !== undefined) return slot.entry;
    const entry = slot.line === undefined ? undefined : readEntry(id, slot.line, slot, slot.served ? NEVER : 0);
    if (entry === undefined) {
      if (slot.line !== undefined) {
        this.rejectedCount += 1;
        this.dropped.add(id);
      }
      this.remove(id);
      return undefined;
    }
    slot.entry = entry;
    return entry;
  }

  private finalWhenFetched(id: string, day: string): boolean {
    const since = finalSince(id, this.windowDays);
    return since !== undefined && since <= day;
  }

  private put(id: string, slot: Slot): void {
    this.remove(id);
    this.slots.set(id, slot);
    this.total += slot.size;
    if (slot.served) this.servedCount += 1;
    if (slot.line !== undefined && id.startsWith("h|")) this.histories.set(historyFamily(id), id);
  }

  private remove(id: string): Slot | undefined {
    const slot = this.slots.get(id);
    if (!slot) return undefined;
    this.slots.delete(id);
    this.total -= slot.size;
    if (slot.served) this.servedCount -= 1;
    if (id.startsWith("h|") && this.histories.get(historyFamily(id)) === id) this.histories.delete(historyFamily(id));
    return slot;
  }

  /**
   * The kept answer a new one replaces, for the change report: the key's own, or for a history the latest one kept of
   * the same range ending another day (a HISTORY without an end date asks a new key each day).
   */
  private replacedBy(key: string, previous: Slot | undefined): { entry: StoredEntry; day: string } | undefined {
    const earlier = previous === undefined && key.startsWith("h|") ? this.histories.get(historyFamily(key)) : undefined;
    const id = earlier ?? key;
    const slot = earlier === undefined ? previous : this.slots.get(earlier);
    const entry = slot?.line === undefined ? undefined : this.entryOf(id, slot);
    return entry && slot ? { entry, day: slot.day } : undefined;
  }

  private evict(): void {
    if (this.total <= this.maxBytes) return;
    // One walk from the front: a fresh `keys()` per eviction walks every entry deleted before it again (quadratic).
    const oldest: string[] = [];
    let total = this.total;
    for (const [id, slot] of this.slots) {
      if (total <= this.maxBytes) break;
      oldest.push(id);
      total -= slot.size;
    }
    for (const id of oldest) {
      this.remove(id);
      this.lastKnownServed.delete(id);
    }
  }

  get(key: string): StoredEntry | undefined {
    const slot = this.slots.get(key);
    if (!slot?.served) return undefined;
    // Least recently used out first: a read moves the entry to the back.
    this.slots.delete(key);
    this.slots.set(key, slot);
    return this.entryOf(key, slot);
  }

  peek(key: string): StoredEntry | undefined {
    const slot = this.slots.get(key);
    return slot?.served ? this.entryOf(key, slot) : undefined;
  }

  set(key: string, entry: StoredEntry): void {
    const previous = this.slots.get(key);
    const day = this.today();
    if (entry.error) {
      // Errors are answers for a minute, never kept across sessions, and never replace a known value.
      if (previous?.line !== undefined) return;
      this.put(key, { entry, line: undefined, size: 0, storedAt: entry.storedAt, digestAt: 0, valueAt: 0, day, served: true, restored: false });
      return;
    }
    const final = this.finalWhenFetched(key, day);
    const kept: StoredEntry = final ? { ...entry, expiresAt: NEVER } : entry;
    const line = storedLine(key, day, kept.storedAt, storedValueText(kept.kind, kept.value));
    const head = readHead(line);
    // storedLine writes ASCII only: its length is its UTF-8 size.
    const size = line.length + 1;
    if (previous?.restored && !previous.served) this.askedAgain.add(key);
    const replaced = this.replacedBy(key, previous);
    if (replaced) this.options.observer?.replaced(key, replaced.entry, kept, replaced.day);
    this.lastKnownServed.delete(key);
    this.dropped.delete(key);
    if (size > this.maxBytes) {
      this.remove(key);
    } else {
      this.put(key, { entry: kept, line, size, storedAt: kept.storedAt, digestAt: head?.digestAt ?? 0, valueAt: head?.valueAt ?? 0, day, served: true, restored: false });
      this.evict();
    }
    this.changed();
  }

  /** An invalidated or expired entry stops being served but stays as the last known value. */
  delete(key: string): boolean {
    const slot = this.slots.get(key);
    if (!slot?.served) return false;
    if (slot.line === undefined) {
      this.remove(key);
    } else {
      slot.served = false;
      this.servedCount -= 1;
    }
    return true;
  }

  keys(): Iterable<string> {
    const served: string[] = [];
    for (const [id, slot] of this.slots) if (slot.served) served.push(id);
    return served;
  }

  get size(): number {
    return this.servedCount;
  }

  /** Bytes of the stored form (what the bound counts). */
  get bytes(): number {
    return this.total;
  }

  /**
   * A key failed. When the service was unreachable and the setting allows it, its last known value answers instead
   * (the change report hears of a value that now fails for another reason, such as an entitlement that refuses).
   */
  failed(key: string, error: Error): StoredEntry | undefined {
    const slot = this.slots.get(key);
    const entry = slot?.line === undefined ? undefined : this.entryOf(key, slot);
    if (!entry) return undefined;
    if (!isUnreachable(error)) {
      this.options.observer?.failed(key, entry, error);
      return undefined;
    }
    if (this.options.lastKnownWhenUnreachable?.() !== true) return undefined;
    this.lastKnownServed.set(key, entry.storedAt);
    return entry;
  }

  /** Where the value of a key comes from, in the words lineage shows. */
  describe(key: string): string | undefined {
    const lastKnown = this.lastKnownServed.get(key);
    if (lastKnown !== undefined) {
      const fetched = new Date(lastKnown).toISOString();
      return this.unconfirmed
        ? `last known value, unconfirmed, fetched ${fetched}: the service was unreachable and has not confirmed this session's entitlement`
        : `last known value, fetched ${fetched}: the service was unreachable`;
    }
    const slot = this.slots.get(key);
    if (!slot?.served || slot.line === undefined) return undefined;
    const since = finalSince(key, this.windowDays);
    if (slot.restored && since !== undefined) return `from the cache, final since ${since}`;
    if (this.askedAgain.has(key)) return since === undefined ? "asked again: a latest value may have changed" : "asked again: inside the correction window";
    return undefined;
  }

  /** How many keys hold a last known value and since when (the pane's offline line). */
  offline(): OfflineSummary {
    let since: number | undefined;
    for (const at of this.lastKnownServed.values()) if (since === undefined || at < since) since = at;
    return { values: this.lastKnownServed.size, since, ...(this.unconfirmed ? { unconfirmed: true } : {}) };
  }

  /**
   * The service listed the instruments the caller may see this session (`entitledSymbols`, upper case): loaded values
   * of any other instrument are dropped, and the final ones of those listed are served from now on. Returns how many
   * were dropped. (For a partition opened `unconfirmed`; the runner filters before opening instead.)
   */
  confirm(symbols: ReadonlySet<string>): number {
    let dropped = 0;
    for (const [id, slot] of [...this.slots]) {
      if (!slot.restored) continue;
      const symbol = idSymbol(id);
      if (symbol !== null && !symbols.has(symbol)) {
        this.remove(id);
        this.dropped.add(id);
        this.lastKnownServed.delete(id);
        dropped += 1;
      } else if (slot.final === true && !slot.served) {
        slot.served = true;
        this.servedCount += 1;
      }
    }
    this.unconfirmed = false;
    if (dropped > 0) this.changed();
    return dropped;
  }

  /** Loaded lines dropped because their value failed the response checks (each asked again). */
  get rejected(): number {
    return this.rejectedCount;
  }

  /** Whether the service has confirmed this session's entitlement (opened confirmed, or `confirm` since). */
  get confirmed(): boolean {
    return !this.unconfirmed;
  }

  /** Keys dropped on purpose this session (what a save does not take back from another writer). */
  droppedIds(): string[] {
    return [...this.dropped];
  }

  /** Every key with a value, served or last known (what a refresh of everything would ask again). */
  ids(): string[] {
    const ids: string[] = [];
    for (const [id, slot] of this.slots) if (slot.line !== undefined) ids.push(id);
    return ids;
  }

  /** The stored form, oldest use first (what a backend saves). */
  lines(): string[] {
    const lines: string[] = [];
    for (const slot of this.slots.values()) if (slot.line !== undefined) lines.push(slot.line);
    return lines;
  }

  /** Writes the partition now (after any write already under way). */
  flush(): Promise<void> {
    this.flushPending = false;
    const lines = this.lines();
    const options: SaveOptions = { dropped: new Set(this.dropped), maxBytes: this.maxBytes };
    this.writing = this.writing.then(() => this.options.backend.save(this.options.partition, lines, options)).catch(() => undefined);
    return this.writing;
  }

  /** Forgets every value of this partition, here and in the backend ("Forget cached prices", sign-out). */
  async forget(): Promise<void> {
    this.slots.clear();
    this.total = 0;
    this.servedCount = 0;
    this.askedAgain.clear();
    this.lastKnownServed.clear();
    this.histories.clear();
    this.dropped.clear();
    this.flushPending = false;
    await this.writing;
    await this.options.backend.clear(this.options.partition);
  }

  private changed(): void {
    if (this.flushPending) return;
    this.flushPending = true;
    const schedule = this.options.scheduleFlush ?? ((flush: () => void) => void setTimeout(flush, 1000));
    schedule(() => {
      if (this.flushPending) void this.flush();
    });
  }
}

/** The service could not be reached or could not answer: a network failure, a timeout, a 502, 503 or 504. */
export function isUnreachable(error: Error): boolean {
  if (isNetworkError(error)) return true;
  return isHTTPError(error) && (error.status === 502 || error.status === 503 || error.status === 504);
}

/** A history's id without its end date (`h|SYM|FROM||…`): the histories of one range asked on different days. */
function historyFamily(id: string): string {
  const parts = id.split("|");
  parts[3] = "";
  return parts.join("|");
}
