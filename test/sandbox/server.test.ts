/** The real CLI: started with tsx on port 0, read, called over HTTPS with a real token, stopped with SIGTERM. */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createServer, type Server } from "node:net";
import { createInterface } from "node:readline";
import { PORT_ATTEMPTS, type RunningSandbox, freePort, onFreePort } from "../../src/sandbox/server";
import { caFetch, clientCredentialsToken, startTestSandbox } from "../helpers/sandbox";

const ROOT = path.resolve(__dirname, "../..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

function readLines(child: ChildProcessWithoutNullStreams, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    const reader = createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error(`no ${count} lines in time: ${lines.join(" | ")}`)), 170_000);
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
  }, 180_000);

  it("exits with 2 and a message for a bad flag", async () => {
    const child = spawn(TSX, ["src/sandbox/server.ts", "--port", "nope"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toContain("--port");
  }, 180_000);
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
  }, 180_000);
});

describe("the series nobody asked for", () => {
  /** Every assessment of the data set, counted by reading each instrument's series. */
  const assessments = (sandbox: RunningSandbox): number => sandbox.data.instruments.reduce((sum, instrument) => sum + instrument.series.length, 0);

  it("are built in the background from the start, or once asked with buildWhenAsked, the same promise each time", async () => {
    const eager = await startTestSandbox();
    const asked = await startTestSandbox({}, { buildWhenAsked: true });
    try {
      const building = eager.buildInBackground();
      expect(eager.buildInBackground()).toBe(building);
      const total = await building;
      expect(total).toBeGreaterThan(0);
      expect(total).toBe(assessments(eager));
      const later = asked.buildInBackground();
      expect(asked.buildInBackground()).toBe(later);
      expect(await later).toBe(total);
    } finally {
      await Promise.all([eager.close(), asked.close()]);
    }
  }, 180_000);
});

/** A port held by another listener on 127.0.0.1 (where `localhost` resolves here), as a parallel run would. */
async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: 0, host: "127.0.0.1" }, resolve);
  });
  const address = server.address();
  if (address === null || typeof address !== "object") throw new Error("no port");
  return { port: address.port, server };
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe("a probed port taken before the sandbox listens", () => {
  it("starts on a newly probed port, its issuer, origin and API naming the port it listens on", async () => {
    const taken = await occupiedPort();
    const probed: number[] = [];
    const probePort = async (host: string): Promise<number> => {
      const port = probed.length === 0 ? taken.port : await freePort(host);
      probed.push(port);
      return port;
    };
    try {
      const sandbox = await startTestSandbox({}, { probePort });
      try {
        expect(probed).toHaveLength(2);
        expect(probed[0]).toBe(taken.port);
        expect(sandbox.port).toBe(probed[1]);
        expect(sandbox.origin).toBe(`https://localhost:${sandbox.port}`);
        expect(sandbox.issuer).toBe(`https://localhost:${sandbox.port}/auth`);
        expect(sandbox.apiUrl).toBe(`https://localhost:${sandbox.port}/physical/v2`);
        // A token from the issuer at the real port is accepted by the API there: issuer and audience agree with it.
        const token = await clientCredentialsToken(sandbox.issuer, "sandbox-full", "sandbox-full-secret", sandbox.ca);
        const response = await caFetch(sandbox.ca)(`${sandbox.apiUrl}/Prices?Symbols=MB-AL-0004`, { headers: { authorization: `Bearer ${token}` } });
        expect(response.status).toBe(200);
      } finally {
        await sandbox.close();
      }
    } finally {
      await closeServer(taken.server);
    }
  }, 180_000);

  it("gives up after PORT_ATTEMPTS tries with the EADDRINUSE error", async () => {
    const taken = await occupiedPort();
    let probes = 0;
    try {
      await expect(
        startTestSandbox({}, {
          probePort: async () => {
            probes++;
            return taken.port;
          },
        }),
      ).rejects.toMatchObject({ code: "EADDRINUSE" });
      expect(probes).toBe(PORT_ATTEMPTS);
    } finally {
      await closeServer(taken.server);
    }
  }, 180_000);

  it("does not retry a port given by the caller, nor any error but EADDRINUSE", async () => {
    const taken = await occupiedPort();
    try {
      await expect(startTestSandbox({ port: taken.port })).rejects.toMatchObject({ code: "EADDRINUSE" });
    } finally {
      await closeServer(taken.server);
    }
    let starts = 0;
    const failure = Object.assign(new Error("denied"), { code: "EACCES" });
    await expect(onFreePort("localhost", async () => {
      starts++;
      throw failure;
    })).rejects.toBe(failure);
    expect(starts).toBe(1);
  }, 180_000);
});
