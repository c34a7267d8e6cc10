/** The build's lock (src/runner/build-lock.ts): a lock a stopped build left is taken over, a live one is waited on. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withBuildLock } from "../../src/runner/build-lock";

/** The id of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("the build's lock", () => {
  let dir: string;
  let lock: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "prices-build-lock-"));
    lock = join(dir, "build.lock");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("runs the build holding the lock, with its own process id in it, and frees it after, a failed build too", () => {
    let held = "";
    withBuildLock(lock, () => {
      held = existsSync(join(lock, "pid")) ? "with pid" : "without";
    });
    expect(held).toBe("with pid");
    expect(existsSync(lock)).toBe(false);
    expect(() => {
      withBuildLock(lock, () => {
        throw new Error("webpack failed");
      });
    }).toThrow("webpack failed");
    expect(existsSync(lock)).toBe(false);
  });

  it("takes over at once a lock whose build was stopped (its process gone), and one left without a process id long ago", () => {
    mkdirSync(lock);
    writeFileSync(join(lock, "pid"), String(deadPid()));
    let ran = 0;
    withBuildLock(lock, () => (ran += 1), 0);
    mkdirSync(lock);
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, longAgo, longAgo);
    withBuildLock(lock, () => (ran += 1), 0);
    expect(ran).toBe(2);
    expect(existsSync(lock)).toBe(false);
  });

  it("waits on a live build's lock and names its process when the wait ends; a lock just made waits as well", () => {
    mkdirSync(lock);
    // the test runner's parent: alive while this runs
    writeFileSync(join(lock, "pid"), String(process.ppid));
    expect(() => {
      withBuildLock(lock, () => undefined, 0);
    }).toThrow(`another build (process ${String(process.ppid)}) holds ${lock}`);
    rmSync(join(lock, "pid"));
    expect(() => {
      withBuildLock(lock, () => undefined, 0);
    }).toThrow(`another build (starting) holds ${lock}`);
    expect(existsSync(lock)).toBe(true);
  });
});
