/**
 * The sandbox's CLI and `startSandbox` for tests and scripts: data, certificates, token service and API on one
 * HTTPS origin. Prints `API ...`, `ISSUER ...` and `CA ...` first, each on its own line.
 */
import { createServer } from "node:net";
import path from "node:path";
import { API_BASE_PATH, DEFAULT_LIMITS, fromEpochDay } from "../api";
import { buildApp } from "./app";
import { SANDBOX_ACCOUNTS, createTokenService, ensureCertificates, withWithdrawals } from "./auth";
import { DEFAULT_OPTIONS, parseCommandLine, USAGE, UsageError, type SandboxOptions } from "./cli";
import { parseInstant, publicationClock, type PublicationClock } from "./data/clock";
import { liveClock, LiveCorrections, type LiveClock } from "./data/live";
import { addDays } from "../api";
import { exportDataSet, loadDataSet } from "./data/files";
import { type BackgroundBuild, buildInBackground, DEFAULT_SEED, generateDataSetInSteps } from "./data/generator";
import type { DataSet } from "./data/model";

export type { SandboxOptions } from "./cli";

export interface RunningSandbox {
  /** `https://localhost:PORT/physical/v2` */
  apiUrl: string;
  /** `https://localhost:PORT/auth` */
  issuer: string;
  /** `https://localhost:PORT` */
  origin: string;
  port: number;
  caPath: string;
  /** The CA certificate (PEM) that Node clients pass to trust the sandbox. */
  ca: string;
  data: DataSet;
  /** Live mode (`live` option, `--clock-speed`): the clock, corrections, the next publication. */
  live?: SandboxLive;
  /**
   * Starts building the series nobody has asked for yet, in between requests (at once unless `buildWhenAsked`), and
   * resolves with the assessments built once all are (never, when the sandbox closes first); a second call gives the
   * same promise. The series a request reads are built when it reads them either way. Given `symbols` (the runner's
   * book names them), only those instruments are built: a private sandbox builds no series its one client never asks for.
   */
  buildInBackground(symbols?: readonly string[]): Promise<number>;
  close(): Promise<void>;
}

export interface SandboxLive {
  readonly clock: LiveClock;
  /** Publishes a correction of a day's assessment (revision + 1, values moved by `shift`, default +1) at `at` (default now). */
  correct(symbol: string, date: string, options?: { at?: number; shift?: number }): void;
  /** The next first publication among these symbols (all when none given) after the clock's now. */
  nextPublication(symbols?: readonly string[]): { symbol: string; date: string; at: number } | undefined;
}

function sandboxLive(data: DataSet, clock: LiveClock, corrections: LiveCorrections): SandboxLive {
  return {
    clock,
    correct(symbol, date, options = {}) {
      corrections.add({ symbol, date, at: options.at ?? clock.now(), shift: options.shift ?? 1 });
    },
    nextPublication(symbols) {
      const wanted = symbols ? new Set(symbols.map((s) => s.toUpperCase())) : undefined;
      const now = clock.now();
      let best: { symbol: string; date: string; at: number } | undefined;
      for (const instrument of data.instruments) {
        const symbol = instrument.record.symbol;
        if (wanted && !wanted.has(symbol.toUpperCase())) continue;
        const series = instrument.series;
        for (let i = series.length - 1; i >= 0 && series.publishedAt(i) > now; i--) {
          const at = series.publishedAt(i);
          if (!best || at < best.at) best = { symbol, date: fromEpochDay(series.days[i] ?? 0), at };
        }
      }
      return best;
    },
  };
}

/** A free port, found first because the issuer and audience must carry the real one. */
export async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen({ port: 0, host: host === "localhost" ? "127.0.0.1" : host }, () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => { resolve(port); });
    });
  });
}

/** Tries of a probed port before giving up: another process may take each between the probe and the listen. */
export const PORT_ATTEMPTS = 5;

function isAddressInUse(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "EADDRINUSE";
}

/**
 * Runs `start` on a probed free port, and on a newly probed one when the port was taken in between
 * (EADDRINUSE), at most `attempts` times. `start` must release what it built before it throws.
 */
export async function onFreePort<T>(
  host: string,
  start: (port: number) => Promise<T>,
  probe: (host: string) => Promise<number> = freePort,
  attempts = PORT_ATTEMPTS,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await probe(host);
    try {
      return await start(port);
    } catch (error) {
      if (attempt >= attempts || !isAddressInUse(error)) throw error;
    }
  }
}

/** Test seams of `startSandbox`. */
export interface StartHooks {
  /** Finds the port to try when `port` is 0 (default: `freePort`). */
  probePort?: (host: string) => Promise<number>;
  /**
   * The series nobody asked for are built only once `buildInBackground()` is called: the runner's thread asks for its
   * token first (oidc-provider's load and the TLS handshakes), with no building in between.
   */
  buildWhenAsked?: boolean;
}

export async function loadOrGenerate(options: Pick<SandboxOptions, "dataDir" | "seed" | "today" | "now" | "correctionRate" | "live">, clock: PublicationClock = publicationClock(options)): Promise<DataSet> {
  if (options.dataDir !== undefined) return loadDataSet(path.resolve(options.dataDir));
  // live: the next days' assessments are made now and appear as the clock passes their publication
  const today = options.live ? addDays(clock.today, options.live.daysAhead ?? 3) : clock.today;
  return generateDataSetInSteps({ seed: options.seed ?? DEFAULT_SEED, today, now: clock.now(), ...(options.correctionRate === undefined ? {} : { correctionRate: options.correctionRate }) });
}

/** The clock for the options: a live one (settable, maybe fast) in live mode, else the publication clock. */
function clockFor(options: SandboxOptions): PublicationClock | LiveClock {
  if (!options.live) return publicationClock(options);
  const start = options.now === undefined ? Date.now() : parseInstant(options.now);
  if (start === undefined) throw new Error(`now: expected an ISO 8601 date-time with offset, got "${options.now ?? ""}"`);
  return liveClock(start, options.live.speed);
}

export async function startSandbox(partial: Partial<SandboxOptions> = {}, hooks: StartHooks = {}): Promise<RunningSandbox> {
  const options: SandboxOptions = { ...DEFAULT_OPTIONS, ...partial, limits: { ...DEFAULT_LIMITS, ...partial.limits } };
  const clock = clockFor(options);
  const corrections = options.live ? new LiveCorrections() : undefined;
  const [data, certificates] = await Promise.all([loadOrGenerate(options, clock), ensureCertificates(options.certsDir)]);
  // Issuer and audience name the port, so a port taken between probe and listen means building anew on another.
  const listenOn = async (port: number): Promise<RunningSandbox> => {
    const origin = `https://localhost:${port}`;
    const apiUrl = `${origin}${API_BASE_PATH}`;
    const tokenOptions: Parameters<typeof createTokenService>[0] = {
      origin,
      apiUrl,
      vendor: options.vendor,
    };
    if (options.tokenTtl !== undefined) tokenOptions.tokenTtl = options.tokenTtl;
    if (options.serviceKeyTtl !== undefined) tokenOptions.serviceKeyTtl = options.serviceKeyTtl;
    if (options.redirectUris) tokenOptions.redirectUris = options.redirectUris;
    if (options.corsOrigins) tokenOptions.corsOrigins = options.corsOrigins;
    // The signing key lives beside the certificates, so `--certs DIR` keeps the whole trust material together.
    if (options.certsDir !== undefined) tokenOptions.keysDir = options.certsDir;
    if (options.withdrawn !== undefined) tokenOptions.accounts = withWithdrawals(SANDBOX_ACCOUNTS, options.withdrawn);
    const tokenService = await createTokenService(tokenOptions);
    const appOptions: Parameters<typeof buildApp>[0] = {
      data,
      tokenService,
      limits: options.limits,
      rateLimit: options.rateLimit,
      vendor: options.vendor,
      seed: options.seed ?? DEFAULT_SEED,
      https: { key: certificates.key, cert: certificates.cert },
      now: () => clock.now(),
    };
    if (corrections) appOptions.corrections = corrections;
    if (options.faults !== undefined) appOptions.faults = options.faults;
    if (options.strictFields === true) appOptions.strictFields = true;
    if (options.countCalendarDays === true) appOptions.countCalendarDays = true;
    if (options.corsOrigins) appOptions.corsOrigins = options.corsOrigins;
    if (options.sockets) appOptions.sockets = options.sockets;
    const app = await buildApp(appOptions);
    try {
      await app.listen({ port, host: options.host });
    } catch (error) {
      await app.close().catch(() => undefined);
      throw error;
    }
    // The provider (oidc-provider is large, ~0.3 s) loads while the server already listens, after its caller has been
    // told so (a turn of the event loop later); requests meanwhile wait for it.
    const warming = new Promise<void>((resolve) => setImmediate(resolve)).then(() => tokenService.prepare?.()).catch(() => undefined);
    // the series too are built while it listens: those asked for first, the rest in between requests
    let building: BackgroundBuild | undefined;
    let closed = false;
    const buildRest = (symbols?: readonly string[]): Promise<number> => {
      if (building === undefined && !closed) building = buildInBackground(data, symbols === undefined ? undefined : new Set(symbols.map((symbol) => symbol.toUpperCase())));
      return building?.done ?? new Promise<number>(() => undefined);
    };
    if (hooks.buildWhenAsked !== true) void buildRest();
    return {
      apiUrl,
      issuer: tokenService.issuer,
      origin,
      port,
      caPath: certificates.caPath,
      ca: certificates.ca,
      data,
      ...(corrections && "set" in clock ? { live: sandboxLive(data, clock, corrections) } : {}),
      buildInBackground: buildRest,
      close: async () => {
        closed = true;
        building?.stop();
        await warming;
        await app.close();
      },
    };
  };
  return options.port === 0 ? onFreePort(options.host, listenOn, hooks.probePort) : listenOn(options.port);
}

async function main(argv: readonly string[]): Promise<number> {
  let command;
  try {
    command = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`sandbox: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  if (command.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command.exportDir !== undefined) {
    const data = await loadOrGenerate(command.options);
    const dir = path.resolve(command.exportDir);
    await exportDataSet(data, dir);
    process.stdout.write(`Exported ${data.instruments.length} instruments (today ${data.today}) to ${dir}\n`);
    return 0;
  }
  const started = Date.now();
  const sandbox = await startSandbox(command.options);
  process.stdout.write(`API ${sandbox.apiUrl}\nISSUER ${sandbox.issuer}\nCA ${path.resolve(sandbox.caPath)}\n`);
  if (!command.options.quiet) {
    const { limits } = command.options;
    process.stdout.write(
      `Ready in ${Date.now() - started} ms: ${sandbox.data.instruments.length} instruments to ${sandbox.data.today}; ` +
        `limits ${limits.maxSymbols} symbols, ${limits.maxDates} dates, ${limits.maxRecords} records; ` +
        `rate limit ${command.options.rateLimit || "off"}; faults ${command.options.faults ?? "none"}. Ctrl-C stops.\n`,
    );
    if (sandbox.live) process.stdout.write(`Live: the clock runs ${sandbox.live.clock.speed} times faster from ${new Date(sandbox.live.clock.setting().origin).toISOString()}.\n`);
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      sandbox.close().then(resolve, resolve);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
