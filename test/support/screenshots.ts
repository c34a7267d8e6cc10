/**
 * Where the browser tests save their screenshots: test-output/screenshots (ignored by git), so `npm test` leaves the
 * tracked tree as it was; `npm run screenshots` sets PRICES_SCREENSHOTS=docs to refresh the README's docs/screenshots.
 */
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

export function screenshotDir(): string {
  const dir = process.env["PRICES_SCREENSHOTS"] === "docs" ? path.join(ROOT, "docs/screenshots") : path.join(ROOT, "test-output/screenshots");
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
