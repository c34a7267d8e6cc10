/**
 * The pane's persistent cache across sign-ins: the client keeps one storage object, which serves from memory while
 * nobody is signed in and from the signed-in subject's IndexedDB partition once someone is; sign-out closes the
 * partition (and forgets it when the setting asks), "Forget cached prices" forgets it at once. Nothing it loads is served
 * before the service, in this session, has accepted the token and listed the instruments the user may see (issue 28).
 * Its settings live beside the add-in's own (per user, never in the workbook).
 */
import { MemoryCacheStorage, type CacheStorage, type StoredEntry } from "../prices/cache";
import { withTimeout } from "../prices/timeout";
import { ChangeLog } from "./change-log";
import { DEFAULT_PLAN_THRESHOLD, type PlanThreshold } from "./refresh-plan";
import { DEFAULT_CORRECTION_WINDOW_DAYS } from "../prices/persistent/finality";
import { openPersistentCache } from "../prices/persistent/index";
import { type CacheBackend, type OfflineSummary, PersistentCache } from "../prices/persistent/persistent-cache";

export interface CacheSettings {
  /** "Show the last known value when the service is unreachable" (off by default). */
  lastKnownWhenUnreachable: boolean;
  /** Forget this user's cached prices when they sign out. */
  forgetOnSignOut: boolean;
  /** Bound of the persistent cache, in MB (least recently used out first). */
  maxMegabytes: number;
  correctionWindowDays: number;
  /** A sheet or workbook refresh planned above this many requests, or records, asks first (0 asks for any request). */
  confirmAboveRequests: number;
  confirmAboveRecords: number;
}

export const DEFAULT_CACHE_SETTINGS: Readonly<CacheSettings> = Object.freeze({
  lastKnownWhenUnreachable: false,
  forgetOnSignOut: false,
  maxMegabytes: 50,
  correctionWindowDays: DEFAULT_CORRECTION_WINDOW_DAYS,
  confirmAboveRequests: DEFAULT_PLAN_THRESHOLD.requests,
  confirmAboveRecords: DEFAULT_PLAN_THRESHOLD.records,
});

export const CACHE_SETTINGS_KEY = "prices.cache-settings";

interface SettingsStore {
  read(key: string): unknown;
  write(key: string, value: unknown): Promise<void>;
}

/** Saved settings over the defaults; a value of the wrong type is the default's. */
export function readCacheSettings(storage: SettingsStore): CacheSettings {
  const saved = storage.read(CACHE_SETTINGS_KEY);
  const given = typeof saved === "object" && saved !== null ? (saved as Record<string, unknown>) : {};
  const flag = (name: "lastKnownWhenUnreachable" | "forgetOnSignOut"): boolean => (typeof given[name] === "boolean" ? given[name] : DEFAULT_CACHE_SETTINGS[name]);
  const positive = (name: "maxMegabytes" | "correctionWindowDays"): number => {
    const value = given[name];
    return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : DEFAULT_CACHE_SETTINGS[name];
  };
  const count = (name: "confirmAboveRequests" | "confirmAboveRecords"): number => {
    const value = given[name];
    return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : DEFAULT_CACHE_SETTINGS[name];
  };
  return {
    lastKnownWhenUnreachable: flag("lastKnownWhenUnreachable"),
    forgetOnSignOut: flag("forgetOnSignOut"),
    maxMegabytes: positive("maxMegabytes"),
    correctionWindowDays: positive("correctionWindowDays"),
    confirmAboveRequests: count("confirmAboveRequests"),
    confirmAboveRecords: count("confirmAboveRecords"),
  };
}

/** The refresh plan's confirmation threshold the settings hold. */
export function planThreshold(settings: CacheSettings): PlanThreshold {
  return { requests: settings.confirmAboveRequests, records: settings.confirmAboveRecords };
}

/** Hands every call to the storage in use; the client holds this one object for its whole life. */
export class SwitchableStorage implements CacheStorage {
  constructor(private target: CacheStorage) {}
  use(target: CacheStorage): void {
    this.target = target;
  }
  get(key: string): StoredEntry | undefined {
    return this.target.get(key);
  }
  set(key: string, entry: StoredEntry): void {
    this.target.set(key, entry);
  }
  delete(key: string): boolean {
    return this.target.delete(key);
  }
  keys(): Iterable<string> {
    return this.target.keys();
  }
  peek(key: string): StoredEntry | undefined {
    return this.target.peek?.(key);
  }
  get size(): number {
    return this.target.size;
  }
  get bytes(): number {
    return this.target.bytes;
  }
  failed(key: string, error: Error): StoredEntry | undefined {
    return this.target.failed?.(key, error);
  }
  describe(key: string): string | undefined {
    return this.target.describe?.(key);
  }
}

export interface PanePersistence {
  readonly storage: SwitchableStorage;
  /** What the last refreshes changed, per key. */
  readonly changes: ChangeLog;
  settings(): CacheSettings;
  saveSettings(settings: CacheSettings): Promise<void>;
  /**
   * Opens the subject's partition of the environment, unconfirmed, then asks the service which instruments this session
   * may see (`entitlement`: the client's `instruments()` with this session's token) and confirms the partition with the
   * answer (`PersistentCache.confirm`); until then nothing loaded is served. A failed ask leaves it unconfirmed, asked
   * again at the next sign-in or renewal. Resolves once both are done, or after `openTimeoutMs` while they still run.
   */
  signedIn(baseUrl: string, subject: string, entitlement: Entitlement): Promise<void>;
  /** Closes the partition, writing it, or forgetting it when the setting asks. */
  signedOut(): Promise<void>;
  /** "Forget cached prices": this user's partition, here and in IndexedDB. */
  forget(): Promise<void>;
  offline(): OfflineSummary;
  /** Keys of the open partition with a value (for a refresh plan). */
  knownIds(): string[];
  /** The open partition's entries and bytes, and whether the service confirmed it this session; undefined while nobody is signed in. */
  status(): { entries: number; bytes: number; subject: string; confirmed: boolean } | undefined;
}

/** The service's list of the instruments this session's token may see (spec 4.4: `/Instruments` with no parameters). */
export type Entitlement = () => Promise<readonly { readonly symbol: string }[]>;

/** `today`: the service's day (default the machine's UTC date; tests against a frozen sandbox pass its day). */
export function panePersistence(options: { backend: CacheBackend; settingsStorage: SettingsStore; memory?: () => CacheStorage; today?: () => string; openTimeoutMs?: number }): PanePersistence {
  const memory = options.memory ?? (() => new MemoryCacheStorage({ maxEntries: 200_000, maxBytes: 64 * 1024 * 1024 }));
  const storage = new SwitchableStorage(memory());
  const changes = new ChangeLog();
  let settings = readCacheSettings(options.settingsStorage);
  let open: PersistentCache | undefined;
  let opening: Promise<void> = Promise.resolve();

  const close = async (forget: boolean): Promise<void> => {
    const closing = open;
    open = undefined;
    storage.use(memory());
    if (!closing) return;
    if (forget) await closing.forget();
    else await closing.flush();
  };

  /** Confirms the open partition with the service's list; refused or unreachable, it stays unconfirmed. */
  const confirmed = async (cache: PersistentCache | undefined, entitlement: Entitlement): Promise<void> => {
    if (!cache || cache.confirmed) return;
    let listed: readonly { readonly symbol: string }[];
    try {
      listed = await entitlement();
    } catch {
      return;
    }
    // Signed out, or another user signed in, while the service answered: that list is not this partition's.
    if (open === cache) cache.confirm(new Set(listed.map((instrument) => instrument.symbol.toUpperCase())));
  };

  return {
    storage,
    changes,
    settings: () => settings,
    async saveSettings(next) {
      settings = next;
      await options.settingsStorage.write(CACHE_SETTINGS_KEY, next);
    },
    signedIn(baseUrl, subject, entitlement) {
      opening = opening.then(async () => {
        if (open?.partition.subject === subject) return;
        await close(false);
        const cache = await openPersistentCache({
          baseUrl,
          subject,
          backend: options.backend,
          maxBytes: settings.maxMegabytes * 1024 * 1024,
          correctionWindowDays: settings.correctionWindowDays,
          lastKnownWhenUnreachable: () => settings.lastKnownWhenUnreachable,
          observer: changes,
          unconfirmed: true,
          ...(options.today ? { today: options.today } : {}),
        });
        open = cache;
        storage.use(cache);
      });
      // A store or a service that never answers must not keep the functions waiting: they start and ask as a cold open would.
      const waited = opening.then(() => confirmed(open, entitlement));
      const late = new Error("the cache store did not open in time");
      return withTimeout(options.openTimeoutMs ?? 5_000, () => waited, () => late).catch((error: unknown) => {
        if (error !== late) throw error;
      });
    },
    signedOut() {
      opening = opening.then(() => close(settings.forgetOnSignOut));
      return opening;
    },
    async forget() {
      await opening;
      changes.clear();
      await open?.forget();
    },
    offline: () => open?.offline() ?? { values: 0, since: undefined },
    knownIds: () => open?.ids() ?? [],
    status: () => (open ? { entries: open.lines().length, bytes: open.bytes, subject: open.partition.subject, confirmed: open.confirmed } : undefined),
  };
}
