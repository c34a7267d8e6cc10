/**
 * How npm behaves in this project (.npmrc): `npm install` is not silenced (its log level is npm's default) and ends
 * with npm's short summary, not a JSON list of every package (no json=true); `npm run workbook -- book.json >
 * out.json` is still JSON (scripts/npm-banner.ts; test/e2e/runner-npm.test.ts runs that command itself).
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

it("leaves npm's output human: npm install's summary is not a JSON dump", () => {
  const json = npm("config", "get", "json");
  expect(json.status).toBe(0);
  expect(json.stdout.trim()).toBe("false");
});
