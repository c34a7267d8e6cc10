/**
 * `npm run relay -- --api URL --token URL [--authority URL] [--static DIR] [--port N] [--host H] [--ca FILE] [--cert FILE --key FILE]`:
 * the relay on one origin (see app.ts and README, "Connecting to the real service"). Prints `RELAY <origin>`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { UsageError, urlArgument } from "../api/usage-error";
import { buildRelay, type RelayOptions } from "./app";

const USAGE = `Usage: npm run relay -- --api URL --token URL [options]
  --api URL        upstream API base URL, e.g. https://api.vendor.example/physical/v2
  --token URL      upstream token endpoint, e.g. https://api.vendor.example/connect/token
  --authority URL  upstream OpenID Connect issuer, e.g. https://api.vendor.example: the relay serves its
                   discovery at /auth with its own token path, so the pane signs in with Authority https://<relay>/auth
  --public-origin URL  the relay's origin as browsers see it (default: from each request's Host, if allowed)
  --allowed-host H the Host a discovery document may be named after without --public-origin (repeatable;
                   default localhost, 127.0.0.1, [::1]); any other Host gets a 400
  --trust-proxy A  the TLS front's address(es), comma-separated: callers are told apart by X-Forwarded-For
  --per-caller N   upstream requests one client may have in flight (default 16; past it a 429)
  --upstream-connections N  upstream requests in flight in all (default 128; past it a 503)
  --static DIR     the built add-in to serve at / (default dist)
  --port N         port (default 8443; 0 = any free port)
  --host H         interface (default localhost)
  --ca FILE        extra CA certificate (PEM) to trust for the upstreams, e.g. the sandbox's .certs/ca.crt
  --cert FILE      certificate (PEM) to serve HTTPS; with --key. Without them: plain HTTP behind a TLS front
  --key FILE       private key (PEM) of --cert
  --timeout S      upstream timeout in seconds (default 30)
  --idle-timeout S close a connection that moves no byte for S seconds: idle, or a client that stopped
                   reading (default 60, and at least twice --timeout)`;

function requiredUrl(flag: string, text: string | undefined): string {
  if (text === undefined) throw new UsageError(`${flag} is required`);
  return urlArgument(flag, text);
}

async function main(argv: string[]): Promise<number> {
  let options: RelayOptions;
  let port: number;
  let host: string;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        api: { type: "string" },
        token: { type: "string" },
        authority: { type: "string" },
        "public-origin": { type: "string" },
        "allowed-host": { type: "string", multiple: true },
        "trust-proxy": { type: "string" },
        "per-caller": { type: "string", default: "16" },
        "upstream-connections": { type: "string", default: "128" },
        static: { type: "string", default: "dist" },
        port: { type: "string", default: "8443" },
        host: { type: "string", default: "localhost" },
        ca: { type: "string" },
        cert: { type: "string" },
        key: { type: "string" },
        timeout: { type: "string", default: "30" },
        "idle-timeout": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help === true) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    port = Number(values.port);
    const timeout = Number(values.timeout);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port needs a port number, got ${values.port}`);
    if (!(timeout > 0)) throw new UsageError(`--timeout needs seconds, got ${values.timeout}`);
    const perCaller = Number(values["per-caller"]);
    const total = Number(values["upstream-connections"]);
    if (!Number.isInteger(perCaller) || perCaller < 1) throw new UsageError(`--per-caller needs a whole number from 1, got ${values["per-caller"]}`);
    if (!Number.isInteger(total) || total < perCaller) throw new UsageError(`--upstream-connections needs a whole number from --per-caller up, got ${values["upstream-connections"]}`);
    if ((values.cert === undefined) !== (values.key === undefined)) throw new UsageError("--cert and --key go together");
    host = values.host;
    options = {
      apiUrl: requiredUrl("--api", values.api),
      tokenUrl: requiredUrl("--token", values.token),
      staticDir: path.resolve(values.static),
      upstreamTimeoutMs: timeout * 1000,
      logStream: process.stdout,
      upstream: { perCaller, total },
    };
    if (values["idle-timeout"] !== undefined) {
      const idle = Number(values["idle-timeout"]);
      if (!(idle > 0)) throw new UsageError(`--idle-timeout needs seconds, got ${values["idle-timeout"]}`);
      options.sockets = { idleTimeoutMs: idle * 1000 };
    }
    if (values["allowed-host"] !== undefined) options.allowedHosts = values["allowed-host"];
    if (values["trust-proxy"] !== undefined) options.trustProxy = values["trust-proxy"].split(",").map((address) => address.trim());
    if (values.authority !== undefined) options.authority = urlArgument("--authority", values.authority);
    if (values["public-origin"] !== undefined) options.publicOrigin = new URL(urlArgument("--public-origin", values["public-origin"])).origin;
    if (values.ca !== undefined) options.ca = readFileSync(values.ca, "utf8");
    if (values.cert !== undefined && values.key !== undefined) options.https = { cert: readFileSync(values.cert, "utf8"), key: readFileSync(values.key, "utf8") };
  } catch (error) {
    process.stderr.write(`relay: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  const relay = await buildRelay(options);
  await relay.listen({ port, host });
  const address = relay.server.address();
  const listening = typeof address === "object" && address !== null ? address.port : port;
  process.stdout.write(`RELAY ${options.https ? "https" : "http"}://${host}:${listening}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      relay.close().then(resolve, resolve);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`relay: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
