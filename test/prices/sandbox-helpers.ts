/** The real sandbox on a random port, a fetch that trusts its CA and counts API calls, and direct requests. */
import { Agent, fetch as undiciFetch } from "undici";
import { dispatcherFetch } from "../../src/prices/dispatcher-fetch";
import { fromEpochDay } from "../../src/api/dates";
import { clientCredentialsTokenProvider, type TokenProvider } from "../../src/prices";
import type { DataSet } from "../../src/sandbox/data/model";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../src/sandbox/server";

export const SCOPE = "sandbox.physicalprices.api";

export interface Harness {
  sandbox: RunningSandbox;
  /** Trusts the sandbox's CA; counts API and token calls. */
  fetch: typeof fetch;
  counts: { api: number; token: number };
  tokens(clientId?: string): TokenProvider;
  /** A direct GET of the API with a token, parsed. */
  get(path: string, params: Record<string, string>, token: string): Promise<unknown>;
  close(): Promise<void>;
}

export async function startHarness(options: Partial<SandboxOptions> = {}): Promise<Harness> {
  const sandbox = await startSandbox({ port: 0, quiet: true, ...options });
  const agent = new Agent({ connect: { ca: sandbox.ca } });
  const counts = { api: 0, token: 0 };
  const agentFetch = dispatcherFetch(agent);
  const fetchImpl: typeof fetch = (input, init) => {
    if (String(input).startsWith(sandbox.apiUrl)) counts.api += 1;
    else counts.token += 1;
    return agentFetch(input, init);
  };
  return {
    sandbox,
    fetch: fetchImpl,
    counts,
    tokens: (clientId = "sandbox-full") =>
      clientCredentialsTokenProvider({ tokenUrl: `${sandbox.issuer}/token`, clientId, clientSecret: `${clientId}-secret`, scope: SCOPE, resource: sandbox.apiUrl, fetch: fetchImpl }),
    async get(path, params, token) {
      const response = await undiciFetch(`${sandbox.apiUrl}${path}?${new URLSearchParams(params).toString()}`, {
        headers: { authorization: `Bearer ${token}` },
        dispatcher: agent,
      });
      if (!response.ok) throw new Error(`direct ${path}: ${response.status}`);
      return response.json();
    },
    async close() {
      await sandbox.close();
      await agent.close();
    },
  };
}

/** Low, mid and high of the latest assessment on or before `date`, read from the data set itself. */
export function expectedOn(data: DataSet, symbol: string, date: string): { date: string; low: number; mid: number; high: number } | undefined {
  const instrument = data.instruments.find((item) => item.record.symbol === symbol);
  if (!instrument) return undefined;
  const { series } = instrument;
  const target = Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
  let found = -1;
  for (let index = 0; index < series.length; index += 1) {
    if ((series.days[index] ?? Infinity) <= target) found = index;
    else break;
  }
  if (found < 0) return undefined;
  return { date, low: series.low[found] ?? NaN, mid: series.mid[found] ?? NaN, high: series.high[found] ?? NaN };
}

/** Weekdays ending at `end` (inclusive), `count` of them, descending. */
export function weekdaysBefore(end: string, count: number): string[] {
  const out: string[] = [];
  let day = Math.floor(Date.parse(`${end}T00:00:00Z`) / 86_400_000);
  while (out.length < count) {
    const weekday = (((day + 3) % 7) + 7) % 7;
    if (weekday < 5) out.push(fromEpochDay(day));
    day -= 1;
  }
  return out;
}
