/**
 * `--export DIR` then `--data DIR`, end to end: the CLI writes the generated set, the sandbox loads it (through
 * startSandbox and through the CLI) and serves the same answers as the generated set. Also: `--certs DIR` keeps
 * the token-signing key there.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { SIGNING_KEY_FILE } from "../../src/sandbox/auth";
import type { RunningSandbox } from "../../src/sandbox/server";
import { caFetch, clientCredentialsToken, startTestSandbox } from "../helpers/sandbox";

const ROOT = path.resolve(__dirname, "../..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");
// An early day keeps the export small while holding forward curves, forecasts and corrections.
const TODAY = "2008-12-31";
const FIELDS = "Fields=appraisalPrice,pricingRationale,midChangeSincePrevious,highChangeSincePreviousProportion";

let root: string;
let exportDir: string;
let certsDir: string;
let generated: RunningSandbox;
let loaded: RunningSandbox;

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(TSX, ["src/sandbox/server.ts", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

async function answer(sandbox: RunningSandbox, token: string, pathAndQuery: string): Promise<string> {
  const response = await caFetch(sandbox.ca)(`${sandbox.apiUrl}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${pathAndQuery.slice(0, 80)} answered ${response.status}: ${text.slice(0, 200)}`);
  return text;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "sandbox-export-"));
  exportDir = path.join(root, "data");
  certsDir = path.join(root, "certs");
  const exported = await run(["--export", exportDir, "--today", TODAY]);
  expect(exported.stderr).toBe("");
  expect(exported.code).toBe(0);
  expect(exported.stdout).toMatch(new RegExp(`^Exported \\d+ instruments \\(today ${TODAY}\\) to `));
  [generated, loaded] = await Promise.all([
    startTestSandbox({ today: TODAY }),
    // The same clock on both sides: the end of TODAY hides what western desks publish after midnight UTC.
    startTestSandbox({ dataDir: exportDir, certsDir, today: TODAY }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([generated?.close(), loaded?.close()]);
  await rm(root, { recursive: true, force: true });
});

describe("--export then --data", () => {
  it("loads what it exported: the same instruments, series and forecasts", () => {
    expect(loaded.data.today).toBe(TODAY);
    expect(loaded.data.instruments.map((i) => i.record)).toEqual(generated.data.instruments.map((i) => i.record));
    expect(loaded.data.instruments.map((i) => i.forecasts)).toEqual(generated.data.instruments.map((i) => i.forecasts));
    expect(loaded.data.references).toEqual(generated.data.references);
  });

  it("serves the same answers as the generated set, byte for byte", async () => {
    const [generatedToken, loadedToken] = await Promise.all([
      clientCredentialsToken(generated.issuer, "sandbox-full", "sandbox-full-secret", generated.ca),
      clientCredentialsToken(loaded.issuer, "sandbox-full", "sandbox-full-secret", loaded.ca),
    ]);
    const instruments = generated.data.instruments;
    const all = instruments.map((i) => i.record.symbol);
    const curves = instruments.filter((i) => i.record.hasForwardCurves).map((i) => i.record.symbol);
    const forecasts = instruments.filter((i) => i.record.forecastTypeIds.length > 0).map((i) => i.record.symbol);
    const corrected = instruments.filter((i) => i.series.revision.some((r) => r > 0)).map((i) => i.record.symbol);
    expect(curves.length).toBeGreaterThan(0);
    expect(forecasts.length).toBeGreaterThan(0);
    expect(corrected.length).toBeGreaterThan(0);
    const some = [...curves.slice(0, 3), ...forecasts.slice(0, 2), ...corrected.slice(0, 3)];
    const paths = [
      "/Instruments?Fields=Commodity,Location,Currency,UnitOfMeasure,Incoterm,Source,forecastTypeIds,hasForwardCurves",
      "/References?Types=Currency,UnitOfMeasure,Incoterm,Commodity,Source,PriceCalculationType",
      `/Prices?Symbols=${all.join(",")}`,
      `/Prices?Symbols=${all.slice(0, 150).join(",")}&Dates=2006-03-01,2008-12-31&${FIELDS}`,
      `/Prices/History?Symbols=${some.join(",")}&FromDate=2005-01-01&ToDate=${TODAY}&${FIELDS}`,
      `/Prices/History?Symbols=${forecasts.slice(0, 3).join(",")}&FromDate=2008-06-01&ToDate=2010-12-31&forecastType=F24M`,
      `/Prices/MonthlyAverage?Symbols=${some.join(",")}&Dates=2008-11-15&Fields=assessmentPeriod,pricingRationale`,
    ];
    for (const request of paths) {
      expect(await answer(loaded, loadedToken, request)).toBe(await answer(generated, generatedToken, request));
    }
  }, 180_000);

  it("keeps the token-signing key in the --certs folder", () => {
    expect(existsSync(path.join(certsDir, SIGNING_KEY_FILE))).toBe(true);
    expect(loaded.caPath).toBe(path.join(certsDir, "ca.crt"));
  });

  it("serves the exported set through the CLI's --data", async () => {
    const child = spawn(TSX, ["src/sandbox/server.ts", "--data", exportDir, "--port", "0", "--quiet"], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    try {
      const lines = await new Promise<string[]>((resolve, reject) => {
        const seen: string[] = [];
        createInterface({ input: child.stdout }).on("line", (line) => {
          seen.push(line);
          if (seen.length === 3) resolve(seen);
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code}: ${seen.join(" | ")}`)));
      });
      const apiUrl = (lines[0] ?? "").replace(/^API /, "");
      const issuer = (lines[1] ?? "").replace(/^ISSUER /, "");
      const ca = await readFile((lines[2] ?? "").replace(/^CA /, ""), "utf8");
      const cliToken = await clientCredentialsToken(issuer, "sandbox-full", "sandbox-full-secret", ca);
      const generatedToken = await clientCredentialsToken(generated.issuer, "sandbox-full", "sandbox-full-secret", generated.ca);
      const symbols = generated.data.instruments.filter((i) => i.record.hasForwardCurves).slice(0, 2).map((i) => i.record.symbol);
      const request = `/Prices/History?Symbols=${symbols.join(",")}&FromDate=2007-01-01&ToDate=${TODAY}&${FIELDS}`;
      const cli = { apiUrl, ca } as RunningSandbox;
      expect(await answer(cli, cliToken, request)).toBe(await answer(generated, generatedToken, request));
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 180_000);
});
