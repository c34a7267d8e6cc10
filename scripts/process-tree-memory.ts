/**
 * The memory of a process and every descendant (a runner, its sandbox, a browser's helpers), sampled from /proc:
 * PSS from /proc/PID/smaps_rollup, so pages the processes share (a browser's zygote and renderers, the same
 * executable) count once, split among them; RSS beside it, which counts shared pages in each process. Also the CPU
 * time the tree used (user and system, from /proc/PID/stat, as last sampled for each process). Linux only.
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
  /** Each process's CPU time so far (user + system), in clock ticks, by pid. */
  readonly cpuTicks: ReadonlyMap<number, number>;
}

function parentOf(pid: number): { ppid: number; name: string; cpuTicks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the command name is in parentheses and may itself hold spaces or parentheses: the fields follow the last ')'
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    // fields[0] is stat's third field (state): utime and stime are its 14th and 15th
    return { ppid: Number(fields[1]), name: stat.slice(stat.indexOf("(") + 1, close), cpuTicks: Number(fields[11]) + Number(fields[12]) };
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
  const ticks = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const info = parentOf(pid);
    if (!info) continue;
    names.set(pid, info.name);
    ticks.set(pid, info.cpuTicks);
    children.set(info.ppid, [...(children.get(info.ppid) ?? []), pid]);
  }
  const tree = [root];
  for (let index = 0; index < tree.length; index += 1) tree.push(...(children.get(tree[index] ?? -1) ?? []));
  let pssKb = 0;
  let rssKb = 0;
  let largestRssKb = 0;
  let largestName = "";
  const cpuTicks = new Map<number, number>();
  for (const pid of tree) {
    cpuTicks.set(pid, ticks.get(pid) ?? 0);
    const memory = rollup(pid);
    pssKb += memory.pssKb;
    rssKb += memory.rssKb;
    if (memory.rssKb > largestRssKb) {
      largestRssKb = memory.rssKb;
      largestName = names.get(pid) ?? "";
    }
  }
  return { pssKb, rssKb, largestRssKb, largestName, processes: tree.length, cpuTicks };
}

export interface TreePeak {
  readonly pssMb: number;
  readonly rssMb: number;
  readonly largestRssMb: number;
  readonly largestName: string;
  readonly processes: number;
  /** CPU seconds the tree used, up to each process's last sample (a process's last 100 ms may be missed). */
  readonly cpuSeconds: number;
}

/** Samples the tree of `root` every `intervalMs` until `stop()`, which returns each figure's peak. */
export function watchTree(root: number, intervalMs = 100): { stop(): TreePeak } {
  let pssKb = 0;
  let rssKb = 0;
  let largestRssKb = 0;
  let largestName = "";
  let processes = 0;
  const cpuTicks = new Map<number, number>();
  const sample = (): void => {
    const now = sampleTree(root);
    for (const [pid, ticks] of now.cpuTicks) cpuTicks.set(pid, Math.max(cpuTicks.get(pid) ?? 0, ticks));
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
      const ticks = [...cpuTicks.values()].reduce((sum, value) => sum + value, 0);
      // Linux counts CPU time in ticks of 1/100 s (USER_HZ)
      return { pssMb: mb(pssKb), rssMb: mb(rssKb), largestRssMb: mb(largestRssKb), largestName, processes, cpuSeconds: ticks / 100 };
    },
  };
}
