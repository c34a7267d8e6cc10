// @ts-check
/**
 * `npm run workbook`: the runner (scripts/workbook.ts and what it imports) bundled once with esbuild into
 * node_modules/.cache/prices-workbook/ and run by plain Node, rebuilt first whenever one of its sources is newer than
 * the bundle (or gone). Under tsx every module of ours is compiled and every import resolved through its hooks: the
 * process's start to its first line took 0.7-1.3 s of CPU (usage error) against 0.2-0.3 s bundled, 17.8 s of silence
 * beside two busy loops (docs/benchmarks.md, "Workbook files"). Packages stay outside the bundle, loaded from
 * node_modules as they are, but for TypeBox, undici and oidc-provider (BUNDLED). `npx tsx scripts/workbook.ts` runs the same code from source.
 */
const { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } = require("node:fs");
const { enableCompileCache } = require("node:module");
const { join } = require("node:path");

const ROOT = join(__dirname, "..");
/** Where the bundle goes (PRICES_WORKBOOK_BUILD_DIR: another folder, for the tests of this file). */
const BUILD_DIR = process.env.PRICES_WORKBOOK_BUILD_DIR || join(ROOT, "node_modules", ".cache", "prices-workbook");
const BUNDLE = join(BUILD_DIR, "workbook.js");
const WORKER = join(BUILD_DIR, "sandbox-worker.js");
/** The bundle's sources as esbuild listed them, and when the build that read them started. */
const INPUTS = join(BUILD_DIR, "inputs.json");
/** Besides the sources: this file (the build's options) and what chooses the packages and the compiler's settings. */
const ALWAYS = [__filename, join(ROOT, "package-lock.json"), join(ROOT, "tsconfig.json")];

/** Whether the bundle is missing, or older than one of its inputs (an input gone counts as newer). */
function stale() {
  if (![BUNDLE, WORKER, INPUTS].every((path) => existsSync(path))) return true;
  /** @type {{ builtAt: number, inputs: string[] }} */
  const recorded = JSON.parse(readFileSync(INPUTS, "utf8"));
  return recorded.inputs.some((input) => (statSync(input, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) >= recorded.builtAt);
}

/**
 * One build at a time (the tests run in parallel workers): the dist/ build's lock, src/runner/build-lock.ts (a lock a
 * stopped build left is taken over at once), loaded here by Node's own type stripping since nothing is built yet.
 */
function withLock(action) {
  mkdirSync(BUILD_DIR, { recursive: true });
  /** @type {typeof import("../src/runner/build-lock")} */
  const { withBuildLock } = require("../src/runner/build-lock.ts");
  withBuildLock(`${BUNDLE}.lock`, action, 120_000);
}

/** Every package the project names (dependencies and devDependencies), each with its subpaths, but those bundled. */
function externalPackages() {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => !BUNDLED.includes(name));
  return names.flatMap((name) => [name, `${name}/*`]);
}

/**
 * The packages bundled into the runner (their many small modules are its start's cost): undici's 109 modules took
 * ~0.15 s of resolving and loading on the main thread after the read (the functions' host), bundled ~0.06 s;
 * oidc-provider's (koa and the rest, ESM) ~0.41 s of the sandbox worker's start, bundled ~0.24 s.
 */
const BUNDLED = ["@sinclair/typebox", "undici", "oidc-provider"];

function build() {
  const builtAt = Date.now();
  const temporary = `${BUILD_DIR}/.${process.pid}.tmp`;
  const result = require("esbuild").buildSync({
    absWorkingDir: ROOT,
    // the runner, and its own sandbox's worker thread (src/runner/sandbox-thread.ts looks for it beside the runner)
    entryPoints: { workbook: "scripts/workbook.ts", "sandbox-worker": "src/runner/sandbox-worker.ts" },
    outdir: temporary,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node24",
    // packages stay outside the bundle, loaded from node_modules as they are, but for those BUNDLED:
    // TypeBox's ~300 small modules cost the runner ~0.3 s of resolving and compiling on the main thread, after the read
    // (the functions' host needs it), and the sandbox's worker as much
    external: externalPackages(),
    // a module's `require.main === module` (the sandbox's and the relay's command lines) would be the bundle's own
    define: { "require.main": "undefined" },
    metafile: true,
    logLevel: "silent",
  });
  // our sources only: a bundled package's files (TypeBox's ~300) change with package-lock.json, one of ALWAYS, and need
  // no stat of their own on every start
  const inputs = [...Object.keys(result.metafile.inputs).filter((input) => !input.startsWith("node_modules/")).map((input) => join(ROOT, input)), ...ALWAYS];
  // the worker first: a runner never finds itself beside an older worker
  renameSync(join(temporary, "sandbox-worker.js"), join(BUILD_DIR, "sandbox-worker.js"));
  renameSync(join(temporary, "workbook.js"), BUNDLE);
  // a new file renamed over the old, never written in place: a node_modules of hard links (worktrees) shares the old one
  writeFileSync(join(temporary, "inputs.json"), `${JSON.stringify({ builtAt, inputs })}\n`);
  renameSync(join(temporary, "inputs.json"), INPUTS);
  rmSync(temporary, { recursive: true, force: true });
  // an input saved during the build is newer than builtAt, so the next run builds again
  utimesSync(BUNDLE, builtAt / 1000, builtAt / 1000);
}

/** The bundle's path, built first when stale. */
function builtRunner() {
  if (stale()) withLock(() => { if (stale()) build(); });
  return BUNDLE;
}

module.exports = { builtRunner, BUNDLE };

if (require.main === module) {
  // V8's compiled code for the bundle, kept between runs (Node's own cache folder): its compile is paid once
  enableCompileCache?.();
  // TurboFan only for code called 100,000 times (V8's default: 3,000; long loops are still optimized where they run):
  // in a run of a few seconds on 2 cores, V8's background threads compiled hundreds of lukewarm functions. The model's
  // CPU fell from 5.0-6.0 s to 5.0-5.4 s, its run from 2.8-3.5 s to 2.9-3.1 s; the 100,000-row book's did not change
  // (docs/workbook-runner.md)
  require("node:v8").setFlagsFromString("--invocation-count-for-turbofan=100000");
  // No young-generation size is set (docs/benchmarks.md, "Workbook files"): V8's own limit here is already 64 MB a
  // semi-space on the main thread (32 MB on the sandbox's), and --max-semi-space-size=16/32/64 on the command line ran
  // the model no faster (ten alternating quiet runs each: 1.33/1.31/1.41 s, CPU 2.19/2.19/2.32 s, against 1.29 s and
  // 2.15 s; loaded alike), only with a lower peak RSS with 16 (373 MB against 447). Its scavenges are slow because the
  // calls' objects live until the write (copied however large the space), not because they are many. Set here it would
  // not even apply: setFlagsFromString comes after the main heap is configured (peak RSS unchanged).
  require(builtRunner());
}
