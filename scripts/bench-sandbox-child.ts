/**
 * The sandbox a client benchmark measures against, in a child process of its own so that the sandbox's work is not
 * counted as the client's CPU. A benchmark script forks itself with `--serve`: the child serves, the parent measures.
 */
import { fork, type ChildProcess } from "node:child_process";
import { Agent } from "undici";
import { dispatcherFetch } from "../src/prices/dispatcher-fetch";
import { clientCredentialsTokenProvider, type TokenProvider } from "../src/prices";

export interface SandboxReady {
  apiUrl: string;
  issuer: string;
  ca: string;
  today: string;
  symbols: string[];
}

/** The child's side: start the sandbox, tell the parent where it is, stop when the parent says so. */
export async function serveSandbox(): Promise<void> {
  const { startSandbox } = await import("../src/sandbox/server");
  const sandbox = await startSandbox({ port: 0, quiet: true, rateLimit: 0 });
  const ready: SandboxReady = { apiUrl: sandbox.apiUrl, issuer: sandbox.issuer, ca: sandbox.ca, today: sandbox.data.today, symbols: sandbox.data.instruments.map((item) => item.record.symbol) };
  process.send?.(ready);
  process.on("message", () => {
    void sandbox.close().then(() => process.exit(0));
  });
}

/** The parent's side: fork `script` with `--serve` and wait until its sandbox listens. */
export function startSandboxChild(script: string): Promise<{ child: ChildProcess; ready: SandboxReady }> {
  const child = fork(script, ["--serve"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("message", (message) => resolve({ child, ready: message as SandboxReady }));
    child.once("exit", (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
}

/** The measuring side's connection: a fetch trusting the child's certificate, and the full client's tokens. */
export function connectTo(ready: SandboxReady): { agent: Agent; fetch: typeof fetch; tokens: TokenProvider } {
  const agent = new Agent({ connect: { ca: ready.ca }, connections: 8 });
  const fetchImpl = dispatcherFetch(agent);
  const tokens = clientCredentialsTokenProvider({
    tokenUrl: `${ready.issuer}/token`,
    clientId: "sandbox-full",
    clientSecret: "sandbox-full-secret",
    scope: "sandbox.physicalprices.api",
    resource: ready.apiUrl,
    fetch: fetchImpl,
  });
  return { agent, fetch: fetchImpl, tokens };
}
