/**
 * `globalThis.PricesAddin`: how a page hands the functions their client. The task pane configures it
 * after sign-in (shared runtime), the headless host before it evaluates a book. Until then every
 * function answers #N/A "sign in from the Prices pane", except while a sign-in hands its client over.
 */
import { DEFAULT_REQUEST_BUDGET_MS } from "../prices/transport";
import type { ClientStats, PricesClient, PricesClientOptions } from "../prices/types";
import { CLIENT_SHARE_OF_DEADLINE, DEFAULT_DEADLINE_MS, type FunctionsClient, type FunctionsContext } from "./context";
import { NotAvailableError, SIGN_IN_MESSAGE, type MakeError } from "./errors";
import type { DateSystem } from "../formula/excel-dates";
import { NO_DATA_TYPES, type DataTypeSupport, type ValueMode } from "./data-types";
import { LiveRegistry, type LiveClient, type LiveState } from "../prices/live-registry";
import { fastClockSetting, realLiveClock, speededClock, type FastClockSetting, type LiveClock } from "../prices/live-clock";
import type { LivePolicy } from "../prices/live-schedule";
import { ClientHandover } from "./client-handover";

/**
 * Live updates of PRICES.LIVE: off (the runner: a live cell is its first value), or on with an optional clock (a fast
 * clock's setting, which a page can pass as JSON, or a clock object a test moves by hand) and policy.
 */
export type LiveSetting = false | { clock?: FastClockSetting | LiveClock; policy?: Partial<LivePolicy> };

const isLiveClock = (clock: unknown): clock is LiveClock => typeof clock === "object" && clock !== null && typeof (clock as { now?: unknown }).now === "function";

export interface ConfigureOptions extends PricesClientOptions {
  /** A call unanswered after this many ms shows #N/A (default 120,000). */
  deadlineMs?: number;
  /** The workbook's date system, for hosts that know it (the headless runner's option); Excel's is read by the runtime. */
  dateSystem?: DateSystem;
  /** Ask Excel to recalculate every formula once configured (default true; no-op outside Excel). */
  recalculate?: boolean;
  /** Plain or rich price values (default: the current setting, plain at first). */
  valueMode?: ValueMode;
  /** The data types a host other than Excel shows (the headless host and the workbench say so); Excel's are read from its requirement sets. */
  dataTypes?: DataTypeSupport;
  /** Live updates (default on, on the machine's clock); kept until given again. */
  live?: LiveSetting;
}

/** A ready client instead of options (tests, or a page that builds and shares its own client). */
export interface ClientConfiguration {
  client: FunctionsClient & Partial<Pick<PricesClient, "stats" | "invalidate">>;
  deadlineMs?: number;
  dateSystem?: DateSystem;
  recalculate?: boolean;
  valueMode?: ValueMode;
  dataTypes?: DataTypeSupport;
  live?: LiveSetting;
}

export type Configuration = ConfigureOptions | ClientConfiguration;

export type ConfiguredListener = (client: FunctionsClient | undefined) => void;

export interface PricesAddin {
  /** Builds the client from options (or takes the one given); the functions use it from the next call on. */
  configure(configuration: Configuration): Promise<void>;
  /** Back to "sign in from the Prices pane" (sign-out). */
  reset(options?: { recalculate?: boolean }): Promise<void>;
  /**
   * A user signed in and the page configures once ready (the pane opens their cache first): until that configure, or a
   * reset, a call made with no client waits for it instead of answering "sign in".
   */
  awaitClient(): void;
  /** True from `awaitClient()` to the next configure or reset. */
  readonly awaitingClient: boolean;
  /** Called after every configure and reset; returns the unsubscribe function. */
  onConfigured(listener: ConfiguredListener): () => void;
  readonly configured: boolean;
  readonly client: FunctionsClient | undefined;
  /** The client's statistics (requests sent, cache hits), when it keeps them. */
  stats(): ClientStats | undefined;
  /** Asks Excel for a full recalculation (no-op outside Excel). */
  recalculate(): Promise<void>;
  /** The workbook's date system (1900 unless a host or the workbook says otherwise). */
  readonly dateSystem: DateSystem;
  /** A new date system (the workbook's setting changed): serials read and written from the next call on. */
  setDateSystem(system: DateSystem): void;
  /** The value setting: plain numbers (default, what existing models expect) or numbers that carry their record. */
  readonly valueMode: ValueMode;
  /** A new value setting; recalculates unless `recalculate: false`. */
  setValueMode(mode: ValueMode, options?: { recalculate?: boolean }): Promise<void>;
  /** The data types this host shows: Excel's requirement sets, or what the host said in `configure`. */
  readonly dataTypes: DataTypeSupport;
  /** What is live: cells, instruments, when each is next asked, requests today; undefined while no live cell was made. */
  liveState(): LiveState | undefined;
  /** Called when the live state changed (a cell came or left, a poll ended); returns the unsubscribe function. */
  onLiveState(listener: () => void): () => void;
  /** The user's setting: live cells keep their value and nothing is asked while off. */
  readonly liveUpdates: boolean;
  setLiveUpdates(on: boolean): void;
  /** The page is hidden or offline: pause (nothing asked), and catch up in one request when resumed. */
  setLivePaused(reason: "hidden" | "offline", paused: boolean): void;
}

export interface AddinDependencies {
  createClient(options: PricesClientOptions): PricesClient;
  /** Requests a full recalculation from the host application; resolves when asked (never rejects). */
  recalculate: () => Promise<void>;
  /** Excel's data-type requirement sets, read when asked (none outside Excel). */
  dataTypeSupport?(): DataTypeSupport;
}

export interface AddinHook {
  addin: PricesAddin;
  context(makeError: MakeError, today: () => string): FunctionsContext;
  /** The live registry over the current client (made at the first live cell), or undefined where live updates are off or nobody signed in. */
  liveRegistry: () => LiveRegistry | undefined;
}

function isClientConfiguration(configuration: Configuration): configuration is ClientConfiguration {
  // a page's script may pass anything as the client: only an object is one
  const client: unknown = "client" in configuration ? configuration.client : undefined;
  return typeof client === "object" && client !== null;
}

export function createAddinHook(dependencies: AddinDependencies): AddinHook {
  let client: (FunctionsClient & Partial<Pick<PricesClient, "stats" | "invalidate">>) | undefined;
  let deadlineMs = DEFAULT_DEADLINE_MS;
  let dateSystem: DateSystem = "1900";
  let valueMode: ValueMode = "plain";
  let declaredDataTypes: DataTypeSupport | undefined;
  const dataTypes = (): DataTypeSupport => declaredDataTypes ?? dependencies.dataTypeSupport?.() ?? NO_DATA_TYPES;
  const listeners = new Set<ConfiguredListener>();
  const live = liveHolder(() => client);
  let handover: ClientHandover | undefined;

  const announce = async (recalculate: boolean | undefined): Promise<void> => {
    for (const listener of [...listeners]) {
      try {
        listener(client);
      } catch (error) {
        console.warn("PricesAddin listener failed", error);
      }
    }
    if (recalculate !== false) await safely(dependencies.recalculate);
  };

  const addin: PricesAddin = {
    async configure(configuration) {
      if (isClientConfiguration(configuration)) {
        client = configuration.client;
      } else {
        const { deadlineMs: deadline, recalculate: _recalculate, dateSystem: _dateSystem, valueMode: _valueMode, dataTypes: _dataTypes, live: _live, ...options } = configuration;
        // The client gives up (and says why) before the cell's deadline shows the generic timeout.
        const budgetMs = options.budgetMs ?? Math.min(DEFAULT_REQUEST_BUDGET_MS, Math.floor((deadline ?? DEFAULT_DEADLINE_MS) * CLIENT_SHARE_OF_DEADLINE));
        client = dependencies.createClient({ ...options, budgetMs });
      }
      deadlineMs = configuration.deadlineMs ?? DEFAULT_DEADLINE_MS;
      if (configuration.dateSystem !== undefined) dateSystem = configuration.dateSystem;
      if (configuration.valueMode !== undefined) valueMode = configuration.valueMode;
      if (configuration.dataTypes !== undefined) declaredDataTypes = configuration.dataTypes;
      live.renew(configuration.live);
      handover?.complete(client);
      handover = undefined;
      await announce(configuration.recalculate);
    },
    async reset(options) {
      client = undefined;
      deadlineMs = DEFAULT_DEADLINE_MS;
      live.renew(undefined);
      handover?.cancel();
      handover = undefined;
      await announce(options?.recalculate);
    },
    awaitClient() {
      handover ??= new ClientHandover();
    },
    get awaitingClient() {
      return handover !== undefined;
    },
    onConfigured(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get configured() {
      return client !== undefined;
    },
    get client() {
      return client;
    },
    stats() {
      return client?.stats?.();
    },
    recalculate() {
      return safely(dependencies.recalculate);
    },
    get dateSystem() {
      return dateSystem;
    },
    setDateSystem(system) {
      dateSystem = system;
    },
    get valueMode() {
      return valueMode;
    },
    async setValueMode(mode, options) {
      valueMode = mode;
      if (options?.recalculate !== false) await safely(dependencies.recalculate);
    },
    get dataTypes() {
      return dataTypes();
    },
    liveState: () => live.state(),
    onLiveState: (listener) => live.onState(listener),
    get liveUpdates() {
      return live.on;
    },
    setLiveUpdates: (on) => { live.pause("setting", !on); },
    setLivePaused: (reason, paused) => { live.pause(reason, paused); },
  };

  return {
    addin,
    liveRegistry: () => live.registry(),
    context(makeError, today) {
      return {
        client() {
          if (client !== undefined) return client;
          if (handover !== undefined) return handover.client();
          throw new NotAvailableError(SIGN_IN_MESSAGE);
        },
        makeError,
        today,
        get deadlineMs() {
          return deadlineMs;
        },
        get dateSystem() {
          return dateSystem;
        },
        get valueMode() {
          return valueMode;
        },
        get dataTypes() {
          return dataTypes();
        },
      };
    },
  };
}

/** One live registry per client: made at the first live cell, closed when the client changes; pauses and listeners outlive it. */
function liveHolder(current: () => (FunctionsClient & Partial<Pick<PricesClient, "stats">>) | undefined) {
  let setting: LiveSetting = {};
  let held: LiveRegistry | undefined;
  const paused = new Set<string>();
  const listeners = new Set<() => void>();
  const announce = (): void => {
    for (const listener of [...listeners]) listener();
  };
  return {
    renew(next: LiveSetting | undefined): void {
      if (next !== undefined) setting = next;
      held?.close();
      held = undefined;
      announce();
    },
    registry(): LiveRegistry | undefined {
      const client = current();
      if (setting === false || client === undefined) return undefined;
      if (!held) {
        const given = setting.clock;
        const fast = isLiveClock(given) ? undefined : fastClockSetting(given);
        const liveClient: LiveClient = { price: (key, options) => client.price(key, options), instrument: (symbol, fields, options) => client.instrument(symbol, fields, options) };
        if (client.stats) liveClient.stats = () => client.stats?.() ?? { requestsSent: 0 };
        held = new LiveRegistry({ client: liveClient, clock: isLiveClock(given) ? given : fast ? speededClock(fast) : realLiveClock(), ...(setting.policy ? { policy: setting.policy } : {}) });
        for (const reason of paused) held.setPaused(reason, true);
        held.onState(announce);
      }
      return held;
    },
    state: (): LiveState | undefined => held?.state(),
    onState(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get on(): boolean {
      return !paused.has("setting");
    },
    pause(reason: string, on: boolean): void {
      if (on) paused.add(reason);
      else paused.delete(reason);
      held?.setPaused(reason, on);
      announce();
    },
  };
}

async function safely(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    console.warn("PricesAddin: recalculation request failed", error);
  }
}

declare global {
  var PricesAddin: PricesAddin | undefined;
}
