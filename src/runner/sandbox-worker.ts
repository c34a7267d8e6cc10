/**
 * The runner's own sandbox on a thread of its own (started by src/runner/sandbox-thread.ts): its modules, data and
 * listening socket stay off the runner's thread, which reads the book meanwhile on the other core.
 */
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { PRESTARTED, type SandboxThreadMessage, type SandboxThreadOptions } from "./sandbox-thread";
import { type ClientCredentials, accessTokenOf, tokenRequest } from "./client-credentials";

function workerPort(): MessagePort {
  if (parentPort === null) throw new Error("src/runner/sandbox-worker.ts runs as a worker thread");
  return parentPort;
}

const port = workerPort();
const post = (message: SandboxThreadMessage): void => { port.postMessage(message); };

/**
 * The sandbox's modules (fastify, its routes, the certificates' code: ~0.3 s), loaded at once: a thread started before
 * the runner's own modules load (prestartSandboxThread) has them ready when its options come. Nothing else is done
 * before then (no file read or written, nothing listening): a run that never asks for its sandbox just ends it.
 */
const certificatesModule = import("../sandbox/auth/certs");
const serverModule = certificatesModule.then(() => import("../sandbox/server"));
// awaited in start(), which says why when either failed
serverModule.catch(() => undefined);

async function start(options: SandboxThreadOptions): Promise<void> {
  // the CA first (kept per machine in .certs), so the runner's requests can trust it before the service listens
  const { ensureCertificates } = await certificatesModule;
  const { ca } = await ensureCertificates();
  post({ kind: "ca", ca });
  const { startSandbox } = await serverModule;
  const { symbols, ...sandboxOptions } = options;
  const sandbox = await startSandbox({ ...sandboxOptions, corsOrigins: [...options.corsOrigins], port: 0, quiet: true }, { buildWhenAsked: true });
  port.on("message", (message: unknown) => {
    if (message !== "close") return;
    void sandbox.close().finally(() => {
      post({ kind: "closed" });
      port.close();
    });
  });
  // the runner's token, asked for here on this core: the runner's thread, still reading the book, finds it ready
  const token = options.client === undefined ? undefined : await clientToken(sandbox.issuer, { ...options.client, apiUrl: sandbox.apiUrl }, ca).catch(() => undefined);
  post({ kind: "ready", apiUrl: sandbox.apiUrl, issuer: sandbox.issuer, ...(token === undefined ? {} : { token }) });
  // the series once the runner has its token: the token's way (oidc-provider's load, two TLS handshakes) is the start's
  // longest, and steps of building in between its turns only delayed it; only the book's instruments when it named them
  void sandbox.buildInBackground(symbols);
}

/**
 * A client-credentials token from the sandbox's own token service, over HTTPS that trusts its CA, as any client asks
 * for one (client-credentials.ts); a failure rejects, and the runner then asks itself, saying why if it fails too.
 */
async function clientToken(issuer: string, credentials: ClientCredentials, ca: string): Promise<string> {
  const { request } = await import("node:https");
  const { body, headers } = tokenRequest(credentials);
  return new Promise<string>((resolve, reject) => {
    const asked = request(`${issuer}/token`, { method: "POST", ca, headers: { ...headers, "content-length": Buffer.byteLength(body) } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        try {
          resolve(accessTokenOf(response.statusCode ?? 0, JSON.parse(text || "{}")));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      response.on("error", reject);
    });
    asked.on("error", reject);
    asked.end(body);
  });
}

function starting(options: SandboxThreadOptions): void {
  start(options).catch((error: unknown) => {
    post({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
    port.close();
  });
}

// started with its options, or prestarted: then its first message brings them
const given = workerData as SandboxThreadOptions | typeof PRESTARTED;
if (given === PRESTARTED) port.once("message", (message: { readonly options: SandboxThreadOptions }) => { starting(message.options); });
else starting(given);
