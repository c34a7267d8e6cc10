/**
 * The command as a user types it, `npm run workbook -- book.json > out.json`: stdout is the one JSON object (npm's
 * "> script" banner stays off it, .npmrc), and stderr carries no favicon 404 from the host page.
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

jest.setTimeout(180_000);

const ROOT = resolve(__dirname, "../..");

it("prints valid JSON on stdout and nothing about a favicon on stderr", () => {
  const dir = mkdtempSync(join(tmpdir(), "prices-e2e-npm-"));
  try {
    const book = join(dir, "book.json");
    writeFileSync(book, JSON.stringify({ cells: { A1: 2, B1: "=A1*21", C1: '=TEXT(DATE(2024,3,1),"yyyy-mm-dd")' } }));
    // stdout to a file, as the shell's `> out.json` gives it (npm's banner lands there first; the script writes over it)
    const out = openSync(join(dir, "out.json"), "w");
    const result = spawnSync("npm", ["run", "workbook", "--", book], { cwd: ROOT, encoding: "utf8", timeout: 170_000, stdio: ["ignore", out, "pipe"] });
    closeSync(out);
    expect(result.status).toBe(0);
    const printed = JSON.parse(readFileSync(join(dir, "out.json"), "utf8")) as { cells: Record<string, unknown> };
    expect(printed.cells).toEqual({ A1: 2, B1: 42, C1: "2024-03-01" });
    expect(result.stderr).not.toMatch(/favicon|404/i);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
