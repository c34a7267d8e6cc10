/**
 * The runner's persistent cache (`--cache DIR`): one file per partition, `<hash>.jsonl`, a header line naming version,
 * environment and subject, then one entry per line, oldest use first. Node only.
 *
 * - Bounded on read as on write: a file over its bound is refused unread with one line naming it and the bound; a large
 *   file within it is read in pieces, with progress.
 * - Two writers lose nothing: a save takes the partition's lock file, reads the file as it is now, merges this
 *   session's lines into it (merge.ts), writes a temporary file and renames it into place, so a reader never sees half
 *   a file and a run that stops half-way leaves the previous one (docs/persistent-cache.md, "Two writers").
 */
import { isAscii } from "node:buffer";
import { createHash, randomUUID } from "node:crypto";
import { type FileHandle, mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { mergeLines } from "./merge";
import { type CacheBackend, DEFAULT_PERSISTENT_MAX_BYTES, type LoadedLines, type SaveOptions } from "./persistent-cache";
import type { Partition } from "./partition";

interface Header {
  version: string;
  baseUrl: string;
  subject: string;
  /** SHA-256 (base64url) of every byte after the header line: when it holds, no line's own digest need be checked. */
  lines?: string;
}

function readHeader(line: string | undefined): Header | undefined {
  try {
    const parsed: unknown = JSON.parse(line ?? "");
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { version, baseUrl, subject, lines } = parsed as Record<string, unknown>;
    if (typeof version !== "string" || typeof baseUrl !== "string" || typeof subject !== "string") return undefined;
    return typeof lines === "string" ? { version, baseUrl, subject, lines } : { version, baseUrl, subject };
  } catch {
    return undefined;
  }
}

export interface FileBackendOptions {
  /** The partition's bound in bytes (default 50 MB): a file over it is refused unread (the cache never writes one). */
  readonly maxBytes?: number;
  /** Where the one line saying a file was refused, and a large read's progress, go (the runner's stderr). */
  readonly log?: (message: string) => void;
}

/** The lock policy: a lock older than `staleMs` is a writer that died mid-save (saving 50 MB takes about a second). */
const LOCK = { staleMs: 30_000, firstWaitMs: 5, longestWaitMs: 200 } as const;
/** Read in pieces of this size, so that progress can be told. */
const PIECE_BYTES = 8 * 1024 * 1024;
/** The header line and a newline per entry come on top of the bytes the bound counts. */
const HEADER_ALLOWANCE = 64 * 1024;

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export class FileCacheBackend implements CacheBackend {
  constructor(
    private readonly dir: string,
    private readonly options: FileBackendOptions = {},
  ) {}

  private file(partition: Partition): string {
    return join(this.dir, `${partition.id}.jsonl`);
  }

  async load(partition: Partition): Promise<LoadedLines> {
    await this.sweep(partition.version, this.options.log);
    return this.read(partition, this.options.log);
  }

  async save(partition: Partition, lines: readonly string[], options: SaveOptions = {}): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const target = this.file(partition);
    await locked(target, async () => {
      // What another writer saved since this session loaded: merged, not replaced.
      const theirs = await this.read(partition, undefined);
      const merged = mergeLines(lines, theirs.lines, options.dropped ?? new Set(), options.maxBytes ?? this.options.maxBytes ?? DEFAULT_PERSISTENT_MAX_BYTES);
      // encoded once: the digest is over the bytes written
      const body = Buffer.from(merged.length === 0 ? "" : merged.join("\n") + "\n", "utf8");
      const header: Header = { version: partition.version, baseUrl: partition.baseUrl, subject: partition.subject, lines: linesDigest(body) };
      const temporary = `${target}.${randomUUID()}.tmp`;
      try {
        await writeFile(temporary, [`${JSON.stringify(header)}\n`, body], { mode: 0o600 });
        await rename(temporary, target);
      } finally {
        await rm(temporary, { force: true });
      }
    });
  }

  async clear(partition: Partition): Promise<void> {
    const target = this.file(partition);
    await mkdir(this.dir, { recursive: true });
    await locked(target, () => rm(target, { force: true }));
  }

  /** The partition's entry lines, or none when the file is over its bound or is another's. */
  private async read(partition: Partition, log: ((message: string) => void) | undefined): Promise<LoadedLines> {
    const none: LoadedLines = { lines: [], intact: true };
    const path = this.file(partition);
    const file = await open(path, "r").catch(() => undefined);
    if (!file) return none;
    try {
      const size = (await file.stat()).size;
      const bound = this.options.maxBytes ?? DEFAULT_PERSISTENT_MAX_BYTES;
      // Bounded on read as on write: a file over the bound (written by hand, or by another program) is not read at all.
      if (size > bound + HEADER_ALLOWANCE) {
        log?.(`workbook: persistent cache ${path} is ${megabytes(size)}, over its bound of ${megabytes(bound)}: not read (its values are asked again, and the file is replaced)`);
        return none;
      }
      const header = readHeader(await headerLine(file));
      // Another version's entries are never read; a file whose header is not ours is left alone.
      if (header?.version !== partition.version || header.baseUrl !== partition.baseUrl || header.subject !== partition.subject) return none;
      const bytes = await readWhole(file, size, log === undefined ? undefined : (done) => { log(`workbook: reading the persistent cache ${path}: ${megabytes(done)} of ${megabytes(size)}`); });
      const bodyAt = bytes.indexOf(NEWLINE) + 1;
      if (bodyAt === 0) return none;
      const body = bytes.subarray(bodyAt);
      // One native digest over the lines together (4.4 MB: 3 to 6 ms) spares checking each line's own as its value is read.
      const intact = header.lines !== undefined && header.lines === linesDigest(body);
      // Format 5 writes ASCII only, which decodes as Latin-1 at a third of UTF-8's cost (8 MB: 1.0 ms against 2.7, Node 24).
      const ascii = isAscii(body);
      const lines = body.toString(ascii ? "latin1" : "utf8").split("\n");
      // The last line is the empty one after the final newline; any other empty or damaged line the cache leaves out.
      if (lines.at(-1) === "") lines.pop();
      return { lines, intact, ascii };
    } finally {
      await file.close();
    }
  }

  /**
   * A new add-in version or cache format empties the cache: every partition file written by another goes, said in one
   * line each (format 4's files, for one, are refreshed rather than read: docs/persistent-cache.md, "Format 5").
   */
  private async sweep(version: string, log: ((message: string) => void) | undefined): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    for (const name of names.filter((entry) => entry.endsWith(".jsonl"))) {
      const path = join(this.dir, name);
      const file = await open(path, "r").catch(() => undefined);
      if (!file) continue;
      const header = readHeader(await headerLine(file).finally(() => file.close()));
      if (header && header.version !== version) {
        await rm(path, { force: true });
        log?.(`workbook: persistent cache ${path} was written by version ${header.version}, not this one's ${version}: removed (its values are asked again)`);
      }
    }
  }
}

/** The header line alone (a partition file may hold 50 MB). */
async function headerLine(file: FileHandle): Promise<string> {
  const buffer = Buffer.alloc(4096);
  const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
  const text = buffer.subarray(0, bytesRead).toString("utf8");
  const end = text.indexOf("\n");
  return end < 0 ? text : text.slice(0, end);
}

const NEWLINE = 0x0a;

/** The digest of a file's lines as the header keeps it. */
function linesDigest(body: Uint8Array): string {
  return createHash("sha256").update(body).digest("base64url");
}

/** The file's bytes, in pieces; `progress` hears after each piece of a file larger than two. */
async function readWhole(file: FileHandle, size: number, progress: ((done: number) => void) | undefined): Promise<Buffer> {
  const buffer = Buffer.alloc(size);
  let done = 0;
  while (done < size) {
    const { bytesRead } = await file.read(buffer, done, Math.min(PIECE_BYTES, size - done), done);
    if (bytesRead === 0) break;
    done += bytesRead;
    if (size > 2 * PIECE_BYTES) progress?.(done);
  }
  return buffer.subarray(0, done);
}

/**
 * Runs `work` holding the lock file beside `target` (created exclusively): another writer's lock is waited for, one
 * whose process is gone or older than any save takes is taken over. Chosen over merge with a rename alone, which lost
 * entries when two saves read the file before either renamed (docs/benchmarks.md, "Two writers").
 */
async function locked<T>(target: string, work: () => Promise<T>): Promise<T> {
  const lock = `${target}.lock`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await writeFile(lock, JSON.stringify({ pid: process.pid, at: Date.now() }), { flag: "wx", mode: 0o600 });
      break;
    } catch (error) {
      if (codeOf(error) !== "EEXIST") throw error;
    }
    if (await isStale(lock)) {
      await rm(lock, { force: true });
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(LOCK.longestWaitMs, LOCK.firstWaitMs * 2 ** Math.min(attempt, 6))));
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}

/** A lock whose writer's process no longer runs (on this machine), or older than any save takes. */
async function isStale(lock: string): Promise<boolean> {
  let holder: unknown;
  try {
    holder = JSON.parse(await readFile(lock, "utf8"));
  } catch {
    // Being written this very moment (not stale), gone already, or left empty by a writer that died as it took it.
    const changed = await stat(lock).then((found) => found.mtimeMs, () => Date.now());
    return Date.now() - changed > LOCK.staleMs;
  }
  const { pid, at } = typeof holder === "object" && holder !== null ? (holder as Record<string, unknown>) : {};
  if (typeof at === "number" && Date.now() - at > LOCK.staleMs) return true;
  if (typeof pid !== "number" || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return codeOf(error) === "ESRCH";
  }
}

function codeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}
