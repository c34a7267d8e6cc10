/** The sandbox's command line (`npm run sandbox -- ...`), parsed into options; see docs/sandbox.md. */
import { DEFAULT_LIMITS, DEFAULT_VENDOR, parseIsoDate, type Limits } from "../api";
import { parseInstant } from "./data/clock";
import { parseFaultSpec } from "./service/faults";

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

export class UsageError extends Error {
  override readonly name = "UsageError";
}

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
  --strict-fields      answer 400 for an unknown Fields name (default: ignore it, as the real service does)
  --quiet              print only the three lines API, ISSUER and CA
  --help               this text`;

function integer(flag: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} needs a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? " up" : ` to ${max}`}, got "${text}"`);
  }
  return value;
}

function httpsUrl(flag: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${flag} needs a URL, got "${text}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new UsageError(`${flag} needs an http(s) URL, got "${text}"`);
  return text;
}

const TAKES_VALUE = new Set([
  "--port", "--host", "--today", "--now", "--seed", "--data", "--export", "--limit-symbols", "--limit-dates", "--limit-records",
  "--rate-limit", "--token-ttl", "--servicekey-ttl", "--faults", "--vendor", "--certs", "--cors-origin", "--redirect-uri",
]);

export function parseCommandLine(argv: readonly string[]): CliCommand {
  const options: SandboxOptions = { ...DEFAULT_OPTIONS, limits: { ...DEFAULT_LIMITS } };
  const command: CliCommand = { options, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf("=");
    const flag = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    let value: string | undefined;
    if (TAKES_VALUE.has(flag)) {
      value = eq > 0 && arg.startsWith("--") ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`${flag} needs a value`);
    }
    const v = value as string;
    switch (flag) {
      case "--port": options.port = integer(flag, v, 0, 65535); break;
      case "--host": options.host = v; break;
      case "--today": {
        const today = parseIsoDate(v);
        if (today === undefined) throw new UsageError(`--today needs a date YYYY-MM-DD, got "${v}"`);
        options.today = today;
        break;
      }
      case "--now":
        if (parseInstant(v) === undefined) throw new UsageError(`--now needs an ISO 8601 date-time with offset such as 2025-06-30T09:25:00Z, got "${v}"`);
        options.now = v;
        break;
      case "--seed": options.seed = integer(flag, v, 0, 2 ** 32 - 1); break;
      case "--data": options.dataDir = v; break;
      case "--export": command.exportDir = v; break;
      case "--limit-symbols": options.limits.maxSymbols = integer(flag, v, 1); break;
      case "--limit-dates": options.limits.maxDates = integer(flag, v, 1); break;
      case "--limit-records": options.limits.maxRecords = integer(flag, v, 1); break;
      case "--rate-limit": options.rateLimit = integer(flag, v, 0); break;
      case "--token-ttl": options.tokenTtl = integer(flag, v, 1); break;
      case "--servicekey-ttl": options.serviceKeyTtl = integer(flag, v, 1); break;
      case "--faults":
        try {
          parseFaultSpec(v);
        } catch (error) {
          throw new UsageError(error instanceof Error ? error.message : String(error));
        }
        options.faults = v;
        break;
      case "--vendor":
        if (!/^[a-z0-9][a-z0-9-]*$/i.test(v)) throw new UsageError(`--vendor needs letters, digits or '-', got "${v}"`);
        options.vendor = v;
        break;
      case "--certs": options.certsDir = v; break;
      case "--cors-origin": options.corsOrigins = [...(options.corsOrigins ?? []), httpsUrl(flag, v).replace(/\/$/, "")]; break;
      case "--redirect-uri": options.redirectUris = [...(options.redirectUris ?? []), httpsUrl(flag, v)]; break;
      case "--quiet": options.quiet = true; break;
      case "--strict-fields": options.strictFields = true; break;
      case "--help": case "-h": command.help = true; break;
      default: throw new UsageError(`unknown option "${arg}"`);
    }
  }
  if (options.now !== undefined && options.today !== undefined) throw new UsageError("give --now or --today, not both");
  return command;
}
