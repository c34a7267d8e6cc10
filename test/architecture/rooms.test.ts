/**
 * The rooms of src/ and the direction of their imports, as docs/architecture.md draws them: a room imports only
 * rooms on a lower floor or on its own, never one above. The floors are data here; the test reads every import of
 * every file under src/ (type-only ones too) and fails on an import that climbs, on a room the table does not know,
 * and on a room the architecture page does not name.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

const ROOT = resolve(__dirname, "../..");
const SRC = join(ROOT, "src");

/** Lowest floor first. A room may import rooms of its own floor and of every floor before it. */
export const FLOORS: readonly (readonly string[])[] = [
  ["api"],
  ["formula"],
  ["prices", "prices/persistent"],
  ["functions"],
  ["sessions"],
  ["host", "xlsx", "runner"],
  ["auth", "taskpane", "workbench"],
  ["hardening", "sandbox", "relay"],
];

/** Imports that climb on purpose, each with why. */
const ALLOWED_CLIMBS: ReadonlyMap<string, string> = new Map([
  ["runner -> sandbox", "the runner starts its own sandbox when no --api is given (docs/workbook-runner.md)"],
]);

/** The room of a file under src/: its first folder, or prices/persistent. */
export function roomOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  if (parts[0] === "prices" && parts[1] === "persistent" && parts.length > 2) return "prices/persistent";
  return parts.length > 1 ? (parts[0] ?? "") : "";
}

function floorOf(room: string): number {
  return FLOORS.findIndex((floor) => floor.includes(room));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The file a relative import names, as TypeScript resolves it (extension omitted, or a folder's index). */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.js`, join(base, "index.ts"), join(base, "index.js")];
  return candidates.find((candidate) => {
    try {
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

interface RoomImport {
  readonly from: string;
  readonly to: string;
  readonly file: string;
  readonly specifier: string;
}

function roomImports(): RoomImport[] {
  return sourceFiles(SRC).flatMap((file) => {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    return info.importedFiles
      .filter((imported) => imported.fileName.startsWith("."))
      .flatMap((imported) => {
        const target = resolveImport(file, imported.fileName);
        if (target === undefined || !target.startsWith(SRC + sep)) return [];
        const from = roomOf(file);
        const to = roomOf(target);
        return from === to ? [] : [{ from, to, file: relative(ROOT, file), specifier: imported.fileName }];
      });
  });
}

describe("the rooms of src/", () => {
  const imports = roomImports();

  it("reads the imports of every room", () => {
    expect(imports.length).toBeGreaterThan(100);
    expect(new Set(imports.map((edge) => edge.from)).size).toBeGreaterThanOrEqual(10);
  });

  it("knows every room under src/", () => {
    const rooms = new Set(sourceFiles(SRC).map(roomOf));
    const unknown = [...rooms].filter((room) => floorOf(room) < 0);
    expect(unknown).toEqual([]);
  });

  it("never imports a room on a higher floor", () => {
    const climbs = imports
      .filter((edge) => floorOf(edge.to) > floorOf(edge.from) && !ALLOWED_CLIMBS.has(`${edge.from} -> ${edge.to}`))
      .map((edge) => `${edge.file} imports ${edge.specifier} (${edge.from} -> ${edge.to})`);
    expect(climbs).toEqual([]);
  });

  it("is the picture docs/architecture.md draws: every room is in its table", () => {
    const page = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
    const missing = FLOORS.flat().filter((room) => !page.includes(`\`src/${room}/\``));
    expect(missing).toEqual([]);
  });

  it("fails for an import that climbs (the rule is not vacuous)", () => {
    expect(floorOf("prices")).toBeLessThan(floorOf("sessions"));
    expect(roomOf(join(SRC, "prices/persistent/partition.ts"))).toBe("prices/persistent");
    expect(roomOf(join(SRC, "taskpane/panels/live.ts"))).toBe("taskpane");
  });
});
