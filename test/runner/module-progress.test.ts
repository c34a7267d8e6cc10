/**
 * The runner's lines from inside module loading (src/runner/module-progress.ts). Jest refuses Node's loader hooks, so
 * the helper runs in a Node process of its own (tsx, as `npm run workbook` runs it): it counts the modules resolved
 * while it listens, and none after `stop()`.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** Requires `before` while listening and `after` once stopped; prints the steps heard by then. */
function stepsAround(before: string, after: string): { listening: number; stopped: number } {
  const script = `
    const { duringModuleLoads } = require(${JSON.stringify(join(ROOT, "src/runner/module-progress.ts"))});
    let steps = 0;
    const loads = duringModuleLoads(() => { steps += 1; });
    require(${JSON.stringify(before)});
    const listening = steps;
    loads.stop();
    require(${JSON.stringify(after)});
    process.stdout.write(JSON.stringify({ listening, stopped: steps - listening }));
  `;
  const printed = execFileSync(process.execPath, ["--import", "tsx", "-e", script], { cwd: ROOT, encoding: "utf8" });
  return JSON.parse(printed) as { listening: number; stopped: number };
}

describe("duringModuleLoads", () => {
  it("steps at each module a require resolves, and no more once stopped", () => {
    const steps = stepsAround("saxes", "fflate");
    expect(steps.listening).toBeGreaterThan(0);
    expect(steps.stopped).toBe(0);
  });

  it("does nothing, and throws nothing, where the loader refuses hooks (Jest's)", () => {
    let steps = 0;
    const loads = jest.requireActual<typeof import("../../src/runner/module-progress")>("../../src/runner/module-progress").duringModuleLoads(() => {
      steps += 1;
    });
    loads.stop();
    expect(steps).toBe(0);
  });
});
