/**
 * The runner's command line itself (`npm run workbook -- BOOK.json ...` is `main(argv)`): its own sandbox with
 * `--today`, `--api` with the trial client's credentials (secret in PRICES_CLIENT_SECRET), and `--api` at a closed port. Each run starts its own
 * page server and Chromium (that is what the command does); this file starts only the sandbox it compares with.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromEpochDay } from "../../src/api/dates";
import { isoDateToSerial } from "../../src/formula/excel-dates";
import type { RunningSandbox } from "../../src/sandbox/server";
import { main } from "../../src/runner/workbook-runner";
import { sandboxGet, sandboxToken } from "../support/service";
import { closedPort, prices, TODAY, type JsonObject } from "./support";

jest.setTimeout(180_000);

const DATE = "2025-05-14";
const UNKNOWN = "ZZ-NOPE-0000";
let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  const { startSandbox } = await import("../../src/sandbox/server");
  sandbox = await startSandbox({ port: 0, today: TODAY, quiet: true });
  dir = mkdtempSync(join(tmpdir(), "prices-e2e-runner-"));
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface RunOutput {
  code: number;
  cells: Record<string, unknown>;
  stats: JsonObject;
}

/** Runs the command with a book and an environment (secrets go there), capturing the one JSON object it prints on stdout. */
async function run(cells: Record<string, unknown>, options: readonly string[], env: Record<string, string> = {}): Promise<RunOutput> {
  const book = join(dir, `book-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(book, JSON.stringify({ cells }));
  const printed: string[] = [];
  const stdout = jest.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    printed.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return true;
  });
  const stderr = jest.spyOn(process.stderr, "write").mockImplementation(() => true);
  let code: number;
  try {
    code = await main([book, ...options], env);
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  const lines = printed.join("").trim().split("\n");
  expect(lines).toHaveLength(1);
  const json = JSON.parse(lines[0] ?? "{}") as { cells: Record<string, unknown>; stats: JsonObject };
  return { code, cells: json.cells, stats: json.stats };
}

async function service(path: string, query: Record<string, string>, token: string): Promise<JsonObject> {
  const response = await sandboxGet(sandbox, path, query, token);
  expect(response.status).toBe(200);
  return JSON.parse(response.text) as JsonObject;
}

function token(clientId: string, clientSecret: string): Promise<string> {
  return sandboxToken(sandbox, clientId, clientSecret);
}

/** Active instruments of `prefix` launched before 2024; `assessedToday` keeps those whose last assessment is on TODAY. */
function symbols(prefix: string, count: number, assessedToday = false): string[] {
  return sandbox.data.instruments
    .filter((instrument) => instrument.record.symbol.startsWith(prefix) && instrument.record.launchDate < "2024-01-01" && instrument.record.status === "Active")
    .filter((instrument) => !assessedToday || fromEpochDay(instrument.series.days[instrument.series.length - 1] ?? 0) === TODAY)
    .map((instrument) => instrument.record.symbol)
    .slice(0, count);
}

describe("npm run workbook", () => {
  it("starts its own sandbox with --today and prints the same values as a sandbox of that day", async () => {
    // instruments assessed on the frozen day: their latest value exists only in a sandbox started with --today
    const chosen = symbols("MB-", 2, true);
    expect(chosen).toHaveLength(2);
    const result = await run({ A1: chosen[0], A2: chosen[1], B1: "=PRICES.MID(A1:A2)", C1: `=PRICES.HIGH(A1:A2, "${DATE}")` }, ["--today", TODAY]);
    expect(result.code).toBe(0);
    const fullToken = await token("sandbox-full", "sandbox-full-secret");
    const latest = await service("/Prices", { Symbols: chosen.join(",") }, fullToken);
    const dated = await service("/Prices", { Symbols: chosen.join(","), Dates: DATE }, fullToken);
    chosen.forEach((symbol, index) => {
      const [last] = prices(latest, symbol);
      const [then] = prices(dated, symbol);
      // The latest assessment is on the frozen day, which only a sandbox started with --today holds.
      expect(last?.date).toBe(TODAY);
      expect([`B${index + 1}`, result.cells[`B${index + 1}`]]).toEqual([`B${index + 1}`, last?.mid]);
      expect([`C${index + 1}`, result.cells[`C${index + 1}`]]).toEqual([`C${index + 1}`, then?.high]);
    });
    expect(result.stats.requests).toBe(2);
  });

  it("uses --api with the trial client's credentials: its instruments answer, others are unknown or not permitted", async () => {
    const [inside] = symbols("MB-", 1);
    const [outside] = symbols("AG-", 1);
    const caPath = join(dir, "ca.pem");
    writeFileSync(caPath, sandbox.ca);
    const result = await run(
      { A1: `=PRICES.MID("${inside ?? ""}", "${DATE}")`, A2: `=PRICES.MID("${outside ?? ""}", "${DATE}")`, A3: `=PRICES.MID("${UNKNOWN}", "${DATE}")`, A4: "=TODAY()" },
      ["--api", sandbox.apiUrl, "--token-url", `${sandbox.issuer}/token`, "--client-id", "sandbox-trial", "--ca", caPath],
      { PRICES_CLIENT_SECRET: "sandbox-trial-secret" },
    );
    expect(result.code).toBe(0);
    const trialToken = await token("sandbox-trial", "sandbox-trial-secret");
    const [expected] = prices(await service("/Prices", { Symbols: inside ?? "", Dates: DATE }, trialToken), inside ?? "");
    expect(result.cells.A1).toBe(expected?.mid);
    expect(result.cells.A2).toBe(`#N/A: unknown or not permitted symbol '${outside ?? ""}'`);
    expect(result.cells.A3).toBe(`#N/A: unknown or not permitted symbol '${UNKNOWN}'`);
    // Today is the service's day (its Date header), not the machine's: the sandbox is frozen at TODAY.
    expect(result.cells.A4).toBe(isoDateToSerial(TODAY));
  });

  it("prints #N/A with the cause, never #BUSY!, when --api points at a closed port", async () => {
    const port = await closedPort();
    const cells = { A1: `=PRICES.MID("MB-AL-0001", "${DATE}")`, A2: '=PRICES.INSTRUMENT("MB-AL-0001", "description")' };
    const result = await run(cells, ["--api", `https://localhost:${port}/physical/v2`], { PRICES_TOKEN: "any-token" });
    // the cells show why; the run's status says no price was had (3)
    expect(result.code).toBe(3);
    expect(result.cells).toEqual({
      A1: expect.stringMatching(/^#N\/A: service unreachable: Request failed \(Failed to fetch\): GET \/Prices\b/),
      A2: expect.stringMatching(/^#N\/A: service unreachable: Request failed \(Failed to fetch\): GET \/Instruments\b/),
    });
  });
});
