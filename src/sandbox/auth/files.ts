/**
 * File helpers for material that several processes may create at once (test workers, a sandbox
 * started twice): atomic writes and a directory lock that survives a crashed holder.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** Writes through a temporary file and a rename, so a reader sees the old content or the new, never half. */
export async function writeFileAtomic(path: string, content: string, mode = 0o644): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temp, content, { mode });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** The file's text, or undefined when it is missing or unreadable (the caller then recreates it). */
export async function readTextIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

export interface LockOptions {
  /** A lock older than this is taken to belong to a crashed process and is broken. */
  staleMs?: number;
  /** Give up waiting after this long. */
  timeoutMs?: number;
}

/**
 * Runs `work` while holding `<dir>/<name>.lock` (an exclusive `mkdir`, atomic on every file system
 * Node supports). Other holders are waited for by polling.
 */
export async function withDirectoryLock<T>(
  dir: string,
  name: string,
  work: () => Promise<T>,
  { staleMs = 30_000, timeoutMs = 60_000 }: LockOptions = {},
): Promise<T> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const lock = join(dir, `${name}.lock`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const since = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (since > staleMs) {
        await rm(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for the lock ${lock}`, { cause: error });
      await sleep(25 + Math.random() * 50);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}
