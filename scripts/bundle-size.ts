/**
 * Builds the add-in in production mode into a temporary folder and reports the gzip size of every
 * entry and async chunk as JSON lines; writes the "Bundle" section of docs/benchmarks.md.
 *   npm run bench:bundle            report and update docs/benchmarks.md
 *   npm run bench:bundle -- --no-docs
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import webpack, { type Configuration, type StatsCompilation } from "webpack";
import { writeSection } from "./bench-section";

/** What must load before the first value (functions.js and the client inside it, not office.js). */
export const FIRST_VALUE_BUDGET_BYTES = 60 * 1024;

export interface ChunkSize {
  kind: "entry" | "async";
  /** Entry name, or the async chunk's name (or id). */
  name: string;
  files: string[];
  bytes: number;
  gzipBytes: number;
  /** True when any module of @azure/msal-* is inside. */
  msal: boolean;
}

export interface BundleReport {
  outputDir: string;
  chunks: ChunkSize[];
  /** Gzip bytes of the functions entry: the code that must load before the first value. */
  firstValueGzipBytes: number;
  budgetBytes: number;
  /** Initial (non-async) chunks that hold MSAL code; must be empty. */
  initialChunksWithMsal: string[];
}

type ConfigFactory = (env: Record<string, unknown>, argv: { mode: string }) => Configuration;

export function runWebpack(config: Configuration): Promise<StatsCompilation> {
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error || !stats) return reject(error ?? new Error("webpack gave no stats"));
      const json = stats.toJson({ all: false, assets: true, chunks: true, chunkModules: true, entrypoints: true, errors: true, outputPath: true });
      if (stats.hasErrors()) return reject(new Error(`webpack failed: ${(json.errors ?? []).map((e) => e.message).join("\n")}`));
      resolve(json);
    });
  });
}

/** Production build into `outputDir` (a new temporary folder by default). */
export async function buildProduction(outputDir = mkdtempSync(join(tmpdir(), "prices-bundle-")), env: Record<string, unknown> = {}): Promise<{ outputDir: string; stats: StatsCompilation }> {
  const factory = require("../webpack.config.js") as unknown as ConfigFactory;
  const config = factory(env, { mode: "production" });
  config.output = { ...config.output, path: outputDir };
  const stats = await runWebpack(config);
  return { outputDir, stats };
}

function gzipSize(path: string): { bytes: number; gzipBytes: number } {
  const content = readFileSync(path);
  return { bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
}

export function measure(outputDir: string, stats: StatsCompilation): BundleReport {
  const chunks: ChunkSize[] = [];
  const initialChunksWithMsal: string[] = [];
  for (const chunk of stats.chunks ?? []) {
    const files = [...(chunk.files ?? [])].filter((file) => file.endsWith(".js"));
    const msal = (chunk.modules ?? []).some((module) => /@azure[\\/]msal-/.test(module.name ?? "") || (module.modules ?? []).some((inner) => /@azure[\\/]msal-/.test(inner.name ?? "")));
    let bytes = 0;
    let gzipBytes = 0;
    for (const file of files) {
      const size = gzipSize(join(outputDir, file));
      bytes += size.bytes;
      gzipBytes += size.gzipBytes;
    }
    const name = (chunk.names ?? [])[0] ?? String(chunk.id);
    if (chunk.initial && msal) initialChunksWithMsal.push(name);
    chunks.push({ kind: chunk.initial ? "entry" : "async", name, files, bytes, gzipBytes, msal });
  }
  const functionsFiles = stats.entrypoints?.functions?.assets?.map((asset) => asset.name).filter((file) => file.endsWith(".js")) ?? [];
  const firstValueGzipBytes = functionsFiles.reduce((sum, file) => sum + gzipSize(join(outputDir, file)).gzipBytes, 0);
  chunks.sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === "entry" ? -1 : 1));
  return { outputDir, chunks, firstValueGzipBytes, budgetBytes: FIRST_VALUE_BUDGET_BYTES, initialChunksWithMsal };
}

function kb(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}

export function bundleSection(report: BundleReport, date: string): string {
  const rows = report.chunks.map(
    (chunk) => `| ${chunk.name} | ${chunk.kind} | ${chunk.files.join(", ")} | ${kb(chunk.bytes)} | ${kb(chunk.gzipBytes)} | ${chunk.msal ? "yes" : "no"} |`,
  );
  return [
    `Measured ${date} by \`npm run bench:bundle\` (production build, gzip level 9, office.js excluded).`,
    "",
    `- Before the first value (functions.js with the prices client): **${kb(report.firstValueGzipBytes)} KB gzip**; budget ${kb(report.budgetBytes)} KB (${report.firstValueGzipBytes <= report.budgetBytes ? "within" : "OVER"}).`,
    `- MSAL is only in async chunks (loaded on sign-in): ${report.initialChunksWithMsal.length === 0 ? "yes" : `no, in ${report.initialChunksWithMsal.join(", ")}`}.`,
    "",
    "| chunk | kind | files | KB | KB gzip | MSAL |",
    "|---|---|---|---:|---:|---|",
    ...rows,
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  const { outputDir, stats } = await buildProduction();
  try {
    const report = measure(outputDir, stats);
    for (const chunk of report.chunks) console.log(JSON.stringify(chunk));
    console.log(
      JSON.stringify({
        kind: "summary",
        firstValueGzipBytes: report.firstValueGzipBytes,
        budgetBytes: report.budgetBytes,
        withinBudget: report.firstValueGzipBytes <= report.budgetBytes,
        msalOnlyAsync: report.initialChunksWithMsal.length === 0,
      }),
    );
    if (!parseArgs({ options: { "no-docs": { type: "boolean", default: false } } }).values["no-docs"]) {
      await writeSection("Bundle", bundleSection(report, new Date().toISOString().slice(0, 10)));
    }
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
