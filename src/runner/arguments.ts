/** The runner's command line, read with Node's `util.parseArgs`: the book, the copy to write, and which service to ask. */
import { existsSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, extname, join, resolve as resolvePath } from "node:path";
import { parseArgs } from "node:util";
import { parseIsoDate } from "../api/dates";
import { UsageError, urlArgument } from "../api/usage-error";
import type { RunnerSessionOptions } from "./cache-session";
import { checkWorkbookFile } from "../xlsx/package";

export { UsageError };

export type ServiceOptions =
  | { readonly kind: "sandbox"; readonly today?: string; readonly sandbox?: { readonly correctionRate?: number; readonly withdrawn?: Readonly<Record<string, readonly string[]>> } }
  | { readonly kind: "token"; readonly apiUrl: string; readonly token: string; readonly today?: string }
  | { readonly kind: "client"; readonly apiUrl: string; readonly tokenUrl: string; readonly clientId: string; readonly clientSecret: string; readonly today?: string };

export interface RunnerOptions extends RunnerSessionOptions {
  readonly bookPath: string;
  readonly service: ServiceOptions;
  readonly caPath?: string;
  /** For a workbook file: where the refreshed copy goes (never the input). */
  readonly out?: string;
  /** With `out`: PRICES formulas become values, plus the `Prices provenance` sheet. */
  readonly freeze?: boolean;
  /** With `out`: where the JSON report of every formula left for Excel goes. */
  readonly report?: string;
  /** The book's date system (`--date-system`): serials in and out follow it (default 1900; an .xlsx says its own). */
  readonly dateSystem?: "1900" | "1904";
  /** `--values rich`: prices carry their record (data types); a file gets each as its number with its number format. */
  readonly valueMode?: "plain" | "rich";
  /** Where the functions run (`PRICES_RUNNER_HOST`): a Node context of the runner's own (default) or headless Chromium. */
  readonly host?: "node" | "chromium";
}

export const USAGE = `usage: npm run workbook -- BOOK.json [--today YYYY-MM-DD] [--api URL [--token-url URL --client-id ID]] [--ca PATH] [--date-system 1900|1904] [--values plain|rich]
       npm run workbook -- MODEL.xlsx --out REFRESHED.xlsx [--freeze] [--report REPORT.json] [--cache DIR] [--changes CHANGES.csv] [--plan] [the same service options]   (.xlsm in, .xlsm out)
       with --api: PRICES_TOKEN=<token>, or with --token-url and --client-id: PRICES_CLIENT_SECRET=<secret>`;

/** Where the runner reads secrets (never from its arguments). */
export const TOKEN_ENV = "PRICES_TOKEN";
export const CLIENT_SECRET_ENV = "PRICES_CLIENT_SECRET";

/** Options that used to carry a secret: refused, with where the secret goes now (the value is never echoed). */
const SECRET_OPTIONS: ReadonlyMap<string, string> = new Map([
  ["--token", TOKEN_ENV],
  ["--client-secret", CLIENT_SECRET_ENV],
]);

/** The workbook files the runner refreshes in place: a macro-enabled book stays one. */
const WORKBOOK_EXTENSIONS = [".xlsx", ".xlsm"];

const OPTIONS = {
  today: { type: "string" },
  api: { type: "string" },
  "token-url": { type: "string" },
  "client-id": { type: "string" },
  ca: { type: "string" },
  out: { type: "string" },
  report: { type: "string" },
  "date-system": { type: "string" },
  freeze: { type: "boolean" },
  cache: { type: "string" },
  changes: { type: "string" },
  plan: { type: "boolean" },
  values: { type: "string" },
} as const;

function secret(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name]?.trim();
  if (value === undefined || value === "") return undefined;
  // a header cannot hold one, and the request's refusal would quote the whole value: say so without the value
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new UsageError(`${name} holds a control character (a line break, a tab?): set it to the secret alone, on one line`);
  return value;
}

/** A book that is not JSON is a workbook file (the reader says so when it is something else: an .xls, a text file...). */
export function isWorkbookPath(path: string): boolean {
  return extname(path).toLowerCase() !== ".json";
}

/** The file a path ends at, symlinks followed (for a path that does not exist yet: its folder's real path). */
function realPath(path: string): string {
  if (existsSync(path)) return realpathSync(path);
  const dir = dirname(path);
  return existsSync(dir) ? join(realpathSync(dir), basename(path)) : path;
}

/** Whether writing `out` would replace `input`: the same path, a symlink to it, or a hard link. */
function sameFile(input: string, out: string): boolean {
  if (realPath(input) === realPath(out)) return true;
  if (!existsSync(input) || !existsSync(out)) return false;
  const [a, b] = [statSync(input), statSync(out)];
  return a.dev === b.dev && a.ino === b.ino;
}

function parsed(argv: readonly string[]): { values: { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string }; positionals: string[] } {
  for (const arg of argv) {
    const name = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg;
    const secretEnv = SECRET_OPTIONS.get(name);
    if (secretEnv !== undefined) {
      throw new UsageError(`${name} is no longer accepted: a secret on the command line shows in ps and the shell history; set ${secretEnv} in the environment instead`);
    }
  }
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
    // parseArgs says "Option '--cache <value>' argument missing": say it as the runner's other messages do
    const missing = /Option '(--[\w-]+)[^']*' argument missing/.exec(message);
    throw new UsageError(missing ? `${missing[1] ?? "an option"} needs a value` : message);
  }
}

/**
 * The folder the user typed the command in: `npm run` runs the script in the project's folder and says where it was
 * typed in INIT_CWD, so `npm run workbook -- model.xlsx` from a subfolder (or with `--prefix`) reads the user's file.
 */
function typedIn(env: Readonly<Record<string, string | undefined>>): string {
  return env.npm_lifecycle_event === "workbook" && env.INIT_CWD !== undefined && env.INIT_CWD !== "" ? env.INIT_CWD : process.cwd();
}

export function parseArguments(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): RunnerOptions {
  const { values, positionals } = parsed(argv);
  const here = typedIn(env);
  const resolve = (path: string): string => resolvePath(here, path);
  for (const [name, value] of Object.entries(values)) {
    if (value === "") throw new UsageError(`--${name} needs a value`);
  }
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? "give one BOOK.json" : `give one book, got ${positionals.join(" ")}`);
  const bookPath = resolve(positionals[0] ?? "");
  const out = values.out === undefined ? undefined : resolve(values.out);
  const freeze = values.freeze ?? false;
  const report = values.report === undefined ? undefined : resolve(values.report);
  if (isWorkbookPath(bookPath)) {
    const extension = extname(bookPath).toLowerCase();
    // a file named otherwise (.xls, .csv, .ods) is said for what it is before its name is judged: "open it in Excel and save as .xlsx"
    if (!WORKBOOK_EXTENSIONS.includes(extension)) checkWorkbookFile(bookPath);
    const kind = WORKBOOK_EXTENSIONS.includes(extension) ? extension : ".xlsx";
    if (out === undefined) throw new UsageError(`a workbook needs --out REFRESHED${kind} (the input is never modified)`);
    if (sameFile(bookPath, out)) throw new UsageError("--out must name another file: the input is never modified (it names the input, or a link to it)");
    if (extname(out).toLowerCase() !== kind) throw new UsageError(`--out must end in ${kind} like the input, got ${values.out ?? ""}`);
    if (report !== undefined && (sameFile(bookPath, report) || report === out)) throw new UsageError("--report must name another file than the book and its copy");
  } else if (out !== undefined || freeze || report !== undefined) {
    throw new UsageError("--out, --freeze and --report apply to a workbook file (.xlsx, .xlsm)");
  }
  if (values.changes !== undefined && out === undefined) throw new UsageError("--changes applies to a workbook file refreshed with --out");
  const files = out === undefined ? {} : { out, freeze, ...(report === undefined ? {} : { report }) };
  const { ca: caPath, api, today } = values;
  if (today !== undefined && parseIsoDate(today) === undefined) throw new UsageError(`--today must be a date YYYY-MM-DD, got ${today}`);
  let service: ServiceOptions;
  if (api === undefined) {
    for (const name of ["token-url", "client-id"] as const) {
      if (values[name] !== undefined) throw new UsageError(`--${name} needs --api (without --api the runner starts its own sandbox)`);
    }
    service = today === undefined ? { kind: "sandbox" } : { kind: "sandbox", today: parseIsoDate(today) ?? today };
  } else {
    // With --api, --today overrides the service's own day (read from its Date header otherwise).
    const day = today === undefined ? {} : { today: parseIsoDate(today) ?? today };
    const apiUrl = urlArgument("--api", api);
    const tokenUrl = values["token-url"];
    const clientId = values["client-id"];
    if (tokenUrl !== undefined || clientId !== undefined) {
      if (tokenUrl === undefined || clientId === undefined) throw new UsageError("--token-url and --client-id go together");
      const clientSecret = secret(env, CLIENT_SECRET_ENV);
      if (clientSecret === undefined) throw new UsageError(`--token-url and --client-id need the client secret in ${CLIENT_SECRET_ENV}`);
      service = { kind: "client", apiUrl, tokenUrl: urlArgument("--token-url", tokenUrl), clientId, clientSecret, ...day };
    } else {
      const token = secret(env, TOKEN_ENV);
      if (token === undefined) throw new UsageError(`--api needs a token in ${TOKEN_ENV}, or --token-url and --client-id with ${CLIENT_SECRET_ENV}`);
      service = { kind: "token", apiUrl, token, ...day };
    }
  }
  const dateSystem = values["date-system"];
  if (dateSystem !== undefined && dateSystem !== "1900" && dateSystem !== "1904") throw new UsageError(`--date-system must be 1900 or 1904, got ${dateSystem}`);
  const valueMode = values.values;
  if (valueMode !== undefined && valueMode !== "plain" && valueMode !== "rich") throw new UsageError(`--values must be plain or rich, got ${valueMode}`);
  const host = env.PRICES_RUNNER_HOST;
  if (host !== undefined && host !== "" && host !== "node" && host !== "chromium") throw new UsageError(`PRICES_RUNNER_HOST must be node or chromium, got ${host}`);
  const session = { ...(values.cache === undefined ? {} : { cache: resolve(values.cache) }), ...(values.changes === undefined ? {} : { changes: resolve(values.changes) }), ...(values.plan ? { plan: true } : {}) };
  return { bookPath, service, ...files, ...session, ...(caPath === undefined ? {} : { caPath: resolve(caPath) }), ...(dateSystem === undefined ? {} : { dateSystem }), ...(valueMode === undefined ? {} : { valueMode }), ...(host === "node" || host === "chromium" ? { host } : {}) };
}
