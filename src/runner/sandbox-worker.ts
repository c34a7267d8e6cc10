/**
 * The runner's own sandbox on a thread of its own (started by src/runner/sandbox-thread.ts): its modules, data and
 * listening socket stay off the runner's thread, which reads the book meanwhile on the other core.
 */
import { enableCompileCache } from "node:module";
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import type { SandboxThreadMessage, SandboxThreadOptions } from "./sandbox-thread";

function workerPort(): MessagePort {
  if (parentPort === null) throw new Error("src/runner/sandbox-worker.ts runs as a worker thread");
  return parentPort;
}

const port = workerPort();
const post = (message: SandboxThreadMessage): void => { port.postMessage(message); };

async function start(options: SandboxThreadOptions): Promise<void> {
  // V8's compiled code for fastify, oidc-provider and the rest, kept between runs: a worker has its own loader, so
  // the runner's enableCompileCache (scripts/run-workbook.cjs) does not reach the modules it loads
  enableCompileCache();
  // the CA first (kept per machine in .certs), so the runner's requests can trust it before the service listens
  const { ensureCertificates } = await import("../sandbox/auth/certs");
  post({ kind: "ca", ca: (await ensureCertificates()).ca });
  const { startSandbox } = await import("../sandbox/server");
  const sandbox = await startSandbox({ ...options, corsOrigins: [...options.corsOrigins], port: 0, quiet: true });
  port.on("message", (message: unknown) => {
    if (message !== "close") return;
    void sandbox.close().finally(() => {
      post({ kind: "closed" });
      port.close();
    });
  });
  post({ kind: "ready", apiUrl: sandbox.apiUrl, issuer: sandbox.issuer });
}

start(workerData as SandboxThreadOptions).catch((error: unknown) => {
  post({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
  port.close();
});
