/**
 * Headless workbook runner: evaluates a book of PRICES.* formulas with the built add-in in Chromium.
 *
 *   npm run workbook -- BOOK.json [--today YYYY-MM-DD] [--api URL [--token-url URL --client-id ID]] [--ca PATH]
 *   npm run workbook -- MODEL.xlsx --out REFRESHED.xlsx [--freeze] [same service options]
 *
 * With --api, the secret comes from the environment, never the command line (ps and shell history show that):
 * PRICES_TOKEN (a bearer token) or, with --token-url and --client-id, PRICES_CLIENT_SECRET.
 *
 * Prints one JSON object `{ "cells": {...}, "stats": {...} }` to stdout (for an .xlsx: `{ "out", "sheets", "frozen",
 * "stats" }`), everything else to stderr.
 * Exit codes: 0 success, 2 bad input, 1 failure. Chromium, the page server and the sandbox always stop.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve, sep } from "node:path";
import type { AddressInfo } from "node:net";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { Agent, fetch as undiciFetch } from "undici";
import { scopeFor, parseIsoDate } from "../src/api";
import { BookError, readBook } from "../src/host/book";
import type { EvaluationResult, SheetInput, WorkbookResult } from "../src/host/api";
import { printValue, type PrintedValue } from "../src/host/values";
import { type LoadedWorkbook, WorkbookFileError, applyResults, readWorkbookFile, writeWorkbookFile } from "../src/xlsx/workbook-file";
import { ensureCertificates } from "../src/sandbox/auth/certs";
import { type PlanRunResult, type RunnerSessionOptions, openRunnerSession, savedValues } from "../src/changes/runner-session";

export const ROOT = resolve(__dirname, "..");
export const DIST = join(ROOT, "dist");
const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];
const BUILD_OUTPUTS = ["host.html", "host.js", "functions.js", "functions.json"];

/** Bad command line or book: exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

export type ServiceOptions =
  | { readonly kind: "sandbox"; readonly today?: string; readonly sandbox?: { readonly correctionRate?: number } }
  | { readonly kind: "token"; readonly apiUrl: string; readonly token: string }
  | { readonly kind: "client"; readonly apiUrl: string; readonly tokenUrl: string; readonly clientId: string; readonly clientSecret: string };

export interface RunnerOptions extends RunnerSessionOptions {
  readonly bookPath: string;
  readonly service: ServiceOptions;
  readonly caPath?: string;
  /** For an .xlsx book: where the refreshed copy goes (never the input). */
  readonly out?: string;
  /** With `out`: PRICES formulas become values, plus the `Prices provenance` sheet. */
  readonly freeze?: boolean;
  /** The book's date system (`--date-system`): serials in and out follow it (default 1900; an .xlsx says its own). */
  readonly dateSystem?: "1900" | "1904";
}

/** What the runner prints for an .xlsx book: the copy written, every sheet's cells as for a JSON book, how many formulas were frozen. */
export interface XlsxRunResult {
  readonly out: string;
  readonly sheets: Record<string, Record<string, PrintedValue>>;
  readonly frozen: number;
  readonly stats: EvaluationResult["stats"];
  /** With `--changes`: the one-line summary of what changed. */
  readonly changes?: string;
}

const USAGE = `usage: npm run workbook -- BOOK.json [--today YYYY-MM-DD] [--api URL [--token-url URL --client-id ID]] [--ca PATH] [--date-system 1900|1904]
       npm run workbook -- MODEL.xlsx --out REFRESHED.xlsx [--freeze] [the same service options]
       with --api: PRICES_TOKEN=<token>, or with --token-url and --client-id: PRICES_CLIENT_SECRET=<secret>`;

/** Where the runner reads secrets (never from its arguments). */
export const TOKEN_ENV = "PRICES_TOKEN";
export const CLIENT_SECRET_ENV = "PRICES_CLIENT_SECRET";

/** Options that used to carry a secret: refused, with where the secret goes now (the value is never echoed). */
const SECRET_OPTIONS: ReadonlyMap<string, string> = new Map([
  ["--token", TOKEN_ENV],
  ["--client-secret", CLIENT_SECRET_ENV],
]);

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** https, or http to this machine only: a bearer token or client secret must not cross a network in clear text. */
function secureUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${name} must be an https URL, got ${value}`);
  }
  if (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname))) return value;
  throw new UsageError(`${name} must be an https URL (http only for localhost or 127.0.0.1), got ${url.protocol}//${url.host}`);
}

function secret(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

export function parseArguments(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): RunnerOptions {
  const values = new Map<string, string>();
  const positional: string[] = [];
  const known = ["--today", "--api", "--token-url", "--client-id", "--ca", "--out", "--date-system", "--cache", "--changes"];
  let freeze = false;
  let plan = false;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? "";
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    if (arg === "--freeze" || arg === "--plan") {
      if (arg === "--plan") plan = true;
      else freeze = true;
      continue;
    }
    const [name, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const secretEnv = SECRET_OPTIONS.get(name);
    if (secretEnv !== undefined) {
      throw new UsageError(`${name} is no longer accepted: a secret on the command line shows in ps and the shell history; set ${secretEnv} in the environment instead`);
    }
    if (!known.includes(name)) throw new UsageError(`unknown option ${name}`);
    const value = inline ?? argv[(index += 1)];
    if (value === undefined || value === "") throw new UsageError(`${name} needs a value`);
    values.set(name, value);
  }
  if (positional.length !== 1) throw new UsageError(positional.length === 0 ? "give one BOOK.json" : `give one book, got ${positional.join(" ")}`);
  const bookPath = resolve(positional[0] ?? "");
  const outValue = values.get("--out");
  const out = outValue === undefined ? undefined : resolve(outValue);
  if (isXlsxPath(bookPath)) {
    if (out === undefined) throw new UsageError("an .xlsx book needs --out REFRESHED.xlsx (the input is never modified)");
    if (out === bookPath) throw new UsageError("--out must name another file: the input is never modified");
    if (!isXlsxPath(out)) throw new UsageError(`--out must end in .xlsx, got ${outValue ?? ""}`);
  } else if (out !== undefined || freeze) {
    throw new UsageError("--out and --freeze apply to an .xlsx book");
  }
  if (values.has("--changes") && out === undefined) throw new UsageError("--changes applies to an .xlsx book refreshed with --out");
  const files = out === undefined ? {} : { out, freeze };
  const caPath = values.get("--ca");
  const api = values.get("--api");
  const today = values.get("--today");
  if (today !== undefined && parseIsoDate(today) === undefined) throw new UsageError(`--today must be a date YYYY-MM-DD, got ${today}`);
  let service: ServiceOptions;
  if (api === undefined) {
    for (const name of ["--token-url", "--client-id"]) {
      if (values.has(name)) throw new UsageError(`${name} needs --api (without --api the runner starts its own sandbox)`);
    }
    service = today === undefined ? { kind: "sandbox" } : { kind: "sandbox", today: parseIsoDate(today) ?? today };
  } else {
    if (today !== undefined) throw new UsageError("--today applies to the runner's own sandbox, not to --api");
    const apiUrl = secureUrl(api, "--api");
    const tokenUrl = values.get("--token-url");
    const clientId = values.get("--client-id");
    if (tokenUrl !== undefined || clientId !== undefined) {
      if (tokenUrl === undefined || clientId === undefined) throw new UsageError("--token-url and --client-id go together");
      const clientSecret = secret(env, CLIENT_SECRET_ENV);
      if (clientSecret === undefined) throw new UsageError(`--token-url and --client-id need the client secret in ${CLIENT_SECRET_ENV}`);
      service = { kind: "client", apiUrl, tokenUrl: secureUrl(tokenUrl, "--token-url"), clientId, clientSecret };
    } else {
      const token = secret(env, TOKEN_ENV);
      if (token === undefined) throw new UsageError(`--api needs a token in ${TOKEN_ENV}, or --token-url and --client-id with ${CLIENT_SECRET_ENV}`);
      service = { kind: "token", apiUrl, token };
    }
  }
  const dateSystem = values.get("--date-system");
  if (dateSystem !== undefined && dateSystem !== "1900" && dateSystem !== "1904") throw new UsageError(`--date-system must be 1900 or 1904, got ${dateSystem}`);
  const session = { ...(values.has("--cache") ? { cache: resolve(values.get("--cache") ?? "") } : {}), ...(values.has("--changes") ? { changes: resolve(values.get("--changes") ?? "") } : {}), ...(plan ? { plan } : {}) };
  return { bookPath, service, ...files, ...session, ...(caPath === undefined ? {} : { caPath: resolve(caPath) }), ...(dateSystem === undefined ? {} : { dateSystem }) };
}

function isXlsxPath(path: string): boolean {
  return extname(path).toLowerCase() === ".xlsx";
}

async function loadXlsx(path: string): Promise<LoadedWorkbook> {
  try {
    return await readWorkbookFile(path);
  } catch (error) {
    if (error instanceof WorkbookFileError) throw new UsageError(error.message);
    throw error;
  }
}

/** Reads and checks the book before anything starts. */
export function loadBookFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new UsageError(`cannot read ${path}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not JSON: ${(error as Error).message}`);
  }
  try {
    readBook(json);
  } catch (error) {
    if (error instanceof BookError) throw new UsageError(`${path}: ${error.message}`);
    throw error;
  }
  return json;
}

/** The sandbox runs in Node and is never bundled: its edits do not make dist/ stale. */
const NOT_BUNDLED = [join(ROOT, "src", "sandbox"), join(ROOT, "src", "xlsx")];

function newestModification(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (NOT_BUNDLED.includes(path)) continue;
    newest = Math.max(newest, entry.isDirectory() ? newestModification(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds with the project's webpack config when dist/ lacks the host or functions, or is older than src/. */
export function ensureBuilt(log: (message: string) => void): void {
  withBuildLock(() => buildIfStale(log));
}

/** Test files run in parallel workers; one webpack run at a time writes dist/. */
function withBuildLock(action: () => void): void {
  const lock = join(tmpdir(), `prices-workbook-build-${Buffer.from(ROOT).toString("hex").slice(-16)}.lock`);
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`another build holds ${lock}; remove it if no build is running`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    action();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function buildIfStale(log: (message: string) => void): void {
  const outputs = BUILD_OUTPUTS.map((name) => join(DIST, name));
  const oldest = outputs.every(existsSync) ? Math.min(...outputs.map((path) => statSync(path).mtimeMs)) : 0;
  const sources = [join(ROOT, "src"), join(ROOT, "webpack.config.js")].filter(existsSync);
  const newest = Math.max(...sources.map((path) => (statSync(path).isDirectory() ? newestModification(path) : statSync(path).mtimeMs)));
  if (oldest > newest) return;
  log("workbook: building dist/ with webpack");
  const started = new Date();
  const result = spawnSync(process.execPath, [join(ROOT, "node_modules/webpack-cli/bin/cli.js"), "--mode", "development"], {
    cwd: ROOT,
    stdio: ["ignore", 2, 2],
  });
  if (result.status !== 0) throw new Error(`webpack failed (exit ${String(result.status)})`);
  const missing = outputs.filter((path) => !existsSync(path));
  if (missing.length > 0) throw new Error(`the build did not produce ${missing.join(", ")}`);
  // webpack leaves unchanged files untouched, so mark them built as of the start (a source edited since stays newer).
  for (const path of outputs) utimesSync(path, started, started);
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".css": "text/css",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".xml": "application/xml",
};

export interface PageServer {
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves folders over HTTPS with the sandbox's certificate: `/` from `root`, `/<prefix>/` from each mount. */
export async function servePages(root: string, mounts: Readonly<Record<string, string>> = {}): Promise<PageServer> {
  const certificates = await ensureCertificates();
  const server: Server = createServer({ key: certificates.key, cert: certificates.cert }, (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "https://localhost").pathname);
    let base = root;
    let relative = path;
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (path.startsWith(`/${prefix}/`)) {
        base = dir;
        relative = path.slice(prefix.length + 1);
      }
    }
    const file = normalize(join(base, relative === "/" ? "host.html" : relative));
    if (!file.startsWith(base + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    response.writeHead(200, { "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
    response.end(readFileSync(file));
  });
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => done());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `https://localhost:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A client-credentials token for the API (audience = the API URL). */
export async function fetchClientToken(options: {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  apiUrl: string;
  scope: string;
  ca?: string;
}): Promise<string> {
  const body = new URLSearchParams({ grant_type: "client_credentials", scope: options.scope, resource: options.apiUrl });
  const dispatcher = options.ca === undefined ? undefined : new Agent({ connect: { ca: options.ca } });
  const basic = Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`).toString("base64");
  try {
    const response = await undiciFetch(options.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` },
      body: body.toString(),
      ...(dispatcher ? { dispatcher } : {}),
    });
    const json = (await response.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown };
    if (!response.ok || typeof json.access_token !== "string") {
      throw new Error(`token request failed with status ${response.status}${typeof json.error === "string" ? `: ${json.error}` : ""}`);
    }
    return json.access_token;
  } finally {
    await dispatcher?.close();
  }
}

export interface HostBrowser {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/**
 * Chromium with its own profile, showing `url` (host.html); resolves once the host has loaded the functions.
 * `allowCrossOrigin` turns off Chromium's CORS checks: a service given by `--api` cannot list the page's random origin.
 */
export async function openHostPage(url: string, log: (message: string) => void, options: { allowCrossOrigin?: boolean } = {}): Promise<HostBrowser> {
  const profile = mkdtempSync(join(tmpdir(), "prices-host-chromium-"));
  let context: BrowserContext | undefined;
  const close = async (): Promise<void> => {
    await context?.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: options.allowCrossOrigin ? [...CHROMIUM_FLAGS, "--disable-web-security"] : CHROMIUM_FLAGS,
      ignoreHTTPSErrors: true,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (message) => log(`page ${message.type()}: ${message.text()}`));
    page.on("pageerror", (error) => log(`page error: ${error.message}`));
    await page.goto(url);
    const failure = await page.evaluate(async () => {
      try {
        await window.PricesHostReady;
        return undefined;
      } catch {
        return window.PricesHostError ?? "the host page failed to start";
      }
    });
    if (failure !== undefined) throw new Error(`host page: ${failure}`);
    return { context, page, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Configures the functions with the API and token (and the day TODAY() gives, for a frozen sandbox), then evaluates the book in the page. */
export async function evaluateInPage(
  page: Page,
  book: unknown,
  apiUrl: string,
  token: string,
  today?: string,
  dateSystem: "1900" | "1904" = "1900",
  extra: Record<string, unknown> = {},
): Promise<EvaluationResult> {
  return page.evaluate(
    async ({ book: pageBook, apiUrl: baseUrl, token: accessToken, today: day, dateSystem: system, extra: more }) => {
      const host = window.PricesHost;
      if (!host) throw new Error("PricesHost is not ready");
      await host.configure(day === null ? { ...more, baseUrl, token: accessToken, dateSystem: system } : { ...more, baseUrl, token: accessToken, today: day, dateSystem: system });
      return host.evaluate(pageBook);
    },
    { book, apiUrl, token, today: today ?? null, dateSystem, extra },
  );
}

/** Configures the functions, then evaluates every sheet of a workbook in the page. */
export async function evaluateWorkbookInPage(
  page: Page,
  sheets: readonly SheetInput[],
  apiUrl: string,
  token: string,
  provenance: boolean,
  today?: string,
  dateSystem: "1900" | "1904" = "1900",
  extra: Record<string, unknown> = {},
): Promise<WorkbookResult> {
  return page.evaluate(
    async ({ sheets: pageSheets, apiUrl: baseUrl, token: accessToken, provenance: withProvenance, today: day, dateSystem: system, extra: more }) => {
      const host = window.PricesHost;
      if (!host) throw new Error("PricesHost is not ready");
      await host.configure(day === null ? { ...more, baseUrl, token: accessToken, dateSystem: system } : { ...more, baseUrl, token: accessToken, today: day, dateSystem: system });
      return host.evaluateWorkbook(pageSheets, { provenance: withProvenance });
    },
    { sheets, apiUrl, token, provenance, today: today ?? null, dateSystem, extra },
  );
}

/** Everything the runner started, stopped in reverse order even when one of them fails. */
class Resources {
  private readonly closers: (() => Promise<void>)[] = [];
  add(close: () => Promise<void>): void {
    this.closers.push(close);
  }
  async closeAll(): Promise<void> {
    for (const close of this.closers.splice(0).reverse()) await close().catch(() => undefined);
  }
}

export async function runWorkbook(options: RunnerOptions, log: (message: string) => void, resources = new Resources()): Promise<EvaluationResult | XlsxRunResult | PlanRunResult> {
  const xlsx = options.out === undefined ? undefined : await loadXlsx(options.bookPath);
  if (xlsx) {
    const formulas = [...xlsx.formulas.values()].reduce((sum, sheet) => sum + sheet.size, 0);
    log(`workbook: read ${options.bookPath}: ${xlsx.sheets.length} sheets, ${xlsx.cellCount} cells, ${formulas} formulas`);
    if (xlsx.kept.length > 0) {
      const named = xlsx.kept.slice(0, 5).map((formula) => `${formula.sheet}!${formula.address} (${formula.reason})`);
      log(`workbook: ${xlsx.kept.length} formulas the host cannot evaluate are kept as saved, their saved results read by the others: ${named.join("; ")}${xlsx.kept.length > 5 ? "; …" : ""}`);
    }
    if (options.dateSystem !== undefined && options.dateSystem !== xlsx.dateSystem) {
      throw new UsageError(`--date-system ${options.dateSystem} contradicts ${options.bookPath}, which is written in the ${xlsx.dateSystem} date system`);
    }
  }
  const dateSystem = xlsx?.dateSystem ?? options.dateSystem;
  const book = xlsx ? undefined : loadBookFile(options.bookPath);
  const ca = options.caPath === undefined ? undefined : readFileSync(options.caPath, "utf8");
  try {
    ensureBuilt(log);
    const pages = await servePages(DIST);
    resources.add(() => pages.close());
    let apiUrl: string;
    let token: string;
    if (options.service.kind === "sandbox") {
      const { startSandbox } = await import("../src/sandbox/server");
      const sandbox = await startSandbox({
        port: 0,
        quiet: true,
        corsOrigins: [pages.origin],
        ...(options.service.today === undefined ? {} : { today: options.service.today }),
        ...options.service.sandbox,
      });
      resources.add(() => sandbox.close());
      apiUrl = sandbox.apiUrl;
      token = await fetchClientToken({
        tokenUrl: `${sandbox.issuer}/token`,
        clientId: "sandbox-full",
        clientSecret: "sandbox-full-secret",
        apiUrl,
        scope: scopeFor("sandbox"),
        ca: sandbox.ca,
      });
    } else if (options.service.kind === "client") {
      apiUrl = options.service.apiUrl;
      // Another vendor's service names its scope `<vendor>.physicalprices.api`; PRICES_SCOPE overrides the sandbox's.
      const scope = process.env.PRICES_SCOPE ?? scopeFor("sandbox");
      token = await fetchClientToken({ ...options.service, scope, ...(ca === undefined ? {} : { ca }) });
    } else {
      apiUrl = options.service.apiUrl;
      token = options.service.token;
    }
    // The runner's own sandbox allows the page's origin; any other service is reached without CORS checks.
    const browser = await openHostPage(`${pages.origin}/host.html`, log, { allowCrossOrigin: options.service.kind !== "sandbox" });
    resources.add(() => browser.close());
    // the runner's own sandbox frozen at --today: TODAY() in formulas is that day too
    const today = options.service.kind === "sandbox" ? options.service.today : undefined;
    const session = await openRunnerSession(options, { apiUrl, token, ...(today === undefined ? {} : { today }), ...(options.service.kind === "sandbox" ? { environment: "the runner's own sandbox" } : {}) }, log);
    if (!xlsx || options.out === undefined) {
      const evaluated = await evaluateInPage(browser.page, book, apiUrl, token, today, dateSystem, session.configuration);
      const { plan } = await session.finish(browser.page, { provenance: [], sheets: [], stats: evaluated.stats }, undefined);
      return plan ? { plan, stats: evaluated.stats } : evaluated;
    }
    const freeze = options.freeze ?? false;
    const evaluating = Date.now();
    log(`workbook: evaluating ${xlsx.sheets.length} sheets in the host page`);
    const result = await evaluateWorkbookInPage(browser.page, xlsx.sheets, apiUrl, token, freeze || session.needsProvenance, today, dateSystem, session.configuration);
    log(`workbook: evaluated in ${((Date.now() - evaluating) / 1000).toFixed(1)} s, ${result.stats.requests} service requests`);
    const { plan, changes } = await session.finish(browser.page, result, savedValues(xlsx.workbook));
    if (plan) return { plan, stats: result.stats };
    const { frozen } = applyResults(xlsx, result, { freeze });
    await writeWorkbookFile(xlsx, options.out);
    log(`workbook: wrote ${options.out}${freeze ? ` (${frozen} formulas frozen, provenance in 'Prices provenance')` : ""}`);
    const sheets = Object.fromEntries(
      result.sheets.map((sheet) => [sheet.name, Object.fromEntries(Object.entries(sheet.values).map(([address, value]) => [address, printValue(value)]))]),
    );
    return { out: options.out, sheets, frozen, stats: result.stats, ...(changes === undefined ? {} : { changes }) };
  } finally {
    await resources.closeAll();
  }
}

export async function main(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  const log = (message: string): void => void process.stderr.write(`${message}\n`);
  const resources = new Resources();
  const interrupt = (): void => {
    log("workbook: interrupted, stopping");
    void resources.closeAll().finally(() => process.exit(130));
  };
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  try {
    const result = await runWorkbook(parseArguments(argv, env), log, resources);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      log(`workbook: ${error.message}\n${USAGE}`);
      return 2;
    }
    log(`workbook: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
