/**
 * `npm run screenshots`: the README's and docs' screenshots in docs/screenshots, taken in headless Chromium.
 * First the browser tests that show the pane's and the signed-in states run with PRICES_SCREENSHOTS=docs, so they save
 * theirs there (`npm test` keeps them in test-output/); then the workbench at a laptop's 1280 x 720 (workbench-demo.png,
 * -errors.png, -chart.png) and at 1920 x 1080 (workbench-demo-1920x1080.png), on npm start's stack (free ports).
 * `--workbench-only` skips the tests.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { startStack } from "./start";

const ROOT = resolve(__dirname, "..");
const SHOTS = join(ROOT, "docs/screenshots");
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];
/** The browser tests whose screenshots the README and docs/taskpane.md show. */
const SCREENSHOT_TESTS = ["test/browser/pane.test.ts", "test/workbench/workbench.test.ts", "test/workbench/data-types.test.ts", "test/workbench/offline-and-keys.test.ts"];

interface WorkbenchWindow {
  WorkbenchReady: Promise<unknown>;
  Workbench: { settled(): Promise<void> };
}

async function workbenchShots(): Promise<string[]> {
  const saved: string[] = [];
  const stack = await startStack({ port: 0, apiPort: 0 });
  const profile = mkdtempSync(join(tmpdir(), "workbench-shots-"));
  try {
    const context = await chromium.launchPersistentContext(profile, { executablePath: "/usr/bin/chromium", args: CHROMIUM_FLAGS, ignoreHTTPSErrors: true });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const shot = async (name: string): Promise<void> => {
        await page.screenshot({ path: join(SHOTS, name) });
        saved.push(name);
      };
      for (const [width, height] of [
        [1920, 1080],
        [1280, 720],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.goto(stack.workbenchUrl);
        await page.evaluate(() => (window as unknown as WorkbenchWindow).WorkbenchReady);
        await page.evaluate(() => (window as unknown as WorkbenchWindow).Workbench.settled());
        await page.frameLocator("iframe#pane").locator("#sign-in").waitFor();
        if (width === 1920) {
          await shot("workbench-demo-1920x1080.png");
          continue;
        }
        await shot("workbench-demo.png");
        await page.locator('td[data-address="B15"]').click();
        await shot("workbench-errors.png");
        await page.evaluate(() => (window as unknown as { Workbench: { select(a: string): void } }).Workbench.select("K20"));
        await shot("workbench-chart.png");
      }
    } finally {
      await context.close();
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
    await stack.close();
  }
  return saved;
}

async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({ args: [...argv], options: { "workbench-only": { type: "boolean", default: false } }, strict: true });
  mkdirSync(SHOTS, { recursive: true });
  if (!values["workbench-only"]) {
    process.stdout.write(`running ${SCREENSHOT_TESTS.join(" and ")} to save the pane's and the signed-in screenshots…\n`);
    const run = spawnSync(process.execPath, ["--experimental-vm-modules", join(ROOT, "node_modules/jest/bin/jest.js"), ...SCREENSHOT_TESTS], {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, PRICES_SCREENSHOTS: "docs" },
    });
    if (run.status !== 0) return run.status ?? 1;
  }
  // last, so the laptop-sized workbench shots replace the tests' larger ones of the same names
  const saved = await workbenchShots();
  process.stdout.write(`saved ${saved.join(", ")} in ${SHOTS}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`screenshots: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
