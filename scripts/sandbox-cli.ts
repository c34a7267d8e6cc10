/** The sandbox CLI as a process of its own, for the benchmarks that measure it from outside (start time, memory). */
import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";

const ROOT = path.resolve(__dirname, "..");

export interface SandboxProcess {
  child: ChildProcess;
  /** The three lines it printed: API, ISSUER, CA. */
  lines: string[];
  /** Milliseconds from the spawn to the three lines. */
  ms: number;
  apiUrl: string;
  issuer: string;
  origin: string;
  /** The CA certificate (PEM). */
  ca: string;
}

/** Starts `src/sandbox/server.ts --port 0 --today TODAY --quiet [...extra]`; resolves once it has printed its three lines. */
export async function startSandboxCli(today: string, extra: readonly string[] = []): Promise<SandboxProcess> {
  const started = Date.now();
  const child = spawn(process.execPath, ["--import", "tsx", "src/sandbox/server.ts", "--port", "0", "--today", today, "--quiet", ...extra], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    if (child.stdout === null) throw new Error("no stdout");
    const reader = createInterface({ input: child.stdout });
    reader.on("line", (line) => {
      lines.push(line);
      if (lines.length === 3) resolve();
    });
    child.once("exit", (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  const ms = Date.now() - started;
  const apiUrl = (lines[0] ?? "").slice(4);
  return { child, lines, ms, apiUrl, issuer: (lines[1] ?? "").slice(7), origin: new URL(apiUrl).origin, ca: await readFile((lines[2] ?? "").slice(3), "utf8") };
}

export async function stopSandboxCli(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}
