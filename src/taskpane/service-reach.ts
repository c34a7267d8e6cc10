/**
 * Whether the prices service can be reached, from the client's own requests: a fetch that fails before any answer
 * (network, refused, timed out) or a 502/504 from a relay marks it unreachable from that moment; any other answer
 * marks it reachable again. The pane's and the workbench's header line say it plainly, with since when and the
 * last successful contact (the first failed attempt is enough: the client's retries come after).
 */

export interface ServiceReachState {
  readonly reachable: boolean;
  /** When the service first failed to answer (unreachable only). */
  readonly since?: number;
  /** The last answer the service gave. */
  readonly lastContact?: number;
  /** Why the last attempt failed, in a few words (never a URL or a header). */
  readonly cause?: string;
}

/** Statuses a relay or gateway gives when the service behind it does not answer. */
const GATEWAY_DOWN = new Set([502, 504]);

export class ServiceReach {
  private current: ServiceReachState = { reachable: true };
  private readonly listeners = new Set<(state: ServiceReachState) => void>();

  constructor(private readonly now: () => number = Date.now) {}

  state(): ServiceReachState {
    return this.current;
  }

  subscribe(listener: (state: ServiceReachState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A fetch that reports each attempt under `baseUrl` here; other URLs (the token service) pass untouched. */
  wrap(fetchFn: typeof fetch, baseUrl: string): typeof fetch {
    const prefix = baseUrl.replace(/\/+$/, "");
    return async (input, init) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (!url.startsWith(prefix)) return fetchFn(input, init);
      try {
        const response = await fetchFn(input, init);
        if (GATEWAY_DOWN.has(response.status)) this.failed(`the gateway answered ${response.status}`);
        else this.answered();
        return response;
      } catch (error) {
        // a request the client itself cancelled says nothing about the service
        if (!(error instanceof Error && error.name === "AbortError")) this.failed(error instanceof Error && error.name === "TimeoutError" ? "no answer in time" : "no connection");
        throw error;
      }
    };
  }

  private answered(): void {
    const at = this.now();
    const was = this.current;
    this.current = { reachable: true, lastContact: at };
    if (!was.reachable) this.emit();
  }

  private failed(cause: string): void {
    const was = this.current;
    this.current = { reachable: false, since: was.reachable ? this.now() : was.since, ...(was.lastContact === undefined ? {} : { lastContact: was.lastContact }), cause };
    if (was.reachable || was.cause !== cause) this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener(this.current);
  }
}

/** The header's sentence while the service cannot be reached, or undefined while it can. */
export function unreachableLine(state: ServiceReachState): string | undefined {
  if (state.reachable) return undefined;
  const time = (at: number): string => new Date(at).toLocaleString();
  const last = state.lastContact === undefined ? "no successful contact yet" : `last successful contact ${time(state.lastContact)}`;
  return `The prices service cannot be reached (${state.cause ?? "no connection"}) since ${time(state.since ?? 0)}; ${last}. Values shown were fetched before; cells without one say "service unreachable".`;
}
