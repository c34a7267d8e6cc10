/**
 * `npm run bench`: runs every benchmark part in turn (sandbox, limits and relay, hostile clients, client, data types, bundle, workbook files, soak, reopen). Each part prints one JSON
 * line per case and rewrites its own section of docs/benchmarks.md.
 */
import { spawnSync } from "node:child_process";

const PARTS = ["bench:sandbox", "bench:limits", "bench:hostile", "bench:client", "bench:data-types", "bench:bundle", "bench:xlsx", "bench:soak", "bench:reopen"] as const;

let failed = 0;
for (const part of PARTS) {
  process.stderr.write(`\n== npm run ${part}\n`);
  const result = spawnSync("npm", ["run", "--silent", part], { stdio: "inherit" });
  if (result.status !== 0) {
    failed += 1;
    process.stderr.write(`${part} failed with exit code ${String(result.status)}\n`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
