/**
 * `npm run workbook` runs the runner bundled (scripts/run-workbook.cjs): it must give what `tsx scripts/workbook.ts`
 * gives for the same book, and a bundle older than one of its sources must be rebuilt, never run.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { strToU8, unzipSync, zipSync } from "fflate";

jest.setTimeout(300_000);

const ROOT = resolve(__dirname, "../..");
const LAUNCHER = join(ROOT, "scripts/run-workbook.cjs");
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const rels = (entries: string): string => `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${entries}</Relationships>`;

/** A one-sheet model as Excel saves one: a symbol, a date, its price through the add-in, and a formula over the price. */
function model(): Uint8Array {
  const sheet = `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>MB-AL-0004</t></is></c><c r="B1" t="inlineStr"><is><t>2024-03-01</t></is></c><c r="C1"><f>_xldudf_PRICES_MID(A1,B1)</f><v>0</v></c><c r="D1"><f>C1*2</f><v>0</v></c><c r="E1"><v>7</v></c></row></sheetData></worksheet>`;
  const parts = {
    "[Content_Types].xml": `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`,
    "_rels/.rels": rels(`<Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/>`),
    "xl/workbook.xml": `<workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Model" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="191029"/></workbook>`,
    "xl/_rels/workbook.xml.rels": rels(`<Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/>`),
    "xl/worksheets/sheet1.xml": sheet,
  };
  return zipSync(Object.fromEntries(Object.entries(parts).map(([name, text]) => [name, strToU8(text)])));
}

/** A build folder of the test's own, inside the project: the bundle loads the packages from the project's node_modules. */
function buildDir(): string {
  const cache = join(ROOT, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  return mkdtempSync(join(cache, "prices-workbook-test-"));
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: readonly string[], env: Readonly<Record<string, string>> = {}): Run {
  const result = spawnSync(process.execPath, [...args], { cwd: ROOT, encoding: "utf8", timeout: 280_000, env: { ...process.env, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every entry of a package, as text, by name. */
function entries(path: string): Record<string, string> {
  return Object.fromEntries(Object.entries(unzipSync(readFileSync(path))).map(([name, bytes]) => [name, Buffer.from(bytes).toString("utf8")]));
}

describe("the runner npm run workbook runs", () => {
  let dir: string;
  let build: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "prices-built-runner-"));
    build = buildDir();
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(build, { recursive: true, force: true });
  });

  it("prints and writes what tsx scripts/workbook.ts prints and writes for the same book", () => {
    const book = join(dir, "model.xlsx");
    writeFileSync(book, model());
    const bundled = run([LAUNCHER, book, "--out", join(dir, "bundled.xlsx"), "--today", "2025-06-30"], { PRICES_WORKBOOK_BUILD_DIR: build });
    const fromSource = run(["--import", "tsx", join(ROOT, "scripts/workbook.ts"), book, "--out", join(dir, "source.xlsx"), "--today", "2025-06-30"]);
    expect(bundled.stderr).not.toMatch(/workbook: .*(fail|error)/i);
    expect([bundled.status, fromSource.status]).toEqual([0, 0]);
    const printed = (text: string): unknown => {
      const { out, ...rest } = JSON.parse(text) as { out: string };
      return { out: out.replace(/(bundled|source)\.xlsx$/, "OUT.xlsx"), ...rest };
    };
    expect(printed(bundled.stdout)).toEqual(printed(fromSource.stdout));
    const price = (JSON.parse(bundled.stdout) as { sheets: Record<string, Record<string, unknown>> }).sheets.Model?.C1;
    expect(typeof price).toBe("number");
    expect(entries(join(dir, "bundled.xlsx"))).toEqual(entries(join(dir, "source.xlsx")));
    // the bundle and its sandbox's worker were built where asked, and that build is what ran
    expect(readFileSync(join(build, "inputs.json"), "utf8")).toContain("src/runner/workbook-runner.ts");
  });

  it("ends a run that never takes its prestarted sandbox thread: a usage error, another service", () => {
    const book = join(dir, "model.xlsx");
    writeFileSync(book, model());
    const env = { PRICES_WORKBOOK_BUILD_DIR: build, PRICES_TOKEN: "not-a-token" };
    // the thread started before the arguments were read must not keep the process alive (spawnSync's timeout: status null)
    const usage = run([LAUNCHER, book, "--out", join(dir, "out.xlsx"), "--date-system", "1901"], env);
    expect(usage.status).toBe(2);
    // port 9 (discard): nothing listens there; the price keeps its saved value, left for Excel with why, and the run
    // ends with its own status
    const elsewhere = run([LAUNCHER, book, "--out", join(dir, "out.xlsx"), "--api", "http://127.0.0.1:9/physical/v2"], env);
    expect(elsewhere.status).toBe(3);
    expect((JSON.parse(elsewhere.stdout) as { sheets: Record<string, Record<string, unknown>> }).sheets.Model?.C1).toMatch(/^#N\/A: left for Excel: service unreachable/);
    expect(elsewhere.stderr).not.toMatch(/runner's own sandbox/);
  });

  it("builds at once where a stopped build left its lock (its process gone), instead of waiting for it", () => {
    const lock = join(build, "workbook.js.lock");
    mkdirSync(lock, { recursive: true });
    const stopped = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    writeFileSync(join(lock, "pid"), stopped.stdout);
    expect(run([LAUNCHER], { PRICES_WORKBOOK_BUILD_DIR: build })).toMatchObject({ status: 2, stderr: expect.stringContaining("workbook: give one BOOK.json") as unknown });
    expect(readFileSync(join(build, "inputs.json"), "utf8")).toContain("src/runner/workbook-runner.ts");
  });

  it("runs a bundle newer than its sources, and rebuilds one older than a source, or one whose source is gone", () => {
    const env = { PRICES_WORKBOOK_BUILD_DIR: build };
    // the first run builds; no book: the usage error, exit 2
    expect(run([LAUNCHER], env)).toMatchObject({ status: 2, stderr: expect.stringContaining("workbook: give one BOOK.json") as unknown });
    // a bundle of our own in its place, every source as old as the build: it is what runs
    const bundle = join(build, "workbook.js");
    writeFileSync(bundle, 'process.stdout.write("the bundle as it was\\n");\n');
    expect(run([LAUNCHER], env)).toMatchObject({ status: 0, stdout: "the bundle as it was\n" });
    const inputsPath = join(build, "inputs.json");
    const recorded = JSON.parse(readFileSync(inputsPath, "utf8")) as { builtAt: number; inputs: string[] };
    // a source saved after the build: built again, the runner's own usage error instead of that bundle
    const edited = join(dir, "edited.ts");
    writeFileSync(edited, "export {};\n");
    writeFileSync(inputsPath, JSON.stringify({ ...recorded, builtAt: recorded.builtAt - 60_000, inputs: [...recorded.inputs, edited] }));
    expect(run([LAUNCHER], env)).toMatchObject({ status: 2, stderr: expect.stringContaining("workbook: give one BOOK.json") as unknown });
    // and a source gone since the build
    writeFileSync(bundle, 'process.stdout.write("the bundle as it was\\n");\n');
    writeFileSync(inputsPath, JSON.stringify({ ...recorded, inputs: [...recorded.inputs, join(dir, "gone.ts")] }));
    expect(run([LAUNCHER], env)).toMatchObject({ status: 2, stderr: expect.stringContaining("workbook: give one BOOK.json") as unknown });
  });
});
