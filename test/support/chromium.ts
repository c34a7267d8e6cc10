/** Headless Chromium for the browser tests: /usr/bin/chromium with the standard flags and its own temporary profile. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const CHROMIUM_PATH = "/usr/bin/chromium";
export const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];

export interface TestBrowser {
  readonly context: BrowserContext;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** A persistent context (so popups and storage behave as in a real profile) that trusts the sandbox's self-signed pages. */
export async function launchChromium(options: { viewport?: { width: number; height: number } } = {}): Promise<TestBrowser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "prices-test-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
      ignoreHTTPSErrors: true,
      ...(options.viewport ? { viewport: options.viewport } : {}),
    });
    // Playwright's 30 s for a click, a navigation or a wait is a bound against a hang, too short on two busy cores.
    context.setDefaultTimeout(120_000);
    context.setDefaultNavigationTimeout(120_000);
    return {
      context,
      close: async () => {
        await context.close().catch(() => undefined);
        fs.rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}
