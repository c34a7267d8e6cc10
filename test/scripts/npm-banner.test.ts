/**
 * `npm run workbook -- book.json > out.json` keeps out.json the script's JSON alone without `json=true` in .npmrc:
 * a real `npm run` (the system's npm, whose banner goes to stdout) of a package whose script calls
 * claimStdoutFromNpmBanner, redirected to a file, to a pipe, and appended to earlier content.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { npmBanner, writerOverBanner } from "../../scripts/npm-banner";

const ROOT = path.resolve(__dirname, "../..");
jest.setTimeout(120_000);

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "prices-npm-banner-"));
  fs.writeFileSync(path.join(dir, "emit.ts"), `import { claimStdoutFromNpmBanner } from ${JSON.stringify(path.join(ROOT, "scripts/npm-banner"))};\nclaimStdoutFromNpmBanner(process.argv.slice(2));\nprocess.stdout.write(JSON.stringify({ args: process.argv.slice(2) }) + "\\n");\n`);
  const tsx = path.join(ROOT, "node_modules/.bin/tsx");
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "banner-probe", version: "1.0.0", private: true, scripts: { workbook: `${tsx} emit.ts` } }));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (shell: string): string => execFileSync("bash", ["-c", shell], { cwd: dir, encoding: "utf8", env: { ...process.env, npm_config_json: "false", npm_config_loglevel: "notice" } });

describe("npm's banner and the workbook script's stdout", () => {
  it("leaves a redirected file holding the script's JSON alone", () => {
    run("npm run workbook -- book.json --out x.xlsx > out.json");
    expect(JSON.parse(fs.readFileSync(path.join(dir, "out.json"), "utf8"))).toEqual({ args: ["book.json", "--out", "x.xlsx"] });
  });

  it("leaves a pipe and an appended file as npm writes them (banner first), touching no earlier content", () => {
    expect(run("npm run workbook -- a | cat")).toContain("> banner-probe@1.0.0 workbook");
    fs.writeFileSync(path.join(dir, "log.txt"), "earlier\n");
    run("npm run workbook -- a >> log.txt");
    const log = fs.readFileSync(path.join(dir, "log.txt"), "utf8");
    expect(log.startsWith("earlier\n")).toBe(true);
    expect(log).toContain('{"args":["a"]}');
  });

  it("builds the banner npm prints from the script's environment", () => {
    expect(npmBanner({ npm_lifecycle_event: "workbook", npm_lifecycle_script: "tsx scripts/workbook.ts", npm_package_name: "p", npm_package_version: "1.0.0" }, ["b.json"])).toBe("\n> p@1.0.0 workbook\n> tsx scripts/workbook.ts b.json\n");
    expect(npmBanner({}, [])).toBeUndefined();
    expect(writerOverBanner(1, undefined)).toBeUndefined();
  });
});
