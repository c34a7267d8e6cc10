/**
 * ESLint with typescript-eslint's strict type-checked rules (eslint.config.mjs) over src/, as one test of `npm test`:
 * CI's count of passed and failed tests includes it. Any finding, warnings included, fails it and is listed.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

interface LintResult {
  filePath: string;
  messages: { ruleId: string | null; line: number; message: string }[];
}

function lint(): Promise<{ code: number; results: LintResult[]; stderr: string }> {
  return new Promise((resolve) => {
    const bin = join(ROOT, "node_modules", "eslint", "bin", "eslint.js");
    execFile(process.execPath, [bin, "--max-warnings=0", "--format", "json", "src"], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 2;
      let results: LintResult[] = [];
      try {
        results = JSON.parse(stdout) as LintResult[];
      } catch {
        // no JSON: ESLint itself failed (its configuration, a parse error); stderr says why
      }
      resolve({ code, results, stderr });
    });
  });
}

describe("the linter", () => {
  // Type-aware linting builds the whole program: minutes on two busy cores, a bound against a hang only.
  it("finds nothing in src/ under the strict type-checked rules", async () => {
    const { code, results, stderr } = await lint();
    const findings = results.flatMap((result) =>
      result.messages.map((message) => `${result.filePath.slice(ROOT.length + 1)}:${message.line} ${message.ruleId ?? "eslint"}: ${message.message}`),
    );
    expect({ findings, stderr: code === 0 ? "" : stderr.trim() }).toEqual({ findings: [], stderr: "" });
    expect(code).toBe(0);
  }, 900_000);
});
