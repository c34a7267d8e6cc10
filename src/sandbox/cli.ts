/** The sandbox's command line (`npm run sandbox -- ...`), parsed into options; see docs/sandbox.md. */
import { parseArgs } from "node:util";
import { DEFAULT_LIMITS, DEFAULT_VENDOR, parseIsoDate, type Limits } from "../api";
import { UsageError, urlArgument } from "../api/usage-error";
import { parseInstant } from "./data/clock";
import { parseFaultSpec } from "./service/faults";
import type { SocketLimits } from "../hardening/sockets";

export interface SandboxOptions {
  /** 4000 by default; 0 = any free port. */
  port: number;
  host: string;
  /** Freezes the clock at the end of this day (UTC). */
  today?: string;
  /** Freezes the clock at this instant (ISO 8601 date-time with offset); wins over `today`. */
  now?: string;
  seed?: number;
  /** Share of generated assessments corrected later (default 0.002); tests of the change report raise it. */
  correctionRate?: number;
  dataDir?: string;
  limits: Limits;
  /** Requests per caller per second; 0 = off. */
  rateLimit: number;
  /** Access-token lifetime in seconds; absent = the token service's default (3600). */
  tokenTtl?: number;
  /** Service-key token lifetime in seconds; absent = 7200 (vendor), whatever `tokenTtl` says. */
  serviceKeyTtl?: number;
  faults?: string;
  vendor: string;
  certsDir?: string;
  redirectUris?: string[];
  corsOrigins?: string[];
  quiet?: boolean;
  /** `--strict-fields`: an unknown `Fields` name is a 400 instead of being ignored (convention 8). */
  strictFields?: boolean;
  /** `--count-calendar-days`: a history's records are counted as the calendar days of its range per symbol, as some deployments count them. */
  countCalendarDays?: boolean;
  /** Socket timeouts and the connection cap (src/hardening/sockets.ts); scripts and benchmarks shorten them. */
  sockets?: Partial<SocketLimits>;
  /**
   * Publishing while you watch (`--clock-speed N`): the clock starts at `now` (or the real time) and runs `speed`
   * times faster (0: stands still until a test sets it); the data runs `daysAhead` days past the start (default 3),
   * each assessment appearing at its publication instant. `RunningSandbox.live` sets the clock and publishes corrections.
   */
  live?: { speed: number; daysAhead?: number };
  /** Withdrawn entitlements (docs/sandbox-auth.md): by username, client id or service name, the symbol prefixes it no longer sees. */
  withdrawn?: Readonly<Record<string, readonly string[]>>;
}

export const DEFAULT_OPTIONS: SandboxOptions = {
  port: 4000,
  host: "localhost",
  limits: { ...DEFAULT_LIMITS },
  rateLimit: 0,
  vendor: DEFAULT_VENDOR,
};

export interface CliCommand {
  options: SandboxOptions;
  /** `--export DIR`: write the data set there and exit. */
  exportDir?: string;
  help: boolean;
}

export { UsageError };

export const USAGE = `Usage: npm run sandbox -- [options]
  --port N             port to listen on (default 4000; 0 = any free port)
  --host H             interface to listen on (default localhost)
  --today YYYY-MM-DD   freeze the clock at the end of that day, UTC (default: the real time)
  --now ISO-TIME       freeze the clock at an instant, e.g. 2025-06-30T09:25:00Z: assessments
                       published later are not shown yet
  --seed N             seed of the generated data and of injected faults (default: fixed)
  --data DIR           load the data set from DIR (see docs/sandbox-data.md) instead of generating it
  --export DIR         write the data set to DIR in that format and exit
  --limit-symbols N    most symbols per request (default ${DEFAULT_LIMITS.maxSymbols})
  --limit-dates N      most dates per request (default ${DEFAULT_LIMITS.maxDates})
  --limit-records N    most price records per response (default ${DEFAULT_LIMITS.maxRecords})
  --rate-limit N       most API requests per caller per second (default 0 = off)
  --token-ttl S        access token lifetime in seconds (default 3600)
  --servicekey-ttl S   service-key token lifetime in seconds (default 7200, as the vendor's)
  --faults SPEC        inject faults, e.g. latency=300ms:0.2,500:0.05,503:0.05,429:0.05,drop:0.02,truncate:0.02
  --vendor NAME        vendor prefix of the scope NAME.physicalprices.api (default ${DEFAULT_VENDOR})
  --certs DIR          where the local CA and certificate live (default <repo>/.certs)
  --cors-origin URL    another origin allowed by CORS (repeatable; https://localhost:3000 always is)
  --redirect-uri URL   another exact redirect URI of the add-in's client (repeatable)
  --idle-timeout S     close a connection that moves no byte for S seconds: idle, or a client that stopped
                       reading (default 60)
  --strict-fields      answer 400 for an unknown Fields name (default: ignore it, as the real service does)
  --count-calendar-days  count a history's records as the calendar days of its range per symbol
  --clock-speed N      publish while you watch: the clock starts at --now (or the real time) and runs N times
                       faster (60 = a minute a second); the next days' assessments appear as it passes them
  --withdraw S:PREFIX  withdraw from caller S (username, client id or service name) the instruments whose symbol
                       starts with PREFIX, as a lapsed licence (repeatable)
  --quiet              print only the three lines API, ISSUER and CA
  --help               this text`;

function integer(flag: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} needs a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? " up" : ` to ${max}`}, got "${text}"`);
  }
  return value;
}

/** The flags, for `node:util` parseArgs (one parser of command lines for every tool; issue 18). */
const FLAGS = {
  port: { type: "string" },
  host: { type: "string" },
  today: { type: "string" },
  now: { type: "string" },
  seed: { type: "string" },
  data: { type: "string" },
  export: { type: "string" },
  "limit-symbols": { type: "string" },
  "limit-dates": { type: "string" },
  "limit-records": { type: "string" },
  "rate-limit": { type: "string" },
  "token-ttl": { type: "string" },
  "servicekey-ttl": { type: "string" },
  faults: { type: "string" },
  vendor: { type: "string" },
  certs: { type: "string" },
  "cors-origin": { type: "string", multiple: true },
  "redirect-uri": { type: "string", multiple: true },
  "idle-timeout": { type: "string" },
  withdraw: { type: "string", multiple: true },
  "strict-fields": { type: "boolean" },
  "count-calendar-days": { type: "boolean" },
  "clock-speed": { type: "string" },
  quiet: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function parseFlags(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    // parseArgs says what is wrong (an unknown option, a missing value); it is a usage error like the others.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function parseCommandLine(argv: readonly string[]): CliCommand {
  const values = parseFlags(argv);
  const options: SandboxOptions = { ...DEFAULT_OPTIONS, limits: { ...DEFAULT_LIMITS } };
  const command: CliCommand = { options, help: values.help === true };
  if (values.port !== undefined) options.port = integer("--port", values.port, 0, 65535);
  if (values.host !== undefined) options.host = values.host;
  if (values.today !== undefined) {
    const today = parseIsoDate(values.today);
    if (today === undefined) throw new UsageError(`--today needs a date YYYY-MM-DD, got "${values.today}"`);
    options.today = today;
  }
  if (values.now !== undefined) {
    if (parseInstant(values.now) === undefined) throw new UsageError(`--now needs an ISO 8601 date-time with offset such as 2025-06-30T09:25:00Z, got "${values.now}"`);
    options.now = values.now;
  }
  if (values.seed !== undefined) options.seed = integer("--seed", values.seed, 0, 2 ** 32 - 1);
  if (values.data !== undefined) options.dataDir = values.data;
  if (values.export !== undefined) command.exportDir = values.export;
  if (values["limit-symbols"] !== undefined) options.limits.maxSymbols = integer("--limit-symbols", values["limit-symbols"], 1);
  if (values["limit-dates"] !== undefined) options.limits.maxDates = integer("--limit-dates", values["limit-dates"], 1);
  if (values["limit-records"] !== undefined) options.limits.maxRecords = integer("--limit-records", values["limit-records"], 1);
  if (values["rate-limit"] !== undefined) options.rateLimit = integer("--rate-limit", values["rate-limit"], 0);
  if (values["token-ttl"] !== undefined) options.tokenTtl = integer("--token-ttl", values["token-ttl"], 1);
  if (values["servicekey-ttl"] !== undefined) options.serviceKeyTtl = integer("--servicekey-ttl", values["servicekey-ttl"], 1);
  if (values.faults !== undefined) {
    try {
      parseFaultSpec(values.faults);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    options.faults = values.faults;
  }
  if (values.vendor !== undefined) {
    if (!/^[a-z0-9][a-z0-9-]*$/i.test(values.vendor)) throw new UsageError(`--vendor needs letters, digits or '-', got "${values.vendor}"`);
    options.vendor = values.vendor;
  }
  if (values.certs !== undefined) options.certsDir = values.certs;
  if (values["cors-origin"] !== undefined) options.corsOrigins = values["cors-origin"].map((url) => urlArgument("--cors-origin", url).replace(/\/$/, ""));
  if (values["redirect-uri"] !== undefined) options.redirectUris = values["redirect-uri"].map((url) => urlArgument("--redirect-uri", url));
  if (values.withdraw !== undefined) options.withdrawn = withdrawals(values.withdraw);
  if (values["idle-timeout"] !== undefined) options.sockets = { idleTimeoutMs: integer("--idle-timeout", values["idle-timeout"], 1, 3600) * 1000 };
  if (values.quiet === true) options.quiet = true;
  if (values["strict-fields"] === true) options.strictFields = true;
  if (values["count-calendar-days"] === true) options.countCalendarDays = true;
  if (values["clock-speed"] !== undefined) {
    if (options.today !== undefined) throw new UsageError("--clock-speed starts at --now or the real time, not at --today");
    options.live = { speed: integer("--clock-speed", values["clock-speed"], 1, 100_000) };
  }
  if (options.now !== undefined && options.today !== undefined) throw new UsageError("give --now or --today, not both");
  return command;
}

/** `--withdraw S:PREFIX`, repeated: the symbol prefixes withdrawn from each caller. */
function withdrawals(given: readonly string[]): Record<string, string[]> {
  const withdrawn: Record<string, string[]> = {};
  for (const text of given) {
    const at = text.lastIndexOf(":");
    const [principal, prefix] = [text.slice(0, at), text.slice(at + 1)];
    if (at <= 0 || prefix === "") throw new UsageError(`--withdraw needs CALLER:PREFIX such as sandbox-full:AG-, got "${text}"`);
    (withdrawn[principal] ??= []).push(prefix);
  }
  return withdrawn;
}
