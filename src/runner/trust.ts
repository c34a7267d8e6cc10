/**
 * What the runner's HTTPS requests trust (the token request, and the functions' requests in the Node host): what a
 * browser on this machine trusts, the system's CAs (with Node's bundled roots and NODE_EXTRA_CA_CERTS), plus the
 * runner's own sandbox's CA or the private CA given by `--ca`. Certificates are always verified; nothing turns that off.
 * One undici dispatcher over that trust serves every request of the run and is closed with the run's resources.
 */
import { type SecureContext, createSecureContext, getCACertificates } from "node:tls";
import type { Dispatcher } from "undici";

export interface Trust {
  /** One TLS context for every connection of the run (building it from a few hundred certificates takes 0.1-0.3 s). */
  readonly secureContext: SecureContext;
  /** The run's one connection pool over that context, made on first use: undici loads when a request is made, not with the runner. */
  dispatcher(): Promise<Dispatcher>;
  /** Ends the pool's connections, in flight or kept alive: the run's last use of the network. */
  close(): Promise<void>;
}

/** The system's and Node's default CAs, and `extra` (PEM text, one certificate or several). */
export function trustWith(extra: readonly string[] = []): Trust {
  // the system's store lists a certificate under several names (hash links): each counted once
  return trustOf([...new Set([...getCACertificates("default"), ...getCACertificates("system"), ...extra])]);
}

/**
 * Only `ca`: a run whose one peer is its own sandbox trusts that sandbox's CA and nothing else (reading and building the
 * system's few hundred roots is 60-80 ms of the main thread that such a run never uses).
 */
export function trustOnly(ca: string): Trust {
  return trustOf([ca]);
}

function trustOf(ca: readonly string[]): Trust {
  const secureContext = createSecureContext({ ca: [...ca] });
  let pool: Promise<Dispatcher> | undefined;
  return {
    secureContext,
    dispatcher: () => (pool ??= import("undici").then(({ Agent }) => new Agent({ connect: { secureContext } }))),
    close: async () => {
      if (pool !== undefined) await (await pool).destroy();
    },
  };
}
