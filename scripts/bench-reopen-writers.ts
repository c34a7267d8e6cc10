/**
 * `npx tsx scripts/bench-reopen-writers.ts`: two processes saving one partition file at the same instant, many times, in
 * three ways: a rename alone (each writes what it holds: the form before issue 28), a merge with what the file holds
 * and a rename (no lock), and the file backend's save (the same under the partition's lock file). Each writer adds 20
 * entries of its own to a partition of 10,000 shared ones; an entry missing afterwards is lost. Also the save's time
 * with and without the lock. Rewrites the "Two writers" section of docs/benchmarks.md. What chose the lock.
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { FileCacheBackend } from "../src/prices/persistent/file-backend";
import { mergeLines } from "../src/prices/persistent/merge";
import { ADDIN_VERSION, type Partition, partitionFor } from "../src/prices/persistent";
import { storedLine } from "../src/prices/persistent/stored-line";
import { rawLines, targetTable, writeSection } from "./bench-section";

const ROUNDS = 100;
const SHARED = 10_000;
const OWN = 20;
const STRATEGIES = ["rename alone", "merge and rename", "lock, merge and rename"] as const;
type Strategy = (typeof STRATEGIES)[number];

interface Order {
  readonly dir: string;
  readonly writer: number;
  readonly strategy: Strategy;
}

const line = (symbol: string, index: number): string => storedLine(`p|${symbol}|2025-05-14|None|`, "2025-06-30", 1_750_000_000_000 + index, JSON.stringify({ assessmentDate: "2025-05-14T00:00:00Z", mid: index }));
const headerOf = (partition: Partition): string => JSON.stringify({ version: partition.version, baseUrl: partition.baseUrl, subject: partition.subject });

async function partition(): Promise<Partition> {
  return partitionFor("https://prices.example.com/physical/v2", "bench", ADDIN_VERSION);
}

/** A writer's save: what it loaded (the shared entries) and its own. */
async function save(order: Order): Promise<void> {
  const part = await partition();
  const ours = [...sharedLines(), ...Array.from({ length: OWN }, (_, index) => line(`W${order.writer}-${index}`, index))];
  const target = join(order.dir, `${part.id}.jsonl`);
  if (order.strategy === "lock, merge and rename") return new FileCacheBackend(order.dir).save(part, ours);
  const theirs = order.strategy === "merge and rename" ? (await readFile(target, "utf8")).split("\n").slice(1).filter((text) => text !== "") : [];
  const lines = order.strategy === "merge and rename" ? mergeLines(ours, theirs, new Set(), 50 * 1024 * 1024) : ours;
  const temporary = `${target}.${randomUUID()}.tmp`;
  await writeFile(temporary, [headerOf(part), ...lines].join("\n") + "\n");
  await rename(temporary, target).finally(() => rm(temporary, { force: true }));
}

let shared: string[] | undefined;
function sharedLines(): string[] {
  shared ??= Array.from({ length: SHARED }, (_, index) => line(`S-${index}`, index));
  return shared;
}

function ask(child: ChildProcess, order: Order): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once("message", (reply: unknown) => (reply === "saved" ? resolve() : reject(new Error(String(reply)))));
    child.send(order);
  });
}

async function main(): Promise<void> {
  if (process.argv[2] === "writer") {
    process.on("message", (order: Order) => {
      void save(order).then(
        () => process.send?.("saved"),
        (error: unknown) => process.send?.(error instanceof Error ? error.message : String(error)),
      );
    });
    return;
  }
  const root = mkdtempSync(join(tmpdir(), "prices-bench-writers-"));
  const children = [0, 1].map(() => fork(__filename, ["writer"], { execArgv: process.execArgv }));
  const part = await partition();
  const rows: string[][] = [];
  const raw: Record<string, number | string>[] = [];
  try {
    for (const strategy of STRATEGIES) {
      let lost = 0;
      let roundsLosing = 0;
      const times: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const dir = join(root, `${strategy.replace(/\W+/g, "-")}-${round}`);
        mkdirSync(dir);
        writeFileSync(join(dir, `${part.id}.jsonl`), [headerOf(part), ...sharedLines()].join("\n") + "\n");
        const started = performance.now();
        await Promise.all(children.map((child, writer) => ask(child, { dir, writer, strategy })));
        times.push(performance.now() - started);
        const kept = new Set(readFileSync(join(dir, `${part.id}.jsonl`), "utf8").split("\n"));
        const missing = [0, 1].flatMap((writer) => Array.from({ length: OWN }, (_, index) => line(`W${writer}-${index}`, index))).filter((text) => !kept.has(text)).length;
        lost += missing;
        if (missing > 0) roundsLosing += 1;
        rmSync(dir, { recursive: true, force: true });
      }
      times.sort((a, b) => a - b);
      const median = Math.round((times[Math.floor(times.length / 2)] ?? 0) * 10) / 10;
      const result = { case: strategy, rounds: ROUNDS, roundsLosing, entriesLost: lost, entriesWritten: ROUNDS * 2 * OWN, medianBothSavedMs: median, loadAverage: Math.round((loadavg()[0] ?? 0) * 10) / 10 };
      process.stdout.write(`${JSON.stringify(result)}\n`);
      raw.push(result);
      rows.push([strategy, `${lost} of ${ROUNDS * 2 * OWN} entries lost, in ${roundsLosing} of ${ROUNDS} rounds; both saves done in ${median} ms (median)`, "0 lost", lost === 0 ? "yes" : "NO"]);
    }
    await writeSection(
      "Two writers",
      [
        `\`npx tsx scripts/bench-reopen-writers.ts\`: two processes save one partition file at the same instant, ${ROUNDS} times per way of saving; each holds the ${SHARED.toLocaleString("en-US")} entries the file held and ${OWN} of its own. An entry missing from the file afterwards is lost. A rename alone (the form before issue 28) keeps only the last writer's; a merge with a rename but no lock loses whatever the other renamed between this one's read and its rename; the file backend's save takes the partition's lock file around read, merge and rename, and loses none. The lock's cost is the median time until both saves are done. The machine's load average at the end of each way is in its raw line.`,
        "",
        targetTable(rows),
        "",
        rawLines(raw),
      ].join("\n"),
    );
  } finally {
    for (const child of children) child.kill();
    rmSync(root, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
