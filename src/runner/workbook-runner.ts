/**
 * The headless workbook runner: evaluates a book of PRICES.* formulas with the built add-in (its functions bundle in a
 * Node context, src/runner/runner-host.ts).
 *
 *   npm run workbook -- BOOK.json [--today YYYY-MM-DD] [--api URL [--token-url URL --client-id ID]] [--ca PATH]
 *   npm run workbook -- MODEL.xlsx --out REFRESHED.xlsx [--freeze] [--report REPORT.json] [same service options]
 *
 * With --api, the secret comes from the environment, never the command line (ps and shell history show that):
 * PRICES_TOKEN (a bearer token) or, with --token-url and --client-id, PRICES_CLIENT_SECRET.
 *
 * Prints one JSON object `{ "cells": {...}, "stats": {...} }` to stdout (for a workbook file: `{ "out", "sheets",
 * "frozen", "leftForExcel", "stats" }`), everything else to stderr.
 * Exit codes: 0 success, 2 bad input, 1 failure, 3 finished but the service gave no answer about some prices (unreachable,
 * timeouts, 5xx or 429 after retries, a refused token: a file keeps their saved values, a JSON book shows their errors;
 * src/runner/unanswered.ts). Chromium, the page server and the sandbox always stop.
 */
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { scopeFor } from "../api/vocabulary";
import type { EvaluationResult, WorkbookResult } from "../host/page-api";
import { BookError, readBook } from "../host/book";
import { throttled } from "../host/progress";
import { type CellValue, printValue, type PrintedValue } from "../host/values";
import { writePackage } from "../xlsx/package";
import { freezeRefusal, refreshedPackage } from "../xlsx/refreshed-copy";
import { WorkbookPackage } from "../xlsx/package";
import { type KeptFormula, WorkbookFileError, readBookInfo, readWorkbookFile } from "../xlsx/workbook-file";
import type { PlanRunResult } from "./cache-session";
import { type RunnerOptions, USAGE, UsageError, isWorkbookPath, parseArguments } from "./arguments";
import { ensureBuilt, fetchClientToken } from "./host-page";
import { duringModuleLoads } from "./module-progress";
import { openRunnerHost } from "./runner-host";
import { type SandboxThread, startSandboxThread } from "./sandbox-thread";
import { serviceDay } from "./service-day";
import { EXIT_UNANSWERED, type UnansweredPrice, type UnansweredSummary, logUnansweredCells, logUnansweredPrices, reasonsOf, summaryOfCells, unansweredOfWorkbook } from "./unanswered";
import { type Trust, trustOnly, trustWith } from "./trust";

/** What the runner prints for a workbook file: the copy written, every sheet's cells as for a JSON book, what it froze and left for Excel. */
export interface XlsxRunResult {
  readonly out: string;
  readonly sheets: Record<string, Record<string, PrintedValue>>;
  readonly frozen: number;
  readonly leftForExcel: number;
  /** The price cone: what was evaluated, proven against Excel's saved values, and left for Excel. */
  readonly cone: ConeCounts;
  /** Rich prices written as numbers with their number format. */
  readonly richValues: number;
  readonly stats: EvaluationResult["stats"];
  /** With `--changes`: the one-line summary of what changed. */
  readonly changes?: string;
  /** Price cells the service gave no answer about, kept as saved and left for Excel with their readers (exit status 3). */
  readonly unanswered?: UnansweredSummary;
}

/** What the runner prints for a JSON book: its cells, and those showing an error for want of an answer summed up (exit status 3). */
export interface BookRunResult extends Omit<EvaluationResult, "unanswered"> {
  readonly unanswered?: UnansweredSummary;
}

/** The `--report` file: every formula whose cached value the copy keeps because the engine did not evaluate it. */
export interface RunReport {
  readonly book: string;
  readonly out: string;
  readonly frozen: number;
  /** Rich prices written as numbers with their number format. */
  readonly richValues: number;
  readonly leftForExcel: readonly KeptFormula[];
  /** With --freeze: every PRICES formula kept as a formula, and why. */
  readonly notFrozen?: readonly KeptFormula[];
  readonly cone: ConeCounts;
  /** Cone formulas written with nothing to prove them against, with why. */
  readonly unproven: readonly KeptFormula[];
  /** Price cells the service gave no answer about, with why: kept as saved and left for Excel (also in `leftForExcel`). */
  readonly unanswered: readonly UnansweredPrice[];
  /** Formulas left for Excel because they read one of `unanswered`. */
  readonly unansweredDependents: number;
}

/**
 * The price cone of a refresh: `formulas` of the book's `of` are in it; `evaluated` of them were written, `prices` being
 * PRICES calls alone (the service's values), `proven` reproducing the value Excel saved before their new one was
 * written, `unproven` with nothing to prove them against; `left` kept their cached values for Excel.
 */
export interface ConeCounts {
  readonly formulas: number;
  readonly of: number;
  readonly evaluated: number;
  readonly prices: number;
  readonly proven: number;
  readonly unproven: number;
  readonly left: number;
}

/** A book that is not a readable workbook: exit code 2 with one line. */
export class BadBookError extends Error {
  override readonly name = "BadBookError";
}

/** How many left-for-Excel formulas stderr names one by one; the report lists them all. */
const LISTED = 50;

function badBook<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof WorkbookFileError) throw new BadBookError(error.message);
    throw error;
  }
}

/** Reads and checks a JSON book before anything starts. */
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

/** Everything the runner started, stopped in reverse order even when one of them fails. */
export class Resources {
  private readonly closers: (() => Promise<void>)[] = [];
  private closing: Promise<void> | undefined;
  add(close: () => Promise<void>): void {
    this.closers.push(close);
  }
  /** Settles once everything added so far is stopped, a closing already under way included (a second call waits for it). */
  closeAll(): Promise<void> {
    const closers = this.closers.splice(0).reverse();
    const stop = async (): Promise<void> => {
      for (const close of closers) await close().catch(() => undefined);
    };
    // the first closer starts now, not a microtask later (the write's synchronous stretch would hold it back)
    this.closing = this.closing === undefined ? stop() : this.closing.then(stop);
    return this.closing;
  }
}

function listLeftForExcel(left: readonly KeptFormula[], report: string | undefined, log: (message: string) => void): void {
  if (left.length === 0) return;
  log(`workbook: ${left.length} formula${left.length === 1 ? "" : "s"} left for Excel, their saved values kept (Excel recalculates them on open):`);
  for (const entry of left.slice(0, LISTED)) log(`workbook:   ${entry.sheet}!${entry.cell} =${entry.formula}: ${entry.why}`);
  if (left.length > LISTED) log(`workbook:   … and ${left.length - LISTED} more${report === undefined ? " (--report FILE lists them all)" : ` (all in ${report})`}`);
}

/**
 * The cone's counts from what the engine said of each sheet, and its unproven formulas with why, the first `limit` of
 * them (stderr names 50; only a report lists all 9,800 of the model's, each a new object).
 */
function coneOf(workbook: { readonly cone: { readonly formulas: number; readonly of: number } }, result: WorkbookResult): { counts: ConeCounts; unproven: (limit: number) => KeptFormula[] } {
  const unproven = result.sheets.reduce((sum, sheet) => sum + (sheet.proof?.unproven.length ?? 0), 0);
  const prices = result.sheets.reduce((sum, sheet) => sum + (sheet.proof?.prices.length ?? 0), 0);
  const proven = result.sheets.reduce((sum, sheet) => sum + (sheet.proof?.proven.length ?? 0), 0);
  const left = result.sheets.reduce((sum, sheet) => sum + (sheet.leftForExcel?.length ?? 0), 0);
  const listed = (limit: number): KeptFormula[] => {
    const entries: KeptFormula[] = [];
    for (const sheet of result.sheets) {
      for (const entry of sheet.proof?.unproven ?? []) {
        if (entries.length >= limit) return entries;
        entries.push({ sheet: sheet.name, ...entry });
      }
    }
    return entries;
  };
  return { counts: { ...workbook.cone, evaluated: prices + proven + unproven, prices, proven, unproven, left }, unproven: listed };
}

function logCone(cone: ConeCounts, unproven: readonly KeptFormula[], report: string | undefined, log: (message: string) => void): void {
  log(
    `workbook: price cone: ${cone.formulas} of ${cone.of} formulas; ${cone.evaluated} evaluated (${cone.prices} prices, ${cone.proven} proven against Excel's saved values, ${cone.unproven} unproven), ${cone.left} left for Excel`,
  );
  for (const entry of unproven.slice(0, LISTED)) log(`workbook:   unproven ${entry.sheet}!${entry.cell} =${entry.formula}: ${entry.why}`);
  if (cone.unproven > LISTED) log(`workbook:   … and ${cone.unproven - LISTED} more unproven${report === undefined ? " (--report FILE lists them all)" : ` (all in ${report})`}`);
}

/** A sheet's values as the runner prints them, one key at a time (no pair array per cell: the model has 20,050). */
function printedValues(values: Readonly<Record<string, CellValue>>): Record<string, PrintedValue> {
  const printed: Record<string, PrintedValue> = {};
  for (const address in values) printed[address] = printValue(values[address] ?? null);
  return printed;
}

function writeReport(path: string, report: RunReport): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, `${JSON.stringify(report, null, 2)}\n`);
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** The sandbox's own client the runner signs in as on its own sandbox (the sandbox's documented full-entitlement client). */
const RUNNER_CLIENT = { clientId: "sandbox-full", clientSecret: "sandbox-full-secret", scope: scopeFor("sandbox") };

/** What the run's requests trust: its own sandbox's CA (known before it listens) alone, or the system's CAs with `--ca`. */
async function runTrust(options: RunnerOptions, sandbox: SandboxThread | undefined, resources: Resources): Promise<Trust> {
  const trust = sandbox ? trustOnly(await sandbox.ca) : trustWith(options.caPath === undefined ? [] : [readFileSync(options.caPath, "utf8")]);
  resources.add(() => trust.close());
  return trust;
}

/** The service and a token for it: the runner's own sandbox once it listens, or the service `--api` names. */
async function serviceToken(options: RunnerOptions, sandbox: SandboxThread | undefined, trust: Trust): Promise<{ apiUrl: string; token: string }> {
  if (sandbox) {
    const { apiUrl, issuer, token: given } = await sandbox.ready;
    // asked for by the sandbox's thread as soon as it listened (RUNNER_CLIENT); asked for here if that failed
    const token = given ?? (await fetchClientToken({ ...RUNNER_CLIENT, tokenUrl: `${issuer}/token`, apiUrl, trust }));
    return { apiUrl, token };
  }
  if (options.service.kind === "client") {
    // Another vendor's service names its scope `<vendor>.physicalprices.api`; PRICES_SCOPE overrides the sandbox's.
    const scope = process.env.PRICES_SCOPE ?? scopeFor("sandbox");
    return { apiUrl: options.service.apiUrl, token: await fetchClientToken({ ...options.service, scope, trust }) };
  }
  if (options.service.kind === "sandbox") throw new Error("the runner's own sandbox was not started");
  return { apiUrl: options.service.apiUrl, token: options.service.token };
}

/**
 * Runs `work`, saying `line` at most once a second meanwhile: from a timer while the event loop is free, and from inside
 * each module it loads, whose synchronous stretches (oidc-provider, fastify's ajv) no timer can interrupt.
 */
async function saying<T>(log: (message: string) => void, line: string, work: () => Promise<T>): Promise<T> {
  const say = throttled(log);
  const timer = setInterval(() => { say(line); }, 250);
  const loads = duringModuleLoads(() => { say(line); });
  try {
    return await work();
  } finally {
    loads.stop();
    clearInterval(timer);
  }
}

function megabytes(pkg: WorkbookPackage): string {
  let bytes = 0;
  for (const entry of pkg.entries.values()) bytes += entry.length;
  return (bytes / 1024 / 1024).toFixed(1);
}

/**
 * The service once it is ready, the run's token and today there, and the session (the persistent cache's partition,
 * opened with that token): the runner's own sandbox once it listens, or the service `--api` names.
 */
async function serviceAndSession(options: RunnerOptions, sandbox: SandboxThread | undefined, trust: Trust, log: (message: string) => void) {
  const serving = saying(log, "workbook: still starting the service", () => serviceToken(options, sandbox, trust));
  // the session's modules (the client's cache, jose: ~0.1 s) load while the sandbox starts, once the token is asked for
  const sessionModule = import("./cache-session");
  sessionModule.catch(() => undefined);
  const { apiUrl, token } = await serving;
  log("workbook: service ready");
  // --today (the runner's own sandbox is frozen at it), else another service's own day: which prices are final, and TODAY() in formulas
  const today = options.service.today ?? (options.service.kind === "sandbox" ? undefined : await serviceDay(apiUrl, trust));
  if (today !== undefined && options.service.kind !== "sandbox" && options.service.today === undefined) log(`workbook: today is ${today} at the service`);
  const { openRunnerSession, savedValues } = await sessionModule;
  const session = await openRunnerSession(options, { apiUrl, token, trust, ...(today === undefined ? {} : { today }), ...(options.service.kind === "sandbox" ? { environment: "the runner's own sandbox" } : {}) }, log);
  return { apiUrl, token, today, session, savedValues };
}

/** Zip size from which the runner says it is reading before it unzips (deterministic: by size, never by time). */
const READ_NOTICE_BYTES = 512 * 1024;

export async function runWorkbook(options: RunnerOptions, log: (message: string) => void, resources = new Resources()): Promise<BookRunResult | XlsxRunResult | PlanRunResult> {
  const progress = throttled(log);
  const isFile = options.out !== undefined && isWorkbookPath(options.bookPath);
  // A first line before a large package is unzipped (a 2.6 MB zip holds a 19.5-million-character sheet); a small one is
  // read before a line is due, so bad input keeps its one line.
  const large = isFile && (statSync(options.bookPath, { throwIfNoEntry: false })?.size ?? 0) >= READ_NOTICE_BYTES;
  if (large) log(`workbook: reading ${options.bookPath}`);
  const book = isFile ? undefined : loadBookFile(options.bookPath);
  // a file that is no workbook at all (not a zip, encrypted, .xls, truncated) is refused before anything starts
  const pkg = isFile ? badBook(() => WorkbookPackage.read(options.bookPath)) : undefined;
  // the input is good: the first line, before the sheets are read (beside two busy loops the first came after 17.8 s);
  // a large one said so before its unzip, which then takes seconds of its own on a busy machine
  // its workbook part is part of that check (a damaged one, or a book --freeze cannot write, its structure protected):
  // refused before the first line, so bad input gets one line
  const info = pkg ? badBook(() => readBookInfo(options.bookPath, pkg)) : undefined;
  const refusal = pkg && info && options.freeze ? freezeRefusal({ info, pkg }) : undefined;
  if (refusal !== undefined) throw new BadBookError(refusal);
  if (pkg && !large) log(`workbook: reading ${options.bookPath}`);
  if (pkg && large) log(`workbook: unzipped ${options.bookPath} (${megabytes(pkg)} MB in ${pkg.entries.size} parts), reading its sheets`);
  try {
    ensureBuilt(log);
    // the functions' host (src/runner/runner-host.ts): a Node context, or Chromium launching while the workbook is read
    const host = await openRunnerHost(options, log);
    resources.add(() => host.close());
    // the runner's own sandbox starts on a thread of its own, on the other core, while this one reads the sheets
    const sandbox = options.service.kind === "sandbox" ? startSandboxThread({ corsOrigins: host.origin === undefined ? [] : [host.origin], ...(options.service.today === undefined ? {} : { today: options.service.today }), ...options.service.sandbox, client: RUNNER_CLIENT, symbols: info?.sharedStrings }) : undefined;
    if (sandbox) resources.add(() => sandbox.close());
    const workbook = pkg ? badBook(() => readWorkbookFile(options.bookPath, progress, pkg, info === undefined ? {} : { info })) : undefined;
    if (workbook) {
      const formulas = [...workbook.formulas.values()].reduce((sum, sheet) => sum + sheet.size, 0);
      log(`workbook: read ${options.bookPath}: ${workbook.sheets.length} sheets, ${workbook.cellCount} cells, ${formulas} formulas, ${workbook.cone.formulas} of them in the price cone`);
      if (options.dateSystem !== undefined && options.dateSystem !== workbook.dateSystem) {
        throw new UsageError(`--date-system ${options.dateSystem} contradicts ${options.bookPath}, which is written in the ${workbook.dateSystem} date system`);
      }
    }
    const dateSystem = workbook?.dateSystem ?? options.dateSystem;
    const trust = await runTrust(options, sandbox, resources);
    log(`workbook: opening ${host.name}${sandbox ? " while the runner's own sandbox starts" : ""}`);
    // the page loads once this process is free to serve it (after the read): say so rather than fall silent
    await saying(log, `workbook: waiting for ${host.name} to load the functions`, () => host.ready(trust));
    // the service, its token and the session, asked for now and awaited only where the evaluation needs them: the
    // Node context loads the sheets meanwhile (the runner's own sandbox still starting on the other core)
    const service = serviceAndSession(options, sandbox, trust, log);
    service.catch(() => undefined);
    // A file keeps a rich price as its number with its number format, so the runner declares formatted numbers; an entity
    // would be written as its text only, so PRICES.ENTITY answers that text (no card, no price request for it).
    const dataTypes = { dataTypes: { entities: false, numbers: true }, valueMode: options.valueMode ?? "plain" };
    if (!workbook || options.out === undefined) {
      const { apiUrl, token, today, session } = await service;
      const evaluated = await host.evaluate(book, apiUrl, token, today, dateSystem, { ...session.configuration, ...dataTypes });
      const { plan } = await session.finish(host, { provenance: [], sheets: [], stats: evaluated.stats }, undefined);
      if (plan) return { plan, stats: evaluated.stats };
      // a JSON book has no saved value to keep: its cells show the errors, said once per reason, and the run ends with 3
      const { unanswered: _cells, ...printed } = evaluated;
      const unanswered = summaryOfCells(evaluated);
      if (unanswered === undefined) return printed;
      logUnansweredCells(unanswered, log);
      return { ...printed, unanswered };
    }
    const freeze = options.freeze ?? false;
    const evaluating = Date.now();
    log(`workbook: evaluating ${workbook.sheets.length} sheet${workbook.sheets.length === 1 ? "" : "s"} in ${host.name}`);
    const definitions = { names: workbook.names, tables: workbook.tables };
    // the read's own trees go with each sheet: the engine does not parse the cone's formulas a second time
    const withTrees = workbook.sheets.map((sheet) => {
      const parsed = workbook.parsed.get(sheet.name);
      return parsed === undefined ? sheet : { ...sheet, parsed };
    });
    // decided before the session opens: frozen cells name their prices; the change report (--changes) needs the keys
    const provenance = freeze ? true : options.changes !== undefined ? "keys" : false;
    const result = await host.evaluateWorkbook(withTrees, definitions, provenance, dateSystem, async () => {
      const { apiUrl, token, today, session } = await service;
      return { apiUrl, token, ...(today === undefined ? {} : { today }), extra: { ...session.configuration, ...dataTypes } };
    });
    log(`workbook: evaluated in ${((Date.now() - evaluating) / 1000).toFixed(1)} s, ${result.stats.requests} service requests`);
    const { session, savedValues } = await service;
    const { plan, changes } = await session.finish(host, result, savedValues(workbook));
    if (plan) return { plan, stats: result.stats };
    // the host, its bundle and the service are done with: they stop while the copy is written (their threads and
    // sockets wind down during its deflate and check, ~0.1-0.2 s of waiting otherwise); `finally` waits for them
    void resources.closeAll();
    log(`workbook: writing ${options.out}`);
    const copy = refreshedPackage(workbook, result, { freeze }, progress);
    await writePackage(copy.entries, options.out, progress, workbook.pkg);
    log(`workbook: wrote ${options.out}${freeze ? ` (${copy.frozen} formulas frozen, provenance in 'Prices provenance')` : ""}`);
    if (copy.notFrozen.length > 0) {
      log(`workbook: ${copy.notFrozen.length} PRICES formula${copy.notFrozen.length === 1 ? "" : "s"} not frozen (the formula kept):`);
      for (const entry of copy.notFrozen.slice(0, LISTED)) log(`workbook:   ${entry.sheet}!${entry.cell} =${entry.formula}: ${entry.why}`);
    }
    if (copy.formatted > 0) log(`workbook: ${copy.formatted} rich value${copy.formatted === 1 ? "" : "s"} written as numbers with their number format (a file holds no data types)`);
    if (copy.unformatted > 0) log(`workbook: ${copy.unformatted} rich value${copy.unformatted === 1 ? "" : "s"} written as plain numbers without their number format: ${options.bookPath} has no styles part to hold it`);
    // prices the service gave no answer about, and their readers, are said once per reason rather than one by one
    const unanswered = unansweredOfWorkbook(result);
    listLeftForExcel(unanswered.cells.size === 0 ? copy.leftForExcel : copy.leftForExcel.filter((entry) => !unanswered.cells.has(`${entry.sheet}!${entry.cell}`)), options.report, log);
    const summary: UnansweredSummary | undefined = unanswered.prices.length === 0 ? undefined : { cells: unanswered.prices.length, dependents: unanswered.dependents, reasons: reasonsOf(unanswered.prices) };
    if (summary !== undefined) logUnansweredPrices(summary, options.report, log);
    const cone = coneOf(workbook, result);
    logCone(cone.counts, cone.unproven(LISTED), options.report, log);
    if (options.report !== undefined) {
      writeReport(options.report, { book: options.bookPath, out: options.out, frozen: copy.frozen, richValues: copy.formatted, leftForExcel: copy.leftForExcel, cone: cone.counts, unproven: cone.unproven(Infinity), unanswered: unanswered.prices, unansweredDependents: unanswered.dependents, ...(freeze ? { notFrozen: copy.notFrozen } : {}) });
      log(`workbook: report in ${options.report}`);
    }
    const sheets = Object.fromEntries(result.sheets.map((sheet) => [sheet.name, printedValues(sheet.values)]));
    return { out: options.out, sheets, frozen: copy.frozen, leftForExcel: copy.leftForExcel.length, cone: cone.counts, richValues: copy.formatted, stats: result.stats, ...(changes === undefined ? {} : { changes }), ...(summary === undefined ? {} : { unanswered: summary }) };
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
    return "unanswered" in result && result.unanswered !== undefined ? EXIT_UNANSWERED : 0;
  } catch (error) {
    // a file the runner cannot read, or a copy it would not deliver (a part not well-formed): one line, exit 2
    if (error instanceof BadBookError || error instanceof WorkbookFileError) {
      log(`workbook: ${error.message}`);
      return 2;
    }
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
