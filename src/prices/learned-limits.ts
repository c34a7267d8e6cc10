/**
 * Limits taught by the service (decision 11): the client never relies on its limit settings being the
 * service's. A 400 whose problem body names a limit (symbols, dates or price records per request) lowers
 * that limit for the rest of the session, and the keys of the refused request are planned again within it.
 */
import type { Limits } from "../api/vocabulary";

const TAGGED = /limit of ([\d,]+)[^()]*?\((maxSymbols|maxDates|maxRecords)\)/i;
const WORDED = /limit of ([\d,]+) (symbols|dates|(?:price )?records)\b/i;
const BY_WORD: Record<string, keyof Limits> = { symbols: "maxSymbols", dates: "maxDates", records: "maxRecords", "price records": "maxRecords" };

/** The limits lowered by what a refusal says, or undefined when it names no limit below the current one. */
export function learnLimits(error: unknown, limits: Readonly<Limits>): Limits | undefined {
  if (!isBadRequest(error)) return undefined;
  const problem = error.problem;
  const texts = [problem?.detail, ...(problem?.errors ?? []).map((item) => item.message)].filter((text): text is string => typeof text === "string");
  let learned: Limits | undefined;
  for (const text of texts) {
    const named = readLimit(text);
    if (!named) continue;
    const [name, value] = named;
    const current = (learned ?? limits)[name];
    if (value >= 1 && value < current) learned = { ...(learned ?? limits), [name]: value };
  }
  return learned;
}

function readLimit(text: string): [keyof Limits, number] | undefined {
  const tagged = TAGGED.exec(text);
  if (tagged) return [tagged[2] as keyof Limits, Number((tagged[1] as string).replace(/,/g, ""))];
  const worded = WORDED.exec(text);
  const name = worded ? BY_WORD[(worded[2] as string).toLowerCase()] : undefined;
  return worded && name ? [name, Number((worded[1] as string).replace(/,/g, ""))] : undefined;
}

interface BadRequest {
  status: 400;
  problem?: { detail?: string; errors?: { message: string }[] };
}

function isBadRequest(error: unknown): error is BadRequest {
  return typeof error === "object" && error !== null && (error as { status?: unknown }).status === 400 && (error as { name?: unknown }).name === "HTTPError";
}
