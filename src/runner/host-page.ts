/**
 * The runner's browser side: dist/ built when stale, served over HTTPS, Chromium showing host.html, and the book
 * evaluated in that page with a token for the service.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize, sep } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import type { EvaluationResult, SheetInput, WorkbookResult } from "../host/page-api";
import type { DefinedName, TableDefinition } from "../host/book-names";
import { ensureCertificates } from "../sandbox/auth/certs";
import { type Trust, trustWith } from "./trust";
import { withBuildLock } from "./build-lock";
import { type ClientCredentials, accessTokenOf, tokenRequest } from "./client-credentials";

/** The project's folder: the first above this module with a package.json (from src/runner/, or from the built runner in node_modules/.cache/). */
export const ROOT = projectRoot(__dirname);
export const DIST = join(ROOT, "dist");
const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  // A batch evaluation makes short-lived objects by the million: a 64 MB young generation lets most of them die
  // there instead of being copied on (20,050-cell model: about 0.1 s less of the page's 2 s).
  "--js-flags=--max-semi-space-size=64",
];
const BUILD_OUTPUTS = ["host.html", "host.js", "functions.js", "functions.json"];

function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The sandbox, the .xlsx side and the runner run in Node and are never bundled: their edits do not make dist/ stale. */
const NOT_BUNDLED = [join(ROOT, "src", "sandbox"), join(ROOT, "src", "xlsx"), join(ROOT, "src", "runner")];

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
  withBuildLock(join(tmpdir(), `prices-workbook-build-${Buffer.from(ROOT).toString("hex").slice(-16)}.lock`), () => { buildIfStale(log); });
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
    server.listen(0, "127.0.0.1", () => { done(); });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `https://localhost:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => { done(); });
      }),
  };
}

/** A client-credentials token for the API (audience = the API URL). */
export async function fetchClientToken(
  options: ClientCredentials & {
    tokenUrl: string;
    /** A private CA trusted beside the system's (the sandbox's, or `--ca`); `trust` gives the run's own instead. */
    ca?: string;
    trust?: Trust;
  },
): Promise<string> {
  const trust = options.trust ?? trustWith(options.ca === undefined ? [] : [options.ca]);
  // loaded when a token is asked for, not with the runner (a quarter of its modules' load)
  const { fetch: undiciFetch } = await import("undici");
  const dispatcher = await trust.dispatcher();
  const { body, headers } = tokenRequest(options);
  try {
    const response = await undiciFetch(options.tokenUrl, { method: "POST", headers, body, dispatcher });
    return accessTokenOf(response.status, await response.json().catch(() => ({})));
  } finally {
    // a trust of the run's own is closed with the run
    if (options.trust === undefined) await trust.close();
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
    // loaded only here: the runner's default host needs no browser, and playwright-core takes a while to load
    const { chromium } = await import("playwright-core");
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: options.allowCrossOrigin ? [...CHROMIUM_FLAGS, "--disable-web-security"] : CHROMIUM_FLAGS,
      ignoreHTTPSErrors: true,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (message) => { log(`page ${message.type()}: ${message.text()}`); });
    page.on("pageerror", (error) => { log(`page error: ${error.message}`); });
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

/**
 * Books and results cross to and from the page as one JSON string each: Playwright's own serialization checks every
 * value of a 20,000-cell book on its own (about 1 s of the runner's CPU for the 20,050-cell model). Every value in
 * them is JSON (cell values are finite numbers, text, booleans and error objects).
 */

/**
 * Configures the functions with the API and token (and the day TODAY() gives, for a frozen sandbox), then evaluates the book in the page.
 * Live updates are off unless `extra` says otherwise: a run takes a PRICES.LIVE cell's value once, as it stands.
 */
export async function evaluateInPage(
  page: Page,
  book: unknown,
  apiUrl: string,
  token: string,
  today?: string,
  dateSystem: "1900" | "1904" = "1900",
  extra: Record<string, unknown> = {},
): Promise<EvaluationResult> {
  const json = await page.evaluate(
    async ({ book: pageBook, apiUrl: baseUrl, token: accessToken, today: day, dateSystem: system, extra: more }) => {
      const host = window.PricesHost;
      if (!host) throw new Error("PricesHost is not ready");
      await host.configure(day === null ? { live: false, ...more, baseUrl, token: accessToken, dateSystem: system } : { live: false, ...more, baseUrl, token: accessToken, today: day, dateSystem: system });
      return JSON.stringify(await host.evaluate(JSON.parse(pageBook)));
    },
    { book: JSON.stringify(book), apiUrl, token, today: today ?? null, dateSystem, extra },
  );
  return JSON.parse(json) as EvaluationResult;
}

/** What the workbook defines beside its sheets, for the engine. */
export interface WorkbookDefinitions {
  readonly names: readonly DefinedName[];
  readonly tables: readonly TableDefinition[];
}

/** Configures the functions, then evaluates every sheet of a workbook in the page. */
export async function evaluateWorkbookInPage(
  page: Page,
  sheets: readonly SheetInput[],
  definitions: WorkbookDefinitions,
  apiUrl: string,
  token: string,
  provenance: boolean | "keys",
  today?: string,
  dateSystem: "1900" | "1904" = "1900",
  extra: Record<string, unknown> = {},
): Promise<WorkbookResult> {
  const json = await page.evaluate(
    async ({ input, apiUrl: baseUrl, token: accessToken, provenance: withProvenance, today: day, dateSystem: system, extra: more }) => {
      const host = window.PricesHost;
      if (!host) throw new Error("PricesHost is not ready");
      await host.configure(day === null ? { live: false, ...more, baseUrl, token: accessToken, dateSystem: system } : { live: false, ...more, baseUrl, token: accessToken, today: day, dateSystem: system });
      const { sheets: pageSheets, names, tables } = JSON.parse(input) as { sheets: SheetInput[]; names: DefinedName[]; tables: TableDefinition[] };
      // a workbook file's price with no answer from the service keeps its saved value, left for Excel with why
      return JSON.stringify(await host.evaluateWorkbook(pageSheets, { provenance: withProvenance, names, tables, leaveUnanswered: true }));
    },
    { input: JSON.stringify({ sheets: sheets.map(({ name, book }) => ({ name, book })), names: definitions.names, tables: definitions.tables }), apiUrl, token, provenance, today: today ?? null, dateSystem, extra },
  );
  return JSON.parse(json) as WorkbookResult;
}
