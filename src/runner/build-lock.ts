/**
 * One build at a time (the tests run in parallel workers, and a user may start two runs): a directory made atomically,
 * holding its maker's process id. A lock whose maker is gone (a build stopped with Ctrl+C or killed) is taken over at
 * once instead of being waited on until the deadline. scripts/run-workbook.cjs holds it for the runner's bundle too,
 * loading this file through Node's type stripping (it runs before anything is built): erasable TypeScript only here.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A lock without its process id yet is its maker's between two calls; still without one after this, its maker died there. */
const UNNAMED_GRACE_MS = 10_000;

/** Runs `action` holding `lock`; throws, naming the holder, when a live holder keeps it past `waitMs`. */
export function withBuildLock(lock: string, action: () => void, waitMs = 300_000): void {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = holderOf(lock);
      if (holder === "gone") {
        takeOver(lock);
        continue;
      }
      if (Date.now() >= deadline) throw new Error(`another build (${holder === "unnamed" ? "starting" : `process ${String(holder)}`}) holds ${lock}; remove it if no build is running`, { cause: error });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    action();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The lock's live holder, "gone" when its process has ended, "unnamed" while it is being made. */
function holderOf(lock: string): number | "gone" | "unnamed" {
  let text: string;
  try {
    text = readFileSync(join(lock, "pid"), "utf8");
  } catch {
    const made = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
    // gone between our mkdir and this read: the next mkdir tries again
    if (made === undefined) return "unnamed";
    return Date.now() - made > UNNAMED_GRACE_MS ? "gone" : "unnamed";
  }
  const pid = Number(text);
  if (!Number.isInteger(pid) || pid <= 0) return "gone";
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: a live process of another user
    return (error as NodeJS.ErrnoException).code === "ESRCH" ? "gone" : pid;
  }
}

/**
 * Moves a dead holder's lock aside (one waiter wins the rename) and removes it. What was moved is checked again: a
 * waiter that saw the dead lock after another had already replaced it with its own puts that one back.
 */
function takeOver(lock: string): void {
  const aside = `${lock}.${String(process.pid)}.stale`;
  try {
    renameSync(lock, aside);
  } catch {
    return;
  }
  if (holderOf(aside) !== "gone") {
    try {
      renameSync(aside, lock);
      return;
    } catch {
      // a third made the lock meanwhile: two builds may run once, as before locks existed
    }
  }
  rmSync(aside, { recursive: true, force: true });
}
