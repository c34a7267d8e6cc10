/**
 * The memory of a process and every descendant (a runner, its sandbox, a browser's helpers), sampled from /proc:
 * PSS from /proc/PID/smaps_rollup, so pages the processes share (a browser's zygote and renderers, the same
 * executable) count once, split among them; RSS beside it, which counts shared pages in each process. Linux only.
 */
import { readFileSync, readdirSync } from "node:fs";

export interface TreeSample {
  /** Sum of the processes' proportional set sizes, in kB. */
  readonly pssKb: number;
  /** Sum of their resident set sizes, in kB (shared pages counted once per process). */
  readonly rssKb: number;
  /** The largest single process's RSS, in kB, and its command name. */
  readonly largestRssKb: number;
  readonly largestName: string;
  readonly processes: number;
}

function parentOf(pid: number): { ppid: number; name: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the command name is in parentheses and may itself hold spaces or parentheses: the fields follow the last ')'
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    return { ppid: Number(fields[1]), name: stat.slice(stat.indexOf("(") + 1, close) };
  } catch {
    return undefined;
  }
}

function rollup(pid: number): { pssKb: number; rssKb: number } {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0);
    return { pssKb: field("Pss"), rssKb: field("Rss") };
  } catch {
    // the process ended between the listing and the read
    return { pssKb: 0, rssKb: 0 };
  }
}

/** `root` and its descendants as they are now. */
export function sampleTree(root: number): TreeSample {
  const children = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const info = parentOf(pid);
    if (!info) continue;
    names.set(pid, info.name);
    children.set(info.ppid, [...(children.get(info.ppid) ?? []), pid]);
  }
  const tree = [root];
  for (let index = 0; index < tree.length; index += 1) tree.push(...(children.get(tree[index] ?? -1) ?? []));
  let pssKb = 0;
  let rssKb = 0;
  let largestRssKb = 0;
  let largestName = "";
  for (const pid of tree) {
    const memory = rollup(pid);
    pssKb += memory.pssKb;
    rssKb += memory.rssKb;
    if (memory.rssKb > largestRssKb) {
      largestRssKb = memory.rssKb;
      largestName = names.get(pid) ?? "";
    }
  }
  return { pssKb, rssKb, largestRssKb, largestName, processes: tree.length };
}

export interface TreePeak {
  readonly pssMb: number;
  readonly rssMb: number;
  readonly largestRssMb: number;
  readonly largestName: string;
  readonly processes: number;
}

/** Samples the tree of `root` every `intervalMs` until `stop()`, which returns each figure's peak. */
export function watchTree(root: number, intervalMs = 100): { stop(): TreePeak } {
  let pssKb = 0;
  let rssKb = 0;
  let largestRssKb = 0;
  let largestName = "";
  let processes = 0;
  const sample = (): void => {
    const now = sampleTree(root);
    pssKb = Math.max(pssKb, now.pssKb);
    rssKb = Math.max(rssKb, now.rssKb);
    processes = Math.max(processes, now.processes);
    if (now.largestRssKb > largestRssKb) {
      largestRssKb = now.largestRssKb;
      largestName = now.largestName;
    }
  };
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      const mb = (kb: number): number => Math.round(kb / 1024);
      return { pssMb: mb(pssKb), rssMb: mb(rssKb), largestRssMb: mb(largestRssKb), largestName, processes };
    },
  };
}
