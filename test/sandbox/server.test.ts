/** The real CLI: started with tsx on port 0, read, called over HTTPS with a real token, stopped with SIGTERM. */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { caFetch, clientCredentialsToken, startTestSandbox } from "../helpers/sandbox";

const ROOT = path.resolve(__dirname, "../..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

function readLines(child: ChildProcessWithoutNullStreams, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    const reader = createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error(`no ${count} lines in time: ${lines.join(" | ")}`)), 60_000);
    reader.on("line", (line) => {
      lines.push(line);
      if (lines.length === count) {
        clearTimeout(timer);
        resolve(lines);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} after: ${lines.join(" | ")}`));
    });
  });
}

describe("the sandbox CLI", () => {
  it("prints API, ISSUER and CA first, serves HTTPS with a real token, and stops on SIGTERM", async () => {
    const child = spawn(TSX, ["src/sandbox/server.ts", "--port", "0", "--today", "2025-06-30"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    try {
      const [api, issuer, ca] = await readLines(child, 3);
      const apiUrl = /^API (https:\/\/localhost:(\d+)\/physical\/v2)$/.exec(api ?? "");
      expect(apiUrl).not.toBeNull();
      const port = apiUrl?.[2] ?? "";
      expect(issuer).toBe(`ISSUER https://localhost:${port}/auth`);
      expect(ca).toMatch(/^CA \/.+ca\.crt$/);
      const caPem = await readFile((ca ?? "").slice(3), "utf8");
      const token = await clientCredentialsToken(`https://localhost:${port}/auth`, "sandbox-full", "sandbox-full-secret", caPem);
      const response = await caFetch(caPem)(`${apiUrl?.[1]}/Prices?Symbols=MB-AL-0004`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { instruments: { symbol: string }[] };
      expect(body.instruments.map((i) => i.symbol)).toEqual(["MB-AL-0004"]);
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 90_000);

  it("exits with 2 and a message for a bad flag", async () => {
    const child = spawn(TSX, ["src/sandbox/server.ts", "--port", "nope"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toContain("--port");
  }, 60_000);
});

describe("startTestSandbox", () => {
  it("serves a trial caller only metals over HTTPS", async () => {
    const sandbox = await startTestSandbox();
    try {
      const token = await clientCredentialsToken(sandbox.issuer, "sandbox-trial", "sandbox-trial-secret", sandbox.ca);
      const response = await caFetch(sandbox.ca)(`${sandbox.apiUrl}/Instruments`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as { instruments: { symbol: string }[] };
      expect(body.instruments.length).toBeGreaterThan(0);
      expect(body.instruments.every((i) => i.symbol.startsWith("MB-"))).toBe(true);
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});
