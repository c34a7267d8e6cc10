/**
 * The add-in's settings: which environment to use, client limits and cache ages. Only the keys
 * listed here are ever read or written, so a secret can never end up in settings by accident.
 */
import { DEFAULT_LIMITS, DEFAULT_VENDOR, scopeFor, type Limits } from "../api";
import { isRecord } from "../api/json";
import { secureUrl } from "../api/urls";

export interface Environment {
  kind: "sandbox" | "service";
  /** Base URL of the service, ending in `/physical/v2`. */
  baseUrl: string;
  /** OpenID Connect issuer (authority) of the token service. */
  authority: string;
  clientId: string;
  scope: string;
}

export interface CacheAges {
  /** "latest" values and today's (seconds). */
  latestSeconds: number;
  /** Dated values of past days (seconds). */
  pastSeconds: number;
  /** Instruments and references (seconds). */
  referenceSeconds: number;
}

export interface AddinSettings {
  environment: Environment;
  limits: Limits;
  cache: CacheAges;
  maxInFlight: number;
  timeoutMs: number;
}

export const SANDBOX_ENVIRONMENT: Readonly<Environment> = {
  kind: "sandbox",
  baseUrl: "https://localhost:4000/physical/v2",
  authority: "https://localhost:4000/auth",
  clientId: "prices-excel-addin",
  scope: scopeFor(DEFAULT_VENDOR),
};

export const DEFAULT_SETTINGS: Readonly<AddinSettings> = {
  environment: SANDBOX_ENVIRONMENT,
  limits: DEFAULT_LIMITS,
  cache: { latestSeconds: 300, pastSeconds: 86_400, referenceSeconds: 86_400 },
  maxInFlight: 4,
  timeoutMs: 30_000,
};

/**
 * Where settings live: per-user storage (localStorage), never the workbook's document settings: a shared workbook
 * must not choose where the user's token goes. Non-secret values only.
 */
export interface SettingsStorage {
  read(key: string): unknown;
  write(key: string, value: unknown): Promise<void>;
}

export const SETTINGS_KEY = "prices.settings";


/** A base URL or authority: the one URL rule, and no query or fragment (paths are appended to it). */
function serviceUrl(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const url = secureUrl(value.trim());
  if (url === undefined || url.search !== "" || url.hash !== "") return undefined;
  return url.href.replace(/\/+$/, "");
}

function positive(value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  return typeof value === "number" && Number.isInteger(value) && value > 0 && value <= max ? value : fallback;
}

function plainText(value: unknown, fallback: string): string {
  return typeof value === "string" && /^[\w.:/-]{1,200}$/.test(value.trim()) ? value.trim() : fallback;
}

/**
 * The local sandbox is pinned: `https://localhost:PORT/physical/v2` with its own `https://localhost:PORT/auth` (npm start
 * may choose another port), the sandbox's client and scope. Anything else named "sandbox" becomes the default, so the
 * label "local sandbox" is always true.
 */
function sandboxEnvironment(env: Record<string, unknown>): Environment {
  const baseUrl = serviceUrl(env["baseUrl"]);
  const authority = serviceUrl(env["authority"]);
  const base = baseUrl === undefined ? undefined : new URL(baseUrl);
  if (base && base.hostname === "localhost" && base.pathname === "/physical/v2" && authority === `${base.origin}/auth`) {
    return { ...SANDBOX_ENVIRONMENT, baseUrl: `${base.origin}/physical/v2`, authority };
  }
  return { ...SANDBOX_ENVIRONMENT };
}

/** "localhost:4000 (local sandbox)" or the service's host: what the status line names as where the token goes. */
export function apiHostLabel(environment: Environment): string {
  const host = new URL(environment.baseUrl).host;
  return environment.kind === "sandbox" ? `${host} (local sandbox)` : host;
}

/** Reads settings defensively: unknown keys dropped, bad values replaced by defaults, only https URLs without credentials. */
export function parseSettings(value: unknown): AddinSettings {
  const raw = isRecord(value) ? value : {};
  const env = isRecord(raw["environment"]) ? raw["environment"] : {};
  const kind = env["kind"] === "service" ? "service" : "sandbox";
  const environment: Environment =
    kind === "sandbox"
      ? sandboxEnvironment(env)
      : {
          kind,
          baseUrl: serviceUrl(env["baseUrl"]) ?? SANDBOX_ENVIRONMENT.baseUrl,
          authority: serviceUrl(env["authority"]) ?? SANDBOX_ENVIRONMENT.authority,
          clientId: plainText(env["clientId"], SANDBOX_ENVIRONMENT.clientId),
          scope: plainText(env["scope"], SANDBOX_ENVIRONMENT.scope),
        };
  const limits = isRecord(raw["limits"]) ? raw["limits"] : {};
  const cache = isRecord(raw["cache"]) ? raw["cache"] : {};
  return {
    environment,
    limits: {
      maxSymbols: positive(limits["maxSymbols"], DEFAULT_LIMITS.maxSymbols),
      maxDates: positive(limits["maxDates"], DEFAULT_LIMITS.maxDates),
      maxRecords: positive(limits["maxRecords"], DEFAULT_LIMITS.maxRecords),
    },
    cache: {
      latestSeconds: positive(cache["latestSeconds"], DEFAULT_SETTINGS.cache.latestSeconds),
      pastSeconds: positive(cache["pastSeconds"], DEFAULT_SETTINGS.cache.pastSeconds),
      referenceSeconds: positive(cache["referenceSeconds"], DEFAULT_SETTINGS.cache.referenceSeconds),
    },
    maxInFlight: positive(raw["maxInFlight"], DEFAULT_SETTINGS.maxInFlight, 64),
    timeoutMs: positive(raw["timeoutMs"], DEFAULT_SETTINGS.timeoutMs, 600_000),
  };
}

export function loadSettings(storage: SettingsStorage): AddinSettings {
  return parseSettings(storage.read(SETTINGS_KEY));
}

/** Writes a fresh copy built from the known keys only. */
export async function saveSettings(storage: SettingsStorage, settings: AddinSettings): Promise<AddinSettings> {
  const clean = parseSettings(JSON.parse(JSON.stringify(settings)) as unknown);
  await storage.write(SETTINGS_KEY, clean);
  return clean;
}

/** Settings in memory (tests, or a page with no storage). */
export function memorySettingsStorage(initial: Record<string, unknown> = {}): SettingsStorage & { values: Record<string, unknown> } {
  const values = { ...initial };
  return {
    values,
    read: (key) => (Object.hasOwn(values, key) ? values[key] : undefined),
    write: (key, value) => {
      values[key] = value;
      return Promise.resolve();
    },
  };
}

// ---- which API the user agreed to send a token to -----------------------------------------------------------

/** The base URL the user last confirmed in the pane (per-user storage, next to the settings). */
export const CONFIRMED_API_KEY = "prices.confirmedApi";

/** The last confirmed base URL; before any confirmation, the built-in local sandbox (it ships with the add-in). */
export function confirmedBaseUrl(storage: SettingsStorage): string {
  return serviceUrl(storage.read(CONFIRMED_API_KEY)) ?? SANDBOX_ENVIRONMENT.baseUrl;
}

/** Records the user's explicit confirmation that tokens may go to `baseUrl`. */
export async function confirmBaseUrl(storage: SettingsStorage, baseUrl: string): Promise<string> {
  const clean = serviceUrl(baseUrl);
  if (clean === undefined) throw new Error("only an https base URL can be confirmed");
  await storage.write(CONFIRMED_API_KEY, clean);
  return clean;
}
