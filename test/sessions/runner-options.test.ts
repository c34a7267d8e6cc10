/** The runner's `--cache`, `--plan` and `--changes` as its command line reads them. */
import { resolve } from "node:path";
import { UsageError, parseArguments } from "../../src/runner/arguments";

describe("runner options of the persistent cache, plan and change report", () => {
  it("reads --cache DIR, --plan and --changes FILE", () => {
    const options = parseArguments(["model.xlsx", "--out", "out.xlsx", "--cache", "cache-dir", "--plan", "--changes=changes.csv", "--today", "2025-06-27"]);
    expect(options).toMatchObject({ cache: resolve("cache-dir"), plan: true, changes: resolve("changes.csv"), out: resolve("out.xlsx") });
    expect(parseArguments(["book.json", "--cache", "dir"])).toMatchObject({ cache: resolve("dir") });
    expect(parseArguments(["book.json"])).not.toHaveProperty("plan");
  });
  it("refuses --changes without a refreshed .xlsx, and --cache without a directory", () => {
    expect(() => parseArguments(["book.json", "--changes", "changes.csv"])).toThrow(new UsageError("--changes applies to a workbook file refreshed with --out"));
    expect(() => parseArguments(["book.json", "--cache"])).toThrow("--cache needs a value");
  });
});
