/**
 * `npm run screenshots`: the README's workbench screenshots, taken in headless Chromium on npm start's stack
 * (free ports): docs/screenshots/workbench-demo.png, -chart.png and -errors.png. The browser test
 * (test/workbench) takes the same ones plus the signed-in state.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { startStack } from "./start";

const SHOTS = resolve(__dirname, "../docs/screenshots");
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];

interface WorkbenchWindow {
  WorkbenchReady: Promise<unknown>;
  Workbench: { settled(): Promise<void> };
}

async function main(): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const stack = await startStack({ port: 0, apiPort: 0 });
  const profile = mkdtempSync(join(tmpdir(), "workbench-shots-"));
  try {
    const context = await chromium.launchPersistentContext(profile, { executablePath: "/usr/bin/chromium", args: CHROMIUM_FLAGS, ignoreHTTPSErrors: true, viewport: { width: 1600, height: 1000 } });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(stack.workbenchUrl);
      await page.evaluate(() => (window as unknown as WorkbenchWindow).WorkbenchReady);
      const settle = (): Promise<void> => page.evaluate(() => (window as unknown as WorkbenchWindow).Workbench.settled());
      await settle();
      await page.waitForSelector("iframe#pane");
      await page.waitForTimeout(500);
      await page.screenshot({ path: join(SHOTS, "workbench-demo.png") });
      await page.locator('td[data-address="K20"]').click();
      await page.screenshot({ path: join(SHOTS, "workbench-chart.png") });
      await page.locator('td[data-address="B15"]').click();
      await page.screenshot({ path: join(SHOTS, "workbench-errors.png") });
      process.stdout.write(`saved workbench-demo.png, workbench-chart.png, workbench-errors.png in ${SHOTS}\n`);
    } finally {
      await context.close();
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
    await stack.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`screenshots: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
