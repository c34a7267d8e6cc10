/** `npm run workbook -- BOOK.json | MODEL.xlsx --out REFRESHED.xlsx ...`: the runner (src/runner/workbook-runner.ts) on this process's arguments. */
import { prestartSandboxThread } from "../src/runner/sandbox-thread";
import { claimStdoutFromNpmBanner } from "./npm-banner";

// the runner's own sandbox's thread first, loading its modules on the other core while the runner's load on this one
prestartSandboxThread();
// required, not imported: an import would load the runner's modules (the bundle's ~0.1 s) before the line above
const { main } = require("../src/runner/workbook-runner") as typeof import("../src/runner/workbook-runner");

claimStdoutFromNpmBanner(process.argv.slice(2));
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
