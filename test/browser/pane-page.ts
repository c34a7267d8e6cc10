/** Helpers shared by the pane's browser tests: building the pane into a temporary folder, and waiting for text. */
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Locator } from "playwright-core";

const ROOT = path.resolve(__dirname, "../..");

/** Builds the add-in into a temporary folder so a parallel build of dist/ is never disturbed. */
export function buildPane(outDir: string): void {
  execFileSync(process.execPath, [require.resolve("webpack-cli/bin/cli.js"), "--mode", "development", "--output-path", outDir], { cwd: ROOT, stdio: "pipe" });
}

/**
 * Waits until the element's text equals (string) or matches (RegExp) what is expected; fails with the text seen.
 * The timeout is a bound against a hang (it returns as soon as the text comes), generous for two busy cores.
 */
export async function hasText(locator: Locator, expected: string | RegExp, timeout = 60_000, contain = false): Promise<void> {
  const deadline = Date.now() + timeout;
  let seen = "";
  for (;;) {
    seen = ((await locator.first().textContent({ timeout }).catch(() => "")) ?? "").trim();
    const ok = typeof expected === "string" ? (contain ? seen.includes(expected) : seen === expected) : expected.test(seen);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`expected ${String(expected)} ${contain ? "in" : "as"} the text of ${String(locator)}, saw: ${seen.slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const containsText = (locator: Locator, expected: string | RegExp, timeout = 60_000): Promise<void> => hasText(locator, expected, timeout, true);
