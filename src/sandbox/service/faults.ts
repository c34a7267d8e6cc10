/**
 * Injected faults for clients' reliability tests (`--faults SPEC`). Syntax: comma-separated items
 * `KIND[=PARAM][:RATE]`, RATE a fraction from 0 to 1 (default 1):
 *   latency=300ms:0.2   add 300 ms (or `1.5s`) before answering, to 20 % of requests
 *   500:0.05 | 503:0.05 answer with that status and a problem body
 *   429=2:0.05          answer 429 with `Retry-After: 2` (seconds, default 1)
 *   drop:0.02           destroy the connection without an answer
 *   truncate:0.02       answer 200 with the JSON body cut in half
 *   seed=7              the random sequence's seed (default: the sandbox's seed)
 * Latency is drawn on its own; the other kinds are exclusive, drawn once per request, and their rates may add
 * up to at most 1. The sequence is seeded, so the same requests in the same order meet the same faults.
 */
import { Random } from "../data/random";

export type FaultOutcome = "none" | "500" | "503" | "429" | "drop" | "truncate";

export interface FaultDecision {
  latencyMs: number;
  outcome: FaultOutcome;
  /** For 429: the Retry-After seconds. */
  retryAfter: number;
}

export interface FaultPlan {
  latency: { ms: number; rate: number }[];
  outcomes: { outcome: Exclude<FaultOutcome, "none">; rate: number }[];
  retryAfter: number;
  seed: number | undefined;
}

export class FaultSpecError extends Error {
  override readonly name = "FaultSpecError";
}

const ITEM = /^([a-z0-9]+)(?:=([^:]+))?(?::(.+))?$/i;

function parseRate(text: string | undefined, item: string): number {
  if (text === undefined) return 1;
  const rate = Number(text);
  if (text.trim() === "" || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new FaultSpecError(`--faults: in "${item}", the rate must be a number from 0 to 1`);
  }
  return rate;
}

function parseDuration(text: string | undefined, item: string): number {
  const match = text === undefined ? null : /^(\d+(?:\.\d+)?)(ms|s)?$/i.exec(text.trim());
  if (!match) throw new FaultSpecError(`--faults: in "${item}", latency needs a duration such as latency=300ms or latency=1.5s`);
  const value = Number(match[1]);
  return Math.round(match[2]?.toLowerCase() === "s" ? value * 1000 : value);
}

export function parseFaultSpec(spec: string): FaultPlan {
  const plan: FaultPlan = { latency: [], outcomes: [], retryAfter: 1, seed: undefined };
  for (const raw of spec.split(",")) {
    const item = raw.trim();
    if (item === "") continue;
    const match = ITEM.exec(item);
    if (!match) throw new FaultSpecError(`--faults: "${item}" is not KIND[=PARAM][:RATE]`);
    const kind = (match[1] as string).toLowerCase();
    const param = match[2];
    const rateText = match[3];
    switch (kind) {
      case "latency":
        plan.latency.push({ ms: parseDuration(param, item), rate: parseRate(rateText, item) });
        break;
      case "500":
      case "503":
      case "drop":
      case "truncate":
        if (param !== undefined) throw new FaultSpecError(`--faults: "${kind}" takes no parameter (in "${item}")`);
        plan.outcomes.push({ outcome: kind, rate: parseRate(rateText, item) });
        break;
      case "429": {
        if (param !== undefined) {
          const seconds = Number(param);
          if (!Number.isInteger(seconds) || seconds < 0) throw new FaultSpecError(`--faults: in "${item}", Retry-After must be whole seconds`);
          plan.retryAfter = seconds;
        }
        plan.outcomes.push({ outcome: "429", rate: parseRate(rateText, item) });
        break;
      }
      case "seed": {
        const seed = Number(param);
        if (param === undefined || !Number.isInteger(seed)) throw new FaultSpecError(`--faults: "${item}" needs an integer, e.g. seed=7`);
        plan.seed = seed;
        break;
      }
      default:
        throw new FaultSpecError(`--faults: unknown kind "${kind}"; known: latency, 500, 503, 429, drop, truncate, seed`);
    }
  }
  const total = plan.outcomes.reduce((sum, o) => sum + o.rate, 0);
  if (total > 1 + 1e-9) throw new FaultSpecError(`--faults: the rates of 500, 503, 429, drop and truncate add up to ${total}, over 1`);
  return plan;
}


export interface FaultInjector {
  readonly plan: FaultPlan;
  next(): FaultDecision;
}

export function createFaultInjector(plan: FaultPlan, defaultSeed: number): FaultInjector {
  const generator = new Random(plan.seed ?? defaultSeed);
  const next = (): number => generator.next();
  return {
    plan,
    next(): FaultDecision {
      let latencyMs = 0;
      for (const latency of plan.latency) if (next() < latency.rate) latencyMs += latency.ms;
      let outcome: FaultOutcome = "none";
      if (plan.outcomes.length > 0) {
        const draw = next();
        let edge = 0;
        for (const candidate of plan.outcomes) {
          edge += candidate.rate;
          if (draw < edge) {
            outcome = candidate.outcome;
            break;
          }
        }
      }
      return { latencyMs, outcome, retryAfter: plan.retryAfter };
    },
  };
}
