/**
 * manifest.xml against the Office XSDs in ../shared/office-manifest-xsd (read at run time), and
 * against a real production build: every URL it names is a file of the build, the dev origins are
 * rewritten, functions.json is generated, and MSAL sits only in an async chunk.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildProduction, measure, type BundleReport } from "../../scripts/bundle-size";
import { IMPORTED_XSDS, ROOT_XSD, validateManifestSchema, XSD_DIR } from "../../scripts/manifest-schema";

const ROOT = resolve(__dirname, "../..");
const BASE_URL = "https://addin.example.com/prices";
const SERVICE_URL = "https://api.example.com/physical/v2";

const manifest = readFileSync(join(ROOT, "manifest.xml"), "utf8");

describe("manifest.xml against the Office XSDs", () => {
  it("is valid", async () => {
    const result = await validateManifestSchema(manifest);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("reads every XSD of the shared schema folder (npm run validate and this test use one list)", () => {
    expect(XSD_DIR).toBe(resolve(ROOT, "../shared/office-manifest-xsd"));
    const onDisk = readdirSync(XSD_DIR).filter((name) => name.endsWith(".xsd")).sort();
    expect([ROOT_XSD, ...IMPORTED_XSDS].sort()).toEqual(onDisk);
  });

  it.each(["bad-version.xml", "missing-id.xml", "runtimes-misplaced.xml"])("rejects the negative example %s (the validator can fail)", async (name) => {
    const result = await validateManifestSchema(readFileSync(join(XSD_DIR, "negative", name), "utf8"), name);
    expect(result.valid).toBe(false);
    expect(result.errors.length).toBeGreaterThan(0);
  });

  it("wires the shared runtime, the functions and the pane to resources that exist", () => {
    const urls = new Map([...manifest.matchAll(/<bt:Url id="([^"]+)" DefaultValue="([^"]+)"/g)].map((m) => [m[1]!, m[2]!]));
    const images = new Set([...manifest.matchAll(/<bt:Image id="([^"]+)"/g)].map((m) => m[1]!));
    const shortStrings = new Map([...manifest.matchAll(/<bt:String id="([^"]+)" DefaultValue="([^"]+)"/g)].map((m) => [m[1]!, m[2]!]));
    expect(manifest).toMatch(/<Runtime resid="Taskpane.Url" lifetime="long"\/>/);
    expect(manifest).toMatch(/<Set Name="SharedRuntime" MinVersion="1.1"\/>/);
    expect(urls.get("Taskpane.Url")).toBe("https://localhost:3000/taskpane.html");
    expect(urls.get("Functions.Script.Url")).toBe("https://localhost:3000/functions.js");
    expect(urls.get("Functions.Metadata.Url")).toBe("https://localhost:3000/functions.json");
    expect(shortStrings.get("Functions.Namespace")).toBe("PRICES");
    for (const match of manifest.matchAll(/resid="([^"]+)"/g)) {
      const id = match[1]!;
      expect(urls.has(id) || images.has(id) || shortStrings.has(id) || manifest.includes(`<bt:String id="${id}"`)).toBe(true);
    }
    for (const domain of ["https://localhost:3000", "https://localhost:4000"]) expect(manifest).toContain(`<AppDomain>${domain}</AppDomain>`);
  });
});

describe("the production build", () => {
  let outputDir = "";
  let report: BundleReport;

  // A bound against a hang, not a speed target: a production build beside other CPU-heavy suites on two busy cores
  // took over 180 s once (load 17).
  beforeAll(async () => {
    const build = await buildProduction(undefined, { baseUrl: BASE_URL, serviceUrl: SERVICE_URL });
    outputDir = build.outputDir;
    report = measure(outputDir, build.stats);
  }, 900_000);

  afterAll(() => {
    if (outputDir !== "") rmSync(outputDir, { recursive: true, force: true });
  });

  it("maps every URL of the manifest (source, script, page, metadata, runtime, icons) to a built file", () => {
    const built = readFileSync(join(outputDir, "manifest.xml"), "utf8");
    expect(built).not.toContain("https://localhost:3000");
    const urls = [...built.matchAll(/DefaultValue="(https:[^"]+)"/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThanOrEqual(10);
    for (const url of urls) {
      expect(url.startsWith(`${BASE_URL}/`)).toBe(true);
      const file = url.slice(BASE_URL.length + 1);
      expect({ url, exists: existsSync(join(outputDir, file)) }).toEqual({ url, exists: true });
    }
  });

  it("rewrites the app domains to the given base and service origins", () => {
    const built = readFileSync(join(outputDir, "manifest.xml"), "utf8");
    expect(built).toContain("<AppDomain>https://addin.example.com</AppDomain>");
    expect(built).toContain("<AppDomain>https://api.example.com</AppDomain>");
    expect(built).not.toContain("<AppDomain>https://localhost:4000</AppDomain>");
  });

  it("points the pane's default Base URL at the given service URL (a relay's, for a deployment)", () => {
    const script = readFileSync(join(outputDir, "taskpane.js"), "utf8");
    expect(script).toContain(SERVICE_URL);
    expect(script).not.toContain("https://localhost:4000/physical/v2");
  });

  it("builds the shared-runtime page with office.js, then functions.js, then taskpane.js", () => {
    const page = readFileSync(join(outputDir, "taskpane.html"), "utf8");
    const office = page.indexOf("office-js/office.js");
    const functions = page.indexOf("functions.js");
    const taskpane = page.indexOf("taskpane.js");
    expect(office).toBeGreaterThan(-1);
    expect(functions).toBeGreaterThan(office);
    expect(taskpane).toBeGreaterThan(functions);
    expect(existsSync(join(outputDir, "office-js/office.js"))).toBe(true);
    const host = readFileSync(join(outputDir, "host.html"), "utf8");
    expect(host).toContain("host.js");
    expect(host).not.toContain("functions.js\"");
  });

  it("generates functions.json with every PRICES function and its enums", () => {
    const metadata = JSON.parse(readFileSync(join(outputDir, "functions.json"), "utf8")) as {
      functions: { id: string; description?: string; parameters: { name: string; description?: string }[] }[];
      enums?: { id: string }[];
    };
    expect(metadata.functions.map((fn) => fn.id).sort()).toEqual(
      ["AVERAGE", "CONVERSIONS", "CURVE", "ENTITY", "FORECAST", "HIGH", "HISTORY", "INSTRUMENT", "INSTRUMENTS", "LIVE", "LOW", "MID", "PRICE", "REFERENCE"],
    );
    for (const fn of metadata.functions) {
      expect(fn.description).toBeTruthy();
      for (const parameter of fn.parameters) expect({ fn: fn.id, parameter: parameter.name, described: Boolean(parameter.description) }).toEqual({ fn: fn.id, parameter: parameter.name, described: true });
    }
    expect((metadata.enums ?? []).map((item) => item.id)).toEqual(expect.arrayContaining(["PriceField", "Calculation", "Headers", "SortOrder"]));
  });

  it("keeps MSAL out of every initial chunk, in an async chunk of its own", () => {
    expect(report.initialChunksWithMsal).toEqual([]);
    expect(report.chunks.some((chunk) => chunk.kind === "async" && chunk.msal)).toBe(true);
    expect(report.chunks.find((chunk) => chunk.name === "functions")?.msal).toBe(false);
  });
});
