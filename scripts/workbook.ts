/** `npm run workbook -- BOOK.json | MODEL.xlsx --out REFRESHED.xlsx ...`: the runner (src/runner/workbook-runner.ts) on this process's arguments. */
import { main } from "../src/runner/workbook-runner";
import { claimStdoutFromNpmBanner } from "./npm-banner";

claimStdoutFromNpmBanner(process.argv.slice(2));
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
