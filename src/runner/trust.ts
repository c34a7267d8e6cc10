/**
 * What the runner's HTTPS requests trust (the token request, and the functions' requests in the Node host): what a
 * browser on this machine trusts, the system's CAs (with Node's bundled roots and NODE_EXTRA_CA_CERTS), plus the
 * runner's own sandbox's CA or the private CA given by `--ca`. Certificates are always verified; nothing turns that off.
 * One undici dispatcher over that trust serves every request of the run and is closed with the run's resources.
 */
import type { Socket } from "node:net";
import { type SecureContext, createSecureContext, getCACertificates } from "node:tls";
import type { Dispatcher, buildConnector } from "undici";

export interface Trust {
  /** One TLS context for every connection of the run (building it from a few hundred certificates takes 0.1-0.3 s). */
  readonly secureContext: SecureContext;
  /** The run's one connection pool over that context, made on first use: undici loads when a request is made, not with the runner. */
  dispatcher(): Promise<Dispatcher>;
  /**
   * Opens a connection to `url`'s origin now, which the pool's first request there takes instead of connecting then:
   * the runner knows its service before its first request, and the handshake overlaps the evaluation's calls.
   */
  preconnect(url: string): void;
  /** Ends the pool's connections, in flight or kept alive: the run's last use of the network. */
  close(): Promise<void>;
}

/**
 * How long a connection opened ahead stays the one a request takes: below the idle limits servers set (Node's 5 s
 * keep-alive), so that a server's close still in flight (this thread busy with the calls) never meets the request.
 */
const WARM_FOR_MS = 3_000;

/** The system's and Node's default CAs, and `extra` (PEM text, one certificate or several). */
export function trustWith(extra: readonly string[] = [], warmForMs = WARM_FOR_MS): Trust {
  // the system's store lists a certificate under several names (hash links): each counted once
  return trustOf([...new Set([...getCACertificates("default"), ...getCACertificates("system"), ...extra])], warmForMs);
}

/**
 * Only `ca`: a run whose one peer is its own sandbox trusts that sandbox's CA and nothing else (reading and building the
 * system's few hundred roots is 60-80 ms of the main thread that such a run never uses).
 */
export function trustOnly(ca: string): Trust {
  return trustOf([ca], WARM_FOR_MS);
}

type Connector = buildConnector.connector;
type ConnectOptions = buildConnector.Options;

function trustOf(ca: readonly string[], warmForMs: number): Trust {
  const secureContext = createSecureContext({ ca: [...ca] });
  let pool: Promise<{ agent: Dispatcher; connect: Connector }> | undefined;
  /** Connections opened ahead of a request, by origin: each taken by the first request there. */
  const warm = new Map<string, WarmConnection>();
  let closed = false;
  const opened = (): Promise<{ agent: Dispatcher; connect: Connector }> =>
    (pool ??= import("undici").then(({ Agent, buildConnector }) => {
      const connect = buildConnector({ secureContext });
      const taking: Connector = (options, callback) => {
        const key = originKey(options);
        const connection = warm.get(key);
        warm.delete(key);
        if (connection === undefined) connect(options, callback);
        else connection.take(() => { connect(options, callback); }, callback);
      };
      return { agent: new Agent({ connect: taking }), connect };
    }));
  return {
    secureContext,
    dispatcher: async () => (await opened()).agent,
    preconnect(url) {
      const target = new URL(url);
      // as undici's client asks its connector: an IPv6 address without its brackets, no servername of its own
      const options: ConnectOptions = { hostname: target.hostname.replace(/^\[(.*)\]$/, "$1"), host: target.host, protocol: target.protocol, port: target.port };
      const key = originKey(options);
      if (closed || warm.has(key)) return;
      const connection = new WarmConnection(warmForMs);
      warm.set(key, connection);
      opened().then(
        ({ connect }) => { connect(options, connection.connected); },
        (error: unknown) => { connection.connected(error instanceof Error ? error : new Error(String(error)), null); },
      );
    },
    close: async () => {
      closed = true;
      for (const connection of warm.values()) connection.drop();
      warm.clear();
      if (pool !== undefined) await (await pool).agent.destroy();
    },
  };
}

/** An origin as the pool's connector is asked for it and as `preconnect` names it (a default port given or not). */
function originKey(options: ConnectOptions): string {
  const port = options.port === "" ? (options.protocol === "https:" ? "443" : "80") : options.port;
  return `${options.protocol}//${options.hostname}:${port} ${options.servername ?? ""}`;
}

/** A connection opened ahead of its request: handed to the request that takes it, once connected (or a fresh one if it failed or closed meanwhile). */
class WarmConnection {
  private outcome: { socket: Socket | undefined; at: number } | undefined;
  private waiting: { fresh: () => void; callback: buildConnector.Callback } | undefined;
  private dropped = false;

  constructor(private readonly warmForMs: number) {}

  readonly connected: buildConnector.Callback = (error, socket) => {
    const usable = error === null ? socket : undefined;
    if (this.dropped) usable?.destroy();
    this.outcome = { socket: usable, at: Date.now() };
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting !== undefined) this.hand(waiting.fresh, waiting.callback);
  };

  take(fresh: () => void, callback: buildConnector.Callback): void {
    if (this.outcome === undefined) this.waiting = { fresh, callback };
    else this.hand(fresh, callback);
  }

  /** The trust closed before a request took it. */
  drop(): void {
    this.dropped = true;
    this.outcome?.socket?.destroy();
  }

  private hand(fresh: () => void, callback: buildConnector.Callback): void {
    const socket = this.outcome?.socket;
    const age = Date.now() - (this.outcome?.at ?? 0);
    // a failed handshake, a connection the server closed or may be closing: the request connects as it would have
    if (socket === undefined || socket.destroyed || socket.readyState !== "open" || !(age <= this.warmForMs)) {
      socket?.destroy();
      fresh();
      return;
    }
    // never from inside the pool's own call of its connector: undici handed a socket at once, already connected, wrote
    // nothing on it, and the request waited for the client's 20-s timeout (seen against a plain-HTTP --api on this machine)
    process.nextTick(() => { callback(null, socket); });
  }
}
