/** Rewrites one `## Title` section of docs/benchmarks.md, leaving the other scripts' sections alone. */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

const FILE = path.resolve(__dirname, "..", "docs", "benchmarks.md");
const HEAD = "# Benchmarks\n\nFigures measured on the project's 2-core machine; each section is written by its script.\n";

export async function writeSection(title: string, body: string): Promise<void> {
  const existing = existsSync(FILE) ? await readFile(FILE, "utf8") : HEAD;
  const section = `## ${title}\n\n${body.trimEnd()}\n`;
  const start = existing.indexOf(`\n## ${title}\n`);
  if (start < 0) {
    await writeFile(FILE, `${existing.trimEnd()}\n\n${section}`);
    return;
  }
  const next = existing.indexOf("\n## ", start + 1);
  await writeFile(FILE, `${existing.slice(0, start + 1)}${section}${next < 0 ? "" : existing.slice(next)}`);
}

/** One measured case against its target, as a table row. */
export interface TargetRow {
  case: string;
  figure: string;
  target: string;
  met: boolean;
}

/** Prints a case's JSON line (the figures and whether the target was met) and keeps its table row in `into`. */
export function reportCase(into: TargetRow[], name: string, result: Record<string, number | string>, figure: string, target: string, met: boolean): void {
  process.stdout.write(`${JSON.stringify({ case: name, ...result, target, met })}\n`);
  into.push({ case: name, figure, target, met });
}

/** A "case | figure | target | met" table, one row per case (cells as written, or a TargetRow). */
export function targetTable(rows: readonly (readonly string[] | TargetRow)[]): string {
  const cells = (row: readonly string[] | TargetRow): readonly string[] => ("case" in row ? [row.case, row.figure, row.target, row.met ? "yes" : "NO"] : row);
  return ["| case | figure | target | met |", "| --- | --- | --- | --- |", ...rows.map((row) => `| ${cells(row).join(" | ")} |`)].join("\n");
}

/** The JSON lines a benchmark printed, fenced, under "Raw lines:". */
export function rawLines(cases: readonly unknown[]): string {
  return ["Raw lines:", "", "```", ...cases.map((item) => JSON.stringify(item)), "```"].join("\n");
}
