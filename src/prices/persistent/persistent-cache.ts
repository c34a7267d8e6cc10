/**
 * A cache storage that outlives the session: the client's synchronous `CacheStorage` over an in-memory mirror of one
 * partition (environment and subject), loaded at start and written behind to a backend (IndexedDB in the pane, a file
 * for the runner). What it loads is served only when it was final when fetched (decision 23); the rest is kept as the
 * last known value, asked again, and served only when the service is unreachable and the setting allows it. Bounded
 * in bytes of its stored form, least recently used out first. It stores answers only: never a token, never an error.
 */
import { isCalendarDate, todayIso } from "../../api/dates";
import type { CacheStorage, StoredEntry } from "../cache";
import type { KeyKind } from "../types";
import { isHTTPError, isNetworkError } from "../errors";
import { DEFAULT_CORRECTION_WINDOW_DAYS, finalSince } from "./finality";
import type { Partition } from "./partition";

export const DEFAULT_PERSISTENT_MAX_BYTES = 50 * 1024 * 1024;

/** Where a partition's lines are kept between sessions. A stored version other than the partition's is never returned. */
export interface CacheBackend {
  load(partition: Partition): Promise<readonly string[]>;
  save(partition: Partition, lines: readonly string[]): Promise<void>;
  clear(partition: Partition): Promise<void>;
}

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
}

/** Far enough never to expire, small enough for JSON. */
const NEVER = 8.64e15;

interface Slot {
  /** Undefined until the value of a line loaded from an earlier session is first read. */
  entry: StoredEntry | undefined;
  /** The stored form (`storedHead`, then the value as JSON); undefined for what is never stored (errors). */
  line: string | undefined;
  size: number;
  /** When the answer was stored (epoch ms), as the entry says it. */
  storedAt: number;
  /** Where the value's JSON begins in `line`. */
  valueAt: number;
  /** The service's day when the answer was fetched: final only if it was final then. */
  day: string;
  /** Answered from (false: a last known value, kept for offline use and as the baseline of the change report). */
  served: boolean;
  /** Loaded from an earlier session. */
  restored: boolean;
}

export interface OfflineSummary {
  /** Keys answered with a last known value since they last had a fresh one. */
  readonly values: number;
  /** When the oldest of those values was fetched (epoch ms). */
  readonly since: number | undefined;
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
  private writing: Promise<void> = Promise.resolve();

  private constructor(private readonly options: PersistentCacheOptions) {
    this.maxBytes = options.maxBytes ?? DEFAULT_PERSISTENT_MAX_BYTES;
    this.windowDays = options.correctionWindowDays ?? DEFAULT_CORRECTION_WINDOW_DAYS;
    this.today = options.today ?? (() => todayIso());
  }

  /** Opens the partition: what it holds is loaded (oldest use first), final entries served, the rest kept as last known. */
  static async open(options: PersistentCacheOptions): Promise<PersistentCache> {
    const cache = new PersistentCache(options);
    let lines: readonly string[] = [];
    try {
      lines = await options.backend.load(options.partition);
    } catch {
      // An unreadable store is an empty one; the session still works from the service.
    }
    cache.restore(lines);
    return cache;
  }

  get partition(): Partition {
    return this.options.partition;
  }

  /** Reads only each line's head (key, day fetched): a value is parsed when first read (`entryOf`), as most are never read. */
  private restore(lines: readonly string[]): void {
    // Keys of one date and type share their day of finality: computed once per distinct id head (profiled: a third of the read).
    const finality = new Map<string, string | undefined>();
    for (const line of lines) {
      const head = readHead(line);
      if (!head) continue;
      const { id, day, storedAt, valueAt } = head;
      // The id without its symbol: every instrument's key of one date, type and conversion shares it.
      const shared = id.slice(0, 2) + id.slice(id.indexOf("|", 2));
      let since = finality.get(shared);
      if (since === undefined && !finality.has(shared)) {
        since = finalSince(id, this.windowDays);
        finality.set(shared, since);
      }
      const final = since !== undefined && since <= day;
      this.put(id, { entry: undefined, line, size: utf8Length(line) + 1, storedAt, valueAt, day, served: final, restored: true });
    }
    this.evict();
  }

  /** The entry of a slot, its value parsed on first read; a line whose value does not parse is dropped (then asked again). */
  private entryOf(id: string, slot: Slot): StoredEntry | undefined {
    if (slot.entry !== undefined) return slot.entry;
    const entry = slot.line === undefined ? undefined : readEntry(id, slot);
    if (entry === undefined) {
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
    while (this.total > this.maxBytes) {
      const oldest = this.slots.keys().next();
      if (oldest.done) break;
      this.remove(oldest.value);
      this.lastKnownServed.delete(oldest.value);
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
      this.put(key, { entry, line: undefined, size: 0, storedAt: entry.storedAt, valueAt: 0, day, served: true, restored: false });
      return;
    }
    const final = this.finalWhenFetched(key, day);
    const kept: StoredEntry = final ? { ...entry, expiresAt: NEVER } : entry;
    const head = storedHead(key, day, kept.storedAt);
    const line = head + JSON.stringify(kept.value);
    const size = utf8Length(line) + 1;
    if (previous?.restored && !previous.served) this.askedAgain.add(key);
    const replaced = this.replacedBy(key, previous);
    if (replaced) this.options.observer?.replaced(key, replaced.entry, kept, replaced.day);
    this.lastKnownServed.delete(key);
    if (size > this.maxBytes) {
      this.remove(key);
    } else {
      this.put(key, { entry: kept, line, size, storedAt: kept.storedAt, valueAt: head.length, day, served: true, restored: false });
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
    if (lastKnown !== undefined) return `last known value, fetched ${new Date(lastKnown).toISOString()}: the service was unreachable`;
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
    return { values: this.lastKnownServed.size, since };
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
    this.writing = this.writing.then(() => this.options.backend.save(this.options.partition, lines)).catch(() => undefined);
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

const KINDS: Readonly<Record<string, KeyKind>> = { p: "price", h: "history", i: "instrument", l: "instruments", r: "reference" };

/**
 * A stored line: the key id as a JSON string, the service's day it was fetched, when it was stored (epoch ms) and the
 * value as JSON, apart by tabs (JSON text never holds a raw tab). Kind and symbol are read back from the id; the rest of
 * an entry (its age, its size in memory, the lineage request of another session) is not kept. Opening reads the three
 * plain fields before the value without a parser; a value is parsed when first read: parsing every value on opening was
 * half the read (profiled), and a JSON head per line a sixth of what remained.
 */
function storedHead(id: string, day: string, storedAt: number): string {
  return `${JSON.stringify(id)}\t${day}\t${storedAt}\t`;
}

/** A line's key, day fetched, time stored and where its value begins, or undefined for a damaged line (then left out). */
function readHead(line: string): { id: string; day: string; storedAt: number; valueAt: number } | undefined {
  const first = line.indexOf("\t");
  const second = line.indexOf("\t", first + 1);
  const third = first < 0 || second < 0 ? -1 : line.indexOf("\t", second + 1);
  if (third < 0) return undefined;
  const id = readId(line.slice(0, first));
  const day = line.slice(first + 1, second);
  const storedAt = third > second + 1 ? Number(line.slice(second + 1, third)) : Number.NaN;
  if (id === undefined || KINDS[id.slice(0, 1)] === undefined || !isCalendarDate(day) || !Number.isFinite(storedAt)) return undefined;
  return { id, day, storedAt, valueAt: third + 1 };
}

/** A JSON string: its text between the quotes when it escapes nothing (a key id never needs to), else as JSON reads it. */
function readId(quoted: string): string | undefined {
  if (quoted.length < 2 || !quoted.startsWith('"') || !quoted.endsWith('"')) return undefined;
  if (!quoted.includes("\\")) return quoted.indexOf('"', 1) === quoted.length - 1 ? quoted.slice(1, -1) : undefined;
  try {
    const id: unknown = JSON.parse(quoted);
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The entry of a line whose head was read at opening; undefined when its value does not parse. */
function readEntry(id: string, slot: Slot): StoredEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse((slot.line ?? "").slice(slot.valueAt));
  } catch {
    return undefined;
  }
  const kind = KINDS[id.slice(0, 1)] ?? "price";
  const entry: StoredEntry = { kind, value, storedAt: slot.storedAt, expiresAt: slot.served ? NEVER : 0, bytes: 0 };
  if (kind !== "instruments" && kind !== "reference") {
    const end = id.indexOf("|", 2);
    entry.symbol = end < 0 ? id.slice(2) : id.slice(2, end);
  }
  return entry;
}

const ASCII = /^[\x00-\x7f]*$/;

/** UTF-8 length of a string, without encoding it. */
export function utf8Length(text: string): number {
  if (ASCII.test(text)) return text.length;
  let length = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) length += 1;
    else if (code < 0x800) length += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      length += 4;
      index += 1;
    } else length += 3;
  }
  return length;
}
