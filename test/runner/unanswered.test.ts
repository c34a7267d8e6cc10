/**
 * A price the service gave no answer about is never written: over real HTTP to a port nothing listens on, against the
 * sandbox's own injected 503s and dropped connections, and through a proxy that fails one endpoint while the other
 * answers, the runner's copy keeps each such cell (and every formula reading it) byte for byte, says so once, and
 * exits 3; the service's answers about a cell (an unknown symbol) are still written. A JSON book shows the errors and
 * exits 3 too.
 */
import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import type { RunningSandbox } from "../../src/sandbox/server";
import { caFetch } from "../helpers/sandbox";
import { runMain } from "../e2e/run-main";
import { closedPort, pricedMetal, TODAY } from "../e2e/support";

jest.setTimeout(300_000);

const DATE = "2025-05-14";
const UNKNOWN = "ZZ-NOPE-0000";
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const SHEET = "xl/worksheets/sheet1.xml";

let sandbox: RunningSandbox;
let token: string;
let dir: string;
let symbol: string;
let mid: number;

beforeAll(async () => {
  const { startSandbox } = await import("../../src/sandbox/server");
  sandbox = await startSandbox({ port: 0, today: TODAY, quiet: true });
  dir = mkdtempSync(join(tmpdir(), "prices-unanswered-"));
  ({ symbol, mid, token } = await pricedMetal(sandbox, DATE));
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const text = (address: string, value: string): string => `<c r="${address}" t="inlineStr"><is><t>${value}</t></is></c>`;
const formula = (address: string, written: string, cached: number | string): string =>
  typeof cached === "string" ? `<c r="${address}" t="str"><f>${written}</f><v>${cached}</v></c>` : `<c r="${address}"><f>${written}</f><v>${cached}</v></c>`;

/**
 * A model as Excel saves one, yesterday's values cached: B1 a price, C1 a chain over it, D1 a price under IFERROR,
 * E1 an instrument's currency (another endpoint), F1 reading E1, G1 a price of a symbol the service does not know.
 */
const CELLS = ["B1", "C1", "D1", "E1", "F1", "G1"] as const;
function model(): Uint8Array {
  const row = [
    text("A1", symbol),
    formula("B1", `_xldudf_PRICES_MID(A1,&quot;${DATE}&quot;)`, 101.5),
    formula("C1", "B1*2", 203),
    formula("D1", `IFERROR(_xldudf_PRICES_MID(A1,&quot;${DATE}&quot;),0)`, 101.5),
    formula("E1", "_xldudf_PRICES_INSTRUMENT(A1,&quot;currency&quot;)", "OLD"),
    formula("F1", "LEN(E1)", 3),
    formula("G1", `_xldudf_PRICES_MID(&quot;${UNKNOWN}&quot;,&quot;${DATE}&quot;)`, 7),
  ];
  return workbook(`<row r="1">${row.join("")}</row>`);
}

/** A one-sheet workbook, sheet "Model", of these rows. */
function workbook(rows: string): Uint8Array {
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
  return zipSync({
    "[Content_Types].xml": strToU8(
      `${head}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    ),
    "_rels/.rels": strToU8(`${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    "xl/workbook.xml": strToU8(`${head}<workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Model" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="191029"/></workbook>`),
    "xl/_rels/workbook.xml.rels": strToU8(`${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`),
    [SHEET]: strToU8(`${head}<worksheet xmlns="${MAIN}"><sheetData>${rows}</sheetData></worksheet>`),
  });
}

function entries(path: string): Map<string, Uint8Array> {
  return new Map(Object.entries(unzipSync(readFileSync(path))));
}

/** A cell's element as the sheet part holds it. */
function cellXml(path: string, address: string): string {
  return new RegExp(`<c r="${address}"(?: [^>]*?)?(?:/>|>[\\s\\S]*?</c>)`).exec(strFromU8(entries(path).get(SHEET) ?? new Uint8Array()))?.[0] ?? "";
}

/** Each cell of `cells` as the two files hold it, side by side. */
function compared(before: string, after: string, cells: readonly string[]): Record<string, [string, string]> {
  return Object.fromEntries(cells.map((cell) => [cell, [cellXml(before, cell), cellXml(after, cell)]]));
}

interface Unanswered {
  readonly cells: number;
  readonly dependents?: number;
  readonly reasons: readonly { readonly kind: string; readonly why: string; readonly cells: number }[];
}

interface Report {
  readonly unanswered: readonly { readonly cell: string; readonly why: string; readonly kind: string }[];
  readonly unansweredDependents: number;
  readonly leftForExcel: readonly { readonly cell: string; readonly why: string }[];
  readonly notFrozen?: readonly { readonly cell: string; readonly why: string }[];
}

interface Refresh {
  readonly code: number;
  readonly errors: string;
  readonly printed: { readonly unanswered?: Unanswered; readonly frozen: number };
  readonly report: Report;
}

let runs = 0;
/** The runner on a fresh copy of the model, against `apiUrl` with a token, writing its copy and its report. */
async function refresh(apiUrl: string, extra: readonly string[] = [], bearer = token): Promise<{ input: string; output: string } & Refresh> {
  runs += 1;
  const input = join(dir, `model-${runs}.xlsx`);
  const output = join(dir, `model-${runs}-out.xlsx`);
  const reportPath = join(dir, `model-${runs}-report.json`);
  writeFileSync(input, model());
  const caPath = join(dir, "ca.pem");
  writeFileSync(caPath, sandbox.ca);
  const run = await runMain([input, "--out", output, "--report", reportPath, "--today", TODAY, "--api", apiUrl, "--ca", caPath, ...extra], { PRICES_TOKEN: bearer });
  return { input, output, code: run.code, errors: run.errors, printed: JSON.parse(run.printed) as Refresh["printed"], report: JSON.parse(readFileSync(reportPath, "utf8")) as Report };
}

/** The lines of stderr that say prices were not refreshed. */
function notRefreshedLines(errors: string): string[] {
  return errors.split("\n").filter((line) => line.includes("not refreshed"));
}

describe("a model refreshed against a port nothing listens on", () => {
  let run: Awaited<ReturnType<typeof refresh>>;
  beforeAll(async () => {
    run = await refresh(`http://127.0.0.1:${await closedPort()}/physical/v2`);
  });

  it("writes a copy whose every part is the input's, byte for byte", () => {
    const before = entries(run.input);
    const after = entries(run.output);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [part, bytes] of before) expect([part, Buffer.from(after.get(part) ?? []).equals(Buffer.from(bytes))]).toEqual([part, true]);
  });

  it("says once that the prices were not refreshed and why, and exits 3", () => {
    expect(run.code).toBe(3);
    const lines = notRefreshedLines(run.errors);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^workbook: 4 price cells not refreshed, the service giving no answer about them \(service unreachable: Request failed \(Failed to fetch\): GET \/(Prices|Instruments)\b.*their saved values are kept, and those of the 2 formulas reading them, left for Excel; exit status 3$/);
    // none of them is listed one by one among the formulas left for other reasons
    expect(run.errors).not.toMatch(/workbook: {3}Model!B1/);
    // the connection's own words, once: the functions see only a browser's "Failed to fetch"
    expect(run.errors.match(/a request to http:\/\/127\.0\.0\.1:\d+ failed: connect ECONNREFUSED 127\.0\.0\.1:\d+ /g)).toHaveLength(1);
  });

  it("lists each price cell with its reason in the report, and counts the formulas reading them", () => {
    expect(run.report.unanswered.map((entry) => [entry.cell, entry.kind])).toEqual([
      ["B1", "unreachable"],
      ["D1", "unreachable"],
      ["E1", "unreachable"],
      ["G1", "unreachable"],
    ]);
    for (const entry of run.report.unanswered) expect(entry.why).toMatch(/^service unreachable: /);
    expect(run.report.unansweredDependents).toBe(2);
    expect(run.report.leftForExcel.map((entry) => entry.cell)).toEqual(["B1", "C1", "D1", "E1", "F1", "G1"]);
    expect(run.printed.unanswered).toEqual({ cells: 4, dependents: 2, reasons: [{ kind: "unreachable", why: expect.stringMatching(/^service unreachable: /), cells: 4 }] });
  });

  it("with --freeze, freezes none of them: each stays its formula with its saved value", async () => {
    const frozen = await refresh(`http://127.0.0.1:${await closedPort()}/physical/v2`, ["--freeze"]);
    expect(frozen.code).toBe(3);
    expect(frozen.printed.frozen).toBe(0);
    expect(compared(frozen.input, frozen.output, CELLS)).toEqual(compared(frozen.input, frozen.input, CELLS));
    expect(frozen.report.notFrozen?.map((entry) => [entry.cell, entry.why.startsWith("left for Excel: service unreachable: ")])).toEqual([
      ["B1", true],
      ["D1", true],
      ["E1", true],
      ["G1", true],
    ]);
  });
});

describe("a model refreshed against the sandbox's injected faults", () => {
  let faulty: RunningSandbox;
  afterEach(async () => {
    await faulty?.close();
  });

  it.each([
    ["503", "service-error", /^service unreachable: Request failed with status 503\b/],
    ["drop", "unreachable", /^service unreachable: Request failed \(Failed to fetch\)/],
  ])("keeps every price cell and its readers as saved when every request meets %s, and exits 3", async (faults, kind, why) => {
    const { startSandbox } = await import("../../src/sandbox/server");
    // its series are never built: every request meets the fault, and a build would only compete with the other tests' sandbox
    faulty = await startSandbox({ port: 0, today: TODAY, quiet: true, faults }, { buildWhenAsked: true });
    const run = await refresh(faulty.apiUrl);
    expect(run.code).toBe(3);
    expect(compared(run.input, run.output, CELLS)).toEqual(compared(run.input, run.input, CELLS));
    expect(run.report.unanswered.map((entry) => entry.kind)).toEqual([kind, kind, kind, kind]);
    for (const entry of run.report.unanswered) expect(entry.why).toMatch(why);
    expect(notRefreshedLines(run.errors)).toHaveLength(1);
  });
});

describe("a model refreshed with a token the service refuses", () => {
  it("keeps every price cell and its readers as saved, the reason the refusal, and exits 3", async () => {
    const run = await refresh(sandbox.apiUrl, [], "not-a-token");
    expect(run.code).toBe(3);
    expect(compared(run.input, run.output, CELLS)).toEqual(compared(run.input, run.input, CELLS));
    expect(run.report.unanswered.map((entry) => entry.kind)).toEqual(["refused", "refused", "refused", "refused"]);
    expect(notRefreshedLines(run.errors)).toHaveLength(1);
    // the runner's words: a token is fixed in the environment, and the runner has no Prices pane to sign in from
    expect(notRefreshedLines(run.errors)[0]).toMatch(/check PRICES_TOKEN/);
    expect(run.errors).not.toMatch(/Prices pane/);
  });
});

/** A plain-HTTP front of the sandbox that answers 503 for /Instruments and passes every other request through. */
async function failingInstruments(): Promise<{ apiUrl: string; server: Server }> {
  const upstream = caFetch(sandbox.ca);
  const server = createServer((request, response) => {
    const url = request.url ?? "/";
    if (url.startsWith("/physical/v2/Instruments")) {
      response.writeHead(503, { "content-type": "application/problem+json" });
      response.end(JSON.stringify({ type: "about:blank", title: "Service Unavailable", status: 503, detail: "instruments are down" }));
      return;
    }
    upstream(`${sandbox.origin}${url}`, { headers: { authorization: request.headers.authorization ?? "" } }).then(
      async (answer) => {
        response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
        response.end(Buffer.from(await answer.arrayBuffer()));
      },
      () => {
        response.destroy();
      },
    );
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
  const bound = server.address();
  const port = typeof bound === "object" && bound !== null ? bound.port : 0;
  return { apiUrl: `http://127.0.0.1:${port}/physical/v2`, server };
}

describe("a model refreshed while one endpoint fails and the other answers", () => {
  it("writes the answered prices and the unknown symbol's error, and keeps the failed call and its reader as saved", async () => {
    const front = await failingInstruments();
    try {
      const run = await refresh(front.apiUrl);
      expect(run.code).toBe(3);
      const after = compared(run.input, run.output, CELLS);
      expect(after).toEqual({
        B1: [expect.any(String), `<c r="B1"><f>_xldudf_PRICES_MID(A1,&quot;${DATE}&quot;)</f><v>${mid}</v></c>`],
        C1: [expect.any(String), `<c r="C1"><f>B1*2</f><v>${mid * 2}</v></c>`],
        D1: [expect.any(String), `<c r="D1"><f>IFERROR(_xldudf_PRICES_MID(A1,&quot;${DATE}&quot;),0)</f><v>${mid}</v></c>`],
        // the call that had no answer and the formula reading it: as saved
        E1: [cellXml(run.input, "E1"), cellXml(run.input, "E1")],
        F1: [cellXml(run.input, "F1"), cellXml(run.input, "F1")],
        // the service's answer about this cell (no such symbol) is written, as before
        G1: [expect.any(String), `<c r="G1" t="e"><f>_xldudf_PRICES_MID(&quot;${UNKNOWN}&quot;,&quot;${DATE}&quot;)</f><v>#N/A</v></c>`],
      });
      expect(run.report.unanswered).toEqual([{ sheet: "Model", cell: "E1", formula: "_xldudf_PRICES_INSTRUMENT(A1,&quot;currency&quot;)".replace(/&quot;/g, '"'), why: expect.stringMatching(/^service unreachable: Request failed with status 503 Service Unavailable: GET \/Instruments \(instruments are down\)/), kind: "service-error" }]);
      expect(run.report.unansweredDependents).toBe(1);
      expect(notRefreshedLines(run.errors)).toEqual([expect.stringMatching(/^workbook: 1 price cell not refreshed, the service giving no answer about it \(service unreachable: .*\): its saved value is kept, and that of the 1 formula reading it, left for Excel; exit status 3$/)]);
    } finally {
      front.server.closeAllConnections();
      await new Promise<void>((done) => front.server.close(() => done()));
    }
  });
});

describe("a JSON book against a port nothing listens on", () => {
  it("prints the errors with the reason summed up once, and exits 3", async () => {
    const book = join(dir, "book.json");
    writeFileSync(book, JSON.stringify({ cells: { A1: `=PRICES.MID("${symbol}", "${DATE}")`, A2: `=PRICES.MID("${UNKNOWN}", "${DATE}")`, A3: "=1+1" } }));
    const run = await runMain([book, "--today", TODAY, "--api", `http://127.0.0.1:${await closedPort()}/physical/v2`], { PRICES_TOKEN: "any-token" });
    expect(run.code).toBe(3);
    const printed = JSON.parse(run.printed) as { cells: Record<string, unknown>; unanswered?: Unanswered };
    expect(printed.cells).toEqual({ A1: expect.stringMatching(/^#N\/A: service unreachable: /), A2: expect.stringMatching(/^#N\/A: service unreachable: /), A3: 2 });
    expect(printed.unanswered).toEqual({ cells: 2, reasons: [{ kind: "unreachable", why: expect.stringMatching(/^service unreachable: Request failed \(Failed to fetch\): GET \/Prices$/), cells: 2 }] });
    const lines = run.errors.split("\n").filter((line) => line.includes("no answer"));
    expect(lines).toEqual([expect.stringMatching(/^workbook: 2 cells hold no price, the service giving no answer about them \(service unreachable: .*\): each shows its error or what its formula makes of one; exit status 3$/)]);
  });
});

describe("a JSON book whose formulas turn no answer into a value", () => {
  it("lists each such formula whatever it shows, and exits 3", async () => {
    const book = join(dir, "caught.json");
    writeFileSync(book, JSON.stringify({ cells: { A1: `=IFERROR(PRICES.MID("${symbol}","${DATE}"),0)`, A2: `=IF(ISNA(PRICES.MID("${symbol}","2025-05-13")),"n/a","ok")`, A3: "=1+1" } }));
    const run = await runMain([book, "--today", TODAY, "--api", `http://127.0.0.1:${await closedPort()}/physical/v2`], { PRICES_TOKEN: "any-token" });
    expect(run.code).toBe(3);
    const printed = JSON.parse(run.printed) as { cells: Record<string, unknown>; unanswered?: Unanswered };
    expect(printed.cells).toEqual({ A1: 0, A2: "n/a", A3: 2 });
    expect(printed.unanswered).toEqual({ cells: 2, reasons: [{ kind: "unreachable", why: expect.stringMatching(/^service unreachable: /), cells: 2 }] });
  });
});

describe("a spilled history refreshed against a port nothing listens on", () => {
  /** A1 a history spilled over A1:B3 as Excel 365 saves one, D1 and E1 reading its cells below the anchor, H1 beside it. */
  function spilledModel(): Uint8Array {
    const history = `_xldudf_PRICES_HISTORY(&quot;${symbol}&quot;,&quot;2025-05-01&quot;,&quot;2025-05-02&quot;,&quot;date,mid&quot;)`;
    return workbook(
      `<row r="1"><c r="A1" cm="1"><f t="array" ref="A1:B3">${history}</f><v>0</v></c><c r="B1" t="str"><v>mid</v></c>${formula("D1", "B2*2", 202)}${formula("E1", "AVERAGE(B2:B3)", 101.5)}${formula("H1", "C2+1", 1)}</row>` +
        '<row r="2"><c r="A2"><v>45778</v></c><c r="B2"><v>101</v></c></row><row r="3"><c r="A3"><v>45779</v></c><c r="B3"><v>102</v></c></row>',
    );
  }

  it("keeps the formulas reading the spill's cells as saved and counts them as its readers", async () => {
    const input = join(dir, "spilled.xlsx");
    const output = join(dir, "spilled-out.xlsx");
    const reportPath = join(dir, "spilled-report.json");
    writeFileSync(input, spilledModel());
    const run = await runMain([input, "--out", output, "--report", reportPath, "--today", TODAY, "--api", `http://127.0.0.1:${await closedPort()}/physical/v2`], { PRICES_TOKEN: "any-token" });
    expect(run.code).toBe(3);
    const cells = ["A1", "B1", "B2", "B3", "D1", "E1"];
    expect(compared(input, output, cells)).toEqual(compared(input, input, cells));
    const report = JSON.parse(readFileSync(reportPath, "utf8")) as Report;
    expect(report.unanswered.map((entry) => entry.cell)).toEqual(["A1"]);
    expect(report.unansweredDependents).toBe(2);
    // beside the saved area, C2 is blank and read as such
    expect(cellXml(output, "H1")).toBe('<c r="H1"><f>C2+1</f><v>1</v></c>');
  });
});
