/**
 * How npm behaves in this project (.npmrc): `npm install` is not silenced (its log level is npm's default), while npm
 * run's "> script" banner stays off stdout, so `npm run workbook -- book.json > out.json` is JSON
 * (test/e2e/runner-npm.test.ts runs that command itself).
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

jest.setTimeout(120_000);

const ROOT = resolve(__dirname, "../..");

function npm(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync("npm", args, { cwd: ROOT, encoding: "utf8", timeout: 110_000 });
}

it("leaves npm's log level alone, so npm install shows its progress and warnings", () => {
  const level = npm("config", "get", "loglevel");
  expect(level.status).toBe(0);
  expect(level.stdout.trim()).not.toBe("silent");
});

it("keeps npm run's banner off stdout: only the script's own output is there", () => {
  const ran = npm("run", "typecheck", "--", "--version");
  expect(ran.status).toBe(0);
  expect(ran.stdout.trim()).toMatch(/^Version \d+\.\d+\.\d+$/);
  expect(ran.stderr).toContain("> tsc --noEmit -p tsconfig.json --version");
});
