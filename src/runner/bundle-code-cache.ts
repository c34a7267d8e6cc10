/**
 * V8's compiled code for the functions bundle, kept between runs beside Node's own compile cache (which the runner's
 * command line enables for its own bundle): the bundle's compile and its modules' first compiles (~25-50 ms of the
 * start) are paid once per build of dist/functions.js. Without Node's compile cache (tests, a library caller) none is kept.
 * Best effort: a cache that cannot be read or written costs the time, never the run; V8 checks what it is given.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { getCompileCacheDir } from "node:module";
import { dirname, join } from "node:path";
import { Script, type Context } from "node:vm";

/**
 * Where the compiled code of this source is kept in `dir` (none without one): named by the source's own hash, as V8
 * checks only the length of the source it is given with kept code (another build of the same length would run the old).
 */
function cacheFileOf(source: string, dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  const key = createHash("sha256").update(`${process.version}\n${process.arch}\n`).update(source).digest("hex").slice(0, 32);
  return join(dir, "prices-functions", `${key}.bin`);
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes through a file of this process's own, renamed into place: a run reading meanwhile sees all of it or none. */
function keep(file: string, data: Buffer): boolean {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const partial = `${file}.${String(process.pid)}.partial`;
    writeFileSync(partial, data);
    renameSync(partial, file);
    return true;
  } catch {
    // not kept: the next run compiles again
    return false;
  }
}

/** How a script was run: from its kept code, or compiled (and its code kept for the next run, or nothing kept). */
export type CodeCacheUse = "from cache" | "compiled, kept" | "compiled";

/**
 * Runs the script `file` holds in `context`, from its kept compiled code when there is one; keeps it when there was none
 * or V8 refused it. `dir`: where the code is kept, by default beside Node's compile cache.
 */
export function runWithCodeCache(file: string, context: Context, dir: string | undefined = getCompileCacheDir()): CodeCacheUse {
  const source = readFileSync(file, "utf8");
  const cacheFile = cacheFileOf(source, dir);
  const cachedData = cacheFile === undefined ? undefined : readIfThere(cacheFile);
  const script = new Script(source, { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  script.runInContext(context);
  // made after the run: it then holds the modules' functions compiled while they loaded, not only the top level
  if (cachedData !== undefined && script.cachedDataRejected === false) return "from cache";
  if (cacheFile === undefined) return "compiled";
  return keep(cacheFile, script.createCachedData()) ? "compiled, kept" : "compiled";
}
